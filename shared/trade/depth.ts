/**
 * The depth chart's curve: cumulative bids and asks around the mid, from the same book the order book
 * shows (docs/trade.md, "Depth chart"). Sums are exact (decimal.js on the decimal strings); the
 * numbers in `points` are for drawing only.
 */
import Decimal from 'decimal.js';
import type { BookSides } from './book';

export interface DepthPoint {
  /** Price in the quote currency (for drawing). */
  price: number;
  /** Cumulative bid size (base) from the best bid down to this price; absent on the ask side. */
  bids?: number;
  /** Cumulative ask size (base) from the best ask up to this price; absent on the bid side. */
  asks?: number;
}

export interface DepthCurve {
  /** Ascending prices: the bids (lowest first), then the asks. */
  points: DepthPoint[];
  /** (best bid + best ask) / 2, when both sides have a level. */
  mid?: string;
  /** The price range drawn, the same distance on both sides of the mid when there is one. */
  domain?: [number, number];
  /** Exact cumulative sizes at the far end of each side, and where that end is. */
  bidTotal: string;
  askTotal: string;
  lowestBid?: string;
  highestAsk?: string;
}

/** Levels per side taken into the curve (the feed keeps 100). */
export const DEPTH_LEVELS = 100;

const accumulate = (
  levels: readonly (readonly [string, string])[],
  keep: (price: Decimal) => boolean,
): { price: Decimal; total: Decimal }[] => {
  const out: { price: Decimal; total: Decimal }[] = [];
  let total = new Decimal(0);
  for (const [priceText, amountText] of levels.slice(0, DEPTH_LEVELS)) {
    const price = new Decimal(priceText);
    if (!keep(price)) break;
    total = total.add(amountText);
    out.push({ price, total });
  }
  return out;
};

/**
 * Cumulative sizes per price. With both sides present the range around the mid is the nearer of the
 * two sides' far ends, so both curves fill the same width and the mid sits in the middle.
 */
export const depthCurve = (book: BookSides): DepthCurve => {
  const bestBid = book.bids[0]?.[0];
  const bestAsk = book.asks[0]?.[0];
  let keepBid = (_: Decimal) => true;
  let keepAsk = (_: Decimal) => true;
  let mid: Decimal | undefined;
  let range: Decimal | undefined;
  if (bestBid !== undefined && bestAsk !== undefined) {
    mid = new Decimal(bestBid).add(bestAsk).div(2);
    const lowest = new Decimal(book.bids[Math.min(book.bids.length, DEPTH_LEVELS) - 1]![0]);
    const highest = new Decimal(book.asks[Math.min(book.asks.length, DEPTH_LEVELS) - 1]![0]);
    range = Decimal.max(
      Decimal.min(mid.sub(lowest), highest.sub(mid)),
      mid.sub(bestBid),
      new Decimal(bestAsk).sub(mid),
    );
    const low = mid.sub(range);
    const high = mid.add(range);
    keepBid = (p) => p.gte(low);
    keepAsk = (p) => p.lte(high);
  }
  const bids = accumulate(book.bids, keepBid);
  const asks = accumulate(book.asks, keepAsk);
  // The far end of each side: the largest cumulative size.
  const farBid = bids.at(-1);
  const farAsk = asks.at(-1);
  const points: DepthPoint[] = [
    ...[...bids].reverse().map((b) => ({ price: b.price.toNumber(), bids: b.total.toNumber() })),
    ...asks.map((a) => ({ price: a.price.toNumber(), asks: a.total.toNumber() })),
  ];
  const curve: DepthCurve = {
    points,
    bidTotal: (farBid?.total ?? new Decimal(0)).toFixed(),
    askTotal: (farAsk?.total ?? new Decimal(0)).toFixed(),
  };
  if (farBid) curve.lowestBid = farBid.price.toFixed();
  if (farAsk) curve.highestAsk = farAsk.price.toFixed();
  if (mid !== undefined && range !== undefined) {
    curve.mid = mid.toFixed();
    curve.domain = [mid.sub(range).toNumber(), mid.add(range).toNumber()];
  }
  return curve;
};
