/**
 * The window ↔ core round trip: from a call in the page (`window.desk.app.ping`) to its answer back
 * in the page, through whatever the shell puts between them, with the core in its own process as
 * the app runs it. Measured inside the page with performance.now(), one call at a time (what a
 * screen waits for), after a warm-up; plus one ordinary read (`profiles.list`) for an answer with
 * some body. Chromium calls take the page's direct channel to the core's process (a WebSocket on
 * loopback the core serves, core/host/pageLane.ts, keyed by the shell: shell/bridge.ts), as the app's
 * do once the page has said hello; beside them, the shell's process to the core and back alone, and
 * the DevTools-protocol hop alone (the path of events, and of calls before the channel opens), show
 * where the time would go through the shell. Under the Chromium fallback shell always; under Electron only where its binary exists
 * (not on a machine that cannot download it: then the table says so).
 *
 *   npm run bench:ipc        (BENCH_CALLS to change the number of calls; default 3000;
 *                             BENCH_TAIL=1 adds where the slowest 1 % of the calls go)
 *
 * Target (issue 26): Chromium shell p50 < 1 ms, p99 < 3 ms at load < 1.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { startSandbox } from '../sandbox/server';
import { buildIfNeeded } from '../scripts/buildStamp';
import { electronBinary } from '../scripts/start';
import type { Shell } from '../shell/shell';
import { openBenchApp, runBench } from './app';

const ROOT = resolve(import.meta.dirname, '..');
const CALLS = Number(process.env.BENCH_CALLS ?? 3000);
const WARM_UP = 300;
const TARGET = { p50Ms: 1, p99Ms: 3 };

interface Figures {
  readonly operation: string;
  readonly calls: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly meanMs: number;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** Quantiles of durations in ms, as the tables print them. */
const figuresOf = (operation: string, times: readonly number[]): Figures => {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0;
  return {
    operation,
    calls: times.length,
    p50Ms: round(at(0.5)),
    p99Ms: round(at(0.99)),
    meanMs: round(times.reduce((a, b) => a + b, 0) / times.length),
  };
};

/** Round trips of one operation, timed in the page, one at a time. */
const roundTrips = async (page: Page, operation: string, input: unknown, calls: number): Promise<Figures> => {
  const times = await page.evaluate(
    async ({ operation, input, calls, warmUp }) => {
      // Runs in the page (this file is type-checked against Node's globals, hence the casts).
      const [area, name] = operation.split('.') as [string, string];
      const desk = (globalThis as unknown as { desk: Record<string, Record<string, (i: unknown) => Promise<unknown>>> })
        .desk;
      const fn = desk[area]![name]!;
      for (let i = 0; i < warmUp; i++) await fn(input);
      const out: number[] = [];
      for (let i = 0; i < calls; i++) {
        const t0 = performance.now();
        const result = (await fn(input)) as { ok: boolean };
        out.push(performance.now() - t0);
        if (!result.ok) throw new Error(`${operation} failed`);
      }
      return out;
    },
    { operation, input, calls, warmUp: WARM_UP },
  );
  return figuresOf(operation, times);
};

/**
 * Reloads the app and waits until its direct channel has carried an answer: from then on its calls
 * take the path measured (a channel that never opens fails the benchmark rather than measuring the
 * binding under its name); then until the app has finished starting (startedUp).
 */
const withDirectChannel = async (page: Page): Promise<void> => {
  const answered = new Promise<void>((resolve) =>
    page.on('websocket', (socket) => socket.on('framereceived', () => resolve())),
  );
  await page.reload();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('the page’s direct channel to the core never answered')), 30_000);
  });
  try {
    await Promise.race([answered, timeout]);
  } finally {
    clearTimeout(timer);
  }
  await startedUp(page);
};

/** How long the page must have fetched nothing before its start-up work counts as done. */
const PAGE_QUIET_MS = 3_000;

