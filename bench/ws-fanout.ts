// WebSocket fan-out of the sandbox: the sandbox runs as a child process with its simulated market
// on (every spot pair it lists, at the simulator's own rate), and this process opens CLIENTS sockets,
// each subscribed to spot.order_book_update (100 ms) and spot.trades for every pair. Prints the
// messages per second delivered to all clients together and the delivery latency: for a trade from
// its match time (create_time_ms) to the client's receipt, for a book update from its `t` (the end
// of its 100 ms batch). Both clocks are this machine's.
//
//   npm run bench:ws-fanout                    # prints a table, writes bench/results/ws-fanout.json
//   BENCH_SECONDS=10 BENCH_CLIENTS=100 npm run bench:ws-fanout

import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { SPOT_PAIRS } from '../sandbox/spot/pairs';
import { ROOT, type SandboxReady, spawnSandbox } from './processes';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50);
const WARMUP_MS = 2_000;
const PAIRS = SPOT_PAIRS.map((p) => p.id);

const nowMs = (): number => performance.timeOrigin + performance.now();

interface Tally {
  messages: number;
  bytes: number;
  trades: number[];
  books: number[];
  gaps: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function client(url: string, tally: Tally, measuring: () => boolean): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    const lastU = new Map<string, number>();
    let pending = 0;
    ws.on('message', (data: Buffer) => {
      const received = nowMs();
      const m = JSON.parse(data.toString()) as { channel: string; event: string; result?: Record<string, unknown> };
      if (m.event === 'subscribe') {
        if (--pending === 0) resolve(ws);
        return;
      }
      if (m.event !== 'update' || m.result === undefined) return;
      if (m.channel === 'spot.order_book_update') {
        const r = m.result as { s: string; U: number; u: number; t: number };
        const last = lastU.get(r.s);
        if (last !== undefined && r.U !== last + 1) tally.gaps += 1;
        lastU.set(r.s, r.u);
        if (measuring()) tally.books.push(received - r.t);
      } else if (m.channel === 'spot.trades') {
        if (measuring()) tally.trades.push(received - Number((m.result as { create_time_ms: string }).create_time_ms));
      }
      if (measuring()) {
        tally.messages += 1;
        tally.bytes += data.length;
      }
    });
    ws.once('error', reject);
    ws.once('open', () => {
      const time = Math.floor(Date.now() / 1000);
      for (const pair of PAIRS) {
        pending += 2;
        ws.send(
          JSON.stringify({ time, channel: 'spot.order_book_update', event: 'subscribe', payload: [pair, '100ms'] }),
        );
        ws.send(JSON.stringify({ time, channel: 'spot.trades', event: 'subscribe', payload: [pair] }));
      }
    });
  });
}

async function main(): Promise<void> {
  const { child, ready } = await spawnSandbox(['--memory', '--market', 'on', '--port', '0']);
  const wsUrl = (ready as SandboxReady & { ws_url: string }).ws_url;
  const tally: Tally = { messages: 0, bytes: 0, trades: [], books: [], gaps: 0 };
  let measuring = false;
  try {
    const sockets = await Promise.all(Array.from({ length: CLIENTS }, () => client(wsUrl, tally, () => measuring)));
    await new Promise((r) => setTimeout(r, WARMUP_MS));
    measuring = true;
    const started = nowMs();
    await new Promise((r) => setTimeout(r, SECONDS * 1000));
    measuring = false;
    const elapsed = (nowMs() - started) / 1000;
    for (const ws of sockets) ws.terminate();

    const trades = [...tally.trades].sort((a, b) => a - b);
    const books = [...tally.books].sort((a, b) => a - b);
    const all = [...trades, ...books].sort((a, b) => a - b);
    const round = (n: number) => Math.round(n * 100) / 100;
    const summary = {
      clients: CLIENTS,
      pairs: PAIRS,
      seconds: round(elapsed),
      messages_per_s: Math.round(tally.messages / elapsed),
      per_client_messages_per_s: round(tally.messages / elapsed / CLIENTS),
      kib_per_s: Math.round(tally.bytes / 1024 / elapsed),
      trades_per_s_per_client: round(trades.length / elapsed / CLIENTS),
      book_updates_per_s_per_client: round(books.length / elapsed / CLIENTS),
      sequence_gaps: tally.gaps,
      latency_ms: {
        trade: {
          p50: round(percentile(trades, 50)),
          p99: round(percentile(trades, 99)),
          max: round(trades.at(-1) ?? NaN),
        },
        book_update: {
          p50: round(percentile(books, 50)),
          p99: round(percentile(books, 99)),
          max: round(books.at(-1) ?? NaN),
        },
        all: { p50: round(percentile(all, 50)), p99: round(percentile(all, 99)) },
      },
      at: new Date().toISOString(),
    };
    console.log(
      `ws fan-out: ${CLIENTS} clients × (order_book_update 100ms + trades) on ${PAIRS.join(', ')}, ${summary.seconds} s`,
    );
    console.table({
      delivered: {
        'msg/s': summary.messages_per_s,
        'per client msg/s': summary.per_client_messages_per_s,
        'KiB/s': summary.kib_per_s,
      },
    });
    console.table({
      'trade (from match)': summary.latency_ms.trade,
      'book update (from t)': summary.latency_ms.book_update,
    });
    console.log(
      `p99 delivery latency (all messages): ${summary.latency_ms.all.p99} ms; sequence gaps seen: ${tally.gaps}`,
    );
    fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
    fs.writeFileSync(path.join(ROOT, 'bench/results/ws-fanout.json'), `${JSON.stringify(summary, null, 2)}\n`);
  } finally {
    child.kill('SIGTERM');
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
