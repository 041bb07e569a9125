/**
 * Platform shapes (shared/platform/api/spot) → the trade contract's shapes. Missing optional
 * fields become explicit values the screen can show ("0", "") instead of undefined.
 */
import type { z } from 'zod';
import type * as C from '../../shared/contract/trade';
import type * as S from '../../shared/platform/api';

type Out<T extends z.ZodType> = z.input<T>;

const plain = (value: string | undefined): string | undefined => {
  if (value === undefined || value === '') return undefined;
  return /^\d+(\.\d+)?$/.test(value) ? value : undefined;
};

export const toPair = (p: S.CurrencyPair): Out<typeof C.Pair> => {
  const out: Out<typeof C.Pair> = {
    id: p.id,
    base: p.base,
    quote: p.quote,
    precision: p.precision,
    amountPrecision: p.amount_precision,
    tradeStatus: p.trade_status,
  };
  const minBase = plain(p.min_base_amount);
  const minQuote = plain(p.min_quote_amount);
  const maxBase = plain(p.max_base_amount);
  const maxQuote = plain(p.max_quote_amount);
  if (minBase) out.minBaseAmount = minBase;
  if (minQuote) out.minQuoteAmount = minQuote;
  if (maxBase) out.maxBaseAmount = maxBase;
  if (maxQuote) out.maxQuoteAmount = maxQuote;
  return out;
};

export const toTicker = (t: S.Ticker): Out<typeof C.Ticker> => ({
  pair: t.currency_pair,
  last: t.last,
  changePercentage: t.change_percentage ?? '0',
  high24h: t.high_24h ?? t.last,
  low24h: t.low_24h ?? t.last,
  baseVolume: t.base_volume ?? '0',
  quoteVolume: t.quote_volume ?? '0',
  ...(t.lowest_ask ? { lowestAsk: t.lowest_ask } : {}),
  ...(t.highest_bid ? { highestBid: t.highest_bid } : {}),
});

const ms = (precise: number | undefined, seconds: number | undefined): number =>
  precise !== undefined ? Math.floor(precise) : Math.floor((seconds ?? 0) * 1000);

export const toPublicTrade = (t: S.Trade): Out<typeof C.PublicTrade> => ({
  id: t.id,
  side: t.side,
  price: t.price,
  amount: t.amount,
  createTimeMs: ms(t.create_time_ms, t.create_time),
});

export const toMyTrade = (t: S.Trade): Out<typeof C.MyTrade> => ({
  id: t.id,
  pair: t.currency_pair,
  orderId: t.order_id ?? '',
  side: t.side,
  role: t.role ?? '',
  price: t.price,
  amount: t.amount,
  fee: t.fee ?? '0',
  feeCurrency: t.fee_currency ?? '',
  text: t.text ?? '',
  createTimeMs: ms(t.create_time_ms, t.create_time),
});

export const toCandle = (c: S.Candle): Out<typeof C.Candle> => ({
  t: c.t,
  open: c.open,
  high: c.high,
  low: c.low,
  close: c.close,
  baseVolume: c.baseVolume ?? '0',
  quoteVolume: c.quoteVolume,
  closed: c.closed ?? false,
});

const STATUSES = new Set(['open', 'closed', 'cancelled']);

export const toOrder = (o: S.Order, pairHint = ''): Out<typeof C.Order> => ({
  id: o.id,
  text: o.text ?? '',
  pair: o.currency_pair ?? pairHint,
  side: o.side === 'sell' ? 'sell' : 'buy',
  type: o.type === 'market' ? 'market' : 'limit',
  price: o.price ?? '0',
  amount: o.amount ?? '0',
  left: o.left ?? '0',
  filledAmount: o.filled_amount ?? '0',
  filledTotal: o.filled_total ?? o.fill_price ?? '0',
  avgDealPrice: o.avg_deal_price ?? '0',
  fee: o.fee ?? '0',
  feeCurrency: o.fee_currency ?? '',
  timeInForce: o.time_in_force ?? 'gtc',
  status: (STATUSES.has(o.status ?? '') ? o.status : 'open') as 'open' | 'closed' | 'cancelled',
  finishAs: o.finish_as ?? o.status ?? '',
  ...(o.stp_act && o.stp_act !== '-' ? { stpAct: o.stp_act } : {}),
  ...(o.stp_id !== undefined ? { stpId: o.stp_id } : {}),
  createTimeMs: ms(o.create_time_ms, o.create_time),
  updateTimeMs: ms(o.update_time_ms, o.update_time),
});
