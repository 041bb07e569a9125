import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { OperatorRole } from '../../../../shared/contract/operators';
import type { TeamStatus } from '../../../../shared/contract/team';
import { installFakeDesk, renderWithQuery } from '../../lib/testing/fakeDesk';
import { enterText } from '../../lib/testing/user';
import { TeamPanel } from './TeamPanel';

afterEach(() => {
  cleanup();
  Reflect.deleteProperty(window, 'desk');
});

const FINGERPRINT = 'ab'.repeat(32);
const OFFERED = 'postgres://desk@db.firm.example:5432/treasury?sslmode=verify-full';
const SOLO: TeamStatus = { mode: 'solo', offeredUrl: OFFERED, blocked: [], operators: [], enrolments: [] };
const IN_TEAM: TeamStatus = {
  mode: 'team',
  url: OFFERED,
  name: 'Firm',
  fingerprint: FINGERPRINT,
  database: { state: 'connected' },
  integrity: { ok: true },
  fourEyes: false,
  me: { enrolled: true, role: 'admin', keyUnlocked: true, keyFingerprint: 'k-ann', requested: false },
  blocked: [],
  operators: [{ id: 'o1', name: 'Ann', role: 'admin', keyFingerprint: 'k-ann' }],
  enrolments: [
    { operatorId: 'o2', name: 'Bob', role: 'approver', keyFingerprint: 'k-bob', prepared: false, requestedAt: 1 },
  ],
};
const session = (role: OperatorRole) => () => ({
  setupNeeded: false,
  operator: { id: 'o1', name: 'Ann', role, createdAt: 1, createdBy: '' },
  lock: { state: 'unlocked' as const },
});

describe('Settings → Team', () => {
  it('alone: the first desk creates the team and asks to import its journal and audit log', async () => {
    const fake = installFakeDesk({
      'team.status': () => SOLO,
      'operators.current': session('admin'),
      'team.create': () => IN_TEAM,
    });
    renderWithQuery(<TeamPanel />);
    await userEvent.selectOptions(await screen.findByTestId('team-mode'), 'create');
    await userEvent.type(screen.getByTestId('team-name'), 'Firm');
    await userEvent.click(screen.getByTestId('team-import-journal'));
    await enterText(screen.getByTestId('team-passphrase'), 'ann passphrase 1');
    await userEvent.click(screen.getByTestId('team-submit'));
    await expect
      .poll(() => fake.callsOf('team.create'))
      .toEqual([{ url: OFFERED, name: 'Firm', passphrase: 'ann passphrase 1', importJournal: true }]);
  });

  it('alone: an administrator joins the team offered at start; the change waits for another administrator', async () => {
    const fake = installFakeDesk({
      'team.status': () => SOLO,
      'operators.current': session('admin'),
      'team.join': () => {
        throw { code: 'AWAITING_APPROVAL', message: 'Waits for another administrator.' };
      },
    });
    renderWithQuery(<TeamPanel />);
    const url = await screen.findByTestId('team-url');
    expect((url as HTMLInputElement).value).toBe(OFFERED);
    await enterText(screen.getByTestId('team-fingerprint-input'), FINGERPRINT);
    await userEvent.selectOptions(screen.getByTestId('team-role'), 'approver');
    await enterText(screen.getByTestId('team-passphrase'), 'ann passphrase 1');
    await userEvent.click(screen.getByTestId('team-submit'));
    expect(await screen.findByTestId('team-queued')).toBeTruthy();
    expect(fake.callsOf('team.join')).toEqual([
      { url: OFFERED, fingerprint: FINGERPRINT, passphrase: 'ann passphrase 1', role: 'approver' },
    ]);
    // The passphrase does not stay in the form.
    expect((screen.getByTestId('team-passphrase') as HTMLInputElement).value).toBe('');
  });

  it('alone: an operator who is not an administrator is told who can', async () => {
    installFakeDesk({ 'team.status': () => SOLO, 'operators.current': session('maker') });
    renderWithQuery(<TeamPanel />);
    expect((await screen.findByTestId('team-solo')).textContent).toContain('This desk works alone');
    expect(await screen.findByText('An administrator of this desk can take it into a team.')).toBeTruthy();
    expect(screen.queryByTestId('team-join-form')).toBeNull();
  });

  it('in a team: the fingerprint to give other desks, the operators, and an enrolment the administrator prepares', async () => {
    const fake = installFakeDesk({
      'team.status': () => IN_TEAM,
      'operators.current': session('admin'),
      'team.prepareEnrolment': () => ({
        ...IN_TEAM,
        enrolments: [{ ...IN_TEAM.enrolments[0]!, prepared: true }],
      }),
    });
    renderWithQuery(<TeamPanel />);
    expect((await screen.findByTestId('team-fingerprint')).textContent).toBe(FINGERPRINT);
    expect(screen.getByTestId('team-database-state').textContent).toBe('Connected');
    expect(screen.getByTestId('team-operators').textContent).toContain('Ann');
    expect(screen.getByTestId('team-enrolments').textContent).toContain('k-bob');
    await userEvent.click(screen.getByTestId('team-enrol-Bob'));
    expect(fake.callsOf('team.prepareEnrolment')).toEqual([{ operatorId: 'o2' }]);
  });
});
