/**
 * Operations of the `trade` area: spot market data for one pair at a time (pairs, tickers, a live
 * order book fed by main, trades, candles), the order ticket and the user's orders and trades.
 *
 * Amounts and prices are decimal strings everywhere. Order placement is never retried by main: each
 * order carries a `t-` client text id so that an unknown outcome can be looked up, not resent.
 */
import { z } from 'zod';
import { operation } from '../ipc/define';
import { MovementOutcome } from './funding';

/** A positive or zero decimal written the plain way ("0.1", "65000"), no exponent, no sign. */
export const DecimalText = z
  .string()
  .max(64)
  .regex(/^\d+(\.\d+)?$/, 'must be a plain decimal number such as 0.15');
export const PairId = z
  .string()
  .min(3)
  .max(40)
  .regex(/^[A-Z0-9]+_[A-Z0-9]+$/, 'must be a currency pair such as BTC_USDT');

export const Side = z.enum(['buy', 'sell']);
export type Side = z.infer<typeof Side>;
export const OrderType = z.enum(['limit', 'market']);
export type OrderType = z.infer<typeof OrderType>;
export const TimeInForce = z.enum(['gtc', 'ioc', 'poc', 'fok']);
export type TimeInForce = z.infer<typeof TimeInForce>;
/** Self-trade prevention strategy of the taker: cancel newest, cancel oldest, cancel both. */
export const StpAct = z.enum(['cn', 'co', 'cb']);
export type StpAct = z.infer<typeof StpAct>;

/** The platform's candle intervals (GET /spot/candlesticks `interval`). */
export const CANDLE_INTERVALS = ['10s', '1m', '5m', '15m', '30m', '1h', '4h', '8h', '1d', '7d', '30d'] as const;
export const CandleInterval = z.enum(CANDLE_INTERVALS);
export type CandleInterval = z.infer<typeof CandleInterval>;

/** Depths the book can show per side; main always fetches the deepest so grouping has data. */
export const BOOK_DEPTHS = [10, 20, 50] as const;

/** A `t-` client order id: at most 28 bytes after the prefix, characters 0-9 A-Z a-z _ - . */
export const ClientText = z
  .string()
  .max(30)
  .regex(/^t-[0-9A-Za-z_.-]{1,28}$/, 'must be t- followed by up to 28 of 0-9 A-Z a-z _ - .');

export const Pair = z.object({
  id: z.string(),
  base: z.string(),
  quote: z.string(),
  /** Decimals of the price. */
  precision: z.number().int().min(0),
  /** Decimals of the amount. */
  amountPrecision: z.number().int().min(0),
  minBaseAmount: DecimalText.optional(),
  minQuoteAmount: DecimalText.optional(),
  maxBaseAmount: DecimalText.optional(),
  maxQuoteAmount: DecimalText.optional(),
  /** untradable, buyable, sellable, tradable. */
  tradeStatus: z.string(),
});
export type Pair = z.infer<typeof Pair>;

export const Ticker = z.object({
  pair: z.string(),
  last: z.string(),
  /** Percent, e.g. "-7.45". */
  changePercentage: z.string(),
  high24h: z.string(),
  low24h: z.string(),
  baseVolume: z.string(),
  quoteVolume: z.string(),
  lowestAsk: z.string().optional(),
  highestBid: z.string().optional(),
});
export type Ticker = z.infer<typeof Ticker>;

/** One price level: [price, amount] as the platform sends it. */
export const BookLevel = z.tuple([z.string(), z.string()]);
export type BookLevel = z.infer<typeof BookLevel>;

export const BookSnapshot = z.object({
  pair: z.string(),
  /** Feed version: increases by one with every change pushed for this pair. */
  version: z.number().int(),
  /** The platform's book id (with_id=true). */
  bookId: z.string(),
  /** When the platform last changed the book (ms). */
  updatedAt: z.number(),
  /** Ascending prices. */
  asks: z.array(BookLevel),
  /** Descending prices. */
  bids: z.array(BookLevel),
});
export type BookSnapshot = z.infer<typeof BookSnapshot>;

export const PublicTrade = z.object({
  id: z.string(),
  side: Side,
  price: z.string(),
  amount: z.string(),
  createTimeMs: z.number(),
});
export type PublicTrade = z.infer<typeof PublicTrade>;

export const Candle = z.object({
  /** Bucket start, Unix seconds. */
  t: z.number(),
  open: z.string(),
  high: z.string(),
  low: z.string(),
  close: z.string(),
  baseVolume: z.string(),
  quoteVolume: z.string(),
  closed: z.boolean(),
});
export type Candle = z.infer<typeof Candle>;

