// Public market data (api-facts §1.8–1.12): currencies, pairs, tickers, order book, trades and
// candlesticks, read from the live engines and the spot tables.

import Decimal from 'decimal.js';
import { ApiFailure } from '../http/errors';
import { optBool, optInt } from '../http/params';
import {
  bucketStart,
  CANDLE_INTERVALS,
  type CandleInterval,
  isCandleInterval,
  nextBucket,
  nominalSeconds,
} from './candles';
import type { SpotExchange } from './exchange';
import { formatScaled, parseScaled } from './matching/decimal';
import { requirePair } from './orders/validate';
import { publicTradeView } from './orders/view';
import { findCurrency, SPOT_CURRENCIES, SPOT_PAIRS, type SpotPair } from './pairs';
import type { CandleRow, SpotStore, TradeRow } from './store';

const DAY = 86_400;
/** Most points one candlestick request may cover (api-facts §1.9). */
const MAX_CANDLES = 1000;
const MAX_BOOK_LEVELS = 1000;
/** Upper bound of from/to (Unix seconds, year 5138): keeps date arithmetic finite. */
const MAX_SECONDS = 100_000_000_000;

export class MarketData {
  constructor(
    private readonly exchange: SpotExchange,
    private readonly store: SpotStore,
    private readonly now: () => number,
  ) {}

  currencies(): Record<string, unknown>[] {
    return SPOT_CURRENCIES.map((c) => currencyView(c.currency)!);
  }

  currency(code: string): Record<string, unknown> {
    const view = currencyView(code);
    if (view === undefined) throw new ApiFailure('INVALID_CURRENCY', `Unknown currency ${code}`);
    return view;
  }

  pairs(): Record<string, unknown>[] {
    return SPOT_PAIRS.map(pairView);
  }

  pair(id: string): Record<string, unknown> {
    return pairView(requirePair(id));
  }

  tickers(query: Readonly<Record<string, string>>): Record<string, unknown>[] {
    const tz = query.timezone;
    if (tz !== undefined && tz !== '' && tz !== 'utc0' && tz !== 'utc8' && tz !== 'all') {
      throw new ApiFailure('INVALID_PARAM_VALUE', 'timezone must be utc0, utc8 or all');
    }
    if (query.currency_pair !== undefined && query.currency_pair !== '') {
      return [this.ticker(requirePair(query.currency_pair), true)];
    }
    return SPOT_PAIRS.map((p) => this.ticker(p, false));
  }

