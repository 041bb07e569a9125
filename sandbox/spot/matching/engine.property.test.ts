// The engine against a deliberately naive reference model (a plain array sorted on every match),
// on thousands of random order streams: same fills in the same order, same outcomes, same book.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type IncomingOrder, MatchingEngine, type MatchResult, type Outcome, type StpAct } from './engine';

interface RefOrder {
  id: string;
  owner: number;
  side: 'buy' | 'sell';
  price: number;
  left: bigint;
  group: number;
  seq: number;
}

interface RefFill {
  makerId: string;
  price: number;
  lots: bigint;
}

class Reference {
  orders: RefOrder[] = [];
  seq = 0;

  /** Priority of resting orders for a taker on `side`: best price first, then earliest. */
  private priority(side: 'buy' | 'sell'): (a: RefOrder, b: RefOrder) => number {
    return side === 'buy' ? (a, b) => a.price - b.price || a.seq - b.seq : (a, b) => b.price - a.price || a.seq - b.seq;
  }

  private opposite(o: IncomingOrder): RefOrder[] {
    const crosses = (r: RefOrder) =>
      o.type === 'market' || (o.side === 'buy' ? r.price <= o.price : r.price >= o.price);
    return this.orders.filter((r) => r.side !== o.side && crosses(r)).sort(this.priority(o.side));
  }

  place(o: IncomingOrder): { outcome: Outcome; fills: RefFill[]; cancelled: string[]; left: bigint } {
    const opp = this.opposite(o);
    const budget = o.type === 'market' && o.side === 'buy';
    if (o.timeInForce === 'poc' && o.type === 'limit' && opp.length > 0) {
      return { outcome: 'poc', fills: [], cancelled: [], left: o.amount };
    }
    if (o.timeInForce === 'fok') {
      let rem = o.amount;
      let ok = false;
      for (const r of opp) {
        if (o.stpGroup !== 0 && r.group === o.stpGroup) {
          if (o.stpAct === 'co') continue;
          break;
        }
        const take = budget ? min(rem / BigInt(r.price), r.left) : min(rem, r.left);
        if (budget && rem / BigInt(r.price) === 0n) {
          ok = true;
          break;
        }
        rem -= budget ? take * BigInt(r.price) : take;
        if (rem === 0n) {
          ok = true;
          break;
        }
      }
      if (!ok) return { outcome: 'fok', fills: [], cancelled: [], left: o.amount };
    }
    const fills: RefFill[] = [];
    const cancelled: string[] = [];
    let rem = o.amount;
    let stopped: Outcome | null = null;
    for (const r of opp) {
      if (rem === 0n) break;
      if (o.stpGroup !== 0 && r.group === o.stpGroup) {
        if (o.stpAct === 'cn') {
          stopped = 'stp';
          break;
        }
        cancelled.push(r.id);
        this.orders = this.orders.filter((x) => x !== r);
        if (o.stpAct === 'cb') {
          stopped = 'stp';
          break;
        }
        continue;
      }
      let take: bigint;
      if (budget) {
        take = min(rem / BigInt(r.price), r.left);
        if (take === 0n) {
          stopped = 'filled';
          break;
        }
        rem -= take * BigInt(r.price);
      } else {
        take = min(rem, r.left);
        rem -= take;
      }
      r.left -= take;
      fills.push({ makerId: r.id, price: r.price, lots: take });
      if (r.left === 0n) this.orders = this.orders.filter((x) => x !== r);
      else if (budget && rem > 0n) {
        // The budget left cannot buy another lot at this (or any worse) price.
        stopped = 'filled';
        break;
      }
    }
    let outcome: Outcome;
    if (stopped !== null) outcome = stopped;
    else if (rem === 0n) outcome = 'filled';
    else if (o.type === 'market') outcome = 'ioc';
    else if (o.timeInForce === 'gtc' || o.timeInForce === 'poc') {
      this.orders.push({
        id: o.id,
        owner: o.owner,
        side: o.side,
        price: o.price,
        left: rem,
        group: o.stpGroup,
        seq: ++this.seq,
      });
      outcome = 'open';
    } else outcome = 'ioc';
    return { outcome, fills, cancelled, left: rem };
  }

  cancel(id: string): void {
    this.orders = this.orders.filter((o) => o.id !== id);
  }

