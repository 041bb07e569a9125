/**
 * Signed-request pipeline benchmark: the app's API client (limiter → sign → keep-alive → zod
 * validation) beside the platform's official Node SDK (`gate-api`) and CCXT's `gate` client, each
 * doing the same private request (GET /spot/accounts, signed) against the same sandbox in the same
 * run, with the same concurrency. The sandbox runs in a child process with rate limits switched to
 * count-only; our limiter stays in the pipeline with its windows shortened so it never waits.
 *
 *   npm run bench:client      # prints a table, writes bench/results/client-pipeline.json
 *   BENCH_REQUESTS=3000 BENCH_CONCURRENCY=16 npm run bench:client
 */
import fs from 'node:fs';
import path from 'node:path';
import ccxt from 'ccxt';
import { ApiClient as GateApiClient, SpotApi } from 'gate-api';
import { PlatformConnection } from '../electron/core/profiles/connection';
import { ROOT, spawnSandbox } from './processes';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const ROUNDS = 5;

interface Round {
  /** Requests per second. */
  readonly rate: number;
  /** This process's CPU time per request, µs: the client's own cost, whatever the sandbox's speed. */
  readonly cpuUs: number;
}

/** Runs `total` calls of `fn` with `concurrency` in flight. */
const drive = async (fn: () => Promise<unknown>, total: number, concurrency: number): Promise<Round> => {
  let next = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        await fn();
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  return {
    rate: total / ((performance.now() - started) / 1000),
    cpuUs: (used.user + used.system) / total,
  };
};

const main = async () => {
  const { child, ready } = await spawnSandbox(['--port', '0', '--memory', '--market', 'off', '--clock', 'manual']);
  try {
    await fetch(`${ready.control_url}/rate_limits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sandbox-token': ready.control_token },
      body: JSON.stringify({ enforce: false }),
    });

    const ours = new PlatformConnection({
      baseUrl: ready.base_url,
      credentials: { key: ready.key, secret: ready.secret },
      limiterScale: 1e-6,
    });
    await ours.client.syncClock();

    const sdk = new GateApiClient(ready.base_url);
    sdk.setApiKeySecret(ready.key, ready.secret);
    const sdkSpot = new SpotApi(sdk);

    const exchange = new ccxt.gate({ apiKey: ready.key, secret: ready.secret, enableRateLimit: false });
    const urls = exchange.urls as { api: Record<string, Record<string, string>> };
    for (const group of ['public', 'private']) {
      for (const k of Object.keys(urls.api[group] ?? {}))
        (urls.api[group] as Record<string, string>)[k] = ready.base_url;
    }
    const ccxtCall = (
      exchange as unknown as { privateSpotGetAccounts: (p: object) => Promise<unknown> }
    ).privateSpotGetAccounts.bind(exchange);

    const clients: Record<string, () => Promise<unknown>> = {
      'treasury-desk client': () => ours.api.spot.accounts(),
      'gate-api (official SDK)': () => sdkSpot.listSpotAccounts(),
      'ccxt gate': () => ccxtCall({}),
    };
    // Correctness first: all three must succeed on the same signed request.
    for (const [name, fn] of Object.entries(clients)) {
      const answer = await fn();
      if (answer === undefined) throw new Error(`${name} returned nothing`);
    }
    const results: Record<string, Round[]> = {};
    // Every client warms up once (JIT, sockets); then rounds alternate the order so no client always
    // runs first or last while the machine's load changes.
    for (const fn of Object.values(clients)) await drive(fn, Math.min(500, REQUESTS), CONCURRENCY);
    const order = Object.entries(clients);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, fn] of round % 2 === 0 ? order : [...order].reverse()) {
        results[name] = [...(results[name] ?? []), await drive(fn, REQUESTS, CONCURRENCY)];
      }
    }
    ours.close();
    // The median round per client: one lucky or unlucky round decides nothing.
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
    const medians = Object.fromEntries(
      Object.entries(results).map(([name, rounds]) => [
        name,
        { rate: median(rounds.map((r) => r.rate)), cpuUs: median(rounds.map((r) => r.cpuUs)) },
      ]),
    );
    const mine = medians['treasury-desk client'] as Round;
    console.log(
      `Signed GET /spot/accounts, ${REQUESTS} requests × ${ROUNDS} rounds, ${CONCURRENCY} in flight (median round):`,
    );
    for (const [name, { rate, cpuUs }] of Object.entries(medians)) {
      console.log(
        `  ${name.padEnd(26)} ${rate.toFixed(0).padStart(6)} req/s  (ours ÷ this = ${(mine.rate / rate).toFixed(2)})   ` +
          `client CPU ${cpuUs.toFixed(0).padStart(4)} µs/request  (this ÷ ours = ${(cpuUs / mine.cpuUs).toFixed(2)})`,
      );
    }
    const ahead = Object.entries(medians).every(
      ([name, { rate }]) => name === 'treasury-desk client' || mine.rate > rate,
    );
    console.log(`target (ahead of both in req/s): ${ahead ? 'met' : 'NOT met'}`);
    fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
    fs.writeFileSync(
      path.join(ROOT, 'bench/results/client-pipeline.json'),
      `${JSON.stringify({ requests: REQUESTS, concurrency: CONCURRENCY, rounds: results, medians, ahead, at: new Date().toISOString() }, null, 2)}\n`,
    );
  } finally {
    child.kill();
  }
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
