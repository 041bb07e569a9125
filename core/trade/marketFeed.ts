/**
 * The live market of one pair, kept by main and pushed to the renderer as events (only changed
 * book levels cross IPC):
 * - **streamed** where the address has the platform's WebSocket API: the book from a REST snapshot
 *   (`with_id`) plus the sequenced `spot.order_book_update` changes (shared/trade/bookSync.ts; a gap
 *   or a reconnect rebuilds it from a new snapshot), trades, ticker and candles from their
 *   channels. No polling while the stream is live;
 * - **polled** otherwise, and while the stream is down: the book as fast as the public limit allows
 *   with headroom, the ticker, recent trades and the current candles at modest rates. Requests
 *   never overlap within one poll loop (the next poll is scheduled after the previous answer).
 * `trade.feedStatus` says which one is live. Runs only while a pair is watched; a new watch
 * replaces the old one.
 */
import type { BookLevel, BookSnapshot, Candle, CandleInterval, PublicTrade, Ticker } from '../../shared/contract/trade';
import { StreamBookUpdate, StreamCandle, StreamTicker, StreamTrade } from '../../shared/platform/api/stream';
import { diffBook } from '../../shared/trade/book';
import { BookSync } from '../../shared/trade/bookSync';
import type { PlatformApi } from '../api/platform';
import type { PlatformStream } from '../api/stream';
import { DeskFailure } from '../errors';
import { BACKGROUND, type Scheduler, systemScheduler, type Timer } from '../scheduler';
import type { Emit } from '../types';
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
/**
 * A streamed book is rebuilt from a snapshot this often even without a gap: the snapshot holds the
 * best 100 levels, and levels deeper than that come into view only through a new one.
 */
export const BOOK_REFRESH_MS = 60_000;
/**
 * While the stream's first subscription is on its way, the book the screen opened with (a snapshot
 * just read) stands for this long before polling takes over: the subscription brings its own
 * snapshot at once, so a poll in between would read the same book a third time.
 */
export const STREAM_CONNECT_GRACE_MS = 1_000;
/**
 * The stream's book batching (the platform offers 100 ms and 20 ms): 20 ms, since a change waits up
 * to one interval before it leaves the platform, and the screen aims to show a match within 50 ms
 * (bench/match-to-screen.ts: p95 ≈ 110 ms with 100 ms batching). Bursts within one tick of main
 * still go out as one event.
 */
const BOOK_STREAM_INTERVAL = '20ms';
const CANDLES_LIMIT = 120;
/** After a failure a stream waits this long (doubling up to the maximum) before polling again. */
const BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 8_000;

type Spot = Pick<PlatformApi['spot'], 'orderBook' | 'tickers' | 'trades' | 'candlesticks'>;

export interface MarketFeedOptions {
  spot: () => Spot;
  emit: Emit;
  /** The platform's WebSocket stream of the active profile, when it has one. */
  stream?: () => PlatformStream | undefined;
  /** Poll periods (tests shorten them). */
  periods?: Partial<{ book: number; ticker: number; trades: number; candles: number }>;
  /** The polls', refreshes' and retries' timers (default: the system's). */
  scheduler?: Scheduler;
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
  timers: Set<Timer>;
  book: BookSnapshot;
  lastTradeIds: Set<string>;
  lastCandles: Map<number, string>;
  failing: Set<string>;
  /** The streamed book, and whether it is the platform's right now (else polling stands in). */
  sync: BookSync;
  streamLive: boolean;
  /** A snapshot is being fetched for the streamed book. */
  resyncing: boolean;
  /** Until when the book is not polled while the first subscription is on its way (0: not waiting). */
  connectGraceUntil: number;
  /** A book change is waiting to be sent (changes of one tick go out as one event). */
  publishing: boolean;
  unsubscribe: (() => void)[];
}

const levels = (raw: readonly (readonly [string, string])[]): BookLevel[] => raw.map(([p, a]) => [p, a]);

export class MarketFeed {
  private watch: Watch | undefined;
  /** Bumped by every start and stop, so a start that was overtaken while fetching does not run. */
  private generation = 0;
  private readonly periods: { book: number; ticker: number; trades: number; candles: number };
  private readonly scheduler: Scheduler;

