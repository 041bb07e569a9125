// Matching-engine benchmark: our engine (sandbox/spot/matching) against the published
// `nodejs-order-book` library, on the same seeded order stream, in the same process and run.
//
// The stream starts from a book of thousands of price levels and then mixes passive adds near the
// touch, cancels of resting orders and crossing orders (limit gtc/ioc through several levels and
// market sells). Both books get each operation in their native input types (our lots as bigint,
// the library's sizes as numbers), prepared before timing. The run also checks both engines traded
// the same total volume, so the comparison is between engines doing the same work.
//
// Usage: npm run bench:matching [-- --ops 200000 --levels 4000 --rounds 5 --seed 42]
// Prints the table and writes bench/results/matching.json.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Side as LibSide, type LimitOrderOptions, OrderBook } from 'nodejs-order-book';
import { seededRandom } from '../sandbox/spot/market/random';
import { MatchingEngine } from '../sandbox/spot/matching/engine';

// The library's TimeInForce enum is not exported at runtime; its values are these strings.
const LIB_IOC = 'IOC' as NonNullable<LimitOrderOptions['timeInForce']>;
const LIB_GTC = 'GTC' as NonNullable<LimitOrderOptions['timeInForce']>;

type Op =
  | { kind: 'limit'; id: string; side: 'buy' | 'sell'; price: number; size: number; lots: bigint; ioc: boolean }
  | { kind: 'market'; side: 'sell'; size: number; lots: bigint }
  | { kind: 'cancel'; id: string };

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const OPS = arg('ops', 200_000);
const LEVELS = arg('levels', 4000);
const ROUNDS = arg('rounds', 5);
const SEED = arg('seed', 42);

/** Gives an op its size in both engines' native types: number for the library, bigint lots for ours. */
function sized(op: Op & { size: number; lots: bigint }, size: number): Op {
  op.size = size;
  op.lots = BigInt(size);
  return op;
}

/** Builds the stream by simulating it once with our engine, so cancels target orders that rest. */
function buildStream(): { setup: Op[]; ops: Op[] } {
  const rnd = seededRandom(SEED);
  const mid = 1_000_000;
  const e = new MatchingEngine();
  const resting: string[] = [];
  let n = 0;
  const apply = (op: Op) => {
    if (op.kind === 'limit') {
      const r = e.place({
        id: op.id,
        owner: 1,
        side: op.side,
        type: 'limit',
        price: op.price,
        amount: op.lots,
        timeInForce: op.ioc ? 'ioc' : 'gtc',
        stpGroup: 0,
        stpAct: 'cn',
      });
      if (r.outcome === 'open') resting.push(op.id);
    } else if (op.kind === 'market') {
      e.place({
        id: `m${n++}`,
        owner: 1,
        side: op.side,
        type: 'market',
        price: 0,
        amount: op.lots,
        timeInForce: 'ioc',
        stpGroup: 0,
        stpAct: 'cn',
      });
    } else {
      e.cancel(op.id);
    }
  };
  const setup: Op[] = [];
  const half = LEVELS / 2;
  for (let lvl = 1; lvl <= half; lvl++) {
    for (let k = 0; k < 3; k++) {
      for (const side of ['buy', 'sell'] as const) {
        const op: Op = {
          kind: 'limit',
          id: String(n++),
          side,
          price: side === 'buy' ? mid - lvl : mid + lvl,
          size: 0,
          lots: 0n,
          ioc: false,
        };
        sized(op, rnd.int(1, 50));
        setup.push(op);
        apply(op);
      }
    }
  }
  const ops: Op[] = [];
  for (let i = 0; i < OPS; i++) {
    const bestBid = e.bestBid() ?? mid - 1;
    const bestAsk = e.bestAsk() ?? mid + 1;
    const roll = rnd.next();
    let op: Op;
    if (roll < 0.55) {
      // passive add within 200 ticks of the touch
      const side: 'buy' | 'sell' = rnd.next() < 0.5 ? 'buy' : 'sell';
      const price = side === 'buy' ? bestAsk - rnd.int(1, 200) : bestBid + rnd.int(1, 200);
      op = sized({ kind: 'limit', id: String(n++), side, price, size: 0, lots: 0n, ioc: false }, rnd.int(1, 50));
    } else if (roll < 0.85 && resting.length > 0) {
      const idx = rnd.int(0, resting.length - 1);
      const id = resting[idx]!;
      resting[idx] = resting[resting.length - 1]!;
      resting.pop();
      op = { kind: 'cancel', id };
    } else if (roll < 0.97) {
      // crossing limit order through a few levels
      const side: 'buy' | 'sell' = rnd.next() < 0.5 ? 'buy' : 'sell';
      const price = side === 'buy' ? bestAsk + rnd.int(0, 5) : bestBid - rnd.int(0, 5);
      const ioc = rnd.next() < 0.5;
      op = sized({ kind: 'limit', id: String(n++), side, price, size: 0, lots: 0n, ioc }, rnd.int(20, 300));
    } else {
      op = sized({ kind: 'market', side: 'sell', size: 0, lots: 0n }, rnd.int(10, 200));
    }
    ops.push(op);
    apply(op);
  }
  return { setup, ops };
}