/**
 * Waits until the app has finished starting: ready, and then nothing fetched for PAGE_QUIET_MS
 * (2 s after it is ready the app preloads every other screen's code, one screen per idle period;
 * compiling and running a screen's module, parsing its styles, hold the page's main thread for
 * milliseconds, and an answer that arrives meanwhile waits. A run of 3,000 calls takes 2–3 s, so one
 * that began right after the page loaded ran into that preloading: BENCH_TAIL=1 names those tasks
 * among the slowest 1 %). The gate is the round trip of a started app; `BENCH_EARLY=1` measures
 * without waiting, as before.
 */
const startedUp = async (page: Page): Promise<void> => {
  if (process.env.BENCH_EARLY === '1') return;
  await page.waitForSelector('html[data-desk-ready="true"]', { state: 'attached', timeout: 60_000 });
  await page.evaluate(async (quietMs) => {
    // Runs in the page (this file is type-checked against Node's globals, hence the casts).
    // No named local functions: tsx would wrap them in a helper the page does not have.
    let count = performance.getEntriesByType('resource').length;
    let since = performance.now();
    while (performance.now() - since < quietMs) {
      await new Promise((resolve) =>
        (globalThis as unknown as { requestIdleCallback(f: () => void): void }).requestIdleCallback(() =>
          resolve(undefined),
        ),
      );
      if (performance.getEntriesByType('resource').length !== count) {
        count = performance.getEntriesByType('resource').length;
        since = performance.now();
      }
    }
  }, PAGE_QUIET_MS);
};

/**
 * The hops a call would take through the shell, each alone: the shell's process calling the core
 * (its process channel, the core's validation and handler, the answer's JSON) without the browser;
 * and the page's hop to the shell's process and back by the DevTools protocol (one binding call,
 * one evaluation back: the path calls took before the direct channel, and still the path of events
 * and of the first calls before the channel opens), on a session of its own, without the core.
 */
const hops = async (shell: Shell, calls: number): Promise<Figures[]> => {
  const sender = { url: shell.url, isMainFrame: true };
  const core: number[] = [];
  for (let i = 0; i < WARM_UP + calls; i++) {
    const t0 = performance.now();
    await shell.core.dispatchText('app.ping', { text: 'ping' }, sender);
    if (i >= WARM_UP) core.push(performance.now() - t0);
  }
  const session = await shell.context.newCDPSession(shell.page);
  try {
    const binding = '__benchEcho';
    const back = '__benchEchoBack';
    await session.send('Runtime.enable');
    session.on('Runtime.bindingCalled', ({ name, payload, executionContextId }) => {
      if (name !== binding) return;
      void session.send('Runtime.evaluate', {
        expression: `${back}(${JSON.stringify(payload)})`,
        contextId: executionContextId,
        silent: true,
      });
    });
    await session.send('Runtime.addBinding', { name: binding });
    const page = await shell.page.evaluate(
      async ({ binding, back, total, warmUp }) => {
        // Runs in the page (this file is type-checked against Node's globals, hence the casts).
        const scope = globalThis as unknown as Record<string, (text: string) => void>;
        // No named local functions: tsx would wrap them in a helper the page does not have.
        let answered: (() => void) | undefined;
        scope[back] = () => answered?.();
        const out: number[] = [];
        for (let i = 0; i < total; i++) {
          const t0 = performance.now();
          await new Promise<void>((resolve) => {
            answered = resolve;
            scope[binding]!('["ping"]');
          });
          if (i >= warmUp) out.push(performance.now() - t0);
        }
        return out;
      },
      { binding, back, total: WARM_UP + calls, warmUp: WARM_UP },
    );
    return [
      figuresOf('shell ↔ core (no browser)', core),
      figuresOf('page ↔ shell by the DevTools binding (no core)', page),
    ];
  } finally {
    await session.detach().catch(() => {});
  }
};

/** One call timed in the page: when it was made and when its answer came, performance.now() ms. */
type Timed = readonly [start: number, end: number];

