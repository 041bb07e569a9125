/**
 * Spot operations the order ticket uses. Shapes follow api-facts §1 (the spec lists spot by path
 * only); every field the app does not need is optional so the platform may add fields freely.
 */
import { z } from 'zod';
import { decimalString, idString, optDecimal, optSeconds, optText, unixMillis, unixSeconds } from './common';

export const ServerTime = z.object({ server_time: unixMillis });

export const Currency = z.looseObject({
  currency: z.string(),
  name: optText,
  delisted: z.boolean().optional(),
  withdraw_disabled: z.boolean().optional(),
  withdraw_delayed: z.boolean().optional(),
  deposit_disabled: z.boolean().optional(),
  trade_disabled: z.boolean().optional(),
  chain: optText,
  chains: z
    .array(
      z.object({
        name: z.string(),
        addr: optText,
        withdraw_disabled: z.boolean().optional(),
        withdraw_delayed: z.boolean().optional(),
        deposit_disabled: z.boolean().optional(),
      }),
    )
    .optional(),
});
export type Currency = z.infer<typeof Currency>;

export const CurrencyPair = z.looseObject({
  id: z.string(),
  base: z.string(),
  quote: z.string(),
  fee: optDecimal,
  min_base_amount: optDecimal,
  min_quote_amount: optDecimal,
  max_base_amount: optDecimal,
  max_quote_amount: optDecimal,
  amount_precision: z.number().int(),
  precision: z.number().int(),
  trade_status: z.string(),
  sell_start: z.number().optional(),
  buy_start: z.number().optional(),
});
export type CurrencyPair = z.infer<typeof CurrencyPair>;

export const Ticker = z.looseObject({
  currency_pair: z.string(),
  last: decimalString,
  lowest_ask: optDecimal,
  lowest_size: optDecimal,
  highest_bid: optDecimal,
  highest_size: optDecimal,
  change_percentage: optDecimal,
  base_volume: optDecimal,
  quote_volume: optDecimal,
  high_24h: optDecimal,
  low_24h: optDecimal,
});
export type Ticker = z.infer<typeof Ticker>;

const Level = z.tuple([decimalString, decimalString]);
export const OrderBook = z.object({
  id: z.number().optional(),
  current: unixMillis.optional(),
  update: unixMillis.optional(),
  asks: z.array(Level),
  bids: z.array(Level),
});
export type OrderBook = z.infer<typeof OrderBook>;

export const Trade = z.looseObject({
  id: idString,
  create_time: unixSeconds,
  create_time_ms: unixMillis.optional(),
  currency_pair: z.string(),
  side: z.enum(['buy', 'sell']),
  role: z.enum(['taker', 'maker']).optional(),
  amount: decimalString,
  price: decimalString,
  order_id: idString.optional(),
  fee: optDecimal,
  fee_currency: optText,
  point_fee: optDecimal,
  gt_fee: optDecimal,
  text: optText,
  sequence_id: optText,
});
export type Trade = z.infer<typeof Trade>;

/** One candle row → named fields (the platform sends an array of strings, see api-facts §1.9). */
export const Candle = z
  .array(z.union([z.string(), z.number()]))
  .min(6)
  .transform((row) => ({
    t: Number(row[0]),
    quoteVolume: String(row[1]),
    close: String(row[2]),
    high: String(row[3]),
    low: String(row[4]),
    open: String(row[5]),
    baseVolume: row[6] === undefined ? undefined : String(row[6]),
    closed: row[7] === undefined ? undefined : String(row[7]) === 'true',
  }));
export type Candle = z.infer<typeof Candle>;

export const CandleInterval = z.enum(['1s', '10s', '1m', '5m', '15m', '30m', '1h', '4h', '8h', '1d', '7d', '30d']);

export const SpotAccount = z.object({
  currency: z.string(),
  available: decimalString,
  locked: decimalString,
  update_id: z.number().optional(),
});
export type SpotAccount = z.infer<typeof SpotAccount>;

export const Order = z.looseObject({
  id: idString,
  text: optText,
  amend_text: optText,
  create_time: optSeconds,
  update_time: optSeconds,
  create_time_ms: optSeconds,
  update_time_ms: optSeconds,
  status: z.string().optional(),
  currency_pair: z.string().optional(),
  type: optText,
  account: optText,
  side: optText,
  amount: optDecimal,
  price: optDecimal,
  time_in_force: optText,
  iceberg: optDecimal,
  left: optDecimal,
  filled_amount: optDecimal,
  fill_price: optDecimal,
  filled_total: optDecimal,
  avg_deal_price: optDecimal,
  fee: optDecimal,
  fee_currency: optText,
  point_fee: optDecimal,
  gt_fee: optDecimal,
  rebated_fee: optDecimal,
  stp_id: z.number().optional(),
  stp_act: optText,
  finish_as: optText,
});
export type Order = z.infer<typeof Order>;