  private ticker(pair: SpotPair, single: boolean): Record<string, unknown> {
    const state = this.exchange.pairState(pair.id)!;
    const quoteScale = state.quoteScale;
    const nowS = Math.floor(this.now() / 1000);
    // The last 24 hours' minutes taken together in one pass (a day is at most 1,440 of them).
    const day = this.store.candleSpan(pair.id, '1m', nowS - DAY + 60, nowS);
    const price = (ticks: number) => formatScaled(BigInt(ticks), pair.precision);
    const high = day?.high ?? null;
    const low = day?.low ?? null;
    const base = day?.volume_base ?? 0n;
    const quote = day?.volume_quote ?? 0n;
    const last = state.lastTicks;
    const change = (open: number | undefined) =>
      open === undefined || last === null || open === 0
        ? '0'
        : new Decimal(last - open).div(open).mul(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed();
    const dayStart = bucketStart('1d', nowS);
    const utc8Start = bucketStart('1d', nowS + 8 * 3600) - 8 * 3600;
    const firstSince = (t: number) => this.store.firstOpen(pair.id, '1m', t, nowS);
    const bestAsk = state.engine.asks.best();
    const bestBid = state.engine.bids.best();
    const view: Record<string, unknown> = {
      currency_pair: pair.id,
      last: last === null ? '' : price(last),
      lowest_ask: bestAsk === undefined ? '' : price(bestAsk.price),
      highest_bid: bestBid === undefined ? '' : price(bestBid.price),
      change_percentage: change(day?.open),
      change_utc0: change(firstSince(dayStart)),
      change_utc8: change(firstSince(utc8Start)),
      base_volume: formatScaled(base, pair.amountPrecision),
      quote_volume: formatScaled(quote, quoteScale),
      high_24h: high === null ? '' : price(high),
      low_24h: low === null ? '' : price(low),
      // Not an ETF pair: the platform's Ticker model types these as strings (the timestamp as an
      // integer), so clients generated from it must never meet null.
      etf_net_value: '',
      etf_pre_net_value: '',
      etf_pre_timestamp: 0,
      etf_leverage: '',
    };
    if (single) {
      view.lowest_size = bestAsk === undefined ? '' : formatScaled(bestAsk.total, pair.amountPrecision);
      view.highest_size = bestBid === undefined ? '' : formatScaled(bestBid.total, pair.amountPrecision);
    }
    return view;
  }

  orderBook(query: Readonly<Record<string, string>>): Record<string, unknown> {
    const pair = requirePair(query.currency_pair);
    const state = this.exchange.pairState(pair.id)!;
    const limit = optInt(query, 'limit', { min: 1, max: MAX_BOOK_LEVELS }) ?? 10;
    const withId = optBool(query, 'with_id') ?? false;
    // interval: aggregation step as a price ("0" = none), a multiple of the tick.
    let step = 1n;
    const interval = query.interval ?? '0';
    if (interval !== '' && interval !== '0') {
      const ticks = parseScaled(interval, pair.precision);
      if (ticks === 'format' || ticks === 'precision' || ticks <= 0n) {
        throw new ApiFailure('INVALID_PARAM_VALUE', `interval must be 0 or a multiple of the price tick of ${pair.id}`);
      }
      step = ticks;
    }
    const side = (book: 'buy' | 'sell') => {
      const out: [string, string][] = [];
      let bucket: bigint | null = null;
      let amount = 0n;
      const push = () => {
        if (bucket !== null)
          out.push([formatScaled(bucket, pair.precision), formatScaled(amount, pair.amountPrecision)]);
      };
      // Bids round down to the step, asks up, so aggregated levels never look better than they are.
      for (const level of (book === 'buy' ? state.engine.bids : state.engine.asks).bestLevels()) {
        const p = BigInt(level.price);
        const b = book === 'buy' ? (p / step) * step : ((p + step - 1n) / step) * step;
        if (b !== bucket) {
          push();
          if (out.length >= limit) return out;
          bucket = b;
          amount = 0n;
        }
        amount += level.total;
      }
      if (out.length < limit) push();
      return out;
    };
    const view: Record<string, unknown> = {};
    if (withId) view.id = state.engine.version;
    view.current = this.now();
    view.update = state.bookUpdate;
    view.asks = side('sell');
    view.bids = side('buy');
    return view;
  }

  trades(query: Readonly<Record<string, string>>): Record<string, unknown>[] {
    const pair = requirePair(query.currency_pair);
    const limit = optInt(query, 'limit', { min: 1, max: 1000 }) ?? 100;
    const page = optInt(query, 'page', { min: 1 }) ?? 1;
    if (limit * (page - 1) > 100_000)
      throw new ApiFailure('INVALID_PARAM_VALUE', 'limit * (page - 1) must not exceed 100000');
    const lastId = optInt(query, 'last_id', { min: 0 });
    const reverse = optBool(query, 'reverse') ?? false;
    let rows: TradeRow[];
    if (lastId !== undefined) {
      // Legacy scrolling: older than last_id, or newer with reverse=true; from/to are ignored.
      rows = reverse
        ? this.store
            .query<TradeRow>(
              'SELECT * FROM spot_trades WHERE currency_pair = ? AND id > ? ORDER BY id ASC LIMIT ?',
              pair.id,
              lastId,
              limit,
            )
            .reverse()
        : this.store.query<TradeRow>(
            'SELECT * FROM spot_trades WHERE currency_pair = ? AND id < ? ORDER BY id DESC LIMIT ?',
            pair.id,
            lastId,
            limit,
          );
    } else {
      const nowS = Math.floor(this.now() / 1000);
      const to = optInt(query, 'to', { min: 0, max: MAX_SECONDS }) ?? nowS;
      const from = optInt(query, 'from', { min: 0, max: MAX_SECONDS }) ?? to - 30 * DAY;
      if (from > to) throw new ApiFailure('INVALID_PARAM_VALUE', 'from must not be after to');
      rows = this.store.query<TradeRow>(
        `SELECT * FROM spot_trades WHERE currency_pair = ? AND create_us >= ? AND create_us < ?
         ORDER BY id DESC LIMIT ? OFFSET ?`,
        pair.id,
        from * 1_000_000,
        (to + 1) * 1_000_000,
        limit,
        limit * (page - 1),
      );
    }
    return rows.map(publicTradeView);
  }

  candlesticks(query: Readonly<Record<string, string>>): string[][] {
    const pair = requirePair(query.currency_pair);
    const intervalText = query.interval === undefined || query.interval === '' ? '30m' : query.interval;
    if (!isCandleInterval(intervalText)) {
      throw new ApiFailure('INVALID_PARAM_VALUE', `interval must be one of ${CANDLE_INTERVALS.join(', ')}`);
    }
    const interval: CandleInterval = intervalText;
    const limitGiven = query.limit !== undefined && query.limit !== '';
    const from = optInt(query, 'from', { min: 0, max: MAX_SECONDS });
    const to = optInt(query, 'to', { min: 0, max: MAX_SECONDS });
    if (limitGiven && (from !== undefined || to !== undefined)) {
      throw new ApiFailure('INVALID_PARAM_VALUE', 'limit cannot be combined with from or to');
    }
    const limit = optInt(query, 'limit', { min: 1, max: MAX_CANDLES }) ?? 100;
    const nowS = Math.floor(this.now() / 1000);
    const size = nominalSeconds(interval);
    let start: number;
    let end: number;
    if (from === undefined && to === undefined) {
      end = bucketStart(interval, nowS);
      start = interval === '30d' ? monthsBack(end, limit - 1) : end - (limit - 1) * size;
    } else {
      end = bucketStart(interval, to ?? nowS);
      start = bucketStart(interval, from ?? end - 100 * size);
      if (start > end) throw new ApiFailure('INVALID_PARAM_VALUE', 'from must not be after to');
      const points = interval === '30d' ? monthsBetween(start, end) + 1 : (end - start) / size + 1;
      if (points > MAX_CANDLES) {
        throw new ApiFailure('INVALID_PARAM_VALUE', `Too many points requested: at most ${MAX_CANDLES} per request`);
      }
    }
    const state = this.exchange.pairState(pair.id)!;
    const rows = this.store.candles(pair.id, interval, start, end, MAX_CANDLES + 1);
    // The candle before the window carries its close into empty buckets at the window's start.
    const before = this.store.candles(pair.id, interval, 0, start - 1, 1)[0];
    const byT = new Map(rows.map((r) => [r.t, r]));
    const out: string[][] = [];
    let carry: number | null = before?.close ?? null;
    for (let t = start; t <= end; t = nextBucket(interval, t)) {
      const c = byT.get(t);
      if (c !== undefined) {
        out.push(candleRow(pair, state.quoteScale, c, nextBucket(interval, t) <= nowS));
        carry = c.close;
      } else if (carry !== null && t <= nowS) {
        const flat: CandleRow = {
          t,
          open: carry,
          high: carry,
          low: carry,
          close: carry,
          volume_base: 0n,
          volume_quote: 0n,
        };
        out.push(candleRow(pair, state.quoteScale, flat, nextBucket(interval, t) <= nowS));
      }
    }
    return out;
  }
}

function candleRow(pair: SpotPair, quoteScale: number, c: CandleRow, closed: boolean): string[] {
  const p = (ticks: number) => formatScaled(BigInt(ticks), pair.precision);
  return [
    String(c.t),
    formatScaled(c.volume_quote, quoteScale),
    p(c.close),
    p(c.high),
    p(c.low),
    p(c.open),
    formatScaled(c.volume_base, pair.amountPrecision),
    closed ? 'true' : 'false',
  ];
}

function monthsBack(t: number, n: number): number {
  const d = new Date(t * 1000);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - n, 1) / 1000;
}

