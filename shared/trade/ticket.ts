/**
 * The order ticket's arithmetic and checks, shared by the renderer (inline, before anything is
 * sent) and main (again, before the order leaves the app). Pure: decimal strings in, decimal
 * strings and plain-language messages out; decimal.js for every calculation.
 */
import Decimal from 'decimal.js';
import type { Order, OrderType, Pair, Side, StpAct, TimeInForce } from '../contract/trade';
import {
  AMOUNT_FORMAT_MESSAGE,
  formatAmount,
  formatMoney,
  formatPrice,
  formatValue,
  type PriceScale,
  parseAmountInput,
} from '../format/money';

const PLAIN = /^\d+(\.\d+)?$/;

/** Number of decimals written in a plain decimal string, ignoring trailing zeros ("1.50" → 1). */
export const decimalsOf = (text: string): number => {
  const dot = text.indexOf('.');
  if (dot < 0) return 0;
  return text.slice(dot + 1).replace(/0+$/, '').length;
};

export const isPlainDecimal = (text: string): boolean => PLAIN.test(text);

/** The smallest price step of a pair: 10^-precision. */
export const tickOf = (precision: number): Decimal => new Decimal(10).pow(-precision);

/** Cut a value down to `decimals` places (never rounds up: a computed amount must not exceed what was asked). */
export const snapDown = (value: Decimal.Value, decimals: number): string =>
  new Decimal(value).toDecimalPlaces(decimals, Decimal.ROUND_DOWN).toFixed(decimals);

/** Decimals of a market buy's amount, which is a quote budget (price step × amount step). */
export const marketBuyDecimals = (pair: Pair): number => pair.precision + pair.amountPrecision;

/** The fields a ticket keeps linked; `lastEdited` says which of amount/total the user typed last. */
export interface TicketNumbers {
  price: string;
  amount: string;
  total: string;
  lastEdited: 'amount' | 'total';
}

const usable = (text: string): boolean => isPlainDecimal(text) && new Decimal(text).gt(0);

/** A typed field ("1,000.5", ".5") as its canonical decimal, or the text as it is when it cannot be read. */
export const readTyped = (text: string): string => {
  const parsed = parseAmountInput(text);
  return parsed.ok ? parsed.value : text.trim();
};

/**
 * Recompute the linked fields after the user changed `field`. Amounts computed from a total are cut
 * down to the pair's amount precision; totals are exact (price × amount has at most
 * precision + amountPrecision decimals).
 */
export const linkTicket = (
  pair: Pair,
  current: TicketNumbers,
  field: 'price' | 'amount' | 'total',
  value: string,
): TicketNumbers => {
  const next: TicketNumbers = { ...current, [field]: value };
  if (field === 'amount') next.lastEdited = 'amount';
  if (field === 'total') next.lastEdited = 'total';
  // The fields keep what was typed; the arithmetic reads it ("1,000" is 1000).
  const typed = { price: readTyped(next.price), amount: readTyped(next.amount), total: readTyped(next.total) };
  if (!usable(typed.price)) {
    // Without a price the computed field cannot be known: it is emptied rather than left stale
    // (a total of 64,000,000,000 must not stay on screen once the price that made it is gone).
    if (field === 'price') {
      if (next.lastEdited === 'total') next.amount = '';
      else next.total = '';
    }
    return next;
  }
  const price = new Decimal(typed.price);
  if (next.lastEdited === 'total') {
    if (usable(typed.total)) next.amount = snapDown(new Decimal(typed.total).div(price), pair.amountPrecision);
    else if (field === 'total') next.amount = '';
  } else if (usable(typed.amount)) {
    next.total = price.mul(typed.amount).toFixed();
  } else if (field === 'amount') {
    next.total = '';
  }
  return next;
};

/** The unit the ticket's amount field is in: a market buy spends the quote currency, everything else is base. */
export const amountUnitOf = (pair: Pair, type: OrderType, side: Side): string =>
  type === 'market' && side === 'buy' ? pair.quote : pair.base;

