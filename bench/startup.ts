/**
 * Cold start to Balances painted: a new shell process (the Chromium fallback shell, as `npm start`
 * runs it, headless at 1440×900) starting the built-in sandbox's process, the core's process and
 * the browser, until the Balances screen shows the total and the spot balances of the sandbox's
 * account. Timed from the shell process's own start (performance.timeOrigin) to the first frame the
 * page paints with both on screen (taken in the page). Each start is cold — no process of the app
 * running — on a data folder that has been used once (the administrator exists, as on any start but
 * the first).
 *
 * Five starts as the app starts (the three processes at once) against five forced serial (sandbox,
 * then core, then browser: how it started before), interleaved, medians and their ratio printed.
 *
 *   npm run bench:startup        (BENCH_STARTS to change the number of starts per mode)
 *
 * Targets (issue 26): median < 1.5 s on this machine at load < 1; ≥ 2× faster than serial.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfNeeded } from '../scripts/buildStamp';
import { openShell } from '../shell/shell';
import { BENCH_ADMIN } from './app';

const ROOT = resolve(import.meta.dirname, '..');
const STARTS = Number(process.env.BENCH_STARTS ?? 5);
const TARGET_MS = 1_500;
const TARGET_RATIO = 2;

/**
 * Installed in every document before it loads: notes when the frame first shows, and when Balances
 * first shows the total and a spot balance, as wall-clock ms of the frame that paints it.
 */
const PROBE = `(() => {
  if (window !== window.top) return;
  const marks = {};
  const note = (name) => {
    if (marks[name]) return;
    marks[name] = -1;
    // The first frame that contains it: its rAF, then the task after the frame was produced.
    requestAnimationFrame(() => setTimeout(() => {
      marks[name] = performance.timeOrigin + performance.now();
      document.documentElement.setAttribute('data-bench-' + name, String(marks[name]));
    }, 0));
  };
  const check = () => {
    if (document.querySelector('[data-testid="app-frame"]')) note('frame');
    if (document.querySelector('[data-testid="total-balance"]') &&
        document.querySelector('[data-testid="spot-balances"] tbody tr')) note('balances');
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true });
})();`;

interface Start {
  readonly mode: 'parallel' | 'serial';
  /** From the shell process's start to Balances painted, ms. */
  readonly balancesMs: number;
  /** From the shell process's start to the frame painted, ms. */
  readonly frameMs: number;
  /** From the shell process's start to openShell being called (Node and the shell's code), ms. */
  readonly bootMs: number;
}

/** One start, in this process (a child of the benchmark): prints its figures as one JSON line. */
const child = async (dataDir: string, serial: boolean): Promise<void> => {
  const origin = performance.timeOrigin;
  const bootMs = performance.now();
  const phases: string[] = [];
  const shell = await openShell({
    dataDir,
    headless: true,
    // BENCH_PHASES=1: when each process was ready, on stderr.
    log: (line) => {
      if (/ready/.test(line)) phases.push(`${Math.round(performance.now())} ms ${line}`);
    },
    viewport: { width: 1440, height: 900 },
    serialStart: serial,
    core: { keyStore: 'memory', bootstrapOperator: BENCH_ADMIN, watchIntervalMs: 0 },
    beforeBridgeScript: async (context) => {
      await context.addInitScript({ content: PROBE });
    },
  });
  try {
    const at = async (name: string) =>
      Number(
        await (
          await shell.page.waitForSelector(`html[data-bench-${name}]`, { state: 'attached', timeout: 60_000 })
        ).getAttribute(`data-bench-${name}`),
      );
    const balances = await at('balances');
    const frame = await at('frame');
    if (process.env.BENCH_PHASES) {
      console.error(
        [
          ...phases,
          `${Math.round(frame - origin)} ms frame painted`,
          `${Math.round(balances - origin)} ms Balances painted`,
        ].join('\n'),
      );
    }
    console.log(
      JSON.stringify({
        mode: serial ? 'serial' : 'parallel',
        balancesMs: Math.round(balances - origin),
        frameMs: Math.round(frame - origin),
        bootMs: Math.round(bootMs),
      } satisfies Start),
    );
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
    const of = (mode: Start['mode']) => starts.filter((s) => s.mode === mode);
    const figures = (mode: Start['mode']) => ({
      balancesMs: median(of(mode).map((s) => s.balancesMs)),
      frameMs: median(of(mode).map((s) => s.frameMs)),
      bootMs: median(of(mode).map((s) => s.bootMs)),
      all: of(mode).map((s) => s.balancesMs),
    });
    const parallel = figures('parallel');
    const serial = figures('serial');
    const ratio = serial.balancesMs / parallel.balancesMs;
    console.log(
      `\nCold start to Balances painted, median of ${STARTS} (load average ${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)} on ${cpus().length} cores)\n`,
    );
    console.log('| Start | Balances painted ms | frame painted ms | shell code loaded ms | every start ms |');
    console.log('|---|---|---|---|---|');
    for (const [name, f] of [
      ['parallel (the app)', parallel],
      ['serial (before)', serial],
    ] as const) {
      console.log(`| ${name} | ${f.balancesMs} | ${f.frameMs} | ${f.bootMs} | ${f.all.join(', ')} |`);
    }
    console.log(`\nSerial ÷ parallel: ${ratio.toFixed(2)}×`);
    const fast = parallel.balancesMs < TARGET_MS;
    const faster = ratio >= TARGET_RATIO;
    console.log(
      `Targets: < ${TARGET_MS} ms at load < 1: ${fast ? 'met' : 'NOT met'}${loadBefore >= 1 ? ` (measured at load ${loadBefore.toFixed(2)})` : ''}; ≥ ${TARGET_RATIO}× faster than serial: ${faster ? 'met' : 'NOT met'}`,
    );
    await mkdir(join(ROOT, 'bench/results'), { recursive: true });
    await writeFile(
      join(ROOT, 'bench/results/startup.json'),
      `${JSON.stringify({ at: new Date().toISOString(), loadAverage: { before: loadBefore, after: loadAfter }, starts: STARTS, parallel, serial, ratio, targets: { ms: TARGET_MS, ratio: TARGET_RATIO }, met: { fast, faster } }, null, 2)}\n`,
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
