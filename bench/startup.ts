/**
 * Cold start to Balances painted: a new shell process (the Chromium fallback shell built as `npm start`
 * runs it, out/main/shell.js, headless at 1440×900; the benchmark's own code in that process is
 * loaded through tsx, which `npm start` does not pay) starting the built-in sandbox's process, the core's process and
 * the browser, until the Balances screen shows the total and the spot balances of the sandbox's
 * account. Timed from the shell process's own start (performance.timeOrigin) to the first frame the
 * page paints with both on screen (taken in the page). Each start is cold — no process of the app
 * running — on a data folder that has been used once (the administrator exists, as on any start but
 * the first).
 *
 * Five starts as the app starts (the three processes at once) against five forced serial (sandbox,
 * then core, then browser: how it started before), interleaved, medians and their ratio printed,
 * with the timeline of a start (when the shell's code was loaded, each process ready, the page
 * started loading, first painted, painted the frame, painted Balances).
 *
 *   npm run bench:startup        (BENCH_STARTS to change the number of starts per mode)
 *
 * Targets (issue 26): median < 1.5 s on this machine at load < 1; ≥ 2× faster than serial.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DEFAULT_SCRYPT_COST, hashPassphrase } from '../core/operators/passphrase';
import { buildIfNeeded } from '../scripts/buildStamp';
import type { openShell as OpenShell } from '../shell/shell';
import { BENCH_ADMIN } from './admin';

const ROOT = resolve(import.meta.dirname, '..');
const STARTS = Number(process.env.BENCH_STARTS ?? 5);
const TARGET_MS = 1_500;
const TARGET_RATIO = 2;

/**
 * Installed in every document before it loads: notes when the document started loading, its first
 * paint, when the frame first shows, and when Balances first shows the total and a spot balance, as
 * wall-clock ms of the frame that paints it.
 */
const PROBE = `(() => {
  if (window !== window.top) return;
  const marks = {};
  // Kept until the document has its root element (an init script may run before it exists).
  const pending = { page: performance.timeOrigin };
  const mark = (name, at) => {
    pending[name] = at;
    if (!document.documentElement) return;
    for (const [key, value] of Object.entries(pending)) document.documentElement.setAttribute('data-bench-' + key, String(value));
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.name === 'first-paint') mark('paint', performance.timeOrigin + entry.startTime);
    }
  }).observe({ type: 'paint', buffered: true });
  const note = (name) => {
    if (marks[name]) return;
    marks[name] = -1;
    // The first frame that contains it: its rAF, then the task after the frame was produced.
    requestAnimationFrame(() => setTimeout(() => {
      marks[name] = performance.timeOrigin + performance.now();
      mark(name, marks[name]);
    }, 0));
  };
  const check = () => {
    if (!document.documentElement.hasAttribute('data-bench-page')) mark('page', pending.page);
    if (document.querySelector('[data-testid="app-frame"]')) note('frame');
    if (document.querySelector('[data-testid="total-balance"]') &&
        document.querySelector('[data-testid="spot-balances"] tbody tr')) note('balances');
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true });
})();`;

/** The steps of a start, in the order they are printed; each is ms from the shell process's start. */
const STEPS = [
  'shell code loaded',
  'sandbox ready',
  'core ready',
  'browser ready',
  'page started',
  'first paint',
  'frame painted',
  'Balances painted',
] as const;
type Step = (typeof STEPS)[number];

interface Start {
  readonly mode: 'parallel' | 'serial';
  /** Each step's ms from the shell process's start (performance.timeOrigin). */
  readonly at: Partial<Record<Step, number>>;
}

/** One start, in this process (a child of the benchmark): prints its figures as one JSON line. */
const child = async (dataDir: string, serial: boolean): Promise<void> => {
  const origin = performance.timeOrigin;
  // The built shell, as `npm start` runs it (out/main/shell.js: plain JavaScript, no TypeScript loader).
  const { openShell } = (await import(pathToFileURL(join(ROOT, 'out/main/shell.js')).href)) as {
    openShell: typeof OpenShell;
  };
  const at: Partial<Record<Step, number>> = { 'shell code loaded': Math.round(performance.now()) };
  const shell = await openShell({
    dataDir,
    headless: true,
    log: (line) => {
      const step = (['sandbox ready', 'core ready', 'browser ready'] as const).find((s) => line.startsWith(s));
      if (step) at[step] = Math.round(performance.now());
    },
    viewport: { width: 1440, height: 900 },
    serialStart: serial,
    core: { keyStore: 'memory', bootstrapOperator: BENCH_ADMIN, watchIntervalMs: 0 },
    beforeBridgeScript: async (context) => {
      await context.addInitScript({ content: PROBE });
    },
  });
  try {
    const wallClock = async (name: string) =>
      Number(
        await (
          await shell.page.waitForSelector(`html[data-bench-${name}]`, { state: 'attached', timeout: 60_000 })
        ).getAttribute(`data-bench-${name}`),
      ) - origin;
    at['Balances painted'] = Math.round(await wallClock('balances'));
    at['frame painted'] = Math.round(await wallClock('frame'));
    at['page started'] = Math.round(await wallClock('page'));
    at['first paint'] = Math.round(await wallClock('paint'));
    console.log(JSON.stringify({ mode: serial ? 'serial' : 'parallel', at } satisfies Start));
  } finally {
    await shell.close();
  }
};