/**
 * The ticket's numbers after the order type or side changed. When the amount's unit changes, the
 * amount is never carried over as it is (1 BTC must not become "Spend 1 USDT"): a limit buy's total
 * becomes a market buy's spend, a market buy's spend becomes a limit buy's total (and the amount
 * is recomputed from the price); anything else that cannot be converted exactly is cleared. A market
 * order has no total of its own.
 */
export const switchTicket = (
  pair: Pair,
  current: TicketNumbers,
  from: { type: OrderType; side: Side },
  to: { type: OrderType; side: Side },
): TicketNumbers => {
  const fromUnit = amountUnitOf(pair, from.type, from.side);
  const toUnit = amountUnitOf(pair, to.type, to.side);
  if (fromUnit === toUnit) {
    if (to.type === 'market') return { ...current, total: '', lastEdited: 'amount' };
    // Back to a limit order in the same unit: the total follows price × amount again.
    return linkTicket(pair, { ...current, lastEdited: 'amount' }, 'amount', current.amount);
  }
  if (to.type === 'market' && to.side === 'buy') {
    // base → quote: only a limit buy's total says how much it would spend.
    const total = from.type === 'limit' && from.side === 'buy' ? readTyped(current.total) : '';
    return { ...current, amount: usable(total) ? total : '', total: '', lastEdited: 'amount' };
  }
  if (to.type === 'limit' && from.type === 'market' && from.side === 'buy') {
    // quote → base: the spend becomes the total; the amount follows from the price when there is one.
    const spend = readTyped(current.amount);
    if (!usable(spend)) return { ...current, amount: '', total: '', lastEdited: 'amount' };
    return linkTicket(pair, { ...current, amount: '', lastEdited: 'total' }, 'total', spend);
  }
  return { ...current, amount: '', total: '', lastEdited: 'amount' };
};

/**
 * A share (25, 50, 75, 100 %) of what is available, written into the field in the available
 * currency: a sell's amount (base), a market buy's spend, a limit buy's total (the amount follows
 * from the price, and stays when the price changes). Cut down, never rounded up, to what the pair accepts.
 */
export const shareOfAvailable = (
  pair: Pair,
  current: TicketNumbers,
  order: { type: OrderType; side: Side },
  available: string,
  percent: number,
): TicketNumbers => {
  if (!isPlainDecimal(available)) return current;
  const share = new Decimal(available).mul(percent).div(100);
  // Cut down, then written without trailing zeros ("250", not "250.000000").
  const cut = (decimals: number) => new Decimal(snapDown(share, decimals)).toFixed();
  if (order.side === 'sell') return linkTicket(pair, current, 'amount', cut(pair.amountPrecision));
  if (order.type === 'market') return { ...current, amount: cut(marketBuyDecimals(pair)), total: '' };
  // A limit buy's share is a total; the amount it buys at this price is then the anchor: a new price
  // keeps that amount and changes the total (the check says when it is more than is available).
  return { ...linkTicket(pair, current, 'total', cut(marketBuyDecimals(pair))), lastEdited: 'amount' };
};

/** What the ticket would send, as typed. */
export interface TicketDraft {
  pair: string;
  side: Side;
  type: OrderType;
  /** Limit price ('' for market). */
  price: string;
  /** Base amount; for a market buy the quote amount to spend. */
  amount: string;
  timeInForce: TimeInForce;
  stpAct?: StpAct;
}

export interface TicketContext {
  pair: Pair;
  /** Available balance of the currency the order spends (quote for buy, base for sell), if known. */
  available?: string;
  /** Maximum notional per order in quote currency ('' or undefined = none). */
  maxNotional?: string;
  /** Whether the user is in an STP group. */
  inStpGroup: boolean;
  /** Best bid and ask, to estimate a market order's notional. */
  bestBid?: string;
  bestAsk?: string;
}

export type TicketErrors = Partial<Record<'price' | 'amount' | 'total' | 'timeInForce' | 'stpAct' | 'pair', string>>;

/** Notional in quote currency: price × amount for limit orders; estimated from the book for market sells. */
export const notionalOf = (
  draft: TicketDraft,
  ctx: Pick<TicketContext, 'bestBid' | 'bestAsk'>,
): Decimal | undefined => {
  if (!usable(draft.amount)) return undefined;
  if (draft.type === 'limit') return usable(draft.price) ? new Decimal(draft.price).mul(draft.amount) : undefined;
  if (draft.side === 'buy') return new Decimal(draft.amount);
  return ctx.bestBid && usable(ctx.bestBid) ? new Decimal(ctx.bestBid).mul(draft.amount) : undefined;
};

