/**
 * The team database goes away mid-batch (docs/team.md, "When the database is away"): every desk's
 * status says so, new movements are refused with a clear message while platform reads still work,
 * the rows already claimed finish, and once the database is back the batch goes on — every row
 * executed exactly once (counted in the sandbox's own records by client id), none lost.
 */
import Decimal from 'decimal.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { control } from '../../sandbox/testing/harness';
import type { BatchRowView, BatchSummary } from '../../shared/contract/bulk';
import type { TeamStatus } from '../../shared/contract/team';
import { requestKeyOf } from '../batches/store';
import { skipWithoutPostgres } from '../team/testing/postgres';
import { fund, withTeamDesks } from '../testing/teamDesks';
import { waitUntil } from '../testing/waitUntil';

describe.skipIf(skipWithoutPostgres('teamDesk outage.integration.test'))('the team database away mid-batch', () => {
  const team = withTeamDesks({ sandbox: { seed: 22, clock: 'real', market: 'off' } });
  const { a, b } = team;
  let sub = 0;

  beforeAll(async () => {
    await control(team.sandbox, '/rate_limits', { enforce: false });
    await control(team.sandbox, '/scale', { sub_accounts: 1 });
    sub = (
      team.sandbox.ctx.db
        .prepare("SELECT id FROM users WHERE parent_id = ? AND login_name LIKE 'scale_sub_%' ORDER BY id")
        .get(team.sandbox.userId) as { id: number }
    ).id;
    await fund(team.sandbox, '100000');
  });

  it('stopped and started again: every row exactly once, the frame told every desk meanwhile', async () => {
    const ROWS = 30;
    const lines = ['type,currency,amount,from,to,reference'];
    for (let i = 0; i < ROWS; i++) lines.push(`transfer,USDT,2.${1000 + i},spot,sub:${sub},r${i}`);
    const created = await a.value<{ batch: BatchSummary }>('bulk.create', {
      name: 'team outage',
      kind: 'csv',
      batch: { source: 'csv', text: lines.join('\n') },
    });
    const id = created.batch.id;
    const rows = () => a.value<{ batch: BatchSummary; rows: BatchRowView[] }>('bulk.get', { id });
    await a.value('bulk.start', { id });
    await waitUntil(async () => (await rows()).rows.filter((r) => r.state === 'done').length >= 5, {
      what: 'a few rows done before the database stops',
      timeoutMs: 30_000,
    });

    // Mid-batch for certain: the transfers still to go are held at the platform while the database
    // stops (a fast machine finished the batch before the stop), and let go while it is away.
    await control(team.sandbox, '/faults', {
      rules: [{ method: 'POST', path: '/wallet/sub_account_transfers', kind: 'hold' }],
    });
    await team.postgres.stop();
    expect((await rows()).rows.filter((r) => r.state === 'done').length).toBeLessThan(ROWS);
    for (const desk of [a, b])
      await waitUntil(async () => (await desk.value<TeamStatus>('team.status', {})).database?.state === 'unavailable', {
        what: 'every desk to say the team database is unavailable',
        timeoutMs: 20_000,
      });
    // A new movement is refused, saying why; the platform's balances still read.
    const refused = await b.call('transfers.send', {
      requestKey: crypto.randomUUID(),
      kind: 'mainSub',
      subUserId: sub,
      subAccountType: 'spot',
      currency: 'USDT',
      amount: '1.5',
      direction: 'to',
    });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'JOURNAL_UNAVAILABLE', message: /team database is unavailable/ },
    });
    expect(await b.call('balances.spot', {})).toMatchObject({ ok: true });
    await control(team.sandbox, '/faults', undefined, 'DELETE');

    await team.postgres.start();
    const done = await waitUntil(async () => (await rows()).batch.state === 'finished', {
      what: 'the batch to finish once the database is back',
      timeoutMs: 90_000,
    }).then(rows);
    expect(done.rows.map((r) => r.state)).toEqual(Array(ROWS).fill('done'));
    for (const desk of [a, b])
      await waitUntil(async () => (await desk.value<TeamStatus>('team.status', {})).database?.state === 'connected', {
        what: 'every desk connected again',
      });

    // Exactly once: one platform record per row's client id, every row's amount once.
    const records = team.sandbox.ctx.db
      .prepare(
        "SELECT client_order_id AS id, amount FROM transfers WHERE client_order_id LIKE 'td%' ORDER BY client_order_id",
      )
      .all() as { id: string; amount: string }[];
    expect(records).toHaveLength(ROWS);
    expect(new Set(records.map((r) => r.id)).size).toBe(ROWS);
    expect(records.map((r) => new Decimal(r.amount).toFixed(4)).sort()).toEqual(
      Array.from({ length: ROWS }, (_, i) => `2.${1000 + i}`).sort(),
    );
    // And the team journal says the same of each: done, written back.
    const journal = await team.dba(
      "SELECT state, count(*)::int AS n FROM movements WHERE kind = 'subAccountTransfer' GROUP BY state",
    );
    expect(journal).toEqual([{ state: 'done', n: ROWS }]);
  }, 180_000);

  it('a row another desk sent shows done here, read from the team journal, not from a notification', async () => {
    // What the outage left behind under load: desk B sent a row of desk A's batch (A's answer to its
    // own prepare was lost, B claimed it once the database was back), and A, which has nothing of it
    // in its own journal, showed it "being sent by another desk" for ever. Here B sends it first,
    // with the row's request key, before A's batch even starts: A hears of it from no one.
    const created = await a.value<{ batch: BatchSummary }>('bulk.create', {
      name: 'sent by the other desk',
      kind: 'csv',
      batch: {
        source: 'csv',
        text: ['type,currency,amount,from,to,reference', `transfer,USDT,3.25,spot,sub:${sub},elsewhere`].join('\n'),
      },
    });
    const id = created.batch.id;
    const [row] = (await a.value<{ rows: BatchRowView[] }>('bulk.get', { id })).rows;
    const sentByB = await b.value<{ state: string }>('transfers.send', {
      requestKey: requestKeyOf(id, row!.row, 0),
      kind: 'mainSub',
      subUserId: sub,
      subAccountType: 'spot',
      currency: 'USDT',
      amount: '3.25',
      direction: 'to',
    });
    expect(sentByB).toMatchObject({ state: 'done' });

    await a.value('bulk.start', { id });
    const done = await waitUntil(
      async () => (await a.value<{ batch: BatchSummary }>('bulk.get', { id })).batch.state === 'finished',
      { what: "desk A's batch to finish with the row desk B sent", timeoutMs: 15_000 },
    ).then(() => a.value<{ batch: BatchSummary; rows: BatchRowView[] }>('bulk.get', { id }));
    expect(done.rows).toMatchObject([{ state: 'done', message: 'Sent by another desk of the team.' }]);
    // Sent once, by B: A joined its movement and sent nothing.
    const amounts = team.sandbox.ctx.db
      .prepare("SELECT amount FROM transfers WHERE client_order_id LIKE 'td%'")
      .all() as { amount: string }[];
    expect(amounts.filter((r) => new Decimal(r.amount).eq('3.25'))).toHaveLength(1);
  }, 60_000);
});
