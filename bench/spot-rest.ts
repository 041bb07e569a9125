// End-to-end spot order placement over REST: signed POST /api/v4/spot/orders against the sandbox
// (child process: HTTP, authentication, validation, fund locking, matching, settlement and SQLite
// persistence on every request). Orders alternate buys and sells around one price, so about half of
// them trade and the book keeps growing with the rest.
//
//   npm run bench:spot-rest                 # prints a table, writes bench/results/spot-rest.json
//   BENCH_SECONDS=3 BENCH_CONNECTIONS=16 npm run bench:spot-rest
//
// The platform limits placement to 10 orders per second per user and market; that limit is switched
// to count-only through the control plane so the figure measures the server, not the limiter.

import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { bodyHash, sign } from '../sandbox/http/signature';
import { seededRandom } from '../sandbox/spot/market/random';
import { ROOT, type SandboxReady, spawnSandbox } from './processes';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const PATH = '/api/v4/spot/orders';

async function control(ready: SandboxReady, route: string, body: unknown): Promise<void> {
  const res = await fetch(`${ready.control_url}${route}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Sandbox-Token': ready.control_token },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`control ${route} answered ${res.status}: ${await res.text()}`);
}

async function load(ready: SandboxReady, seconds: number) {
  const target = { host: '127.0.0.1', port: Number(new URL(ready.base_url).port) };
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const rnd = seededRandom(1);
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let placed = 0;
  let n = 0;
  const end = Date.now() + seconds * 1000;
  const one = () =>
    new Promise<void>((resolve) => {
      const side = n++ % 2 === 0 ? 'buy' : 'sell';
      const price = String(60_000 + rnd.int(-50, 50));
      const body = JSON.stringify({ currency_pair: 'BTC_USDT', side, amount: '0.001', price });
      const ts = String(Math.floor(Date.now() / 1000));
      const headers = {
        Accept: 'application/json',
        'Content-Type': 'application/json',
        'Content-Length': String(Buffer.byteLength(body)),
        KEY: ready.key,
        Timestamp: ts,
        SIGN: sign(ready.secret, 'POST', PATH, '', bodyHash(body), ts),
      };
      const started = performance.now();
      const req = http.request({ ...target, agent, method: 'POST', path: PATH, headers }, (res) => {
        res.resume();
        res.on('end', () => {
          latencies.push(performance.now() - started);
          statuses.set(res.statusCode ?? 0, (statuses.get(res.statusCode ?? 0) ?? 0) + 1);
          if (res.statusCode === 201) placed++;
          resolve();
        });
      });
      req.on('error', () => resolve());
      req.end(body);
    });
  const started = Date.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < end) await one();
    }),
  );
  const elapsed = (Date.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0;
  return {
    orders_per_second: Math.round(placed / elapsed),
    p50_ms: Number(pct(0.5).toFixed(2)),
    p99_ms: Number(pct(0.99).toFixed(2)),
    statuses: Object.fromEntries(statuses),
  };
}

async function main(): Promise<void> {
  const { child: sandbox, ready } = await spawnSandbox(['--memory', '--seed', '1', '--market', 'off']);
  process.on('exit', () => {
    if (sandbox.exitCode === null) sandbox.kill('SIGTERM');
  });
  try {
    await control(ready, '/rate_limits', { enforce: false });
    for (const [currency, amount] of [
      ['USDT', '100000000'],
      ['BTC', '10000'],
    ]) {
      await control(ready, '/balances', { user_id: ready.user_id, account: 'spot', currency, amount });
    }
    await load(ready, 0.5); // warm-up (JIT, SQLite caches), not measured
    const result = await load(ready, SECONDS);
    const row = { request: `POST ${PATH}`, connections: CONNECTIONS, seconds: SECONDS, ...result };
    console.log(`spot REST placement (${CONNECTIONS} connections, ${SECONDS} s, signed, market off):`);
    console.log(
      `  ${row.orders_per_second.toLocaleString('en-US')} orders/s, p50 ${row.p50_ms} ms, p99 ${row.p99_ms} ms`,
    );
    console.log(`  statuses: ${JSON.stringify(row.statuses)}`);
    const out = path.join(ROOT, 'bench/results');
    fs.mkdirSync(out, { recursive: true });
    fs.writeFileSync(path.join(out, 'spot-rest.json'), `${JSON.stringify(row, null, 2)}\n`);
    if (result.orders_per_second === 0) process.exitCode = 1;
  } finally {
    sandbox.kill('SIGTERM');
  }
}

await main();
