import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { TeamAuditChain, TeamAuditEntry, TeamStatus } from '../../../../shared/contract/team';
import { installFakeDesk, renderWithQuery } from '../../lib/testing/fakeDesk';
import ActivityScreen from '.';

afterEach(() => {
  cleanup();
  Reflect.deleteProperty(window, 'desk');
});

const IN_TEAM: TeamStatus = {
  mode: 'team',
  name: 'Firm',
  database: { state: 'connected' },
  integrity: { ok: true },
  blocked: [],
  operators: [],
  enrolments: [],
};
const SOLO: TeamStatus = { mode: 'solo', blocked: [], operators: [], enrolments: [] };

const entry = (seq: number, fields: Partial<TeamAuditEntry>): TeamAuditEntry => ({
  seq,
  at: 1_790_000_000_000 + seq * 1000,
  desk: 'desk_b-1234567890',
  thisDesk: false,
  action: 'approvals.approve',
  params: '{"movement":"mv_1"}',
  outcome: 'ok',
  signed: true,
  verified: true,
  ...fields,
});

const openTeamChain = async (chain: TeamAuditChain) => {
  const fake = installFakeDesk({ 'team.status': () => IN_TEAM, 'team.auditChain': () => chain });
  renderWithQuery(<ActivityScreen />);
  await userEvent.click(await screen.findByRole('tab', { name: 'Team audit chain' }));
  return fake;
};

describe('Activity in team mode: the team audit chain', () => {
  it('shows who did what on which desk, and that the chain and each signature verified', async () => {
    const fake = await openTeamChain({
      ok: true,
      count: 2,
      entries: [
        entry(1, { operator: 'o2', operatorName: 'Bob', action: 'approvals.approve' }),
        entry(0, { operator: 'o1', operatorName: 'Ann', thisDesk: true, action: 'commands.submit' }),
      ],
    });
    expect((await screen.findByTestId('team-audit-verified')).textContent).toContain('2 entries');
    const rows = within(screen.getByTestId('team-audit-table')).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringMatching(/Bob.*desk_b-123456.*approvals\.approve.*ok.*Signed and linked/),
      expect.stringMatching(/Ann.*this desk.*commands\.submit.*ok.*Signed and linked/),
    ]);
    // "Verify again" verifies again (the chain is read and checked by the core each time).
    await userEvent.click(screen.getByTestId('team-audit-verify'));
    await expect.poll(() => fake.callsOf('team.auditChain').length).toBe(2);
  });

  it('a chain that does not verify says what failed, and the entries from there on are not vouched for', async () => {
    await openTeamChain({
      ok: false,
      problem: "Audit entry 1: its operator's signature does not verify (it was edited or added in the database)",
      count: 3,
      entries: [
        entry(2, { verified: false, signed: false, action: 'movements.expired' }),
        entry(1, { operator: 'o1', operatorName: 'Ann', verified: false }),
        entry(0, { signed: false, action: 'movements.expired' }),
      ],
    });
    expect((await screen.findByTestId('team-audit-altered')).textContent).toContain(
      "Audit entry 1: its operator's signature does not verify",
    );
    expect(screen.queryByTestId('team-audit-verified')).toBeNull();
    expect(screen.getAllByTestId('team-audit-state').map((s) => s.textContent)).toEqual([
      'Not verified',
      'Not verified',
      'Linked, unsigned (desk)',
    ]);
  });

  it('alone, Activity keeps its one audit log and never asks for a team chain', async () => {
    const fake = installFakeDesk({ 'team.status': () => SOLO });
    renderWithQuery(<ActivityScreen />);
    expect(await screen.findByRole('tab', { name: 'Audit log' })).toBeTruthy();
    expect(screen.queryByRole('tab', { name: 'Team audit chain' })).toBeNull();
    expect(fake.callsOf('team.auditChain')).toEqual([]);
  });
});
