import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BookSync, type BookUpdate } from './bookSync';

/** A reference book that records every change as a sequenced update, like the platform's. */
class ReferenceBook {
  id = 100;
  readonly bids = new Map<string, string>();
  readonly asks = new Map<string, string>();
  readonly updates: BookUpdate[] = [];

  change(side: 'bids' | 'asks', price: string, size: string): void {
    if (size === '0') this[side].delete(price);
    else this[side].set(price, size);
    this.id++;
    const level: [string, string] = [price, size];
    this.updates.push({
      U: this.id,
      u: this.id,
      bids: side === 'bids' ? [level] : [],
      asks: side === 'asks' ? [level] : [],
    });
  }

  snapshot() {
    const sorted = (map: Map<string, string>, desc: boolean) =>
      [...map.entries()].sort(([a], [b]) => (desc ? Number(b) - Number(a) : Number(a) - Number(b)));
    return { id: this.id, bids: sorted(this.bids, true), asks: sorted(this.asks, false) };
  }
}

/** Consecutive single updates merged into one message covering U..u (what a 100 ms batch is). */
const batch = (updates: readonly BookUpdate[]): BookUpdate => ({
  U: updates[0]!.U,
  u: updates[updates.length - 1]!.u,
  bids: updates.flatMap((x) => x.bids),
  asks: updates.flatMap((x) => x.asks),
});

const change = fc.record({
  side: fc.constantFrom('bids' as const, 'asks' as const),
  price: fc.integer({ min: 1, max: 40 }).map((n) => (n / 4).toFixed(2)),
  size: fc.oneof(
    fc.constant('0'),
    fc.integer({ min: 1, max: 999 }).map((n) => `${n}.5`),
  ),
});

describe('BookSync', () => {
  it('a REST snapshot plus every later update (batched, some before the snapshot) always equals the book', () => {
    fc.assert(
      fc.property(
        fc.array(change, { minLength: 0, maxLength: 60 }),
        fc.array(change, { minLength: 1, maxLength: 200 }),
        fc.integer({ min: 1, max: 7 }),
        fc.integer({ min: 0, max: 10 }),
        (before, after, batchSize, overlap) => {
          const platform = new ReferenceBook();
          for (const c of before) platform.change(c.side, c.price, c.size);
          const startedAt = platform.updates.length;
          // The stream connects a little before the snapshot is taken: `overlap` updates arrive
          // before it and are also contained in it.
          const early = platform.updates.slice(Math.max(0, startedAt - overlap));
          const snap = platform.snapshot();
          for (const c of after) platform.change(c.side, c.price, c.size);
          const late = platform.updates.slice(startedAt);

          const local = new BookSync();
          for (let i = 0; i < early.length; i += batchSize) local.update(batch(early.slice(i, i + batchSize)));
          expect(local.snapshot(snap.id, snap.bids, snap.asks)).toBe('applied');
          for (let i = 0; i < late.length; i += batchSize) {
            expect(local.update(batch(late.slice(i, i + batchSize)))).not.toBe('gap');
          }
          const expected = platform.snapshot();
          expect(local.levels()).toEqual({ bids: expected.bids, asks: expected.asks });
          expect(local.lastId).toBe(expected.id);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a missing update is a gap: the copy is dropped until a new snapshot', () => {
    const platform = new ReferenceBook();
    platform.change('bids', '1.00', '5');
    const snap = platform.snapshot();
    const local = new BookSync();
    local.snapshot(snap.id, snap.bids, snap.asks);
    platform.change('bids', '1.00', '6');
    platform.change('asks', '2.00', '1');
    const [, second] = platform.updates.slice(-2);
    expect(local.update(second!)).toBe('gap');
    expect(local.synced).toBe(false);
    // Updates after the gap wait for the next snapshot, which rebuilds the copy.
    platform.change('asks', '2.00', '3');
    expect(local.update(platform.updates.at(-1)!)).toBe('buffered');
    const again = platform.snapshot();
    expect(local.snapshot(again.id, again.bids, again.asks)).toBe('applied');
    expect(local.levels()).toEqual({ bids: [['1.00', '6']], asks: [['2.00', '3']] });
  });

  it('a full push replaces the book; prices are kept as written and ordered exactly', () => {
    const local = new BookSync();
    local.update({
      U: 1,
      u: 9,
      full: true,
      bids: [
        ['0.10', '1'],
        ['0.9', '2'],
        ['10', '3'],
      ],
      asks: [['11.5', '1']],
    });
    expect(local.levels().bids.map(([p]) => p)).toEqual(['10', '0.9', '0.10']);
    local.update({ U: 10, u: 10, bids: [['0.1', '0']], asks: [] });
    expect(local.levels().bids.map(([p]) => p)).toEqual(['10', '0.9']);
    expect(local.levels(1)).toEqual({ bids: [['10', '3']], asks: [['11.5', '1']] });
  });
});
