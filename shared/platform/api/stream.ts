/**
 * Results of the platform's WebSocket API v4 (spot) channels the app reads (api-facts §8). Every
 * message is validated in main before anything is taken from it, like a REST answer. Trades,
 * tickers and orders have their REST shapes (plus a few fields); the book and candles have their own.
 */
import { z } from 'zod';
import { decimalString, idString, unixMillis } from './common';
import { Order, Ticker, Trade } from './spot';

const Level = z.tuple([decimalString, decimalString]);

/** spot.order_book_update / spot.obu: sequenced changes (absolute sizes, "0" removes a level). */
export const StreamBookUpdate = z.looseObject({
  /** Milliseconds. */
  t: unixMillis.optional(),
  /** The pair. */
  s: z.string(),
  U: z.number().int(),
  u: z.number().int(),
  b: z.array(Level).default([]),
  a: z.array(Level).default([]),
  /** The whole book, not a change (a first push, or the platform's periodic resend). */
  full: z.boolean().optional(),
});
export type StreamBookUpdate = z.infer<typeof StreamBookUpdate>;

/** spot.trades: one public trade (REST Trade shape; id may be an integer). */
export const StreamTrade = Trade;

/** spot.tickers. */
export const StreamTicker = Ticker;

/** spot.candlesticks: the current candle of "<interval>_<pair>". */
export const StreamCandle = z.looseObject({
  /** Seconds. */
  t: z.union([z.number(), z.string()]).transform((v) => Number(v)),
  /** Total volume, in the quote currency. */
  v: decimalString.optional(),
  c: decimalString,
  h: decimalString,
  l: decimalString,
  o: decimalString,
  /** "<interval>_<pair>", e.g. "1m_BTC_USDT". */
  n: z.string(),
  /** Base currency amount traded. */
  a: decimalString.optional(),
  /** Whether the window closed. */
  w: z.boolean().optional(),
});
export type StreamCandle = z.infer<typeof StreamCandle>;

/** spot.orders: the order as REST returns it, with the owner and what happened to it. */
export const StreamOrder = Order.extend({
  user: idString.optional(),
  event: z.enum(['put', 'update', 'finish']).optional(),
});
export type StreamOrder = z.infer<typeof StreamOrder>;
