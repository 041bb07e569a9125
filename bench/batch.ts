/**
 * Bulk batch benchmark (docs/bulk.md). The core runs in its own process (startRemoteCore +
 * nodeCoreLauncher, as the app runs it) against an in-process sandbox that ENFORCES the spec's rate
 * limits.
 *
 * 1. A 500-row batch of mixed transfers (own accounts, main → sub, sub → main, sub → sub): its time
 *    from start to the last row is printed beside the minimum the limits allow for the same requests
 *    (per endpoint, shared/platform/limits.ts: POST /wallet/transfers, /wallet/sub_account_transfers
 *    and /wallet/sub_account_to_sub_account, 80 per 10 s each), and 429s are counted. Target ≤ 1.1×.
 * 2. The same size of batch (own and main ↔ sub: sub → sub has no lookup in the spec, a lost answer
 *    waits for a person) while the sandbox faults 30 % of those writes (drop_before, drop_after,
 *    status_500, delay) and the core process is killed 5 times (core.crash()); afterwards the
 *    sandbox's own records are counted per client id (main ↔ sub) and per distinct amount (own
 *    transfers carry no id): 0 doubled, 0 lost is the target.
 *
 *   npm run bench:batch        # prints the figures, writes bench/results/batch.json
 *   BENCH_ROWS=200 npm run bench:batch
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Decimal from 'decimal.js';
import { nodeCoreLauncher } from '../core/host/nodeLauncher';
import { type RemoteCore, startRemoteCore } from '../core/host/remoteCore';
import { startSandbox } from '../sandbox/server';
import type { BatchRowView, BatchSummary } from '../shared/contract/bulk';
import { RATE_LIMITS } from '../shared/platform/limits';
import { BENCH_SENDER, remoteBenchCoreOptions } from './app';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROWS = Number(process.env.BENCH_ROWS ?? 500);
const CRASHES = 5;

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

const control = async (sandbox: Sandbox, route: string, body?: unknown, method = 'POST') => {
  const answer = await fetch(`${sandbox.controlUrl}${route}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-sandbox-token': sandbox.controlToken },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!answer.ok) throw new Error(`control ${route}: ${answer.status} ${await answer.text()}`);
  return answer.json() as Promise<unknown>;
};

const call = async <T>(core: RemoteCore, operation: string, input: unknown): Promise<T> => {
  const result = await core.dispatch(operation, input, BENCH_SENDER);
  if (!result.ok) throw new Error(`${operation}: ${JSON.stringify(result.error)}`);
  return result.value as T;
};

const startCore = (sandbox: Sandbox, dataDir: string, counters: { tooMany: number }) =>
  startRemoteCore({
    launch: nodeCoreLauncher(),
    options: { ...remoteBenchCoreOptions(sandbox, dataDir), log: true },
    shell: {
      // The operator confirms the batch once, typing its total (the trusted window's rule).
      confirm: async ({ view }) => ({
        accepted: true,
        ...(view.typedAmounts ? { typedAmounts: view.typedAmounts.map((t) => t.amount) } : {}),
      }),
    },
    emit: () => {},
    log: (line) => {
      if (/ → 429\b/.test(line)) counters.tooMany++;
    },
    maxRestartsPerMinute: 20,
  });

const waitFinished = async (core: RemoteCore, id: string, timeoutMs: number, onTick?: () => Promise<void>) => {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      const got = await call<{ batch: BatchSummary; rows: BatchRowView[] }>(core, 'bulk.get', { id });
      if (got.batch.state === 'finished') return got;
    } catch {
      // the core is restarting
    }
    await onTick?.();
    if (Date.now() > until) throw new Error(`batch ${id} did not finish within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

/** The minimum time the per-endpoint limits allow for these request counts. */
const minimumSeconds = (perEndpoint: Record<string, number>) => {
  const rule = RATE_LIMITS.walletHeavy;
  return Math.max(...Object.values(perEndpoint).map((n) => (Math.floor((n - 1) / rule.limit) * rule.windowMs) / 1000));
};

