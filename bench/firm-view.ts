/**
 * The firm-wide view at treasury scale: 500 sub-accounts holding 20 currency positions each (nine
 * spot currencies, both sides of four isolated-margin pairs, two cross-margin currencies and a
 * perpetual-futures account), the app (the real renderer and core in headless Chromium through the
 * fallback shell) at 1440×900 against an in-process sandbox. Measures:
 *   - Balances → Firm-wide: time from the click to the table holding every account (the core reads
 *     and values all of it), the longest task meanwhile;
 *   - scrolling the table from top to bottom: frame time p95 and the longest task;
 *   - typing a search: the longest task per keystroke.
 * Measured with a busy process beside the app (bench/load.ts; BENCH_LOAD=2 for load ≈ 3 on 2 cores).
 * Targets (issue 13): shown in under 1 s (issue 26: also at load 3), smooth scrolling (at most 5 % of frames miss a vsync at
 * 60 Hz; the frame interval's p95 is printed too), no task over 50 ms.
 *
 *   npm run bench:firm-view        (BENCH_SUBS to change the number of sub-accounts)
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { startSandbox } from '../sandbox/server';
import { control } from '../sandbox/testing/harness';
import { buildIfNeeded } from '../scripts/buildStamp';
import { openBenchApp, runBench } from './app';
import { describeLoad, startLoad } from './load';

const ROOT = resolve(import.meta.dirname, '..');
const SUBS = Number(process.env.BENCH_SUBS ?? 500);
const SHOWN_TARGET_MS = 1_000;
const FRAME_TARGET_MS = 16.7;
/** Smooth scrolling: at most this share of frames miss their vsync. */
const MISSED_TARGET_PERCENT = 5;
const LONG_TASK_MS = 50;
const SPOT = ['BTC', 'ETH', 'USDT', 'GT', 'XRP', 'DOGE', 'SHIB', 'PEPE', 'DUST'];
const MARGIN_PAIRS = ['BTC_USDT', 'ETH_USDT', 'GT_USDT', 'ETH_BTC'];

const round = (n: number) => Math.round(n * 10) / 10;

/** Long tasks and animation frames of the page, recorded from now on. */
const installObservers = (page: Page) =>
  page.evaluate(() => {
    const w = globalThis as unknown as {
      __longTasks: { start: number; duration: number }[];
      __frames: number[];
      __framing: boolean;
    };
    w.__longTasks = [];
    w.__frames = [];
    w.__framing = false;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__longTasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask', buffered: true } as unknown as { type: 'mark'; buffered: boolean });
  });

const longestSince = (page: Page, from: number) =>
  page.evaluate(
    (since) =>
      Math.max(
        0,
        ...(globalThis as unknown as { __longTasks: { start: number; duration: number }[] }).__longTasks
          .filter((t) => t.start + t.duration >= since)
          .map((t) => t.duration),
      ),
    from,
  );