/**
 * Hard rules: an order that breaks one of them is not sent. The same function runs in main.
 * Returns an empty object when the order may go.
 */
export const checkTicket = (draft: TicketDraft, ctx: TicketContext): TicketErrors => {
  const { pair } = ctx;
  const errors: TicketErrors = {};
  if (draft.pair !== pair.id) errors.pair = `This ticket is for ${pair.id}.`;
  if (pair.tradeStatus === 'untradable') errors.pair = `${pair.id} cannot be traded at the moment.`;
  if (pair.tradeStatus === 'buyable' && draft.side === 'sell') errors.pair = `${pair.id} can only be bought now.`;
  if (pair.tradeStatus === 'sellable' && draft.side === 'buy') errors.pair = `${pair.id} can only be sold now.`;

  if (draft.type === 'limit') {
    if (draft.price === '') errors.price = 'Enter a price.';
    else if (!isPlainDecimal(draft.price)) errors.price = AMOUNT_FORMAT_MESSAGE;
    else if (new Decimal(draft.price).lte(0)) errors.price = 'The price must be more than 0.';
    else if (decimalsOf(draft.price) > pair.precision)
      errors.price = `Prices of ${pair.id} have at most ${pair.precision} decimals.`;
  } else if (draft.timeInForce !== 'ioc' && draft.timeInForce !== 'fok') {
    errors.timeInForce = 'A market order is either IOC (fill what you can) or FOK (all or nothing).';
  }

  const marketBuy = draft.type === 'market' && draft.side === 'buy';
  const amountCurrency = marketBuy ? pair.quote : pair.base;
  const amountDecimals = marketBuy ? marketBuyDecimals(pair) : pair.amountPrecision;
  if (draft.amount === '') errors.amount = 'Enter an amount.';
  else if (!isPlainDecimal(draft.amount)) errors.amount = AMOUNT_FORMAT_MESSAGE;
  else if (new Decimal(draft.amount).lte(0)) errors.amount = 'The amount must be more than 0.';
  else if (decimalsOf(draft.amount) > amountDecimals)
    errors.amount = `Amounts in ${amountCurrency} have at most ${amountDecimals} decimals for ${pair.id}.`;
  else if (!marketBuy && pair.minBaseAmount && new Decimal(draft.amount).lt(pair.minBaseAmount))
    errors.amount = `The smallest order is ${formatMoney(pair.minBaseAmount, pair.base)}.`;
  else if (!marketBuy && pair.maxBaseAmount && new Decimal(draft.amount).gt(pair.maxBaseAmount))
    errors.amount = `The largest order is ${formatMoney(pair.maxBaseAmount, pair.base)}.`;

  if (draft.stpAct !== undefined && !ctx.inStpGroup)
    errors.stpAct = 'Self-trade prevention needs an STP group; you are not in one.';

  if (errors.price || errors.amount) return errors;
  const notional = notionalOf(draft, ctx);
  if (notional === undefined) {
    // Only a market sell without a best bid gets here: its value cannot be estimated, and a limit
    // that cannot be checked must not be skipped.
    if (ctx.maxNotional)
      errors.total = `Without a best bid in the order book the value of this market sell cannot be estimated, so your limit of ${formatMoney(ctx.maxNotional, pair.quote)} per order cannot be checked. Wait for the book, or use a limit order.`;
  } else {
    if (pair.minQuoteAmount && notional.lt(pair.minQuoteAmount))
      errors.total = `The order must be worth at least ${formatMoney(pair.minQuoteAmount, pair.quote)} (it is ${formatValue(notional, pair.quote)}).`;
    else if (pair.maxQuoteAmount && notional.gt(pair.maxQuoteAmount))
      errors.total = `The order may be worth at most ${formatMoney(pair.maxQuoteAmount, pair.quote)}.`;
    else if (ctx.maxNotional && notional.gt(ctx.maxNotional))
      errors.total = `Above your limit of ${formatMoney(ctx.maxNotional, pair.quote)} per order (change it in the ticket settings).`;
  }
  if (ctx.available !== undefined && isPlainDecimal(ctx.available)) {
    const spends =
      draft.side === 'sell'
        ? new Decimal(draft.amount)
        : draft.type === 'market'
          ? new Decimal(draft.amount)
          : notional;
    const currency = draft.side === 'sell' ? pair.base : pair.quote;
    if (spends?.gt(ctx.available))
      errors[draft.side === 'sell' || marketBuy ? 'amount' : 'total'] =
        `You have ${formatMoney(ctx.available, currency)} available; this order needs ${spends === notional ? formatValue(spends, currency) : formatMoney(spends, currency)}.`;
  }
  return errors;
};

