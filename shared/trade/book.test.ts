import Decimal from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BookLevel } from '../contract/trade';
import {
  applyBookChange,
  applyLevels,
  buildBookView,
  canonicalDecimal,
  compareDecimal,
  diffBook,
  diffLevels,
  groupingSteps,
} from './book';

describe('diffLevels / applyLevels', () => {
  it('reports changed, new and removed levels only', () => {
    const prev: BookLevel[] = [
      ['100', '1'],
      ['101', '2'],
      ['102', '3'],
    ];
    const next: BookLevel[] = [
      ['100', '1'],
      ['101', '2.5'],
      ['103', '4'],
    ];
    expect(diffLevels(prev, next)).toEqual([
      ['101', '2.5'],
      ['103', '4'],
      ['102', '0'],
    ]);
  });

  it('treats 1.50 and 1.5 as the same amount', () => {
    expect(diffLevels([['100', '1.50']], [['100', '1.5']])).toEqual([]);
    expect(diffBook({ asks: [['1', '1']], bids: [] }, { asks: [['1', '1.0']], bids: [] })).toBeUndefined();
  });

  it('keeps asks ascending and bids descending after applying', () => {
    expect(applyLevels([['101', '1']], [['100.5', '2']], 'asks').map((l) => l[0])).toEqual(['100.5', '101']);
    expect(applyLevels([['99', '1']], [['99.5', '2']], 'bids').map((l) => l[0])).toEqual(['99.5', '99']);
    expect(applyLevels([['99', '1']], [['99', '0']], 'bids')).toEqual([]);
  });

  it('applying the diff of two books to the first yields the second (property)', () => {
    const side = (dir: 'asks' | 'bids') =>
      fc.uniqueArray(fc.integer({ min: 1, max: 500 }), { maxLength: 30 }).chain((prices) =>
        fc.tuple(...prices.map(() => fc.integer({ min: 1, max: 9999 }))).map((amounts) => {
          const levels = prices.map((p, i): BookLevel => [(p / 10).toFixed(1), (amounts[i]! / 1000).toString()]);
          levels.sort((a, b) => (dir === 'asks' ? Number(a[0]) - Number(b[0]) : Number(b[0]) - Number(a[0])));
          return levels;
        }),
      );
    fc.assert(
      fc.property(side('asks'), side('bids'), side('asks'), side('bids'), (a1, b1, a2, b2) => {
        const before = { asks: a1, bids: b1 };
        const after = { asks: a2, bids: b2 };
        const change = diffBook(before, after) ?? { asks: [], bids: [] };
        expect(applyBookChange(before, change)).toEqual(after);
      }),
      { numRuns: 200 },
    );
  });
});

describe('compareDecimal / canonicalDecimal', () => {
  const decimalText = fc
    .tuple(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.nat({ max: 8 }), fc.nat({ max: 2 }), fc.nat({ max: 2 }))
    .map(([units, scale, leadingZeros, trailingZeros]) => {
      const digits = units.toString().padStart(scale + 1, '0');
      const int = '0'.repeat(leadingZeros) + digits.slice(0, digits.length - scale);
      const frac = digits.slice(digits.length - scale) + '0'.repeat(scale > 0 ? trailingZeros : 0);
      return frac === '' ? int : `${int}.${frac}`;
    });

  it('orders decimal strings exactly as decimal.js does (property)', () => {
    fc.assert(
      fc.property(decimalText, decimalText, (a, b) => {
        expect(compareDecimal(a, b)).toBe(new Decimal(a).comparedTo(b));
        expect(canonicalDecimal(a)).toBe(new Decimal(a).toFixed());
      }),
      { numRuns: 500 },
    );
  });
});

describe('groupingSteps', () => {
  it('offers the tick and its multiples', () => {
    expect(groupingSteps(2)).toEqual(['0.01', '0.1', '1', '10']);
    expect(groupingSteps(0)).toEqual(['1', '10', '100', '1000']);
  });
});

describe('buildBookView', () => {
  const book = {
    asks: [
      ['100.01', '1'],
      ['100.04', '2'],
      ['100.12', '0.5'],
    ] as BookLevel[],
    bids: [
      ['99.99', '1.5'],
      ['99.95', '1'],
      ['99.81', '3'],
    ] as BookLevel[],
  };
  const options = { step: '0.01', depth: 10, precision: 2, amountPrecision: 3 };

  it('shows levels with cumulative totals and the spread', () => {
    const view = buildBookView(book, options);
    expect(view.asks.map((r) => [r.price, r.amount, r.total])).toEqual([
      ['100.01', '1.000', '1.000'],
      ['100.04', '2.000', '3.000'],
      ['100.12', '0.500', '3.500'],
    ]);
    expect(view.spread).toBe('0.02');
    expect(view.spreadRatio).toBe('0.0002');
    // The bid side is deeper (5.5), so the last bid row is the full bar.
    expect(view.bids.at(-1)!.depth).toBe(1);
    expect(view.asks.at(-1)!.depth).toBeCloseTo(3.5 / 5.5, 3);
  });

  it('groups asks up and bids down to the step', () => {
    const view = buildBookView(book, { ...options, step: '0.1' });
    expect(view.asks.map((r) => [r.price, r.amount])).toEqual([
      ['100.1', '3.000'],
      ['100.2', '0.500'],
    ]);
    expect(view.bids.map((r) => [r.price, r.amount])).toEqual([
      ['99.9', '2.500'],
      ['99.8', '3.000'],
    ]);
  });

  it('cuts each side to the chosen depth after grouping', () => {
    const view = buildBookView(book, { ...options, depth: 1, step: '1' });
    expect(view.asks).toEqual([{ price: '101', amount: '3.500', total: '3.500', depth: 0.6364 }]);
    expect(view.bids).toEqual([{ price: '99', amount: '5.500', total: '5.500', depth: 1 }]);
  });

  it('keeps every amount and never shows a better price than the orders have (property)', () => {
    const level = fc
      .tuple(fc.integer({ min: 1, max: 2_000_000 }), fc.integer({ min: 1, max: 99_999 }))
      .map(([p, a]): BookLevel => [(p / 100).toFixed(2), (a / 1000).toFixed(3)]);
    fc.assert(
      fc.property(
        fc.uniqueArray(level, { selector: (l) => l[0], maxLength: 40 }),
        fc.constantFrom(...groupingSteps(2)),
        (raw, step) => {
          const asks = [...raw].sort((a, b) => compareDecimal(a[0], b[0]));
          const view = buildBookView({ asks, bids: [] }, { step, depth: 1000, precision: 2, amountPrecision: 3 });
          const total = asks.reduce((sum, l) => sum.add(l[1]), new Decimal(0));
          expect(view.asks.at(-1)?.total ?? '0.000').toBe(total.toFixed(3));
          for (const [price] of asks) {
            const group = view.asks.find(
              (r) => new Decimal(r.price).gte(price) && new Decimal(r.price).sub(step).lt(price),
            );
            expect(group, `a group for ${price} at step ${step}`).toBeDefined();
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
