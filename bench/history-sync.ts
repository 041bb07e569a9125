/**
 * History sync benchmark: a year of deposit records (200 000, so the sync is bound by the rate
 * limit rather than by latency) fetched in 30-day windows and 500-record pages through the app's
 * client against a sandbox that ENFORCES the limits. Its time is printed beside the minimum the
 * limits allow for the same number of requests (GET /wallet/deposits: 200 per 10 s), and 429s are
 * counted. Then the second open (from the cache) and an incremental re-sync are timed.
 *
 *   npm run bench:history      # prints a table, writes bench/results/history-sync.json
 *   BENCH_RECORDS=100000 npm run bench:history
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HistorySync } from '../core/history/sync';
import { openJournalDb } from '../core/journal/db';
import { PlatformConnection } from '../core/profiles/connection';
import { startSandbox } from '../sandbox/server';
import { RATE_LIMITS } from '../shared/platform/limits';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RECORDS = Number(process.env.BENCH_RECORDS ?? 200_000);
const YEAR = 365 * 86_400;

const main = async () => {
  const sandbox = await startSandbox({ memory: true, market: 'off', clock: 'real', port: 0, log: false, seed: 11 });
  try {
    // A year of settled deposits, written straight into the sandbox's ledger tables (set-up only).
    const nowMs = Date.now();
    const db = sandbox.ctx.db;
    const insert = db.prepare(
      `INSERT INTO deposits (id, user_id, currency, chain, address, memo, amount, txid, status, timestamp, route, credited)
       VALUES (?, ?, 'USDT', 'TRX', 'TBenchAddress', '', ?, ?, 'DONE', ?, 'chain', 1)`,
    );
    db.transaction(() => {
      for (let i = 0; i < RECORDS; i++) {
        const at = nowMs - 2 * 86_400_000 - Math.floor((i / RECORDS) * (YEAR - 3 * 86_400) * 1000);
        insert.run(`d${90_000_000 + i}`, sandbox.userId, `${1 + (i % 997)}.5`, `0xbench${i}`, at);
      }
    })();

    let requests = 0;
    let tooMany = 0;
    const conn = new PlatformConnection({
      baseUrl: sandbox.baseUrl,
      credentials: { key: sandbox.key, secret: sandbox.secret },
      onRequest: (r) => {
        if (r.path === '/wallet/deposits') requests++;
        if (r.status === 429) tooMany++;
      },
    });
    await conn.client.syncClock();
    const journal = openJournalDb(':memory:');
    const sync = new HistorySync({
      db: journal,
      platform: () => conn.api,
      profileId: () => 'bench',
      onProgress: () => {},
    });
    const to = Math.floor(nowMs / 1000);
    const from = to - YEAR;

    const t0 = performance.now();
    sync.start({ kinds: ['deposits'], from, to });
    const done = await sync.finished();
    const seconds = (performance.now() - t0) / 1000;
    if (done?.state !== 'done') throw new Error(`sync ended ${done?.state}: ${done?.error}`);
    const rule = RATE_LIMITS.walletOther;
    const minimum = (Math.floor((requests - 1) / rule.limit) * rule.windowMs) / 1000;

    const t1 = performance.now();
    const cached = sync.records(['deposits'], from, to, 1000, 0);
    const openMs = performance.now() - t1;

    const before = requests;
    const t2 = performance.now();
    sync.start({ kinds: ['deposits'], from, to });
    await sync.finished();
    const incrementalMs = performance.now() - t2;

    conn.close();
    journal.close();
    const ratio = minimum > 0 ? seconds / minimum : Number.NaN;
    console.log(`History sync of a year (${RECORDS} deposits, ${done.windowsTotal} windows of 30 days, pages of 500):`);
    console.log(
      `  first sync          ${seconds.toFixed(2)} s for ${before} requests, ${done.records} records, ${tooMany} × 429`,
    );
    console.log(
      `  rate-limit minimum  ${minimum.toFixed(2)} s (${rule.limit} per ${rule.windowMs / 1000} s on GET /wallet/deposits)`,
    );
    console.log(
      `  ratio               ${ratio.toFixed(3)} × the minimum (target ≤ 1.2 and no 429: ${ratio <= 1.2 && tooMany === 0 ? 'met' : 'NOT met'})`,
    );
    console.log(
      `  second open         ${openMs.toFixed(1)} ms (cache: ${cached.total} records in range, complete=${cached.complete})`,
    );
    console.log(`  incremental re-sync ${incrementalMs.toFixed(0)} ms, ${requests - before} requests`);
    fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
    fs.writeFileSync(
      path.join(ROOT, 'bench/results/history-sync.json'),
      `${JSON.stringify(
        {
          records: RECORDS,
          requests: before,
          seconds,
          minimumSeconds: minimum,
          ratio,
          tooManyRequests: tooMany,
          secondOpenMs: openMs,
          incrementalMs,
          incrementalRequests: requests - before,
          at: new Date().toISOString(),
        },
        null,
        2,
      )}\n`,
    );
  } finally {
    await sandbox.close();
  }
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