const main = async () => {
  buildIfNeeded(ROOT);
  const sandbox = await startSandbox({ memory: true, clock: 'real', market: 'on', port: 0, log: false, seed: 13 });
  const dataDir = await mkdtemp(join(tmpdir(), 'td-bench-firm-'));
  try {
    const seedT0 = performance.now();
    await control(sandbox, '/scale', { sub_accounts: SUBS });
    // Twenty positions per sub-account, written straight into the sandbox's ledger (set-up only).
    const { ctx } = sandbox;
    const subs = ctx.db.prepare('SELECT id FROM users WHERE parent_id = ?').all(sandbox.userId) as { id: number }[];
    ctx.tx(() => {
      for (const { id: userId } of subs) {
        for (const currency of SPOT) ctx.ledger.credit({ userId, account: 'spot', currency }, '1.5', 'dnw');
        for (const pair of MARGIN_PAIRS) {
          for (const currency of pair.split('_')) {
            ctx.ledger.credit({ userId, account: 'margin', currency, pair }, '0.25', 'dnw');
          }
        }
        ctx.ledger.credit({ userId, account: 'cross_margin', currency: 'USDT' }, '100', 'dnw');
        ctx.ledger.credit({ userId, account: 'cross_margin', currency: 'BTC' }, '0.01', 'dnw');
        ctx.ledger.credit({ userId, account: 'futures', currency: 'USDT' }, '250', 'dnw');
      }
    });
    console.log(`seeded ${subs.length} sub-accounts × 20 positions in ${Math.round(performance.now() - seedT0)} ms`);

    const shell = await openBenchApp(sandbox, dataDir, { watchIntervalMs: 0 });
    // Measured on a loaded machine: busy processes beside the app (bench/load.ts; BENCH_LOAD).
    const load = startLoad();
    try {
      const { page } = shell;
      await page.getByTestId('nav-balances').click();
      await page.getByTestId('screen-balances').waitFor();
      await installObservers(page);
      const table = page.getByTestId('firm-accounts');

      // --- shown ----------------------------------------------------------------------------
      const since = await page.evaluate(() => performance.now());
      const t0 = performance.now();
      await page.getByRole('tab', { name: 'Firm-wide' }).click();
      await table.locator('tbody tr[data-row-key]').first().waitFor({ timeout: 60_000 });
      const shownMs = performance.now() - t0;
      await page.waitForTimeout(300);
      const shownLongest = await longestSince(page, since);
      const rows = Number(await table.getAttribute('data-row-count'));

      // --- scrolling --------------------------------------------------------------------------
      const scrollSince = await page.evaluate(() => performance.now());
      const frames = await page.evaluate(async () => {
        // Runs in the page (this file is type-checked against Node's globals, hence the casts).
        interface Box {
          scrollTop: number;
          readonly clientHeight: number;
          readonly scrollHeight: number;
        }
        const g = globalThis as unknown as {
          document: { querySelector(s: string): { closest(s: string): Box | null } | null };
          requestAnimationFrame(fn: () => void): void;
        };
        const box = g.document.querySelector('[data-testid="firm-accounts"]')?.closest('.table-virtual');
        if (!box) throw new Error('no scrolling table');
        // No named inner functions: the page gets this function's text, without tsx's helpers.
        const deltas: number[] = [];
        let last = performance.now();
        while (box.scrollTop + box.clientHeight < box.scrollHeight - 1) {
          box.scrollTop += 120;
          await new Promise<void>((resolve) => g.requestAnimationFrame(() => resolve()));
          const now = performance.now();
          deltas.push(now - last);
          last = now;
        }
        return deltas.slice(1);
      });
      const sorted = [...frames].sort((a, b) => a - b);
      const frameP95 = sorted[Math.floor(sorted.length * 0.95)] ?? 0;
      // A frame that took longer than one and a half refresh intervals missed a vsync: the eye sees it.
      const missed = frames.filter((d) => d > FRAME_TARGET_MS * 1.5).length;
      const missedShare = frames.length === 0 ? 0 : (100 * missed) / frames.length;
      const scrollLongest = await longestSince(page, scrollSince);
      const lastDrawn = await table.locator(`tbody tr[aria-rowindex="${rows + 1}"][data-row-key]`).count();

      // --- search -----------------------------------------------------------------------------
      let searchLongest = 0;
      const search = page.getByTestId('screen-balances').getByLabel('Search');
      for (const key of ['s', 'c', 'a', 'l', 'e']) {
        const keySince = await page.evaluate(() => performance.now());
        await search.press(key);
        await page.waitForTimeout(150);
        searchLongest = Math.max(searchLongest, await longestSince(page, keySince));
      }

      const results = [
        ['Firm-wide: shown (ms)', round(shownMs), `< ${SHOWN_TARGET_MS}`, shownMs < SHOWN_TARGET_MS],
        [
          'Firm-wide: longest task while showing (ms)',
          round(shownLongest),
          `≤ ${LONG_TASK_MS}`,
          shownLongest <= LONG_TASK_MS,
        ],
        ['Firm-wide: accounts in the table', rows, `${subs.length + 1}`, rows === subs.length + 1],
        [
          'Scroll top → bottom: frames that missed a vsync',
          `${missed} of ${frames.length} (${round(missedShare)} %)`,
          `≤ ${MISSED_TARGET_PERCENT} %`,
          missedShare <= MISSED_TARGET_PERCENT,
        ],
        ['Scroll: frame interval p95 (ms; 16.7 at 60 Hz)', round(frameP95), '(figure)', true],
        ['Scroll: longest task (ms)', round(scrollLongest), `≤ ${LONG_TASK_MS}`, scrollLongest <= LONG_TASK_MS],
        ['Scroll: last account drawn', lastDrawn === 1 ? 'yes' : 'no', 'yes', lastDrawn === 1],
        [
          'Search keystroke: longest task (ms)',
          round(searchLongest),
          `≤ ${LONG_TASK_MS}`,
          searchLongest <= LONG_TASK_MS,
        ],
      ] as const;
      const loadLine = describeLoad(load);
      await load.stop();
      console.log(`\nFirm-wide view: ${subs.length} sub-accounts × 20 positions, measured with ${loadLine}\n`);
      console.log('| Measure | Figure | Target | Met |');
      console.log('|---|---|---|---|');
      for (const [name, figure, target, met] of results)
        console.log(`| ${name} | ${figure} | ${target} | ${met ? 'yes' : 'NO'} |`);
      await mkdir(join(ROOT, 'bench/results'), { recursive: true });
      await writeFile(
        join(ROOT, 'bench/results/firm-view.json'),
        `${JSON.stringify({ subs: SUBS, positionsPerSub: 20, load: loadLine, results: results.map(([name, figure, target, met]) => ({ name, figure, target, met })) }, null, 2)}\n`,
      );
    } finally {
      await load.stop();
      await shell.close();
    }
  } finally {
    await sandbox.close();
    await rm(dataDir, { recursive: true, force: true });
  }
};

runBench(main);