/** A complete event of a Chromium trace (µs). */
interface TraceEvent {
  readonly name: string;
  readonly cat: string;
  readonly ph: string;
  readonly ts: number;
  readonly dur?: number;
  readonly pid: number;
  readonly tid: number;
  readonly args?: { readonly data?: { readonly type?: string; readonly functionName?: string; readonly url?: string } };
}

/**
 * Where the slowest 1 % of app.ping's round trips go (BENCH_TAIL=1). Interleaved in blocks of 100,
 * the same page times app.ping over its direct channel and the same message to a bare `ws` echo
 * server in this process (the browser's WebSocket path, its network service, loopback TCP and an idle
 * Node event loop, without the core), while a Chromium trace records the page's renderer. For each
 * of the slowest 1 % of the pings: did a garbage collection of the page, or another task of its main
 * thread, overlap it? What is left is the core's process and the path to it. The core's own
 * collections: run with NODE_OPTIONS=--trace-gc and count its Scavenge lines.
 */
const tail = async (shell: Shell, calls: number): Promise<void> => {
  const { WebSocketServer } = await import('ws');
  const echo = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  await new Promise((resolve) => echo.once('listening', resolve));
  echo.on('connection', (socket) => socket.on('message', (data) => socket.send(String(data))));
  const echoPort = (echo.address() as { port: number }).port;
  const session = await shell.context.newCDPSession(shell.page);
  try {
    // The page's CSP names the core's port only; the echo is the benchmark's, for this measurement.
    await session.send('Page.setBypassCSP', { enabled: true });
    await withDirectChannel(shell.page);
    const browser = shell.context.browser();
    if (browser === null) throw new Error('no browser to trace');
    await browser.startTracing(shell.page, {
      categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'blink.user_timing', 'toplevel'],
    });
    const measured = await shell.page.evaluate(
      async ({ echoPort, calls, warmUp }) => {
        // Runs in the page (this file is type-checked against Node's globals, hence the casts).
        const desk = (globalThis as unknown as { desk: { app: { ping(i: unknown): Promise<{ ok: boolean }> } } }).desk;
        const socket = new WebSocket(`ws://127.0.0.1:${echoPort}`);
        await new Promise((resolve) => {
          socket.onopen = resolve;
        });
        let answered: (() => void) | undefined;
        socket.onmessage = () => answered?.();
        const message = JSON.stringify({ k: 'call', id: 1, op: 'app.ping', input: { text: 'ping' } });
        const lane: [number, number][] = [];
        const bare: [number, number][] = [];
        for (let i = 0; i < warmUp; i++) await desk.app.ping({ text: 'ping' });
        const anchor = performance.now();
        performance.mark('bench-anchor');
        for (let block = 0; block < calls / 100; block++) {
          for (let i = 0; i < 100; i++) {
            const t0 = performance.now();
            await desk.app.ping({ text: 'ping' });
            lane.push([t0, performance.now()]);
          }
          for (let i = 0; i < 100; i++) {
            const t0 = performance.now();
            await new Promise<void>((resolve) => {
              answered = resolve;
              socket.send(message);
            });
            bare.push([t0, performance.now()]);
          }
        }
        socket.close();
        return { anchor, lane, bare };
      },
      { echoPort, calls, warmUp: WARM_UP },
    );
    const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
    const mark = trace.traceEvents.find((e) => e.name === 'bench-anchor');
    if (mark === undefined) throw new Error('the trace has no anchor');
    // Trace time (µs) → the page's performance.now() (ms).
    const toPage = (ts: number) => ts / 1000 - mark.ts / 1000 + measured.anchor;
    const mainThread = trace.traceEvents.filter((e) => e.pid === mark.pid && e.tid === mark.tid && e.ph === 'X');
    const gcs = mainThread.filter((e) => /GC/.test(e.name) && (e.dur ?? 0) > 0);
    const tasks = mainThread.filter((e) => e.name === 'RunTask' && (e.dur ?? 0) > 0);
    const overlapping = (events: readonly TraceEvent[], [start, end]: Timed) =>
      events.filter((e) => toPage(e.ts) < end && toPage(e.ts + (e.dur ?? 0)) > start);
    const slowest = (times: readonly Timed[]) =>
      [...times].sort((a, b) => b[1] - b[0] - (a[1] - a[0])).slice(0, Math.ceil(times.length / 100));
    const laneFigures = figuresOf(
      'app.ping, direct channel',
      measured.lane.map(([a, b]) => b - a),
    );
    const bareFigures = figuresOf(
      'bare ws echo in the bench process',
      measured.bare.map(([a, b]) => b - a),
    );
    console.log(`\nThe tail (BENCH_TAIL=1; a Chromium trace running), interleaved in blocks of 100:\n`);
    console.log('| Path | Calls | p50 ms | p99 ms | mean ms |');
    console.log('|---|---|---|---|---|');
    for (const f of [laneFigures, bareFigures])
      console.log(`| ${f.operation} | ${f.calls} | ${f.p50Ms} | ${f.p99Ms} | ${f.meanMs} |`);
    for (const [name, times] of [
      ['app.ping', measured.lane],
      ['bare echo', measured.bare],
    ] as const) {
      const slow = slowest(times);
      const withGc = slow.filter((call) => overlapping(gcs, call).length > 0);
      /** The page's main thread busy with anything longer than 0.5 ms during the call (its own answer's task is short). */
      const longTasks = (call: Timed) => overlapping(tasks, call).filter((t) => (t.dur ?? 0) > 500);
      const withTask = slow.filter((call) => longTasks(call).length > 0);
      /** What those tasks ran: the longest event inside each (a timer, a message, a frame, a collection…). */
      const ran = new Map<string, number>();
      for (const task of slow.flatMap(longTasks)) {
        const inside = mainThread.filter(
          (e) =>
            e !== task &&
            !e.name.includes('RunTask') &&
            e.ts >= task.ts &&
            e.ts + (e.dur ?? 0) <= task.ts + (task.dur ?? 0),
        );
        const longest = inside.sort((x, y) => (y.dur ?? 0) - (x.dur ?? 0))[0];
        const data = longest?.args?.data;
        const label =
          longest === undefined
            ? 'nothing traced inside'
            : [longest.name, data?.type, data?.functionName, data?.url?.split('/').pop()].filter(Boolean).join(' ');
        ran.set(label, (ran.get(label) ?? 0) + 1);
      }
      const ms = slow.map(([a, b]) => b - a);
      console.log(
        `slowest 1 % of ${name} (${slow.length}, ${round(Math.min(...ms))}–${round(Math.max(...ms))} ms): ` +
          `${withGc.length} overlap a garbage collection in the page, ${withTask.length} a page task > 0.5 ms`,
      );
      const tally = [...ran].sort((x, y) => y[1] - x[1]).map(([label, n]) => `${n}× ${label}`);
      if (tally.length > 0) console.log(`  those tasks: ${tally.join('; ')}`);
    }
    console.log(
      `page GC during the run: ${gcs.length} events, ${round(gcs.reduce((a, e) => a + (e.dur ?? 0), 0) / 1000)} ms in all, longest ${round(Math.max(0, ...gcs.map((e) => e.dur ?? 0)) / 1000)} ms`,
    );
  } finally {
    await session.send('Page.setBypassCSP', { enabled: false }).catch(() => {});
    await session.detach().catch(() => {});
    await new Promise((resolve) => echo.close(resolve));
  }
};

