/**
 * Cold start to Balances painted: a new shell process (the Chromium fallback shell built as `npm start`
 * runs it, out/main/shell.js, headless at 1440×900, in plain Node: the benchmark's own code in that
 * process, ./startupChild.ts, is transpiled ahead, so no TypeScript loader is timed) starting the built-in sandbox's process, the core's process and
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
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { transformWithOxc } from 'vite';
import { execArgvFor } from '../core/host/nodeLauncher';
import { DEFAULT_SCRYPT_COST, hashPassphrase } from '../core/operators/passphrase';
import { buildIfNeeded } from '../scripts/buildStamp';
import { BENCH_ADMIN } from './admin';
import { STEPS, type Start, type Step } from './startupChild';

const ROOT = resolve(import.meta.dirname, '..');
const STARTS = Number(process.env.BENCH_STARTS ?? 5);
const TARGET_MS = 1_500;
const TARGET_RATIO = 2;

/**
 * The child's code as plain JavaScript (./startupChild.ts transpiled alone), so that the timed
 * process is plain Node on built code, as `npm start` runs the shell.
 */
const writeChild = async (dir: string): Promise<string> => {
  const source = fileURLToPath(new URL('./startupChild.ts', import.meta.url));
  const { code } = await transformWithOxc(await readFile(source, 'utf8'), source);
  const file = join(dir, 'startupChild.mjs');
  await writeFile(file, code);
  return file;
};

const runOnce = (childFile: string, dataDir: string, serial: boolean): Promise<Start> =>
  new Promise((resolveStart, reject) => {
    const shellEntry = join(ROOT, 'out/main/shell.js');
    const started = spawn(
      process.execPath,
      // As `npm start` runs the shell: with the code cache beside the build (scripts/start.ts).
      [...execArgvFor(shellEntry), childFile, dataDir, serial ? 'serial' : 'parallel', pathToFileURL(shellEntry).href],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, BENCH_STARTUP_ADMIN: JSON.stringify(BENCH_ADMIN) },
      },
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
    const childFile = await writeChild(dataDir);
    // The first start creates the administrator and the browser's profile: not measured.
    await runOnce(childFile, join(dataDir, 'app'), false);
    const loadBefore = loadavg()[0] ?? 0;
    const starts: Start[] = [];
    for (let i = 0; i < STARTS; i++) {
      // Interleaved, each mode first in turn: the machine's load drifts over the run.
      const order = i % 2 === 0 ? [false, true] : [true, false];
      for (const serial of order) starts.push(await runOnce(childFile, join(dataDir, 'app'), serial));
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
    /** Each process's CPU time (ms) at Balances painted, median over the starts of one mode, and their sum. */
    const cpu = (mode: Start['mode']) => {
      const roles = [...new Set(of(mode).flatMap((s) => Object.keys(s.cpu)))].sort();
      const byRole = Object.fromEntries(roles.map((role) => [role, median(of(mode).map((s) => s.cpu[role] ?? 0))]));
      const total = median(of(mode).map((s) => Object.values(s.cpu).reduce((sum, ms) => sum + ms, 0)));
      return { byRole, total };
    };
    const parallel = {
      timeline: timeline('parallel'),
      all: of('parallel').map((s) => s.at['Balances painted']),
      cpu: cpu('parallel'),
    };
    const serial = {
      timeline: timeline('serial'),
      all: of('serial').map((s) => s.at['Balances painted']),
      cpu: cpu('serial'),
    };
    const balancesMs = parallel.timeline['Balances painted'];
    const ratio = serial.timeline['Balances painted'] / balancesMs;
    console.log(
      `\nCold start to Balances painted, median of ${STARTS} (load average ${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)} on ${cpus().length} cores)\n`,
    );
    // The timeline: when each step was done, ms from the shell process's start (medians per step).
    console.log('| Step | parallel (the app) ms | serial (before) ms |');
    console.log('|---|---|---|');
    for (const step of STEPS) console.log(`| ${step} | ${parallel.timeline[step]} | ${serial.timeline[step]} |`);
    // The CPU a start costs, by process: on this machine's cores the parallel start cannot be shorter
    // than the total divided by the cores, and serial ÷ parallel cannot exceed serial's wall time over that.
    console.log('\n| CPU at Balances painted (user + system) | parallel ms | serial ms |');
    console.log('|---|---|---|');
    const roles = [...new Set([...Object.keys(parallel.cpu.byRole), ...Object.keys(serial.cpu.byRole)])].sort();
    for (const role of roles)
      console.log(`| ${role} | ${parallel.cpu.byRole[role] ?? 0} | ${serial.cpu.byRole[role] ?? 0} |`);
    console.log(`| **total** (median of the starts' sums) | ${parallel.cpu.total} | ${serial.cpu.total} |`);
    const floor = parallel.cpu.total / cpus().length;
    console.log(
      `CPU floor of a start on ${cpus().length} cores: ${Math.round(floor)} ms; serial's wall time over it (the most serial ÷ parallel can be): ${(serial.timeline['Balances painted'] / floor).toFixed(2)}×; serial's idle core-time (wall × cores − CPU): ${Math.round(serial.timeline['Balances painted'] * cpus().length - serial.cpu.total)} ms`,
    );
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

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
