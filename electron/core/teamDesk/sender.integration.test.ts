/**
 * The team's sender (docs/team.md, "In the app"): a movement whose answer was lost is looked up
 * without holding up the next one. Two whole cores on one PostgreSQL and one sandbox, each sending
 * one claim at a time, so a held slot would show.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { control } from '../../../sandbox/testing/harness';
import type { Approval } from '../../../shared/contract/policies';
import { skipWithoutPostgres } from '../team/testing/postgres';
import { fund, withTeamDesks } from '../testing/teamDesks';
import { waitUntil } from '../testing/waitUntil';

describe.skipIf(skipWithoutPostgres('teamDesk sender.integration.test'))('the team sender', () => {
  const team = withTeamDesks({ sandbox: { seed: 23 }, core: { team: { concurrency: 1 } } });
  const { a, b } = team;
  let addresses = 0;
  /** A new destination (the platform takes one withdrawal a minute to the same address). */
  const newAddress = async () => {
    const address = `T${String(++addresses).padStart(4, '0')}TeamSendAddr${'x'.repeat(18)}`;
    await control(team.sandbox, '/saved_addresses', {
      user_id: team.sandbox.userId,
      currency: 'USDT',
      chain: 'TRX',
      address,
    });
    return address;
  };
  const executed = (amount: string) =>
    team.sandbox.ctx.db
      .prepare(
        'SELECT withdraw_order_id AS id FROM withdrawals WHERE user_id = ? AND amount = ? AND withdraw_order_id LIKE ?',
      )
      .all(team.sandbox.userId, amount, 'td%') as { id: string }[];
  /** Prepared on desk A (it needs an approver), approved on desk B. */
  const prepareAndApprove = async (amount: string) => {
    const address = await newAddress();
    const answered = await a.call('funding.withdraw', {
      requestKey: randomUUID(),
      currency: 'USDT',
      chain: 'TRX',
      address,
      amount,
    });
    expect(answered).toMatchObject({ ok: false, error: { code: 'AWAITING_APPROVAL' } });
    let item: Approval | undefined;
    await waitUntil(
      async () => {
        const { approvals } = await b.value<{ approvals: Approval[] }>('approvals.list', { state: 'pending' });
        item = approvals.find((x) => x.summary.includes(`${amount} USDT`));
        return item !== undefined;
      },
      { what: `${amount} USDT waiting on desk B` },
    );
    expect(await b.call('approvals.approve', { id: item!.id, reason: 'checked' })).toMatchObject({ ok: true });
    return item!;
  };

  beforeAll(async () => {
    await fund(team.sandbox, '100000');
  });

  it('a lost answer is looked up while the next movement is sent; each executes once', async () => {
    // The first withdrawal's answer is lost, and looking it up hangs (the platform's records slow).
    await control(team.sandbox, '/faults', {
      rules: [
        { method: 'POST', path: '/withdrawals', kind: 'drop_after', times: 1 },
        { method: 'GET', path: '/wallet/withdrawals', kind: 'delay', ms: 60_000, times: 1_000 },
      ],
    });
    await prepareAndApprove('51.11');
    await waitUntil(() => executed('51.11').length === 1, { what: 'the first withdrawal executed', timeoutMs: 20_000 });
    // One claim at a time, yet the second goes while the first's look-up still hangs.
    await prepareAndApprove('51.22');
    await waitUntil(() => executed('51.22').length === 1, {
      what: 'the second withdrawal executed while the first is looked up',
      timeoutMs: 15_000,
    });
    // The platform answers again: the first is found (never resent), each executed once.
    await control(team.sandbox, '/faults', undefined, 'DELETE');
    const first = (await a.value<{ approvals: Approval[] }>('approvals.list', {})).approvals.find((x) =>
      x.summary.includes('51.11 USDT'),
    )!;
    await waitUntil(
      async () =>
        (await a.value<{ approvals: Approval[] }>('approvals.list', {})).approvals.some(
          (x) => x.id === first.id && x.state === 'sent',
        ),
      { what: 'the first written back', timeoutMs: 60_000 },
    );
    expect(executed('51.11')).toHaveLength(1);
    expect(executed('51.22')).toHaveLength(1);
  });
});
