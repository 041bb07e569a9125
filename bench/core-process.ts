/**
 * The event loop of the process that serves the window, with the core beside it (before: one
 * process, as until this change) and with the core in its own process (after: electron/core/host).
 * The workload is the heaviest the core does on its own: a year-long history sync against a sandbox
 * that enforces the platform's limits, while the market feed of a pair runs at full rate. The sandbox
 * runs in its own process in both runs, so only the core's work differs.
 *
 *   npm run bench:core-process      # prints a table, writes bench/results/core-process.json
 *
 * The figure is p99 of `monitorEventLoopDelay` in the window's process (what delays every IPC answer
 * and event to the window). Target after: p99 < 10 ms.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createCore } from '../electron/core/core';
import { nodeCoreLauncher, startSandboxProcess } from '../electron/core/host/nodeLauncher';
import { startRemoteCore } from '../electron/core/host/remoteCore';
import type { Dispatch } from '../electron/core/ipc/dispatcher';
import { createEmitter } from '../electron/core/ipc/events';
import { MemoryKeyStore } from '../electron/core/keychain/keyStore';
import { BENCH_ADMIN } from './app';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DEPOSITS = Number(process.env.BENCH_RECORDS ?? 60_000);
const ORIGIN = 'https://treasury-desk.invalid';
const SENDER = { url: `${ORIGIN}/`, isMainFrame: true };
const TARGET_P99_MS = 10;

interface Figures {
  readonly mode: string;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly syncSeconds: number;
  readonly records: number;
  readonly events: number;
}

const round = (n: number) => Math.round(n * 100) / 100;

const call = async <T>(dispatch: Dispatch, operation: string, payload: unknown): Promise<T> => {
  const result = await dispatch(operation, payload, SENDER);
  if (!result.ok) throw new Error(`${operation}: ${result.error.code} ${result.error.message}`);
  return result.value as T;
};

/** What the window's process does with an event: hand it on as JSON text (as the bridge does). */
const forward = (counter: { n: number }) => (_name: string, payload: unknown) => {
  counter.n += 1;
  JSON.stringify(payload);
};

const workload = async (mode: string, dispatch: Dispatch, events: { n: number }): Promise<Figures> => {
  await call(dispatch, 'trade.watchMarket', { pair: 'BTC_USDT', candleInterval: '1m' });
  const to = Math.floor(Date.now() / 1000);
  const from = to - 366 * 86_400;
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const t0 = performance.now();
  await call(dispatch, 'activity.startHistorySync', { kinds: ['deposits', 'withdrawals'], from, to });
  let status: { state: string; records: number; error?: string } | null = null;
  for (;;) {
    status = await call(dispatch, 'activity.historyStatus', {});
    if (status && status.state !== 'running') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const syncSeconds = (performance.now() - t0) / 1000;
  histogram.disable();
  if (status?.state !== 'done') throw new Error(`sync ended ${status?.state}: ${status?.error}`);
  await call(dispatch, 'trade.unwatchMarket', {});
  return {
    mode,
    p50Ms: round(histogram.percentile(50) / 1e6),
    p99Ms: round(histogram.percentile(99) / 1e6),
    maxMs: round(histogram.max / 1e6),
    syncSeconds: round(syncSeconds),
    records: status.records,
    events: events.n,
  };
};

const main = async () => {
  const work = mkdtempSync(join(tmpdir(), 'td-bench-core-'));
  const sandbox = await startSandboxProcess({ dataDir: join(work, 'sandbox'), clock: 'real', market: 'on' });
  try {
    const scale = await fetch(`${sandbox.controlUrl}/scale`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sandbox-token': sandbox.controlToken },
      body: JSON.stringify({ deposits: DEPOSITS, withdrawals: DEPOSITS / 4, days: 360 }),
    });
    if (!scale.ok) throw new Error(`seeding failed: ${scale.status} ${await scale.text()}`);
    const source = { mode: 'external' as const, baseUrl: sandbox.baseUrl, key: sandbox.key, secret: sandbox.secret };
    const results: Figures[] = [];

    // Before: the core on the window's own event loop.
    {
      const events = { n: 0 };
      const core = await createCore({
        dataDir: join(work, 'inline'),
        shell: 'chromium',
        trustedOrigins: [ORIGIN],
        emit: createEmitter(forward(events)),
        keyStore: new MemoryKeyStore(),
        sandbox: source,
        watchIntervalMs: 0,
        bootstrapOperator: BENCH_ADMIN,
      });
      try {
        results.push(await workload('core in the window’s process (before)', core.dispatch, events));
      } finally {
        await core.close();
      }
    }
    // After: the core in its own process; this process only relays.
    {
      const events = { n: 0 };
      const core = await startRemoteCore({
        launch: nodeCoreLauncher(),
        options: {
          dataDir: join(work, 'own-process'),
          shell: 'chromium',
          trustedOrigins: [ORIGIN],
          keyStore: 'memory',
          sandbox: source,
          watchIntervalMs: 0,
          bootstrapOperator: BENCH_ADMIN,
        },
        emit: (batch) => {
          for (const [name, payload] of batch) forward(events)(name, payload);
        },
      });
      try {
        results.push(await workload('core in its own process (after)', core.dispatch, events));
      } finally {
        await core.close();
      }
    }

    console.log(`\nEvent-loop delay of the window's process: year-long history sync (${DEPOSITS} deposits,`);
    console.log(`${DEPOSITS / 4} withdrawals) while the BTC_USDT market feed runs at full rate\n`);
    console.log('| Core | p50 ms | p99 ms | max ms | sync s | records | events |');
    console.log('|---|---|---|---|---|---|---|');
    for (const r of results) {
      console.log(
        `| ${r.mode} | ${r.p50Ms} | ${r.p99Ms} | ${r.maxMs} | ${r.syncSeconds} | ${r.records} | ${r.events} |`,
      );
    }
    const after = results[1]!;
    const met = after.p99Ms < TARGET_P99_MS;
    console.log(`\nTarget: p99 < ${TARGET_P99_MS} ms with the core in its own process: ${met ? 'met' : 'NOT met'}`);
    mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
    writeFileSync(
      join(ROOT, 'bench/results/core-process.json'),
      `${JSON.stringify({ deposits: DEPOSITS, results, targetP99Ms: TARGET_P99_MS, met }, null, 2)}\n`,
    );
  } finally {
    await sandbox.close();
    rmSync(work, { recursive: true, force: true });
  }
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
