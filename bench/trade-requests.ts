/**
 * Platform requests the trade screen makes while it is open, streamed versus polled (issue 15):
 * the app (real renderer and core, headless Chromium through the fallback shell) against a sandbox
 * whose simulated market trades at full rate, the Trade screen open on BTC_USDT for the same time
 * twice — once with the platform's WebSocket stream, once with REST polling only (`streams: false`).
 * Counts the requests the core sends (its request log), public and private, per minute.
 * Target: at least 20× fewer public REST requests with the stream.
 *
 *   npm run bench:trade-requests        (BENCH_SECONDS=30 by default)
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startSandbox } from '../sandbox/server';
import { buildIfNeeded } from '../scripts/buildStamp';
import { openBenchApp } from './app';

const ROOT = resolve(import.meta.dirname, '..');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const TARGET_RATIO = 20;

/** Public market-data paths (no key) and the rest. */
const PUBLIC = /^GET \/spot\/(order_book|tickers|trades|candlesticks|currency_pairs|currencies|time)/;

const run = async (streams: boolean) => {
  const sandbox = await startSandbox({ memory: true, clock: 'real', market: 'on', port: 0, log: false, seed: 7 });
  const dataDir = await mkdtemp(join(tmpdir(), 'td-bench-trade-'));
  const lines: string[] = [];
  let counting = false;
  try {
    const shell = await openBenchApp(sandbox, dataDir, { streams, log: true }, (line) => {
      if (counting) lines.push(line);
    });
    try {
      const { page } = shell;
      await page.getByTestId('nav-trade').click();
      await page.getByTestId('screen-trade').waitFor();
      // Let the feed settle (the stream subscribes and takes its snapshot), then count.
      await page.waitForTimeout(3_000);
      const status = await page.locator('.book-status').first().textContent();
      counting = true;
      await page.waitForTimeout(SECONDS * 1000);
      counting = false;
      const publicCount = lines.filter((l) => PUBLIC.test(l)).length;
      const perMinute = (n: number) => Math.round((n * 60) / SECONDS);
      return {
        mode: streams ? 'stream' : 'polling',
        /** What the book's status line said. */
        live: status ?? '',
        publicPerMinute: perMinute(publicCount),
        privatePerMinute: perMinute(lines.length - publicCount),
      };
    } finally {
      await shell.close();
    }
  } finally {
    await sandbox.close();
    await rm(dataDir, { recursive: true, force: true });
  }
};

const main = async () => {
  buildIfNeeded(ROOT);
  const polled = await run(false);
  const streamed = await run(true);
  const ratio = polled.publicPerMinute / Math.max(1, streamed.publicPerMinute);
  console.table([polled, streamed]);
  console.log(
    `public REST requests per minute: ${polled.publicPerMinute} polled, ${streamed.publicPerMinute} streamed — ${ratio.toFixed(1)}× fewer (target ≥ ${TARGET_RATIO}×): ${ratio >= TARGET_RATIO ? 'met' : 'MISSED'}`,
  );
  await mkdir(join(ROOT, 'bench/results'), { recursive: true });
  await writeFile(
    join(ROOT, 'bench/results/trade-requests.json'),
    `${JSON.stringify({ at: new Date().toISOString(), seconds: SECONDS, polled, streamed, ratio }, null, 2)}\n`,
  );
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
