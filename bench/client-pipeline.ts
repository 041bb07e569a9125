/**
 * Signed-request pipeline benchmark: the app's API client (limiter → sign → keep-alive → zod
 * validation) beside the platform's official Node SDK (`gate-api`) and CCXT's `gate` client, each
 * doing the same private request (GET /spot/accounts?currency=…, signed) against the same sandbox in
 * the same run. The sandbox runs in a child process with rate limits switched to count-only; our
 * limiter stays in the pipeline with its windows shortened so it never waits.
 *
 * Two figures, because they measure different things (issue 21):
 *   1. The signed pipeline: distinct requests (the currency changes every call), one in flight —
 *      every call is a request on the wire, for all three clients.
 *   2. Coalescing: 16 identical reads in flight at once. Our client sends them as one request and
 *      answers all 16 with it (docs/architecture.md, "Reads that change rarely"); the others send 16.
 *      Reads answered per second, and requests the sandbox saw per read.
 *
 *   npm run bench:client      # prints two tables, writes bench/results/client-pipeline.json
 *   BENCH_REQUESTS=3000 npm run bench:client
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import ccxt from 'ccxt';
import { ApiClient as GateApiClient, SpotApi } from 'gate-api';
import { PlatformConnection } from '../core/profiles/connection';
import { ROOT, spawnSandbox } from './processes';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
/** Identical reads in flight at once, for the coalescing figure. */
const IDENTICAL_IN_FLIGHT = 16;
const ROUNDS = 5;

interface Round {
  /** Calls answered per second. */
  readonly rate: number;
  /** This process's CPU time per call, µs: the client's own cost, whatever the sandbox's speed. */
  readonly cpuUs: number;
}

/** Runs `total` calls of `fn`, `concurrency` in flight; `fn` gets the call's number. */
const drive = async (fn: (n: number) => Promise<unknown>, total: number, concurrency: number): Promise<Round> => {
  let next = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const n = next++;
        await fn(n);
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  return {
    rate: total / ((performance.now() - started) / 1000),
    cpuUs: (used.user + used.system) / total,
  };
};

/** Identical reads, `IDENTICAL_IN_FLIGHT` at a time: each wave is started together and awaited together. */
const driveIdentical = async (fn: () => Promise<unknown>, total: number): Promise<Round> => {
  const started = performance.now();
  const cpu = process.cpuUsage();
  for (let done = 0; done < total; done += IDENTICAL_IN_FLIGHT) {
    await Promise.all(Array.from({ length: IDENTICAL_IN_FLIGHT }, () => fn()));
  }
  const used = process.cpuUsage(cpu);
  return { rate: total / ((performance.now() - started) / 1000), cpuUs: (used.user + used.system) / total };
};