/** The open order an amendment changes (only limit orders rest on the book). */
export type AmendTarget = Pick<Order, 'pair' | 'side' | 'price' | 'amount' | 'left'>;

/** The new price and/or the new total amount (filled part included, as the platform counts it). */
export interface AmendChange {
  price?: string;
  amount?: string;
}

/** The order as it would be after the amendment, as a ticket would send it. */
export const amendedDraft = (order: AmendTarget, change: AmendChange): TicketDraft => ({
  pair: order.pair,
  side: order.side,
  type: 'limit',
  price: change.price ?? order.price,
  amount: change.amount ?? order.amount,
  // Time in force plays no part in the checks of a limit order.
  timeInForce: 'gtc',
});

/**
 * An amendment obeys the same hard rules as a new order (checkTicket on the amended order). The
 * balance check counts only what the change adds to the order's lock: price × remaining amount for
 * a buy, the remaining amount for a sell.
 */
export const checkAmend = (order: AmendTarget, change: AmendChange, ctx: TicketContext): TicketErrors => {
  const { available, ...rules } = ctx;
  const draft = amendedDraft(order, change);
  const errors = checkTicket(draft, rules);
  if (Object.keys(errors).length > 0 || available === undefined || !isPlainDecimal(available)) return errors;
  const filled = new Decimal(order.amount).sub(order.left);
  const newLeft = Decimal.max(new Decimal(draft.amount).sub(filled), 0);
  const extra =
    order.side === 'buy'
      ? newLeft.mul(draft.price).sub(new Decimal(order.left).mul(order.price))
      : newLeft.sub(order.left);
  const currency = order.side === 'buy' ? ctx.pair.quote : ctx.pair.base;
  if (extra.gt(available))
    errors[order.side === 'buy' ? 'total' : 'amount'] =
      `You have ${formatMoney(available, currency)} available; the change needs ${formatMoney(extra, currency)} more.`;
  return errors;
};

/** Mid price from the best bid and ask (either alone if the other side is empty). */
export const midPrice = (bestBid?: string, bestAsk?: string): Decimal | undefined => {
  const bid = bestBid && usable(bestBid) ? new Decimal(bestBid) : undefined;
  const ask = bestAsk && usable(bestAsk) ? new Decimal(bestAsk) : undefined;
  if (bid && ask) return bid.add(ask).div(2);
  return bid ?? ask;
};

/** How far a price is from the mid, in percent (absolute), or undefined without a mid. */
export const deviationPercent = (price: string, mid: Decimal | undefined): Decimal | undefined => {
  if (!mid || mid.isZero() || !usable(price)) return undefined;
  return new Decimal(price).sub(mid).abs().div(mid).mul(100);
};

/** Soft warnings: the order may still go after the user confirms. */
export type TicketWarning =
  | { kind: 'priceDeviation'; message: string }
  | { kind: 'duplicate'; message: string }
  | { kind: 'crossesBook'; message: string };

export interface WarningContext {
  /** The pair's tick and quote: the mid is written as the pair writes a price. */
  scale: PriceScale;
  bestBid?: string;
  bestAsk?: string;
  /** Warn when a limit price is further than this percentage from the mid. */
  deviationPercent: string;
  /** Whether the same order was submitted in the last 10 seconds. */
  duplicate: boolean;
}

