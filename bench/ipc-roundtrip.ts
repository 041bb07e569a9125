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
 *   npm run bench:ipc        (BENCH_CALLS to change the number of calls; default 3000)
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
 * binding under its name).
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