/** A plain HTTP proxy to `target` that counts the requests going through it. */
const countingProxy = async (target: string) => {
  const upstream = new URL(target);
  const agent = new http.Agent({ keepAlive: true });
  let requests = 0;
  const server = http.createServer((req, res) => {
    requests += 1;
    const forward = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: `${upstream.pathname.replace(/\/api\/v4$/, '')}${req.url}`,
        headers: { ...req.headers, host: upstream.host },
        agent,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${upstream.pathname}`,
    get requests() {
      return requests;
    },
    close: () => {
      agent.destroy();
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

const main = async () => {
  const { child, ready } = await spawnSandbox(['--port', '0', '--memory', '--market', 'off', '--clock', 'manual']);
  try {
    await fetch(`${ready.control_url}/rate_limits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sandbox-token': ready.control_token },
      body: JSON.stringify({ enforce: false }),
    });

    // Distinct requests: the currency changes every call (each one is signed and sent).
    const currencies = ['BTC', 'ETH', 'USDT', 'GT', 'XRP', 'DOGE', 'SHIB', 'PEPE'];
    const currencyOf = (n: number) => currencies[n % currencies.length]!;
    /** The three clients against `baseUrl`, each as a call of the same signed read. */
    const clientsFor = async (baseUrl: string) => {
      const ours = new PlatformConnection({
        baseUrl,
        credentials: { key: ready.key, secret: ready.secret },
        limiterScale: 1e-6,
      });
      await ours.client.syncClock();
      const sdk = new GateApiClient(baseUrl);
      sdk.setApiKeySecret(ready.key, ready.secret);
      const sdkSpot = new SpotApi(sdk);
      const exchange = new ccxt.gate({ apiKey: ready.key, secret: ready.secret, enableRateLimit: false });
      const urls = exchange.urls as { api: Record<string, Record<string, string>> };
      for (const group of ['public', 'private']) {
        for (const k of Object.keys(urls.api[group] ?? {})) (urls.api[group] as Record<string, string>)[k] = baseUrl;
      }
      const ccxtCall = (
        exchange as unknown as { privateSpotGetAccounts: (p: object) => Promise<unknown> }
      ).privateSpotGetAccounts.bind(exchange);
      const clients: Record<string, (n: number) => Promise<unknown>> = {
        'treasury-desk client': (n) => ours.api.spot.accounts(currencyOf(n)),
        'gate-api (official SDK)': (n) => sdkSpot.listSpotAccounts({ currency: currencyOf(n) }),
        'ccxt gate': (n) => ccxtCall({ currency: currencyOf(n) }),
      };
      // Correctness first: all three must succeed on the same signed request.
      for (const [name, fn] of Object.entries(clients)) {
        const answer = await fn(0);
        if (answer === undefined) throw new Error(`${name} returned nothing`);
      }
      return { clients, close: () => ours.close() };
    };
    const direct = await clientsFor(ready.base_url);
    const clients = direct.clients;

    // 1. The pipeline: distinct requests, one in flight. Every client warms up once (JIT, sockets);
    // then rounds alternate the order so no client always runs first or last while the load drifts.
    const pipeline: Record<string, Round[]> = {};
    for (const fn of Object.values(clients)) await drive(fn, Math.min(500, REQUESTS), 1);
    const order = Object.entries(clients);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, fn] of round % 2 === 0 ? order : [...order].reverse()) {
        pipeline[name] = [...(pipeline[name] ?? []), await drive(fn, REQUESTS, 1)];
      }
    }

    // 2. Coalescing: 16 identical reads at once, through a proxy that counts the requests on the wire.
    const proxy = await countingProxy(ready.base_url);
    const counted = await clientsFor(proxy.baseUrl);
    const coalescing: Record<string, Round & { requestsPerRead: number }> = {};
    for (const [name, fn] of Object.entries(counted.clients)) {
      const identical = () => fn(0);
      await driveIdentical(identical, Math.min(320, REQUESTS));
      const rounds: Round[] = [];
      const before = proxy.requests;
      for (let round = 0; round < ROUNDS; round++) rounds.push(await driveIdentical(identical, REQUESTS));
      coalescing[name] = {
        rate: median(rounds.map((r) => r.rate)),
        cpuUs: median(rounds.map((r) => r.cpuUs)),
        requestsPerRead: (proxy.requests - before) / (REQUESTS * ROUNDS),
      };
    }
    direct.close();
    counted.close();
    await proxy.close();

    // The median round per client: one lucky or unlucky round decides nothing.
    const medians = Object.fromEntries(
      Object.entries(pipeline).map(([name, rounds]) => [
        name,
        { rate: median(rounds.map((r) => r.rate)), cpuUs: median(rounds.map((r) => r.cpuUs)) },
      ]),
    );
    const mine = medians['treasury-desk client'] as Round;
    console.log(
      `\n1. The signed pipeline: GET /spot/accounts?currency=… (a different currency every call), ${REQUESTS} requests × ${ROUNDS} rounds, 1 in flight (median round):`,
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
    console.log(`  target (ahead of both in req/s): ${ahead ? 'met' : 'NOT met'}`);
    const coalesced = coalescing['treasury-desk client']!;
    console.log(
      `\n2. Coalescing: the same read ${IDENTICAL_IN_FLIGHT} at a time (${REQUESTS} reads × ${ROUNDS} rounds, median round):`,
    );
    for (const [name, { rate, requestsPerRead }] of Object.entries(coalescing)) {
      console.log(
        `  ${name.padEnd(26)} ${rate.toFixed(0).padStart(6)} reads/s  (ours ÷ this = ${(coalesced.rate / rate).toFixed(2)})   ` +
          `${requestsPerRead.toFixed(3)} requests per read`,
      );
    }
    fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
    fs.writeFileSync(
      path.join(ROOT, 'bench/results/client-pipeline.json'),
      `${JSON.stringify({ requests: REQUESTS, rounds: ROUNDS, pipeline: { inFlight: 1, rounds: pipeline, medians, ahead }, coalescing: { identicalInFlight: IDENTICAL_IN_FLIGHT, results: coalescing }, at: new Date().toISOString() }, null, 2)}\n`,
    );
  } finally {
    child.kill();
  }
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
