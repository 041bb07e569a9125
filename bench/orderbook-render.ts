/**
 * Order-book render benchmark: bundles the real OrderBook component with Vite (bench/browser/),
 * opens it in headless Chromium (Debian's, through playwright-core) and feeds it 20 updates per
 * second of 50 levels per side for 30 seconds. Reports frame times (requestAnimationFrame
 * intervals and main-thread work per frame), the per-update script+style+layout cost and long tasks (PerformanceObserver
 * 'longtask'). Target: p95 frame under 16.7 ms and no task over 50 ms.
 *
 *   npm run bench:orderbook            (BENCH_SECONDS=5 for a quick run)
 *   BENCH_TRACE=1    also a Chromium trace summary: main-thread time (wall and CPU) by event,
 *                    elements restyled and objects laid out per pass, and what each task over
 *                    50 ms was made of (a CPU time far below its wall time = waiting for a core)
 *   BENCH_PROFILE=1  also a V8 CPU profile (unminified bundle): functions by self time
 *
 * The market and main's diffing are computed before the clock starts (in the app they run in main);
 * the measured tasks hold only what the renderer does: apply the change, render, style, layout.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { chromium } from 'playwright-core';
import { build } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/lib/chromium/chromium';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const UPDATES_PER_SECOND = 20;
const LEVELS = 50;
const FRAME_BUDGET_MS = 16.7;
const LONG_TASK_MS = 50;

interface BenchResult {
  reactMs: number[];
  frames: number[];
  frameWork: number[];
  updateCosts: number[];
  longTasks: number[];
  updates: number;
  levelsChanged: number;
}

const percentile = (values: number[], p: number): number => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const round = (n: number) => Math.round(n * 100) / 100;

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** Thread (CPU) time: unlike dur, not stretched when other processes take the core. */
  tdur?: number;
  tid: number;
  pid: number;
  args?: {
    elementCount?: number;
    name?: string;
    beginData?: { dirtyObjects?: number; totalObjects?: number };
  };
}

/** Where the renderer's main thread spent its time, and what the tasks over 50 ms were made of. */
const printTrace = (json: string) => {
  const events = (JSON.parse(json) as { traceEvents: TraceEvent[] }).traceEvents;
  const mainThread = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const onMain = events.filter(
    (e) =>
      e.ph === 'X' && e.dur !== undefined && (!mainThread || (e.tid === mainThread.tid && e.pid === mainThread.pid)),
  );
  const recalcs = onMain.filter((e) => e.name === 'UpdateLayoutTree');
  const elements = recalcs.reduce((sum, e) => sum + (e.args?.elementCount ?? 0), 0);
  console.log(
    `style recalcs: ${recalcs.length}, elements restyled per recalc: ${round(elements / Math.max(1, recalcs.length))}`,
  );
  // Load-independent work counts: what each layout had to lay out.
  const layouts = onMain.filter((e) => e.name === 'Layout');
  const dirty = layouts.reduce((sum, e) => sum + (e.args?.beginData?.dirtyObjects ?? 0), 0);
  console.log(
    `layouts: ${layouts.length}, objects needing layout per layout: ${round(dirty / Math.max(1, layouts.length))}`,
  );
  const totals = new Map<string, { wall: number; cpu: number }>();
  for (const e of onMain) {
    const total = totals.get(e.name) ?? { wall: 0, cpu: 0 };
    total.wall += e.dur! / 1000;
    total.cpu += (e.tdur ?? 0) / 1000;
    totals.set(e.name, total);
  }
  console.log('main-thread time by trace event (ms, wall and CPU; nested events overlap):');
  for (const [name, ms] of [...totals].sort((a, b) => b[1].wall - a[1].wall).slice(0, 14))
    console.log(
      `  ${name.padEnd(32)} ${round(ms.wall).toString().padStart(9)} ${round(ms.cpu).toString().padStart(9)}`,
    );
  // Tasks over 50 ms inside the measured window (after the warm-up), with what they were made of.
  const measuredFrom = events.find((e) => e.name === 'bench-measured')?.ts ?? 0;
  const tasks = onMain.filter(
    (e) =>
      (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') &&
      e.ts >= measuredFrom &&
      e.dur! > LONG_TASK_MS * 1000,
  );
  for (const task of tasks) {
    const inside = new Map<string, number>();
    for (const e of onMain)
      if (e !== task && e.ts >= task.ts && e.ts + e.dur! <= task.ts + task.dur!)
        inside.set(e.name, (inside.get(e.name) ?? 0) + e.dur! / 1000);
    const parts = [...inside]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([name, ms]) => `${name} ${round(ms)}`);
    // CPU time far below the wall time means the thread was waiting for a core, not working.
    console.log(
      `task of ${round(task.dur! / 1000)} ms (CPU ${round((task.tdur ?? 0) / 1000)} ms): ${parts.join(', ')}`,
    );
  }
};

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

