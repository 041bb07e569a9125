/**
 * Idle requests a minute on Balances (issue 26, "quiet when idle"): the real app (renderer and core
 * in headless Chromium through the fallback shell) against an in-process sandbox (memory, manual
 * clock, market off: nothing pending, every seeded deposit and withdrawal final), left on Balances.
 * After the start has settled, every platform request the core sends for BENCH_IDLE_MINUTES
 * (default 3) is counted from its request log: the watchers' reads (` · watchers`), their balance
 * snapshots (` · balance snapshot`) and the screen's own refreshes. Printed: the average a minute
 * (the target, ≤ 6; before: 25, 24 of them the watchers' fixed 10 s poll), each minute's count,
 * the most in any 60 s window (a window can catch two reads of a 30 s list and a third just early),
 * and who sent them.
 *
 *   npm run bench:idle          (BENCH_IDLE_MINUTES=5 for a longer look)
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startSandbox } from '../sandbox/server';
import { buildIfNeeded } from '../scripts/buildStamp';
import { openBenchApp } from './app';

const ROOT = resolve(import.meta.dirname, '..');
const MINUTES = Number(process.env.BENCH_IDLE_MINUTES ?? 3);
const TARGET_PER_MINUTE = 6;
/** The start (connection check, first reads of every list) is over this long after Balances shows. */
const START_SETTLE_MS = 10_000;
const REQUEST_LINE = /^(GET|POST|PUT|PATCH|DELETE) (\S+) → /;

interface Request {
  readonly at: number;
  readonly line: string;
  readonly source: 'watchers' | 'balance snapshot' | 'screen';
}

const sourceOf = (line: string): Request['source'] =>
  line.endsWith(' · watchers') ? 'watchers' : line.endsWith(' · balance snapshot') ? 'balance snapshot' : 'screen';

const main = async () => {
  buildIfNeeded(ROOT);
  const sandbox = await startSandbox({ memory: true, clock: 'manual', market: 'off', port: 0, log: false, seed: 7 });
  const dataDir = await mkdtemp(join(tmpdir(), 'td-bench-idle-'));
  const requests: Request[] = [];
  let from = 0;
  let to = 0;
  try {
    const shell = await openBenchApp(sandbox, dataDir, { log: true }, (line) => {
      if (REQUEST_LINE.test(line)) requests.push({ at: Date.now(), line, source: sourceOf(line) });
    });
    try {
      await shell.page.getByTestId('screen-balances').waitFor({ timeout: 30_000 });
      // The benchmark's measuring is the point: it watches the clock, it does not wait for a condition.
      await shell.page.waitForTimeout(START_SETTLE_MS);
      from = Date.now();
      console.log(`idle on Balances for ${MINUTES} min…`);
      await shell.page.waitForTimeout(MINUTES * 60_000);
      to = Date.now();
    } finally {
      await shell.close();
    }
  } finally {
    await sandbox.close();
    await rm(dataDir, { recursive: true, force: true });
  }

  const idle = requests.filter((r) => r.at >= from && r.at < to);
  const perMinute = idle.length / MINUTES;
  const minutes = Array.from(
    { length: MINUTES },
    (_, i) => idle.filter((r) => r.at >= from + i * 60_000 && r.at < from + (i + 1) * 60_000).length,
  );
  let busiest = 0;
  for (const r of idle) busiest = Math.max(busiest, idle.filter((o) => o.at >= r.at && o.at < r.at + 60_000).length);
  const bySource = Object.fromEntries(
    (['watchers', 'balance snapshot', 'screen'] as const).map((s) => [s, idle.filter((r) => r.source === s).length]),
  );
  const byTarget = new Map<string, number>();
  for (const r of idle) {
    const target = (REQUEST_LINE.exec(r.line)?.slice(1, 3).join(' ') ?? r.line).replace(/from=\d+/, 'from=…');
    byTarget.set(target, (byTarget.get(target) ?? 0) + 1);
  }
  console.log(
    [
      '',
      `| idle on Balances, nothing pending | figure |`,
      '| --- | ---: |',
      `| requests a minute (average of ${MINUTES} min) | ${perMinute.toFixed(1)} |`,
      `| each minute | ${minutes.join(', ')} |`,
      `| most in any 60 s window | ${busiest} |`,
      `| target | ≤ ${TARGET_PER_MINUTE} |`,
      '',
      `by source: ${JSON.stringify(bySource)}`,
      ...[...byTarget].map(([target, n]) => `  ${n} × ${target}`),
      '',
      perMinute <= TARGET_PER_MINUTE ? 'Target met.' : 'Target missed.',
    ].join('\n'),
  );
  await mkdir(join(ROOT, 'bench/results'), { recursive: true });
  await writeFile(
    join(ROOT, 'bench/results/idle-requests.json'),
    `${JSON.stringify(
      {
        at: new Date().toISOString(),
        minutes: MINUTES,
        perMinute: Number(perMinute.toFixed(2)),
        eachMinute: minutes,
        busiestWindow: busiest,
        target: TARGET_PER_MINUTE,
        bySource,
        byTarget: Object.fromEntries(byTarget),
      },
      null,
      2,
    )}\n`,
  );
  if (perMinute > TARGET_PER_MINUTE) process.exitCode = 1;
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