  constructor(private readonly options: MarketFeedOptions) {
    this.scheduler = options.scheduler ?? systemScheduler();
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
      sync: new BookSync(),
      streamLive: false,
      resyncing: false,
      connectGraceUntil: 0,
      publishing: false,
      unsubscribe: [],
    };
    const mappedCandles = candles.map(toCandle);
    for (const c of mappedCandles) watch.lastCandles.set(c.t, JSON.stringify(c));
    this.watch = watch;
    const ticker = tickers[0] ? (toTicker(tickers[0]) as Ticker) : null;
    // The poll loops run always; each poll does nothing while the stream is live.
    this.loop(watch, 'book', this.periods.book, () => this.pollBook(watch));
    this.loop(watch, 'ticker', this.periods.ticker, () => this.pollTicker(watch));
    this.loop(watch, 'trades', this.periods.trades, () => this.pollTrades(watch));
    this.loop(watch, 'candles', this.periods.candles, () => this.pollCandles(watch));
    this.attachStream(watch);
    this.reportLive(watch);
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
    for (const unsubscribe of watch.unsubscribe) unsubscribe();
    for (const timer of watch.timers) timer.cancel();
    watch.timers.clear();
    this.watch = undefined;
    this.options.emit('trade.feedStatus', { pair: watch.pair, state: 'stopped', message: 'The live feed stopped.' });
  }

  /** Poll `run` every `period` ms (after each answer), backing off while it fails. */
  private loop(watch: Watch, stream: string, period: number, run: () => Promise<void>): void {
    let backoff = BACKOFF_MS;
    const schedule = (delay: number) => {
      const timer = this.scheduler.setTimeout(
        async () => {
          watch.timers.delete(timer);
          if (watch.stopped) return;
          try {
            await run();
            backoff = BACKOFF_MS;
            if (watch.failing.delete(stream) && watch.failing.size === 0 && !watch.stopped) this.reportLive(watch);
            if (!watch.stopped) schedule(period);
          } catch (error) {
            if (watch.stopped) return;
            watch.failing.add(stream);
            this.options.emit('trade.feedStatus', {
              pair: watch.pair,
              state: 'stale',
              message: `Market data is not updating (${stream}): ${error instanceof Error ? error.message : String(error)}. Retrying.`,
              source: 'polling',
            });
            schedule(backoff);
            backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
          }
        },
        delay,
        BACKGROUND,
      );
      watch.timers.add(timer);
    };
    schedule(period);
  }

  private async pollBook(watch: Watch): Promise<void> {
    // A resync under way reads the same snapshot and brings the book (and the stream) up: not twice.
    if (watch.streamLive || watch.resyncing || this.scheduler.now() < watch.connectGraceUntil) return;
    const raw = await this.options
      .spot()
      .orderBook(
        { currency_pair: watch.pair, limit: BOOK_FETCH_LEVELS, with_id: true },
        { signal: watch.controller.signal },
      );
    if (watch.stopped || watch.streamLive) return;
    this.emitBook(
      watch,
      { asks: levels(raw.asks), bids: levels(raw.bids) },
      String(raw.id ?? 0),
      raw.update ?? raw.current ?? Date.now(),
    );
  }

  /** Sends the levels that changed since the last book the renderer got. */
  private emitBook(
    watch: Watch,
    next: { asks: BookLevel[]; bids: BookLevel[] },
    bookId: string,
    updatedAt: number,
  ): void {
    const change = diffBook(watch.book, next);
    if (change === undefined) return;
    const from = watch.book.version;
    watch.book = { pair: watch.pair, version: from + 1, bookId, updatedAt, ...next };
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
    if (watch.streamLive) return;
    const [ticker] = await this.options
      .spot()
      .tickers({ currency_pair: watch.pair }, { signal: watch.controller.signal });
    if (!watch.stopped && ticker) this.options.emit('trade.tickerChanged', toTicker(ticker));
  }

  private async pollTrades(watch: Watch): Promise<void> {
    if (watch.streamLive) return;
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
    if (watch.streamLive) return;
    const rows = await this.options
      .spot()
      .candlesticks(
        { currency_pair: watch.pair, interval: watch.interval, limit: 3 },
        { signal: watch.controller.signal },
      );
    if (watch.stopped) return;
    this.emitCandles(watch, rows.map(toCandle));
  }

  /** Sends the candles that are new or changed. */
  private emitCandles(watch: Watch, candles: Candle[]): void {
    const changed = candles.filter((c) => {
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

  // --- the stream -------------------------------------------------------------------------------

  /** Subscribes the watched pair's channels when the profile's address has a stream. */
  private attachStream(watch: Watch): void {
    const stream = this.options.stream?.();
    if (stream === undefined) return;
    const { pair } = watch;
    watch.connectGraceUntil = this.scheduler.now() + STREAM_CONNECT_GRACE_MS;
    const parse = <T>(
      schema: { safeParse: (v: unknown) => { success: true; data: T } | { success: false } },
      value: unknown,
    ) => {
      const parsed = schema.safeParse(value);
      return parsed.success ? parsed.data : undefined;
    };
    watch.unsubscribe.push(
      stream.subscribe('spot.order_book_update', [pair, BOOK_STREAM_INTERVAL], {
        // (Re)subscribed: changes may have been missed while it was down; rebuild from a snapshot.
        onSubscribed: () => {
          watch.connectGraceUntil = 0;
          watch.sync.reset();
          void this.resync(watch);
        },
        onUpdate: (result) => {
          const update = parse(StreamBookUpdate, result);
          if (update === undefined || update.s !== pair || watch.stopped) return;
          const outcome = watch.sync.update({
            U: update.U,
            u: update.u,
            bids: update.b,
            asks: update.a,
            full: update.full,
          });
          if (outcome === 'gap') {
            this.streamDown(watch, 'updates were missed; rebuilding the book');
            void this.resync(watch);
          } else if (outcome === 'applied') {
            if (update.full && !watch.streamLive) this.streamUp(watch);
            this.publishStreamedBook(watch, update.t);
          }
        },
        onDown: (reason) => {
          watch.connectGraceUntil = 0;
          watch.sync.reset();
          this.streamDown(watch, `the stream is down (${reason})`);
        },
      }),
      stream.subscribe('spot.trades', [pair], {
        onUpdate: (result) => {
          const trade = parse(StreamTrade, result);
          if (trade === undefined || trade.currency_pair !== pair || watch.stopped) return;
          const id = String(trade.id);
          if (watch.lastTradeIds.has(id)) return;
          watch.lastTradeIds.add(id);
          // Bounded: a feed may run for days.
          if (watch.lastTradeIds.size > 2 * TRADES_LIMIT)
            watch.lastTradeIds = new Set([...watch.lastTradeIds].slice(-TRADES_LIMIT));
          this.options.emit('trade.tradesAdded', { pair, trades: [toPublicTrade(trade)] });
        },
      }),
      stream.subscribe('spot.tickers', [pair], {
        onUpdate: (result) => {
          const ticker = parse(StreamTicker, result);
          if (ticker !== undefined && ticker.currency_pair === pair && !watch.stopped)
            this.options.emit('trade.tickerChanged', toTicker(ticker));
        },
      }),
      stream.subscribe('spot.candlesticks', [watch.interval, pair], {
        onUpdate: (result) => {
          const candle = parse(StreamCandle, result);
          if (candle === undefined || candle.n !== `${watch.interval}_${pair}` || watch.stopped) return;
          this.emitCandles(watch, [
            {
              t: candle.t,
              open: candle.o,
              high: candle.h,
              low: candle.l,
              close: candle.c,
              // The platform's candle: `a` is the base amount, `v` the total volume in quote.
              baseVolume: candle.a ?? '0',
              quoteVolume: candle.v ?? '0',
              closed: candle.w ?? false,
            },
          ]);
        },
      }),
    );
    // Without a gap, deeper levels come into view only through a new snapshot.
    const refresh = this.scheduler.setInterval(
      () => {
        if (watch.streamLive) void this.resync(watch);
      },
      BOOK_REFRESH_MS,
      BACKGROUND,
    );
    watch.unsubscribe.push(() => refresh.cancel());
  }

  /** Rebuilds the streamed book from a REST snapshot (buffered updates are applied on top). */
  private async resync(watch: Watch): Promise<void> {
    if (watch.resyncing || watch.stopped) return;
    watch.resyncing = true;
    try {
      for (let attempt = 0; attempt < 5 && !watch.stopped; attempt++) {
        try {
          const raw = await this.options
            .spot()
            .orderBook(
              { currency_pair: watch.pair, limit: BOOK_FETCH_LEVELS, with_id: true },
              { signal: watch.controller.signal },
            );
          if (watch.stopped) return;
          if (raw.id !== undefined && watch.sync.snapshot(raw.id, raw.bids, raw.asks) === 'applied') {
            this.streamUp(watch);
            this.publishStreamedBook(watch, raw.update ?? raw.current);
            return;
          }
        } catch {
          // Polling reports a failing REST; the stream stays down until a snapshot arrives.
        }
        await this.scheduler.sleep(200 * 2 ** attempt);
      }
    } finally {
      watch.resyncing = false;
    }
  }

  /** Sends the streamed book's changes once per tick (a burst of updates is one event). */
  private publishStreamedBook(watch: Watch, updatedAt: number | undefined): void {
    if (watch.publishing || !watch.streamLive) return;
    watch.publishing = true;
    setImmediate(() => {
      watch.publishing = false;
      if (watch.stopped || !watch.sync.synced) return;
      const next = watch.sync.levels(BOOK_FETCH_LEVELS);
      this.emitBook(watch, next, String(watch.sync.lastId ?? 0), updatedAt ?? Date.now());
    });
  }

  private streamUp(watch: Watch): void {
    if (watch.streamLive) return;
    watch.streamLive = true;
    this.reportLive(watch);
  }

  private streamDown(watch: Watch, why: string): void {
    if (!watch.streamLive || watch.stopped) return;
    watch.streamLive = false;
    // Polling takes over at its next tick; the screen says so.
    this.options.emit('trade.feedStatus', {
      pair: watch.pair,
      state: 'live',
      message: `Live by polling: ${why}.`,
      source: 'polling',
    });
  }

  private reportLive(watch: Watch): void {
    this.options.emit('trade.feedStatus', {
      pair: watch.pair,
      state: 'live',
      message: watch.streamLive
        ? 'Live (streamed).'
        : watch.unsubscribe.length > 0
          ? 'Live by polling while the stream connects.'
          : 'Live by polling (this address has no stream).',
      source: watch.streamLive ? 'stream' : 'polling',
    });
  }
}
