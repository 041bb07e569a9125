/**
 * Two desks, one firm (docs/team.md): two whole cores with their own data directories share one
 * PostgreSQL and one sandbox. What a person on either desk sees, through each desk's dispatcher:
 * a movement prepared on desk A and approved on desk B is sent exactly once; both desks approving
 * at once count once; a firm-wide limit holds when both desks send at once; a row edited in the
 * database is refused and every desk shows it.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SavedAddress } from '../../../shared/contract/funding';
import type { Approval } from '../../../shared/contract/policies';
import type { TeamStatus } from '../../../shared/contract/team';
import { type TestDesk, fund, withTeamDesks } from '../testing/teamDesks';
import { waitUntil } from '../testing/waitUntil';
import { skipWithoutPostgres } from '../team/testing/postgres';

describe.skipIf(skipWithoutPostgres('teamDesk team.integration.test'))('two desks, one firm', () => {
  const team = withTeamDesks({ sandbox: { seed: 21 } });
  const { a, b } = team;
  let address = '';

  const withdraw = (desk: TestDesk, amount: string, requestKey = randomUUID()) =>
    desk.call('funding.withdraw', { requestKey, currency: 'USDT', chain: 'TRX', address, amount });
  const sandboxWithdrawals = (clientIdLike = '%') =>
    team.sandbox.ctx.db
      .prepare('SELECT withdraw_order_id AS id, amount FROM withdrawals WHERE address = ? AND withdraw_order_id LIKE ?')
      .all(address, clientIdLike) as { id: string; amount: string }[];
  const pendingOn = async (desk: TestDesk, summary: RegExp): Promise<Approval> => {
    let found: Approval | undefined;
    await waitUntil(
      async () => {
        const { approvals } = await desk.value<{ approvals: Approval[] }>('approvals.list', { state: 'pending' });
        found = approvals.find((x) => summary.test(x.summary));
        return found !== undefined;
      },
      { what: `an approval item ${summary} on the other desk` },
    );
    return found!;
  };

  beforeAll(async () => {
    await fund(team.sandbox, '100000');
    const saved = await a.value<SavedAddress[]>('funding.savedAddresses', { currency: 'USDT', chain: 'TRX' });
    address = (saved.find((s) => s.verified) ?? saved[0])!.address;
  });

  it('both desks are in the team, with two administrators and four eyes', async () => {
    const onA = await a.value<TeamStatus>('team.status', {});
    const onB = await b.value<TeamStatus>('team.status', {});
    expect(onA).toMatchObject({ mode: 'team', name: 'Acme treasury', fourEyes: true, database: { state: 'connected' } });
    expect(onB).toMatchObject({ mode: 'team', fingerprint: onA.fingerprint, me: { enrolled: true, role: 'admin', keyUnlocked: true } });
    expect(onB.operators.map((o) => o.name).sort()).toEqual(['Alice', 'Bob']);
  });

  it('maker on desk A, approver on desk B: sent exactly once', async () => {
    const before = sandboxWithdrawals().length;
    const key = randomUUID();
    expect(await withdraw(a, '61.5', key)).toMatchObject({ ok: false, error: { code: 'AWAITING_APPROVAL' } });
    // A repeat of the same confirmation joins it.
    expect(await withdraw(a, '61.5', key)).toMatchObject({ ok: false, error: { code: 'AWAITING_APPROVAL' } });
    const item = await pendingOn(b, /61\.5 USDT/);
    expect(item).toMatchObject({ makerName: 'Alice', state: 'pending' });
    // Alice cannot approve her own.
    expect(await a.call('approvals.approve', { id: item.id, reason: 'mine' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_ALLOWED' },
    });
    const approved = await b.call('approvals.approve', { id: item.id, reason: 'invoice checked' });
    expect(approved, JSON.stringify(approved)).toMatchObject({ ok: true });
    await waitUntil(async () => (await a.value<{ approvals: Approval[] }>('approvals.list', {})).approvals.some((x) => x.id === item.id && x.state === 'sent'), {
      what: 'the approved movement to be sent',
      timeoutMs: 30_000,
    });
    expect(sandboxWithdrawals().length).toBe(before + 1);
  });
});