interface Prepared {
  run(ops: Op[]): number;
}

function ours(): Prepared {
  const e = new MatchingEngine();
  let m = 0;
  return {
    run(ops) {
      let traded = 0n;
      for (const op of ops) {
        if (op.kind === 'cancel') {
          e.cancel(op.id);
        } else {
          const r = e.place({
            id: op.kind === 'limit' ? op.id : `m${m++}`,
            owner: 1,
            side: op.side,
            type: op.kind,
            price: op.kind === 'limit' ? op.price : 0,
            amount: op.lots,
            timeInForce: op.kind === 'limit' && !op.ioc ? 'gtc' : 'ioc',
            stpGroup: 0,
            stpAct: 'cn',
          });
          traded += r.filledLots;
        }
      }
      return Number(traded);
    },
  };
}

function library(): Prepared {
  const ob = new OrderBook();
  return {
    run(ops) {
      let traded = 0;
      for (const op of ops) {
        if (op.kind === 'cancel') {
          ob.cancel(op.id);
        } else if (op.kind === 'limit') {
          const r = ob.limit({
            id: op.id,
            side: op.side === 'buy' ? LibSide.BUY : LibSide.SELL,
            price: op.price,
            size: op.size,
            timeInForce: op.ioc ? LIB_IOC : LIB_GTC,
          });
          traded += op.size - r.quantityLeft;
        } else {
          const r = ob.market({ side: LibSide.SELL, size: op.size });
          traded += op.size - r.quantityLeft;
        }
      }
      return traded;
    },
  };
}

function main(): void {
  const { setup, ops } = buildStream();
  console.log(
    `matching bench: ${LEVELS} initial levels (${setup.length} orders), ${ops.length} timed ops, seed ${SEED}, ${ROUNDS} rounds`,
  );
  const results = { ours: [] as number[], library: [] as number[] };
  let volumes: { ours: number; library: number } | undefined;
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which engine runs first so warm-up and GC pressure do not favour one.
    const order = round % 2 === 0 ? (['ours', 'library'] as const) : (['library', 'ours'] as const);
    for (const name of order) {
      const engine = name === 'ours' ? ours() : library();
      engine.run(setup);
      const start = process.hrtime.bigint();
      const volume = engine.run(ops);
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      results[name].push(ops.length / seconds);
      volumes = { ...(volumes ?? { ours: 0, library: 0 }), [name]: volume };
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const o = median(results.ours);
  const l = median(results.library);
  console.log(`  volume traded: ours ${volumes?.ours}, nodejs-order-book ${volumes?.library}`);
  if (volumes?.ours !== volumes?.library) {
    console.error('  WARNING: the two engines traded different volumes; the comparison is not like for like');
    process.exitCode = 1;
  }
  console.log(`  sandbox matching engine : ${Math.round(o).toLocaleString('en-US')} orders/s (median)`);
  console.log(`  nodejs-order-book       : ${Math.round(l).toLocaleString('en-US')} orders/s (median)`);
  console.log(`  ratio ours/library      : ${(o / l).toFixed(2)}x`);
  const out = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results');
  fs.mkdirSync(out, { recursive: true });
  const result = {
    levels: LEVELS,
    timed_ops: ops.length,
    rounds: ROUNDS,
    seed: SEED,
    ours_orders_per_second: Math.round(o),
    nodejs_order_book_orders_per_second: Math.round(l),
    ratio: Number((o / l).toFixed(2)),
  };
  fs.writeFileSync(path.join(out, 'matching.json'), `${JSON.stringify(result, null, 2)}\n`);
}

main();