const main = async () => {
  const sandbox = await startSandbox({ memory: true, market: 'off', clock: 'real', port: 0, log: false, seed: 14 });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'td-bench-batch-'));
  const counters = { tooMany: 0 };
  try {
    await control(sandbox, '/scale', { sub_accounts: 4 });
    const subs = (
      sandbox.ctx.db
        .prepare("SELECT id FROM users WHERE parent_id = ? AND login_name LIKE 'scale_sub_%' ORDER BY id")
        .all(sandbox.userId) as { id: number }[]
    ).map((r) => r.id);
    await control(sandbox, '/balances', {
      user_id: sandbox.userId,
      account: 'spot',
      currency: 'USDT',
      amount: '10000000',
    });
    for (const sub of subs)
      await control(sandbox, '/balances', { user_id: sub, account: 'spot', currency: 'USDT', amount: '100000' });
    const [a, b, c] = subs as [number, number, number];

    // --- 1. clean run ----------------------------------------------------------------------------
    const lines = ['type,currency,amount,from,to,reference'];
    const perEndpoint = { transfers: 0, subAccountTransfers: 0, subToSub: 0 };
    for (let i = 0; i < ROWS; i++) {
      const amount = `1.${String(100000 + i)}`;
      switch (i % 4) {
        case 0:
          lines.push(`transfer,USDT,${amount},spot,futures:usdt,clean ${i}`);
          perEndpoint.transfers++;
          break;
        case 1:
          lines.push(`transfer,USDT,${amount},spot,sub:${a},clean ${i}`);
          perEndpoint.subAccountTransfers++;
          break;
        case 2:
          lines.push(`transfer,USDT,${amount},sub:${b},spot,clean ${i}`);
          perEndpoint.subAccountTransfers++;
          break;
        default:
          lines.push(`transfer,USDT,${amount},sub:${b},sub:${c},clean ${i}`);
          perEndpoint.subToSub++;
      }
    }
    let core = await startCore(sandbox, path.join(work, 'clean'), counters);
    let clean: { seconds: number; minimum: number; ratio: number; tooMany: number; done: number };
    try {
      const created = await call<{ created: boolean; batch: BatchSummary }>(core, 'bulk.create', {
        name: 'bench clean',
        kind: 'csv',
        batch: { source: 'csv', text: lines.join('\n') },
      });
      if (!created.created) throw new Error('the clean batch did not pass its checks');
      // The checks' reads (GET) used other buckets; the run starts with the write buckets fresh.
      counters.tooMany = 0;
      const t0 = performance.now();
      await call(core, 'bulk.start', { id: created.batch.id });
      const finished = await waitFinished(core, created.batch.id, 600_000);
      const seconds = (performance.now() - t0) / 1000;
      const minimum = minimumSeconds(perEndpoint);
      clean = {
        seconds,
        minimum,
        ratio: seconds / minimum,
        tooMany: counters.tooMany,
        done: finished.rows.filter((r) => r.state === 'done').length,
      };
    } finally {
      await core.close();
    }
    console.log(
      `Batch of ${ROWS} mixed transfers (own ${perEndpoint.transfers}, main↔sub ${perEndpoint.subAccountTransfers}, sub→sub ${perEndpoint.subToSub}), limits enforced:`,
    );
    console.log(
      `  run                 ${clean.seconds.toFixed(2)} s, ${clean.done}/${ROWS} rows done, ${clean.tooMany} × 429`,
    );
    console.log(`  rate-limit minimum  ${clean.minimum.toFixed(2)} s (80 per 10 s per endpoint)`);
    console.log(
      `  ratio               ${clean.ratio.toFixed(3)} × (target ≤ 1.1 and no 429: ${clean.ratio <= 1.1 && clean.tooMany === 0 && clean.done === ROWS ? 'met' : 'NOT met'})`,
    );

    // --- 2. faults and crashes ---------------------------------------------------------------------
    const faultLines = ['type,currency,amount,from,to,reference'];
    for (let i = 0; i < ROWS; i++) {
      const amount = `2.${String(100000 + i)}`;
      if (i % 3 === 0) faultLines.push(`transfer,USDT,${amount},spot,futures:usdt,fault ${i}`);
      else if (i % 3 === 1) faultLines.push(`transfer,USDT,${amount},spot,sub:${a},fault ${i}`);
      else faultLines.push(`transfer,USDT,${amount},sub:${b},spot,fault ${i}`);
    }
    core = await startCore(sandbox, path.join(work, 'faults'), counters);
    let faults: {
      seconds: number;
      crashes: number;
      restarts: number;
      rows: number;
      done: number;
      notDone: number;
      doubled: number;
      lost: number;
    };
    try {
      const created = await call<{ created: boolean; batch: BatchSummary }>(core, 'bulk.create', {
        name: 'bench faults',
        kind: 'csv',
        batch: { source: 'csv', text: faultLines.join('\n') },
      });
      const rule = (kind: string, probability: number, extra: Record<string, unknown> = {}) =>
        ['/api/v4/wallet/transfers', '/api/v4/wallet/sub_account_transfers'].map((p) => ({
          method: 'POST',
          path: p,
          kind,
          probability,
          ...extra,
        }));
      await control(sandbox, '/faults', {
        rules: [
          ...rule('drop_after', 0.1),
          ...rule('drop_before', 0.08),
          ...rule('status_500', 0.07),
          ...rule('delay', 0.05, { ms: 1_000 }),
        ],
      });
      const t0 = performance.now();
      await call(core, 'bulk.start', { id: created.batch.id });
      let crashes = 0;
      let nextCrash = performance.now() + 4_000;
      const finished = await waitFinished(core, created.batch.id, 900_000, async () => {
        if (crashes < CRASHES && performance.now() >= nextCrash) {
          await core.crash();
          await core.ready();
          crashes++;
          nextCrash = performance.now() + 5_000;
        }
      });
      const seconds = (performance.now() - t0) / 1000;
      await control(sandbox, '/faults', undefined, 'DELETE');
      const sdb = sandbox.ctx.db;
      const mainSub = sdb
        .prepare(
          "SELECT client_order_id AS id, COUNT(*) AS n FROM transfers WHERE kind = 'main_sub' AND amount LIKE '2.1%' GROUP BY client_order_id",
        )
        .all() as { id: string; n: number }[];
      const mainSubRows = finished.rows.filter((r) => r.kind.includes('main ↔ sub'));
      const byId = new Map(mainSub.map((r) => [r.id, r.n]));
      const own = (
        sdb.prepare("SELECT amount FROM transfers WHERE kind = 'own' AND amount LIKE '2.1%'").all() as {
          amount: string;
        }[]
      ).map((r) => new Decimal(r.amount).toFixed());
      const ownCount = new Map<string, number>();
      for (const x of own) ownCount.set(x, (ownCount.get(x) ?? 0) + 1);
      const ownRows = finished.rows.filter((r) => r.kind.includes('own'));
      const doubled = mainSub.filter((r) => r.n > 1).length + [...ownCount.values()].filter((n) => n > 1).length;
      const lost =
        mainSubRows.filter((r) => !r.clientId || !byId.has(r.clientId)).length +
        ownRows.filter((r) => !ownCount.has(new Decimal(r.amount).toFixed())).length;
      faults = {
        seconds,
        crashes,
        restarts: core.restarts,
        rows: finished.rows.length,
        done: finished.rows.filter((r) => r.state === 'done').length,
        notDone: finished.rows.filter((r) => r.state !== 'done').length,
        doubled,
        lost,
      };
    } finally {
      await control(sandbox, '/faults', undefined, 'DELETE').catch(() => undefined);
      await core.close();
    }
    console.log(
      `Same size under 30 % write faults and ${faults.crashes} core crashes (restarted ${faults.restarts} times):`,
    );
    console.log(`  run                 ${faults.seconds.toFixed(1)} s, ${faults.done}/${faults.rows} rows done`);
    console.log(
      `  exactly once        ${faults.doubled} rows doubled, ${faults.lost} lost (target 0 and 0: ${faults.doubled === 0 && faults.lost === 0 && faults.notDone === 0 ? 'met' : 'NOT met'})`,
    );

    fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
    fs.writeFileSync(
      path.join(ROOT, 'bench/results/batch.json'),
      `${JSON.stringify({ rows: ROWS, clean: { ...clean, perEndpoint }, faults, at: new Date().toISOString() }, null, 2)}\n`,
    );
  } finally {
    await sandbox.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