/**
 * The same round trips in the Electron app (the window's MessagePort straight to the core), where
 * Electron's binary exists: the built app launched as `npm start` would, on its own data folder
 * (its own built-in sandbox; app.ping and app.info need no operator signed in).
 */
const measureElectron = async (binary: string, dataDir: string): Promise<Figures[]> => {
  const { _electron } = await import('playwright-core');
  const app = await _electron.launch({
    executablePath: binary,
    args: [join(ROOT, 'out/main/index.js')],
    env: { ...process.env, TREASURY_DESK_DATA_DIR: join(dataDir, 'electron') },
  });
  try {
    const page = await app.firstWindow();
    await page.waitForSelector('html[data-desk-ready="true"]', { state: 'attached', timeout: 60_000 });
    // Nobody is signed in there: only the operations open while signed out.
    return [
      await roundTrips(page, 'app.ping', { text: 'ping' }, CALLS),
      await roundTrips(page, 'app.info', {}, Math.ceil(CALLS / 3)),
    ];
  } finally {
    await app.close();
  }
};

const main = async () => {
  buildIfNeeded(ROOT);
  const sandbox = await startSandbox({ memory: true, clock: 'manual', market: 'off', port: 0, log: false, seed: 7 });
  const dataDir = await mkdtemp(join(tmpdir(), 'td-bench-ipc-'));
  const load = loadavg()[0] ?? 0;
  try {
    const shell = await openBenchApp(sandbox, dataDir, { watchIntervalMs: 0 });
    let chromium: Figures[];
    let hopFigures: Figures[];
    try {
      await withDirectChannel(shell.page);
      chromium = [
        await roundTrips(shell.page, 'app.ping', { text: 'ping' }, CALLS),
        await roundTrips(shell.page, 'profiles.list', {}, Math.ceil(CALLS / 3)),
      ];
      hopFigures = await hops(shell, CALLS);
      if (process.env.BENCH_TAIL === '1') await tail(shell, CALLS);
    } finally {
      await shell.close();
    }
    const electron = electronBinary();
    const electronFigures = electron === undefined ? undefined : await measureElectron(electron, dataDir);
    const loadAfter = loadavg()[0] ?? 0;
    console.log(
      `\nWindow ↔ core round trip, one call at a time (load average ${load.toFixed(2)} at the start, ${loadAfter.toFixed(2)} at the end, on ${cpus().length} cores)\n`,
    );
    console.log('| Shell | Operation | Calls | p50 ms | p99 ms | mean ms |');
    console.log('|---|---|---|---|---|---|');
    for (const f of chromium) {
      console.log(`| Chromium | ${f.operation} | ${f.calls} | ${f.p50Ms} | ${f.p99Ms} | ${f.meanMs} |`);
    }
    for (const f of hopFigures) {
      console.log(`| Chromium, one hop | ${f.operation} | ${f.calls} | ${f.p50Ms} | ${f.p99Ms} | ${f.meanMs} |`);
    }
    if (electronFigures === undefined) {
      console.log('| Electron | — | — | not measured: its binary is not on this machine | | |');
    } else {
      for (const f of electronFigures) {
        console.log(`| Electron | ${f.operation} | ${f.calls} | ${f.p50Ms} | ${f.p99Ms} | ${f.meanMs} |`);
      }
    }
    const ping = chromium[0]!;
    const met = ping.p50Ms < TARGET.p50Ms && ping.p99Ms < TARGET.p99Ms;
    console.log(
      `\nTarget (Chromium, app.ping): p50 < ${TARGET.p50Ms} ms, p99 < ${TARGET.p99Ms} ms at load < 1: ${met ? 'met' : 'NOT met'}${load >= 1 ? ` (measured at load ${load.toFixed(2)})` : ''}`,
    );
    await mkdir(join(ROOT, 'bench/results'), { recursive: true });
    await writeFile(
      join(ROOT, 'bench/results/ipc-roundtrip.json'),
      `${JSON.stringify({ at: new Date().toISOString(), loadAverage: round(load), chromium, chromiumHops: hopFigures, electron: electronFigures ?? 'binary absent', target: TARGET, met }, null, 2)}\n`,
    );
  } finally {
    await sandbox.close();
    await rm(dataDir, { recursive: true, force: true });
  }
};

runBench(main);