  /** Amend with the documented rules: only a same-price reduction keeps priority. */
  amend(id: string, price: number, left: bigint, stpAct: StpAct) {
    const o = this.orders.find((x) => x.id === id);
    if (o === undefined) return undefined;
    if (price === o.price && left <= o.left) {
      o.left = left;
      return { kept: true };
    }
    this.cancel(id);
    return {
      kept: false,
      ...this.place({
        id,
        owner: o.owner,
        side: o.side,
        type: 'limit',
        price,
        amount: left,
        timeInForce: 'gtc',
        stpGroup: o.group,
        stpAct,
      }),
    };
  }

  depth(side: 'buy' | 'sell'): { price: number; lots: bigint }[] {
    const levels = new Map<number, bigint>();
    for (const o of this.orders) if (o.side === side) levels.set(o.price, (levels.get(o.price) ?? 0n) + o.left);
    return [...levels.entries()]
      .sort((a, b) => (side === 'buy' ? b[0] - a[0] : a[0] - b[0]))
      .map(([price, lots]) => ({ price, lots }));
  }
}

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

const GROUP_OF: Record<number, number> = { 1: 7, 2: 7, 3: 0 };

const op = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('limit' as const),
      side: fc.constantFrom('buy' as const, 'sell' as const),
      price: fc.integer({ min: 95, max: 105 }),
      amount: fc.integer({ min: 1, max: 12 }),
      tif: fc.constantFrom('gtc' as const, 'gtc' as const, 'ioc' as const, 'poc' as const, 'fok' as const),
      owner: fc.integer({ min: 1, max: 3 }),
      stpAct: fc.constantFrom('cn' as const, 'co' as const, 'cb' as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('market' as const),
      side: fc.constantFrom('buy' as const, 'sell' as const),
      amount: fc.integer({ min: 1, max: 1500 }),
      tif: fc.constantFrom('ioc' as const, 'fok' as const),
      owner: fc.integer({ min: 1, max: 3 }),
      stpAct: fc.constantFrom('cn' as const, 'co' as const, 'cb' as const),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('amend' as const),
      pick: fc.nat(),
      price: fc.integer({ min: 95, max: 105 }),
      amount: fc.integer({ min: 1, max: 12 }),
      samePrice: fc.boolean(),
    }),
  },
);

const view = (r: MatchResult) => ({
  outcome: r.outcome,
  fills: r.fills.map((f) => ({ makerId: f.makerId, price: f.price, lots: f.lots })),
  cancelled: r.stpCancelled.map((o) => o.id),
  left: r.left,
});

describe('engine vs reference model', () => {
  it('agrees on every fill, outcome and book level', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 80 }), (ops) => {
        const engine = new MatchingEngine();
        const ref = new Reference();
        let n = 0;
        for (const o of ops) {
          if (o.kind === 'cancel' || o.kind === 'amend') {
            if (ref.orders.length === 0) continue;
            const target = ref.orders[o.pick % ref.orders.length]!;
            if (o.kind === 'cancel') {
              ref.cancel(target.id);
              expect(engine.cancel(target.id)?.id).toBe(target.id);
            } else {
              const price = o.samePrice ? target.price : o.price;
              const amount = BigInt(o.amount);
              const expected = ref.amend(target.id, price, amount, 'cn');
              const actual = engine.amend(target.id, price, amount, { timeInForce: 'gtc', stpAct: 'cn' });
              expect(actual?.kept).toBe(expected?.kept);
              if (actual && !actual.kept && expected && !expected.kept) {
                const { kept: _k, ...rest } = expected;
                expect(view(actual.result)).toEqual(rest);
              }
            }
          } else {
            const incoming: IncomingOrder = {
              id: String(++n),
              owner: o.owner,
              side: o.side,
              type: o.kind,
              price: o.kind === 'limit' ? o.price : 0,
              amount: BigInt(o.amount),
              timeInForce: o.tif,
              stpGroup: GROUP_OF[o.owner]!,
              stpAct: o.stpAct,
            };
            const expected = ref.place({ ...incoming });
            expect(view(engine.place(incoming))).toEqual(expected);
          }
          expect(engine.depth('buy', 100)).toEqual(ref.depth('buy'));
          expect(engine.depth('sell', 100)).toEqual(ref.depth('sell'));
        }
      }),
      { numRuns: 400, seed: 20261121 },
    );
  });
});