const runOnce = (dataDir: string, serial: boolean): Promise<Start> =>
  new Promise((resolveStart, reject) => {
    // As npm start runs the shell: Node with tsx's loader on the shell's source.
    const started = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', dataDir, serial ? 'serial' : 'parallel'],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    started.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    started.once('exit', (code) => {
      const line = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0) reject(new Error(`a start failed (code ${code}): ${out}`));
      else resolveStart(JSON.parse(line) as Start);
    });
  });

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const main = async () => {
  buildIfNeeded(ROOT);
  const dataDir = await mkdtemp(join(tmpdir(), 'td-bench-startup-'));
  try {
    // The first start creates the administrator and the browser's profile: not measured.
    await runOnce(dataDir, false);
    const loadBefore = loadavg()[0] ?? 0;
    const starts: Start[] = [];
    for (let i = 0; i < STARTS; i++) {
      // Interleaved, each mode first in turn: the machine's load drifts over the run.
      const order = i % 2 === 0 ? [false, true] : [true, false];
      for (const serial of order) starts.push(await runOnce(dataDir, serial));
    }
    const loadAfter = loadavg()[0] ?? 0;
    // The administrator's sign-in is on the way to Balances (the core answers once it is done): its
    // passphrase hash at the production cost, timed alone, says how much of the start it is.
    const signIns: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      await hashPassphrase(BENCH_ADMIN.passphrase, DEFAULT_SCRYPT_COST);
      signIns.push(Math.round(performance.now() - t0));
    }
    const signInMs = median(signIns);
    const of = (mode: Start['mode']) => starts.filter((s) => s.mode === mode);
    /** Each step's median over the starts of one mode (a step missing from a start is left out). */
    const timeline = (mode: Start['mode']) =>
      Object.fromEntries(
        STEPS.map((step) => [step, median(of(mode).flatMap((s) => (s.at[step] === undefined ? [] : [s.at[step]])))]),
      ) as Record<Step, number>;
    const parallel = { timeline: timeline('parallel'), all: of('parallel').map((s) => s.at['Balances painted']) };
    const serial = { timeline: timeline('serial'), all: of('serial').map((s) => s.at['Balances painted']) };
    const balancesMs = parallel.timeline['Balances painted'];
    const ratio = serial.timeline['Balances painted'] / balancesMs;
    console.log(
      `\nCold start to Balances painted, median of ${STARTS} (load average ${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)} on ${cpus().length} cores)\n`,
    );
    // The timeline: when each step was done, ms from the shell process's start (medians per step).
    console.log('| Step | parallel (the app) ms | serial (before) ms |');
    console.log('|---|---|---|');
    for (const step of STEPS) console.log(`| ${step} | ${parallel.timeline[step]} | ${serial.timeline[step]} |`);
    console.log(
      `\nEvery start, Balances painted ms: parallel ${parallel.all.join(', ')}; serial ${serial.all.join(', ')}`,
    );
    console.log(`Serial ÷ parallel: ${ratio.toFixed(2)}×`);
    console.log(
      `The administrator's passphrase hash alone (scrypt at the production cost, part of "core ready"): ${signInMs} ms (load ${(loadavg()[0] ?? 0).toFixed(2)})`,
    );
    const fast = balancesMs < TARGET_MS;
    const faster = ratio >= TARGET_RATIO;
    console.log(
      `Targets: < ${TARGET_MS} ms at load < 1: ${fast ? 'met' : 'NOT met'}${loadBefore >= 1 ? ` (measured at load ${loadBefore.toFixed(2)})` : ''}; ≥ ${TARGET_RATIO}× faster than serial: ${faster ? 'met' : 'NOT met'}`,
    );
    await mkdir(join(ROOT, 'bench/results'), { recursive: true });
    await writeFile(
      join(ROOT, 'bench/results/startup.json'),
      `${JSON.stringify({ at: new Date().toISOString(), loadAverage: { before: loadBefore, after: loadAfter }, starts: STARTS, parallel, serial, ratio, signInMs, targets: { ms: TARGET_MS, ratio: TARGET_RATIO }, met: { fast, faster } }, null, 2)}\n`,
    );
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
};

const [, , flag, dataDir, mode] = process.argv;
if (flag === '--child' && dataDir) {
  child(dataDir, mode === 'serial').then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
