/**
 * Order-book arithmetic shared by main's feed (diffing successive snapshots so only changed levels
 * cross IPC) and the renderer (applying those changes, grouping by tick multiples, cumulative depth).
 * Pure; decimal.js for every amount.
 */
import Decimal from 'decimal.js';
import type { BookLevel } from '../contract/trade';

export interface BookSides {
  /** Ascending prices. */
  asks: readonly BookLevel[];
  /** Descending prices. */
  bids: readonly BookLevel[];
}

const sameAmount = (a: string, b: string): boolean => a === b || new Decimal(a).eq(b);
const priceKey = (price: string): string => new Decimal(price).toFixed();

/** Levels of `next` that are new or whose amount changed, plus [price, "0"] for levels that vanished. */
export const diffLevels = (prev: readonly BookLevel[], next: readonly BookLevel[]): BookLevel[] => {
  const before = new Map<string, string>();
  for (const [price, amount] of prev) before.set(priceKey(price), amount);
  const changes: BookLevel[] = [];
  for (const [price, amount] of next) {
    const key = priceKey(price);
    const old = before.get(key);
    if (old === undefined || !sameAmount(old, amount)) changes.push([price, amount]);
    before.delete(key);
  }
  for (const [price] of before) changes.push([price, '0']);
  return changes;
};

/** The change between two books, or undefined when nothing changed. */
export const diffBook = (prev: BookSides, next: BookSides): BookSides | undefined => {
  const asks = diffLevels(prev.asks, next.asks);
  const bids = diffLevels(prev.bids, next.bids);
  return asks.length === 0 && bids.length === 0 ? undefined : { asks, bids };
};

/** Apply changed levels (amount "0" removes) to one side, keeping it sorted (asks up, bids down). */
export const applyLevels = (
  current: readonly BookLevel[],
  changes: readonly BookLevel[],
  side: 'asks' | 'bids',
): BookLevel[] => {
  if (changes.length === 0) return current as BookLevel[];
  const levels = new Map<string, BookLevel>();
  for (const level of current) levels.set(priceKey(level[0]), level);
  for (const level of changes) {
    const key = priceKey(level[0]);
    if (new Decimal(level[1]).isZero()) levels.delete(key);
    else levels.set(key, level);
  }
  const sorted = [...levels.values()].map((level) => ({ level, price: new Decimal(level[0]) }));
  sorted.sort((a, b) => (side === 'asks' ? a.price.comparedTo(b.price) : b.price.comparedTo(a.price)));
  return sorted.map((s) => s.level);
};

export const applyBookChange = (book: BookSides, change: BookSides): BookSides => ({
  asks: applyLevels(book.asks, change.asks, 'asks'),
  bids: applyLevels(book.bids, change.bids, 'bids'),
});

/** Grouping choices for a pair: its tick, then ×10, ×100, ×1000 (as decimal strings). */
export const groupingSteps = (precision: number): string[] =>
  [0, 1, 2, 3].map((k) => new Decimal(10).pow(k - precision).toFixed(Math.max(0, precision - k)));

export interface BookRow {
  /** Group price, formatted with the group step's decimals. */
  price: string;
  /** Amount at this price (group sum), formatted with the pair's amount precision. */
  amount: string;
  /** Cumulative amount from the best price to this row, same format. */
  total: string;
  /** Cumulative amount as a fraction (0..1] of the larger side's cumulative total, for the depth bar. */
  depth: number;
}

export interface BookView {
  /** Best ask first (ascending). */
  asks: BookRow[];
  /** Best bid first (descending). */
  bids: BookRow[];
  bestAsk?: string;
  bestBid?: string;
  /** Best ask − best bid, with the pair's price precision. */
  spread?: string;
  /** Spread as a percentage of the mid, two decimals. */
  spreadPercent?: string;
}

export interface BookViewOptions {
  /** Group step as a decimal string (a multiple of the tick); the tick itself means no grouping. */
  step: string;
  /** Rows per side. */
  depth: number;
  /** The pair's price precision. */
  precision: number;
  /** The pair's amount precision. */
  amountPrecision: number;
}

const groupSide = (
  levels: readonly BookLevel[],
  side: 'asks' | 'bids',
  step: Decimal,
  stepDecimals: number,
  depth: number,
): { price: string; amount: Decimal }[] => {
  const rows: { price: string; amount: Decimal }[] = [];
  // Asks round up and bids round down, so a group never shows a better price than its orders have.
  const rounding = side === 'asks' ? Decimal.ROUND_CEIL : Decimal.ROUND_FLOOR;
  for (const [priceText, amountText] of levels) {
    const grouped = new Decimal(priceText).div(step).toDecimalPlaces(0, rounding).mul(step).toFixed(stepDecimals);
    const last = rows[rows.length - 1];
    if (last && last.price === grouped) last.amount = last.amount.add(amountText);
    else {
      if (rows.length === depth) break;
      rows.push({ price: grouped, amount: new Decimal(amountText) });
    }
  }
  return rows;
};

/** Group, cut to depth and accumulate both sides for display. */
export const buildBookView = (book: BookSides, options: BookViewOptions): BookView => {
  const step = new Decimal(options.step);
  const stepDecimals = Math.max(0, step.decimalPlaces());
  const asks = groupSide(book.asks, 'asks', step, stepDecimals, options.depth);
  const bids = groupSide(book.bids, 'bids', step, stepDecimals, options.depth);
  const cumulate = (rows: { price: string; amount: Decimal }[]) => {
    let sum = new Decimal(0);
    return rows.map((r) => {
      sum = sum.add(r.amount);
      return { ...r, total: sum };
    });
  };
  const askRows = cumulate(asks);
  const bidRows = cumulate(bids);
  const maxTotal = Decimal.max(askRows.at(-1)?.total ?? 0, bidRows.at(-1)?.total ?? 0);
  const toRow = (r: { price: string; amount: Decimal; total: Decimal }): BookRow => ({
    price: r.price,
    amount: r.amount.toFixed(options.amountPrecision),
    total: r.total.toFixed(options.amountPrecision),
    depth: maxTotal.isZero() ? 0 : r.total.div(maxTotal).toDecimalPlaces(4).toNumber(),
  });
  const view: BookView = { asks: askRows.map(toRow), bids: bidRows.map(toRow) };
  const bestAsk = book.asks[0]?.[0];
  const bestBid = book.bids[0]?.[0];
  if (bestAsk !== undefined) view.bestAsk = bestAsk;
  if (bestBid !== undefined) view.bestBid = bestBid;
  if (bestAsk !== undefined && bestBid !== undefined) {
    const spread = new Decimal(bestAsk).sub(bestBid);
    const mid = new Decimal(bestAsk).add(bestBid).div(2);
    view.spread = spread.toFixed(options.precision);
    view.spreadPercent = mid.isZero() ? undefined : spread.div(mid).mul(100).toFixed(2);
    if (view.spreadPercent === undefined) delete view.spreadPercent;
  }
  return view;
};