function monthsBetween(a: number, b: number): number {
  const x = new Date(a * 1000);
  const y = new Date(b * 1000);
  return (y.getUTCFullYear() - x.getUTCFullYear()) * 12 + (y.getUTCMonth() - x.getUTCMonth());
}

function currencyView(code: string): Record<string, unknown> | undefined {
  const c = findCurrency(code);
  if (c === undefined) return undefined;
  const main = c.chains[0];
  const tradable = SPOT_PAIRS.some((p) => p.base === c.currency || p.quote === c.currency);
  return {
    currency: c.currency,
    name: c.name,
    delisted: false,
    withdraw_disabled: c.chains.every((ch) => ch.disabled || ch.withdrawDisabled),
    withdraw_delayed: false,
    deposit_disabled: c.chains.every((ch) => ch.disabled || ch.depositDisabled),
    trade_disabled: !tradable,
    fixed_rate: '',
    chain: main?.chain ?? '',
    chains: c.chains.map((ch) => ({
      name: ch.chain,
      addr: ch.contractAddress,
      withdraw_disabled: Boolean(ch.disabled || ch.withdrawDisabled),
      withdraw_delayed: false,
      deposit_disabled: Boolean(ch.disabled || ch.depositDisabled),
    })),
  };
}

function pairView(p: SpotPair): Record<string, unknown> {
  return {
    id: p.id,
    base: p.base,
    base_name: p.baseName,
    quote: p.quote,
    quote_name: p.quoteName,
    fee: '0.2',
    min_base_amount: p.minBaseAmount,
    min_quote_amount: p.minQuoteAmount,
    // No maximum is null: the platform's docs say "null means no limit".
    max_base_amount: p.maxBaseAmount,
    max_quote_amount: p.maxQuoteAmount,
    amount_precision: p.amountPrecision,
    precision: p.precision,
    trade_status: p.tradeStatus,
    sell_start: 0,
    buy_start: 0,
    delisting_time: 0,
    type: 'normal',
    trade_url: `https://www.gate.io/trade/${p.id}`,
    st_tag: false,
  };
}