export const OrderStatus = z.enum(['open', 'closed', 'cancelled']);
export const Order = z.object({
  id: z.string(),
  text: z.string(),
  pair: z.string(),
  side: Side,
  type: OrderType,
  price: z.string(),
  amount: z.string(),
  left: z.string(),
  filledAmount: z.string(),
  filledTotal: z.string(),
  avgDealPrice: z.string(),
  fee: z.string(),
  feeCurrency: z.string(),
  timeInForce: z.string(),
  status: OrderStatus,
  /** open, filled, cancelled, ioc, poc, fok, stp, … */
  finishAs: z.string(),
  stpAct: z.string().optional(),
  stpId: z.number().optional(),
  createTimeMs: z.number(),
  updateTimeMs: z.number(),
});
export type Order = z.infer<typeof Order>;

/**
 * How a placement ended, as far as main knows: a value for every outcome the screen decides on (a
 * refusal is the operation's error: nothing was placed). `accepted` carries the order, or a note
 * when it was placed but cannot be read back now; `unknown` (no answer, a 5xx) means main is looking
 * for it by its text — the screen waits for that, never places it again.
 */
export const OrderResult = z.object({
  outcome: MovementOutcome,
  /** The order's client id, as sent. */
  text: z.string(),
  order: Order.optional(),
  /** Plain words when there is no order to show. */
  note: z.string().optional(),
  /** The request whose answer was lost (for support), when the outcome is unknown. */
  requestId: z.string().optional(),
});
export type OrderResult = z.infer<typeof OrderResult>;

export const MyTrade = z.object({
  id: z.string(),
  pair: z.string(),
  orderId: z.string(),
  side: Side,
  role: z.string(),
  price: z.string(),
  amount: z.string(),
  fee: z.string(),
  feeCurrency: z.string(),
  text: z.string(),
  createTimeMs: z.number(),
});
export type MyTrade = z.infer<typeof MyTrade>;

export const CurrencyBalance = z.object({ currency: z.string(), available: z.string(), locked: z.string() });

/** The balances of a pair's two currencies: what an order moves, read again after each one. */
export const TradeAccount = z.object({
  pair: z.string(),
  base: CurrencyBalance,
  quote: CurrencyBalance,
});
export type TradeAccount = z.infer<typeof TradeAccount>;

/**
 * The account's terms on a pair: what an order does not change, read when the pair opens (kept in
 * main's rules cache; an order's last check uses the same, however long the ticket was open).
 */
export const TradeTerms = z.object({
  pair: z.string(),
  /** Fee rates as fractions, e.g. "0.002" = 0.2 %. */
  makerFee: z.string(),
  takerFee: z.string(),
  /** The user's STP group id, or null when not in a group (stp_act is then not allowed). */
  stpGroupId: z.number().nullable(),
});
export type TradeTerms = z.infer<typeof TradeTerms>;

/** Order-entry guards and preferences; kept in main so the hard limits are enforced there too. */
export const TradeSettings = z.object({
  /** Warn when a limit price is further than this percentage from the mid. */
  priceDeviationPercent: DecimalText,
  /** Refuse orders whose notional (in the quote currency) is above this; empty = no limit. */
  maxNotional: DecimalText.or(z.literal('')),
  /** Ask for confirmation before every order. */
  confirmOrders: z.boolean(),
  /** Keyboard shortcuts on the trade screen (off by default). */
  shortcuts: z.boolean(),
  favourites: z.array(z.string().max(32)).max(200),
});
export type TradeSettings = z.infer<typeof TradeSettings>;

export const DEFAULT_TRADE_SETTINGS: TradeSettings = {
  priceDeviationPercent: '5',
  maxNotional: '',
  confirmOrders: false,
  shortcuts: false,
  favourites: [],
};

export const OrderRequest = z
  .object({
    pair: PairId,
    side: Side,
    type: OrderType,
    /** Required for limit orders; absent for market orders. */
    price: DecimalText.optional(),
    /** Limit and market sell: base amount. Market buy: quote amount to spend. */
    amount: DecimalText,
    timeInForce: TimeInForce,
    stpAct: StpAct.optional(),
    /**
     * The order's client id, made by the screen for this one submission: the order is journaled
     * with it before it is sent, a repeat of it joins the first, and an unknown outcome is looked up
     * by it (never placed again). Required: without it nothing could tell a lost order from none.
     */
    text: ClientText,
  })
  .strict()
  .superRefine((o, ctx) => {
    if (o.type === 'limit' && o.price === undefined)
      ctx.addIssue({ code: 'custom', path: ['price'], message: 'A limit order needs a price.' });
    if (o.type === 'market' && o.price !== undefined)
      ctx.addIssue({ code: 'custom', path: ['price'], message: 'A market order has no price.' });
    if (o.type === 'market' && o.timeInForce !== 'ioc' && o.timeInForce !== 'fok')
      ctx.addIssue({ code: 'custom', path: ['timeInForce'], message: 'A market order is IOC or FOK.' });
  });