export const OrderCancel = Order.extend({
  succeeded: z.boolean().optional(),
  label: optText,
  message: optText,
});
export type OrderCancel = z.infer<typeof OrderCancel>;

export const OpenOrders = z.object({
  currency_pair: z.string(),
  total: z.number(),
  orders: z.array(Order),
});
export type OpenOrders = z.infer<typeof OpenOrders>;

export const SpotFee = z.looseObject({
  user_id: z.number().optional(),
  taker_fee: decimalString,
  maker_fee: decimalString,
  gt_discount: z.boolean().optional(),
  gt_taker_fee: optDecimal,
  gt_maker_fee: optDecimal,
  currency_pair: optText,
});
export type SpotFee = z.infer<typeof SpotFee>;

export const AccountBookEntry = z.looseObject({
  id: idString,
  time: unixMillis,
  currency: z.string(),
  change: decimalString,
  balance: decimalString,
  type: z.string(),
  text: optText,
});
export type AccountBookEntry = z.infer<typeof AccountBookEntry>;

/** Client order text: `t-` + at most 28 bytes of 0-9 A-Z a-z _ - . */
export const orderText = z
  .string()
  .regex(/^t-[0-9A-Za-z_.-]{1,28}$/, 'Starts with t- and at most 28 characters after it');

export const PlaceOrderRequest = z.object({
  currency_pair: z.string().min(1),
  side: z.enum(['buy', 'sell']),
  amount: z.string().regex(/^\d+(\.\d+)?$/),
  price: z
    .string()
    .regex(/^\d+(\.\d+)?$/)
    .optional(),
  type: z.enum(['limit', 'market']).optional(),
  account: z.enum(['spot', 'margin', 'cross_margin', 'unified']).optional(),
  time_in_force: z.enum(['gtc', 'ioc', 'poc', 'fok']).optional(),
  iceberg: z.string().optional(),
  text: orderText.optional(),
  stp_act: z.enum(['cn', 'co', 'cb']).optional(),
  action_mode: z.enum(['ACK', 'RESULT', 'FULL']).optional(),
});
export type PlaceOrderRequest = z.infer<typeof PlaceOrderRequest>;

export const AmendOrderRequest = z.object({
  amount: z.string().optional(),
  price: z.string().optional(),
  amend_text: z.string().optional(),
  account: z.string().optional(),
});
export type AmendOrderRequest = z.infer<typeof AmendOrderRequest>;

/** Price-triggered order (api-facts §1.16; the official SDKs' SpotPriceTriggeredOrder). */
export const PriceTriggeredOrder = z.looseObject({
  trigger: z.looseObject({
    price: decimalString,
    rule: z.enum(['>=', '<=']),
    expiration: z.number().int(),
  }),
  put: z.looseObject({
    type: z.enum(['limit', 'market']).optional(),
    side: z.enum(['buy', 'sell']),
    price: decimalString,
    amount: decimalString,
    account: z.string().optional(),
    time_in_force: z.string().optional(),
    text: optText,
  }),
  id: idString,
  user: z.number().optional(),
  market: z.string(),
  ctime: optSeconds,
  ftime: optSeconds,
  fired_order_id: idString.nullish(),
  status: z.enum(['open', 'cancelled', 'finish', 'failed', 'expired']),
  reason: optText,
});
export type PriceTriggeredOrder = z.infer<typeof PriceTriggeredOrder>;

export const PlacePriceOrderRequest = z.object({
  market: z.string().min(1),
  trigger: z.object({
    price: z.string().regex(/^\d+(\.\d+)?$/),
    rule: z.enum(['>=', '<=']),
    /** Seconds the trigger waits before it expires. */
    expiration: z.number().int().positive(),
  }),
  put: z.object({
    type: z.enum(['limit', 'market']),
    side: z.enum(['buy', 'sell']),
    /** The limit price; "0" for a market order. */
    price: z.string().regex(/^\d+(\.\d+)?$/),
    amount: z.string().regex(/^\d+(\.\d+)?$/),
    account: z.enum(['normal', 'margin', 'unified']),
    time_in_force: z.enum(['gtc', 'ioc']),
    text: orderText.optional(),
  }),
});
export type PlacePriceOrderRequest = z.infer<typeof PlacePriceOrderRequest>;

/** POST /spot/price_orders answers only the new id (201). */
export const PriceOrderId = z.looseObject({ id: idString });
