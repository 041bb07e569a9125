/**
 * The last traded price for the book's spread row and whether it went up or down against the trade
 * before it. A trade at the same price as the one before keeps the colour of the last change (as on
 * the platform's own screen), so the colour only flips when the price moves.
 */
import type { PublicTrade } from '../../../../../shared/contract/trade';
import { compareDecimal } from '../../../../../shared/trade/book';
import { isDecimalString } from '../../../lib/format';

export type PriceDirection = 'up' | 'down' | 'flat';

export interface LastPrice {
  price: string | undefined;
  direction: PriceDirection;
}

/**
 * From the recent trades, newest first (the feed's trades), else the ticker's last price (no
 * direction then: nothing to compare with).
 */
export const lastPriceOf = (trades: readonly PublicTrade[], tickerLast: string | undefined): LastPrice => {
  const newest = trades[0];
  if (newest === undefined || !isDecimalString(newest.price)) {
    return { price: tickerLast && isDecimalString(tickerLast) ? tickerLast : undefined, direction: 'flat' };
  }
  for (const earlier of trades.slice(1)) {
    if (!isDecimalString(earlier.price)) continue;
    const order = compareDecimal(newest.price, earlier.price);
    if (order !== 0) return { price: newest.price, direction: order > 0 ? 'up' : 'down' };
  }
  return { price: newest.price, direction: 'flat' };
};