export type OrderRequest = z.infer<typeof OrderRequest>;

/** A trigger fires when the last trade price is at or above (`>=`) or at or below (`<=`) its price. */
export const TriggerRule = z.enum(['>=', '<=']);
export type TriggerRule = z.infer<typeof TriggerRule>;
/** How long a trigger waits, in seconds (the ticket offers these choices). */
export const TRIGGER_EXPIRIES = [3600, 86_400, 7 * 86_400, 30 * 86_400] as const;
/** open → fired (its order was placed) · failed (the order was refused) · expired · cancelled. */
export const TriggerStatus = z.enum(['open', 'fired', 'failed', 'expired', 'cancelled']);
export type TriggerStatus = z.infer<typeof TriggerStatus>;

export const TriggerRequest = z
  .object({
    pair: PairId,
    rule: TriggerRule,
    triggerPrice: DecimalText,
    /** The order placed when the trigger fires. */
    side: Side,
    type: OrderType,
    /** Limit price; absent for a market order. */
    price: DecimalText.optional(),
    /** Limit and market sell: base amount. Market buy: quote amount to spend. */
    amount: DecimalText,
    /** Seconds the trigger waits before it expires: one minute to 30 days. */
    expiresInSeconds: z
      .number()
      .int()
      .min(60)
      .max(30 * 86_400),
    /**
     * The client id of the order it places, made by the screen: a trigger whose answer was lost is
     * looked up by it among the open triggers (never placed again).
     */
    text: ClientText,
  })
  .strict()
  .superRefine((o, ctx) => {
    if (o.type === 'limit' && o.price === undefined)
      ctx.addIssue({ code: 'custom', path: ['price'], message: 'A limit order needs a price.' });
    if (o.type === 'market' && o.price !== undefined)
      ctx.addIssue({ code: 'custom', path: ['price'], message: 'A market order has no price.' });
  });
export type TriggerRequest = z.infer<typeof TriggerRequest>;

export const TriggerOrder = z.object({
  id: z.string(),
  pair: z.string(),
  rule: TriggerRule,
  triggerPrice: z.string(),
  side: Side,
  type: OrderType,
  /** Limit price, or '' for a market order. */
  price: z.string(),
  amount: z.string(),
  timeInForce: z.string(),
  text: z.string(),
  status: TriggerStatus,
  /** Why it failed (the platform's words, `LABEL: message` where it gives a label), else ''. */
  reason: z.string(),
  /** The order placed when it fired. */
  firedOrderId: z.string().nullable(),
  createTimeMs: z.number(),
  /** When it stops waiting (created + expiration). */
  expiresAtMs: z.number(),
  /** When it fired, failed, expired or was cancelled. */
  finishTimeMs: z.number().nullable(),
});
export type TriggerOrder = z.infer<typeof TriggerOrder>;

const PairInput = z.object({ pair: PairId }).strict();
const OptionalPairInput = z.object({ pair: PairId.optional() }).strict();