export const ticketWarnings = (draft: TicketDraft, ctx: WarningContext): TicketWarning[] => {
  const warnings: TicketWarning[] = [];
  if (draft.type === 'limit') {
    const mid = midPrice(ctx.bestBid, ctx.bestAsk);
    const off = deviationPercent(draft.price, mid);
    if (off !== undefined && mid !== undefined && usable(ctx.deviationPercent) && off.gt(ctx.deviationPercent))
      warnings.push({
        kind: 'priceDeviation',
        message: `The price is ${formatAmount(off, { precision: 2, rounding: 'half-up', trim: true })}% away from the mid (${formatPrice(mid, ctx.scale, { unit: true })}); your warning threshold is ${formatAmount(ctx.deviationPercent)}%.`,
      });
  }
  if (ctx.duplicate)
    warnings.push({
      kind: 'duplicate',
      message: 'You sent the same order less than 10 seconds ago. Place it again?',
    });
  return warnings;
};

/** Fee preview: buys pay the fee in the base currency, sells in the quote currency. */
export const feePreview = (
  draft: TicketDraft,
  pair: Pair,
  rates: { makerFee: string; takerFee: string },
  ctx: Pick<TicketContext, 'bestBid' | 'bestAsk'>,
): { amount: string; currency: string; rate: string; role: 'maker' | 'taker' } | undefined => {
  if (!usable(draft.amount)) return undefined;
  const crosses =
    draft.type === 'market' ||
    (usable(draft.price) &&
      ((draft.side === 'buy' &&
        ctx.bestAsk !== undefined &&
        usable(ctx.bestAsk) &&
        new Decimal(draft.price).gte(ctx.bestAsk)) ||
        (draft.side === 'sell' &&
          ctx.bestBid !== undefined &&
          usable(ctx.bestBid) &&
          new Decimal(draft.price).lte(ctx.bestBid))));
  // IOC and FOK never rest, so whatever fills pays the taker rate; POC always pays the maker rate.
  const alwaysTaker = draft.timeInForce === 'ioc' || draft.timeInForce === 'fok';
  const role = draft.timeInForce === 'poc' ? 'maker' : crosses || alwaysTaker ? 'taker' : 'maker';
  const rate = role === 'maker' ? rates.makerFee : rates.takerFee;
  if (!isPlainDecimal(rate)) return undefined;
  if (draft.side === 'buy') {
    const base =
      draft.type === 'limit'
        ? new Decimal(draft.amount)
        : ctx.bestAsk && usable(ctx.bestAsk)
          ? new Decimal(draft.amount).div(ctx.bestAsk)
          : undefined;
    if (!base) return undefined;
    return { amount: base.mul(rate).toSignificantDigits(8).toFixed(), currency: pair.base, rate, role };
  }
  const notional = notionalOf(draft, ctx);
  if (!notional) return undefined;
  return { amount: notional.mul(rate).toSignificantDigits(8).toFixed(), currency: pair.quote, rate, role };
};

/** Remembers recently sent orders to warn about the same order sent twice within a window. */
export class DuplicateGuard {
  private readonly sent = new Map<string, number>();

  constructor(
    private readonly windowMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  private static key(d: TicketDraft): string {
    const price = d.type === 'limit' && usable(d.price) ? new Decimal(d.price).toFixed() : '';
    const amount = usable(d.amount) ? new Decimal(d.amount).toFixed() : d.amount;
    return [d.pair, d.side, d.type, price, amount].join('|');
  }

  isDuplicate(draft: TicketDraft): boolean {
    const at = this.sent.get(DuplicateGuard.key(draft));
    return at !== undefined && this.now() - at < this.windowMs;
  }

  remember(draft: TicketDraft): void {
    const now = this.now();
    for (const [k, at] of this.sent) if (now - at >= this.windowMs) this.sent.delete(k);
    this.sent.set(DuplicateGuard.key(draft), now);
  }
}

/** A fresh client text id for an order: "t-" + time + random, within the platform's 28 characters. */
export const newClientText = (random: () => number = Math.random, now: number = Date.now()): string => {
  const rand = Math.floor(random() * 36 ** 6)
    .toString(36)
    .padStart(6, '0');
  return `t-desk-${now.toString(36)}-${rand}`;
};
