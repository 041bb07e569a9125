/**
 * A batch run through faults, at any size: `rows` transfers (own spot → futures and main → sub, each
 * with its own amount) run as one batch while the sandbox faults 30 % of the transfer writes
 * (connection dropped before or after the work, 500, delays longer than the client's timeout) and
 * the core is stopped and reopened on the same data directory three times mid-run (after a sixth, a
 * third and half of the rows went out). Then every row must be done, and executed exactly once —
 * counted in the sandbox's own tables per client id (main → sub) or per distinct amount (own
 * transfers carry no client id).
 *
 * `npm test` runs it small (batches/bulk.integration.test.ts); `npm run test:soak` at full size
 * (batches/bulk.soak.test.ts).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Decimal from 'decimal.js';
import { expect } from 'vitest';
import { control, type SandboxHandle } from '../../sandbox/testing/harness';
import type { BatchRowView, BatchSummary } from '../../shared/contract/bulk';
import type { Core } from '../core';
import { rendererCalls, startTestCore } from './core';
import { FAULT_TIMING } from './faultWorker';
import { waitUntil } from './waitUntil';

const value = <T>(core: Core, operation: string, input: unknown): Promise<T> =>
  rendererCalls(() => core).value<T>(operation, input);

/** Waits until the batch has finished (or was cancelled and stopped) and answers it with its rows. */
export const waitBatchFinished = async (core: () => Core, id: string, timeoutMs: number) => {
  let got: { batch: BatchSummary; rows: BatchRowView[] } | undefined;
  await waitUntil(
    async () => {
      // Undefined while the core is being restarted.
      got = await value<{ batch: BatchSummary; rows: BatchRowView[] }>(core(), 'bulk.get', { id }).catch(
        () => undefined,
      );
      return (
        got?.batch.state === 'finished' || (got?.batch.state === 'cancelled' && got.batch.finishedAt !== undefined)
      );
    },
    { timeoutMs, what: 'the batch to finish', everyMs: 25 },
  );
  return got as { batch: BatchSummary; rows: BatchRowView[] };
};

/**
 * Runs the scenario against `sandbox` (rate limits off, its main account funded with USDT) with
 * `sub`, a sub-account of its main account, as the destination of the main → sub rows.
 */
export const runBatchThroughFaults = async (sandbox: SandboxHandle, sub: number, rows: number): Promise<void> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'td-bulk-fault-'));
  // The fault soak's timeout, delay fault and settle time, and its margin for a late arrival.
  const { timeoutMs, delayMs, settleMs } = FAULT_TIMING;
  const options = { dataDir, timeoutMs, movements: { settleMs, backgroundMs: 250 } } as const;
  let test = await startTestCore(sandbox, options);
  try {
    const lines = ['type,currency,amount,from,to,reference'];
    for (let i = 0; i < rows; i++) {
      // Distinct amounts: own transfers carry no client id, the sandbox's records are counted by amount.
      lines.push(
        i % 2 === 0
          ? `transfer,USDT,3.${1000 + i},spot,futures:usdt,f${i}`
          : `transfer,USDT,4.${1000 + i},spot,sub:${sub},s${i}`,
      );
    }
    const created = await value<{ batch: BatchSummary }>(test.core, 'bulk.create', {
      name: 'faults',
      kind: 'csv',
      batch: { source: 'csv', text: lines.join('\n') },
    });
    const id = created.batch.id;
    const rule = (kind: string, probability: number, extra: Record<string, unknown> = {}) => [
      { method: 'POST', path: '/api/v4/wallet/transfers', kind, probability, ...extra },
      { method: 'POST', path: '/api/v4/wallet/sub_account_transfers', kind, probability, ...extra },
    ];
    await control(sandbox, '/faults', {
      rules: [
        ...rule('drop_after', 0.1),
        ...rule('drop_before', 0.08),
        ...rule('status_500', 0.07),
        ...rule('delay', 0.05, { ms: delayMs }),
      ],
    });
    // Rows the sandbox has executed so far (own and main → sub transfers of this batch).
    const executed = () =>
      (
        sandbox.ctx.db
          .prepare(
            "SELECT COUNT(*) AS n FROM transfers WHERE (kind = 'own' AND amount LIKE '3.1%') OR (kind = 'main_sub' AND amount LIKE '4.1%')",
          )
          .get() as { n: number }
      ).n;
    await value(test.core, 'bulk.start', { id });
    // Stopped mid-run three times: after a sixth, a third and half of the rows have gone out.
    for (let restart = 0; restart < 3; restart++) {
      await waitUntil(() => executed() >= ((restart + 1) * rows) / 6, { timeoutMs: 60_000, what: 'rows to go out' });
      await test.core.close();
      test = await startTestCore(sandbox, options);
    }
    const done = await waitBatchFinished(() => test.core, id, 120_000);
    await control(sandbox, '/faults', undefined, 'DELETE');
    expect(done.rows.filter((r) => r.state !== 'done').map((r) => `${r.row} ${r.state} ${r.message}`)).toEqual([]);

    const sdb = sandbox.ctx.db;
    const mainSub = sdb
      .prepare(
        "SELECT client_order_id AS id, COUNT(*) AS n FROM transfers WHERE kind = 'main_sub' AND amount LIKE '4.1%' GROUP BY client_order_id",
      )
      .all() as { id: string; n: number }[];
    expect(mainSub.filter((r) => r.n !== 1)).toEqual([]);
    expect(new Set(mainSub.map((r) => r.id))).toEqual(
      new Set(done.rows.filter((r) => r.kind.includes('main ↔ sub')).map((r) => r.clientId)),
    );
    const own = (
      sdb
        .prepare("SELECT amount FROM transfers WHERE kind = 'own' AND owner_id = ? AND amount LIKE '3.1%'")
        .all(sandbox.userId) as {
        amount: string;
      }[]
    ).map((r) => new Decimal(r.amount).toFixed());
    const planned = done.rows.filter((r) => r.kind.includes('own')).map((r) => new Decimal(r.amount).toFixed());
    expect(own.sort()).toEqual(planned.sort());
  } finally {
    await control(sandbox, '/faults', undefined, 'DELETE').catch(() => undefined);
    await test.close();
  }
};