export const trade = {
  pairs: operation('Spot currency pairs with precision and minimums.', z.object({}).strict(), z.array(Pair)),
  tickers: operation('24 h tickers of every spot pair.', z.object({}).strict(), z.array(Ticker)),
  watchMarket: operation(
    'Start the live feed of one pair (book, ticker, trades, candles); replaces the previous one. Returns the current state; changes follow as trade.* events.',
    z.object({ pair: PairId, candleInterval: CandleInterval }).strict(),
    z.object({
      book: BookSnapshot,
      ticker: Ticker.nullable(),
      trades: z.array(PublicTrade),
      candles: z.array(Candle),
    }),
  ),
  unwatchMarket: operation('Stop the live market feed.', z.object({}).strict(), z.object({})),
  bookSnapshot: operation(
    'The feed’s current full book of the watched pair (to resynchronise after a missed change).',
    PairInput,
    BookSnapshot,
  ),
  account: operation('Balances of the pair’s two currencies (what an order moves).', PairInput, TradeAccount),
  terms: operation(
    'The account’s fee rates on the pair and its STP group (what an order does not change).',
    PairInput,
    TradeTerms,
  ),
  settings: operation('Order-entry guards and preferences.', z.object({}).strict(), TradeSettings),
  updateSettings: operation('Change order-entry guards and preferences.', TradeSettings.strict(), TradeSettings),
  placeOrder: operation(
    'Place one spot order through the journal with its client text: accepted (the order) or unknown (being looked for by its text); never retried, and the same text never places a second order.',
    OrderRequest,
    OrderResult,
  ),
  findOrder: operation(
    'One of the user’s orders by its t- client id (to settle a placement whose outcome is unknown); null when the platform has no such order.',
    z.object({ pair: PairId, text: ClientText }).strict(),
    Order.nullable(),
  ),
  openOrders: operation('Open orders of one pair, or of all pairs.', OptionalPairInput, z.array(Order)),
  cancelOrder: operation(
    'Cancel one open order.',
    z.object({ pair: PairId, orderId: z.string().min(1).max(64) }).strict(),
    Order,
  ),
  cancelAll: operation(
    'Cancel every open order of one pair, or of all pairs.',
    OptionalPairInput,
    z.object({
      cancelled: z.array(z.object({ id: z.string(), pair: z.string() })),
      failed: z.array(z.object({ id: z.string(), pair: z.string(), label: z.string(), message: z.string() })),
    }),
  ),
  amendOrder: operation(
    'Change the price or amount of an open order.',
    z
      .object({
        pair: PairId,
        orderId: z.string().min(1).max(64),
        price: DecimalText.optional(),
        amount: DecimalText.optional(),
      })
      .strict()
      .refine((a) => a.price !== undefined || a.amount !== undefined, { message: 'Give a new price or amount.' }),
    Order,
  ),
  orderHistory: operation(
    'Finished orders (filled or cancelled), newest first.',
    z.object({ pair: PairId.optional(), limit: z.number().int().min(1).max(100).default(50) }).strict(),
    z.array(Order),
  ),
  myTrades: operation(
    'The user’s own fills, newest first.',
    z.object({ pair: PairId.optional(), limit: z.number().int().min(1).max(100).default(50) }).strict(),
    z.array(MyTrade),
  ),
  placeTrigger: operation(
    'Place a stop or take-profit: an order the platform places when the last price meets the trigger. Never retried.',
    TriggerRequest,
    TriggerOrder,
  ),
  triggerOrders: operation(
    'The user’s trigger orders, open or finished (fired, failed, expired, cancelled), newest first.',
    z
      .object({
        status: z.enum(['open', 'finished']),
        pair: PairId.optional(),
        limit: z.number().int().min(1).max(100).default(50),
      })
      .strict(),
    z.array(TriggerOrder),
  ),
  cancelTrigger: operation(
    'Cancel one open trigger order.',
    z.object({ id: z.string().min(1).max(32) }).strict(),
    TriggerOrder,
  ),
  cancelAllTriggers: operation(
    'Cancel every open trigger order of one pair, or of all pairs.',
    OptionalPairInput,
    z.object({ cancelled: z.array(TriggerOrder) }),
  ),
};

/** Changed book levels (amount "0" removes a level), or the whole book when `full`. */
export const BookUpdate = z.object({
  pair: z.string(),
  /** The version this change applies on top of (ignored when full). */
  from: z.number().int(),
  /** The version after applying it. */
  to: z.number().int(),
  full: z.boolean(),
  bookId: z.string(),
  updatedAt: z.number(),
  asks: z.array(BookLevel),
  bids: z.array(BookLevel),
});
export type BookUpdate = z.infer<typeof BookUpdate>;

/** The trade area's main→renderer events (spread into shared/contract/events.ts). */
export const tradeEvents = {
  'trade.bookChanged': BookUpdate,
  'trade.tickerChanged': Ticker,
  'trade.tradesAdded': z.object({ pair: z.string(), trades: z.array(PublicTrade) }),
  'trade.candlesChanged': z.object({ pair: z.string(), interval: CandleInterval, candles: z.array(Candle) }),
  /**
   * The user's orders or balances changed (placed, cancelled, amended, or a fill seen by the poll).
   * `orders`: the orders as they stand now, when the change is exactly these orders (one placed,
   * amended or cancelled from this app, or pushed by the stream): the screen puts them in its open
   * orders (`setQueryData`) instead of reading the list again. Without it, anything may have changed.
   */
  'trade.ordersChanged': z.object({
    pair: z.string().optional(),
    reason: z.enum(['placed', 'cancelled', 'amended', 'filled']),
    orders: z.array(Order).optional(),
  }),
  /**
   * One of the user's orders on the watched pair traded since the last poll (by anyone): the order as
   * it stands now and how much of it filled since the previous poll.
   */
  'trade.orderFilled': z.object({ order: Order, filledNow: z.string() }),
  /** The live feed's health, so the screen can say when data is stale. */
  'trade.feedStatus': z.object({
    pair: z.string(),
    state: z.enum(['live', 'stale', 'stopped']),
    message: z.string(),
    /**
     * Where the market comes from: the platform's WebSocket stream, or REST polling (no stream for
     * this address, or it is down; polling stands in until it is back).
     */
    source: z.enum(['stream', 'polling']).optional(),
  }),
};
