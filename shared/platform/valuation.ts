/**
 * What one unit of a currency is worth in another, from the spot tickers, by the best route there
 * is — the one rule the firm-wide view (main) and the balance tables (the screens) value holdings by:
 *
 *   1. the currency itself (1 USDT in USDT is 1);
 *   2. a direct pair (ETH_BTC for ETH in BTC), or the pair the other way round (BTC_ETH, inverted);
 *   3. through USDT (ETH → USDT → BTC), each leg by rule 2.
 *
 * A pair's price is its last trade; a pair that has not traded yet is priced at the middle of its
 * best bid and ask, and one with only a side or nothing has no price. USD is taken as USDT (1 USDT =
 * 1 USD, said in the view's basis). Exact decimals only (decimal.js); pure.
 */
import Decimal from 'decimal.js';

/** A pair's ticker, in whichever spelling: the platform's fields mapped to these names. */
export interface PairQuote {
  /** "BASE_QUOTE". */
  readonly pair: string;
  readonly last?: string | undefined;
  readonly highestBid?: string | undefined;
  readonly lowestAsk?: string | undefined;
}

/** How a price was found, in words for the screen's note ("via USDT", "mid of the book"). */
export interface Valuation {
  /** One unit of the currency, in the quote. */
  readonly price: Decimal;
  /** How: "" for the quote itself, else e.g. "BTC_USDT", "BTC_USDT via USDT", "ETH_BTC mid of the book". */
  readonly route: string;
}

const positive = (text: string | undefined): Decimal | undefined => {
  if (text === undefined || !/^\d+(\.\d+)?$/.test(text.trim())) return undefined;
  const value = new Decimal(text.trim());
  return value.gt(0) ? value : undefined;
};

/** The pair's price: its last trade, else the mid of best bid and ask; with how it was found. */
const pairPrice = (q: PairQuote): { price: Decimal; mid: boolean } | undefined => {
  const last = positive(q.last);
  if (last) return { price: last, mid: false };
  const bid = positive(q.highestBid);
  const ask = positive(q.lowestAsk);
  return bid && ask ? { price: bid.plus(ask).div(2), mid: true } : undefined;
};

/** The currency the app takes as another's equal (USD is valued as USDT). */
const SAME_AS: Readonly<Record<string, string>> = { USD: 'USDT' };

/**
 * The value of one unit of any currency in `quote`, by the best route (see above), or undefined when
 * the tickers give none.
 */
export const valuationIn = (
  quote: string,
  tickers: readonly PairQuote[],
): ((currency: string) => Valuation | undefined) => {
  const pairs = new Map<string, { price: Decimal; mid: boolean }>();
  for (const t of tickers) {
    const price = pairPrice(t);
    if (price) pairs.set(t.pair, price);
  }
  const target = SAME_AS[quote] ?? quote;
  const note = (pair: string, mid: boolean) => (mid ? `${pair} mid of the book` : pair);
  /** One leg: the currency in `to` through a direct pair or its inverse. */
  const leg = (from: string, to: string): Valuation | undefined => {
    if (from === to) return { price: new Decimal(1), route: '' };
    const direct = pairs.get(`${from}_${to}`);
    if (direct) return { price: direct.price, route: note(`${from}_${to}`, direct.mid) };
    const inverse = pairs.get(`${to}_${from}`);
    if (inverse) return { price: new Decimal(1).div(inverse.price), route: note(`${to}_${from}`, inverse.mid) };
    return undefined;
  };
  return (currency) => {
    const from = SAME_AS[currency] ?? currency;
    const straight = leg(from, target);
    if (straight) return straight;
    const toUsdt = leg(from, 'USDT');
    const fromUsdt = leg('USDT', target);
    if (!toUsdt || !fromUsdt) return undefined;
    const route = [toUsdt.route, fromUsdt.route].filter(Boolean).join(' and ');
    return { price: toUsdt.price.times(fromUsdt.price), route: `${route} via USDT` };
  };
};