/** The functions with the most self time in a V8 CPU profile. */
const printProfile = (profile: CpuProfile) => {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)!.callFrame;
    const key = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop()}:${frame.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  console.log('CPU profile, self time (ms):');
  for (const [name, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 20))
    console.log(`  ${round(ms).toString().padStart(8)}  ${name}`);
};

const MIME: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

const run = async () => {
  const loadAtStart = round(loadavg()[0] ?? 0);
  const outDir = await mkdtemp(join(tmpdir(), 'orderbook-bench-'));
  const server = createServer(async (req, res) => {
    const path = resolve(outDir, `.${decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)}`);
    if (!path.startsWith(outDir)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(path);
      res.writeHead(200, { 'content-type': MIME[extname(path)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
  try {
    await build({
      root: join(here, 'browser'),
      logLevel: 'warn',
      plugins: [react()],
      mode: 'production',
      build: {
        outDir,
        emptyOutDir: true,
        // Readable function names in a BENCH_PROFILE profile.
        minify: !process.env.BENCH_PROFILE,
        rollupOptions: { input: join(here, 'browser', 'orderbook.html') },
      },
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    const page = await browser.newPage({ viewport: { width: 1000, height: 2600 } });
    page.on('pageerror', (error) => console.error('page error:', error.message));
    await page.goto(`http://127.0.0.1:${port}/orderbook.html`);
    await page.waitForSelector('body[data-ready="true"]');
    // BENCH_TRACE=1: also record a Chromium trace and print where the main thread spent its time.
    if (process.env.BENCH_TRACE)
      await browser.startTracing(page, { categories: ['devtools.timeline', 'toplevel', 'v8', 'blink.user_timing'] });
    // BENCH_PROFILE=1: also record a V8 CPU profile and print the functions with the most self time.
    const cdp = process.env.BENCH_PROFILE ? await page.context().newCDPSession(page) : undefined;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    const result = (await page.evaluate(
      // Runs in the page, where bench/browser/orderbook-main.tsx defined runBench.
      (options) =>
        (globalThis as unknown as { runBench: (o: typeof options) => Promise<BenchResult> }).runBench(options),
      { updatesPerSecond: UPDATES_PER_SECOND, levels: LEVELS, durationMs: SECONDS * 1000 },
    )) as BenchResult;
    if (cdp) printProfile((await cdp.send('Profiler.stop')).profile as CpuProfile);
    if (process.env.BENCH_TRACE) printTrace((await browser.stopTracing()).toString());
    const rowsShown = await page.locator('.book-row').count();

    const summary = {
      date: new Date().toISOString(),
      /** The machine's 1-minute load average and cores: frame figures are only comparable on a quiet machine. */
      machine: { cores: cpus().length, loadAverage1m: round(loadavg()[0] ?? 0), loadAtStart1m: loadAtStart },
      browser: `chromium ${browser.version()} (headless)`,
      seconds: SECONDS,
      updatesPerSecond: UPDATES_PER_SECOND,
      levelsPerSide: LEVELS,
      rowsShown,
      updates: result.updates,
      levelsChangedPerUpdate: round(result.levelsChanged / Math.max(1, result.updates)),
      /** Main-thread work per frame: the updates' script+style+layout plus the frame's render. */
      frameMs: {
        count: result.frameWork.length,
        p50: round(percentile(result.frameWork, 50)),
        p95: round(percentile(result.frameWork, 95)),
        max: round(Math.max(0, ...result.frameWork)),
      },
      /** requestAnimationFrame intervals: vsync-bound, ≈16.7 ms whenever a frame is on time. */
      frameIntervalMs: {
        count: result.frames.length,
        p50: round(percentile(result.frames, 50)),
        p95: round(percentile(result.frames, 95)),
        max: round(Math.max(0, ...result.frames)),
        missed: result.frames.filter((f) => f > 1.5 * (1000 / 60)).length,
      },
      updateCostMs: {
        p50: round(percentile(result.updateCosts, 50)),
        p95: round(percentile(result.updateCosts, 95)),
        max: round(Math.max(0, ...result.updateCosts)),
      },
      /** Of the update cost: React's render and commit alone (the rest is style and layout). */
      reactCommitMs: {
        p50: round(percentile(result.reactMs, 50)),
        p95: round(percentile(result.reactMs, 95)),
        max: round(Math.max(0, ...result.reactMs)),
      },
      longTasks: { count: result.longTasks.length, maxMs: round(Math.max(0, ...result.longTasks)) },
    };
    const framesOk = summary.frameMs.p95 < FRAME_BUDGET_MS;
    const tasksOk = summary.longTasks.maxMs <= LONG_TASK_MS;
    const verdict = { framesP95UnderBudget: framesOk, noTaskOver50ms: tasksOk, pass: framesOk && tasksOk };

    console.log(
      `\nOrder book render: ${LEVELS} levels/side, ${UPDATES_PER_SECOND} updates/s, ${SECONDS} s, ${summary.browser}`,
    );
    console.table({
      'frame time, main-thread work (ms)': {
        p50: summary.frameMs.p50,
        p95: summary.frameMs.p95,
        max: summary.frameMs.max,
      },
      'frame interval, rAF (ms)': {
        p50: summary.frameIntervalMs.p50,
        p95: summary.frameIntervalMs.p95,
        max: summary.frameIntervalMs.max,
      },
      'update cost: script+layout (ms)': {
        p50: summary.updateCostMs.p50,
        p95: summary.updateCostMs.p95,
        max: summary.updateCostMs.max,
      },
      '  of which React render+commit (ms)': {
        p50: summary.reactCommitMs.p50,
        p95: summary.reactCommitMs.p95,
        max: summary.reactCommitMs.max,
      },
    });
    console.log(
      `updates: ${summary.updates}, levels changed per update: ${summary.levelsChangedPerUpdate}, rows on screen: ${rowsShown}`,
    );
    console.log(
      `frames: ${summary.frameIntervalMs.count}, missed vsync (interval > 25 ms): ${summary.frameIntervalMs.missed}`,
    );
    console.log(
      `machine: ${summary.machine.cores} cores, load average ${loadAtStart} at start, ${summary.machine.loadAverage1m} at end` +
        (loadAtStart > summary.machine.cores
          ? ' (busy: other processes compete for the CPU; rerun on a quiet machine)'
          : ''),
    );
    console.log(`long tasks (>50 ms): ${summary.longTasks.count}, longest: ${summary.longTasks.maxMs} ms`);
    console.log(
      `target p95 frame < ${FRAME_BUDGET_MS} ms: ${framesOk ? 'PASS' : 'FAIL'}; no task > ${LONG_TASK_MS} ms: ${tasksOk ? 'PASS' : 'FAIL'}`,
    );

    const resultsDir = join(here, 'results');
    await mkdir(resultsDir, { recursive: true });
    const file = join(resultsDir, 'orderbook-render.json');
    await writeFile(file, `${JSON.stringify({ ...summary, verdict }, null, 2)}\n`);
    console.log(`written ${file}`);
    if (!verdict.pass) process.exitCode = 1;
  } finally {
    await browser.close();
    server.close();
    await rm(outDir, { recursive: true, force: true });
  }
};

await run();
