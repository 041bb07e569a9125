/**
 * The live market of one pair, polled by main and pushed to the renderer as events:
 * - the order book (GET /spot/order_book?with_id=true) as fast as the public limit allows with
 *   headroom, diffed against the previous poll so only changed levels cross IPC;
 * - the ticker, recent trades and the current candles at modest rates.
 * Runs only while a pair is watched; a new watch replaces the old one. Requests never overlap
 * within one stream (the next poll is scheduled after the previous answer).
 */
import type {
  BookLevel,
  BookSnapshot,
  Candle,
  CandleInterval,
  PublicTrade,
  Ticker,
} from '../../../shared/contract/trade';
import { diffBook } from '../../../shared/trade/book';
import type { PlatformApi } from '../api/platform';
import { DeskFailure } from '../errors';
import type { Emit } from '../services/context';
import { toCandle, toPublicTrade, toTicker } from './mappers';

/**
 * Public endpoints allow 200 requests per 10 s per endpoint and IP. The book is polled every
 * 100 ms (100 per 10 s): half the limit, leaving room for a second app instance or a script on the
 * same IP, and for the client's own retries.
 */
export const BOOK_POLL_MS = 100;
/** Levels per side fetched; the screen shows up to 50 after grouping, so fetch more. */
export const BOOK_FETCH_LEVELS = 100;
export const TICKER_POLL_MS = 2_000;
export const TRADES_POLL_MS = 1_000;
export const CANDLES_POLL_MS = 2_000;
const TRADES_LIMIT = 50;
const CANDLES_LIMIT = 120;
/** After a failure a stream waits this long (doubling up to the maximum) before polling again. */
const BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 8_000;

type Spot = Pick<PlatformApi['spot'], 'orderBook' | 'tickers' | 'trades' | 'candlesticks'>;

export interface MarketFeedOptions {
  spot: () => Spot;
  emit: Emit;
  /** Poll periods (tests shorten them). */
  periods?: Partial<{ book: number; ticker: number; trades: number; candles: number }>;
}

export interface MarketState {
  book: BookSnapshot;
  ticker: Ticker | null;
  trades: PublicTrade[];
  candles: Candle[];
}

interface Watch {
  pair: string;
  interval: CandleInterval;
  stopped: boolean;
  controller: AbortController;
  timers: Set<ReturnType<typeof setTimeout>>;
  book: BookSnapshot;
  lastTradeIds: Set<string>;
  lastCandles: Map<number, string>;
  failing: Set<string>;
}

const levels = (raw: readonly (readonly [string, string])[]): BookLevel[] => raw.map(([p, a]) => [p, a]);

export class MarketFeed {
  private watch: Watch | undefined;
  /** Bumped by every start and stop, so a start that was overtaken while fetching does not run. */
  private generation = 0;
  private readonly periods: { book: number; ticker: number; trades: number; candles: number };

  constructor(private readonly options: MarketFeedOptions) {
    this.periods = {
      book: BOOK_POLL_MS,
      ticker: TICKER_POLL_MS,
      trades: TRADES_POLL_MS,
      candles: CANDLES_POLL_MS,
      ...options.periods,
    };
  }

  get watchedPair(): string | undefined {
    return this.watch?.pair;
  }

  /** Start (or switch) the feed; resolves with the current state of the market. */
  async start(pair: string, interval: CandleInterval): Promise<MarketState> {
    this.stop();
    const generation = ++this.generation;
    const spot = this.options.spot();
    const controller = new AbortController();
    const signal = controller.signal;
    const [book, tickers, trades, candles] = await Promise.all([
      spot.orderBook({ currency_pair: pair, limit: BOOK_FETCH_LEVELS, with_id: true }, { signal }),
      spot.tickers({ currency_pair: pair }, { signal }).catch(() => []),
      spot.trades({ currency_pair: pair, limit: TRADES_LIMIT }, { signal }),
      spot.candlesticks({ currency_pair: pair, interval, limit: CANDLES_LIMIT }, { signal }),
    ]);
    if (generation !== this.generation) {
      controller.abort();
      throw DeskFailure.precondition(`The feed of ${pair} was replaced by another one before it started.`);
    }
    const watch: Watch = {
      pair,
      interval,
      stopped: false,
      controller,
      timers: new Set(),
      book: {
        pair,
        version: 1,
        bookId: String(book.id ?? 0),
        updatedAt: book.update ?? book.current ?? Date.now(),
        asks: levels(book.asks),
        bids: levels(book.bids),
      },
      lastTradeIds: new Set(trades.map((t) => String(t.id))),
      lastCandles: new Map(),
      failing: new Set(),
    };
    const mappedCandles = candles.map(toCandle);
    for (const c of mappedCandles) watch.lastCandles.set(c.t, JSON.stringify(c));
    this.watch = watch;
    const ticker = tickers[0] ? (toTicker(tickers[0]) as Ticker) : null;
    this.loop(watch, 'book', this.periods.book, () => this.pollBook(watch));
    this.loop(watch, 'ticker', this.periods.ticker, () => this.pollTicker(watch));
    this.loop(watch, 'trades', this.periods.trades, () => this.pollTrades(watch));
    this.loop(watch, 'candles', this.periods.candles, () => this.pollCandles(watch));
    return {
      book: watch.book,
      ticker,
      trades: trades.map(toPublicTrade) as PublicTrade[],
      candles: mappedCandles as Candle[],
    };
  }

