/**
 * `npm run conformance:sandbox`: runs the official SDK and CCXT against a fresh in-memory sandbox
 * (market on, manual clock) and prints the counts — SDK x/N, CCXT x/M, schema deviations — with
 * every failure and deviation. Exit code 1 when anything fails or deviates.
 */
import { startSandbox } from '../server';
import { runConformance } from './conformance';

const sb = await startSandbox({ memory: true, clock: 'manual', market: 'on', seed: 21 });
try {
  const report = await runConformance(sb);
  for (const [client, results] of [
    ['official SDK (gate-api)', report.sdk],
    ['CCXT (gate)', report.ccxt],
  ] as const) {
    console.log(`${client}: ${results.filter((r) => r.ok).length}/${results.length} pass`);
    for (const r of results.filter((x) => !x.ok)) console.log(`  FAIL ${r.name}: ${r.failure}`);
  }
  console.log(`schema deviations (SDK models): ${report.deviations.length}`);
  for (const d of report.deviations) console.log(`  ${d.method} ${d.path}: ${d.problem}`);
  const failures = [...report.sdk, ...report.ccxt].filter((r) => !r.ok);
  process.exitCode = failures.length > 0 || report.deviations.length > 0 ? 1 : 0;
} finally {
  await sb.close();
}