  /** The current full book of the watched pair. */
  snapshot(pair: string): BookSnapshot | undefined {
    return this.watch?.pair === pair ? this.watch.book : undefined;
  }

  stop(): void {
    this.generation++;
    const watch = this.watch;
    if (!watch) return;
    watch.stopped = true;
    watch.controller.abort();
    for (const timer of watch.timers) clearTimeout(timer);
    watch.timers.clear();
    this.watch = undefined;
    this.options.emit('trade.feedStatus', { pair: watch.pair, state: 'stopped', message: 'The live feed stopped.' });
  }

  /** Poll `run` every `period` ms (after each answer), backing off while it fails. */
  private loop(watch: Watch, stream: string, period: number, run: () => Promise<void>): void {
    let backoff = BACKOFF_MS;
    const schedule = (delay: number) => {
      const timer = setTimeout(async () => {
        watch.timers.delete(timer);
        if (watch.stopped) return;
        try {
          await run();
          backoff = BACKOFF_MS;
          if (watch.failing.delete(stream) && watch.failing.size === 0 && !watch.stopped)
            this.options.emit('trade.feedStatus', { pair: watch.pair, state: 'live', message: 'Live.' });
          if (!watch.stopped) schedule(period);
        } catch (error) {
          if (watch.stopped) return;
          watch.failing.add(stream);
          this.options.emit('trade.feedStatus', {
            pair: watch.pair,
            state: 'stale',
            message: `Market data is not updating (${stream}): ${error instanceof Error ? error.message : String(error)}. Retrying.`,
          });
          schedule(backoff);
          backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
        }
      }, delay);
      // The feed must never keep the process alive on its own.
      (timer as { unref?: () => void }).unref?.();
      watch.timers.add(timer);
    };
    schedule(period);
  }

  private async pollBook(watch: Watch): Promise<void> {
    const raw = await this.options
      .spot()
      .orderBook(
        { currency_pair: watch.pair, limit: BOOK_FETCH_LEVELS, with_id: true },
        { signal: watch.controller.signal },
      );
    if (watch.stopped) return;
    const next = { asks: levels(raw.asks), bids: levels(raw.bids) };
    const change = diffBook(watch.book, next);
    if (change === undefined) return;
    const from = watch.book.version;
    watch.book = {
      pair: watch.pair,
      version: from + 1,
      bookId: String(raw.id ?? 0),
      updatedAt: raw.update ?? raw.current ?? Date.now(),
      ...next,
    };
    this.options.emit('trade.bookChanged', {
      pair: watch.pair,
      from,
      to: from + 1,
      full: false,
      bookId: watch.book.bookId,
      updatedAt: watch.book.updatedAt,
      asks: [...change.asks],
      bids: [...change.bids],
    });
  }

  private async pollTicker(watch: Watch): Promise<void> {
    const [ticker] = await this.options
      .spot()
      .tickers({ currency_pair: watch.pair }, { signal: watch.controller.signal });
    if (!watch.stopped && ticker) this.options.emit('trade.tickerChanged', toTicker(ticker));
  }

  private async pollTrades(watch: Watch): Promise<void> {
    const trades = await this.options
      .spot()
      .trades({ currency_pair: watch.pair, limit: TRADES_LIMIT }, { signal: watch.controller.signal });
    if (watch.stopped) return;
    const fresh = trades.filter((t) => !watch.lastTradeIds.has(String(t.id)));
    watch.lastTradeIds = new Set(trades.map((t) => String(t.id)));
    if (fresh.length > 0)
      this.options.emit('trade.tradesAdded', {
        pair: watch.pair,
        trades: fresh.map(toPublicTrade),
      });
  }

  private async pollCandles(watch: Watch): Promise<void> {
    const rows = await this.options
      .spot()
      .candlesticks(
        { currency_pair: watch.pair, interval: watch.interval, limit: 3 },
        { signal: watch.controller.signal },
      );
    if (watch.stopped) return;
    const changed = rows.map(toCandle).filter((c) => {
      const text = JSON.stringify(c);
      if (watch.lastCandles.get(c.t) === text) return false;
      watch.lastCandles.set(c.t, text);
      return true;
    });
    // Keep memory bounded on a feed that runs for days.
    if (watch.lastCandles.size > 500)
      for (const t of [...watch.lastCandles.keys()].sort((a, b) => a - b).slice(0, 250)) watch.lastCandles.delete(t);
    if (changed.length > 0)
      this.options.emit('trade.candlesChanged', { pair: watch.pair, interval: watch.interval, candles: changed });
  }
}
