/**
 * The live market of the chosen pair: asks main to watch it, then applies main's events. Book
 * changes carry consecutive versions; a gap (a missed event) triggers a resync from main's copy.
 * Book changes are applied as they arrive and rendered at most once per animation frame (the first
 * at once, later ones of the same frame together at the next): a streamed book changes up to 50
 * times a second, and two renders in one frame would only cost time the frame does not have
 * (bench/match-to-screen.ts).
 */
import { useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import type { BookUpdate, Candle, CandleInterval, PublicTrade, Ticker } from '../../../../shared/contract/trade';
import { applyBookChange, type BookSides } from '../../../../shared/trade/book';
import { call, useDeskEvent } from '../../lib/desk';

const MAX_TRADES = 60;
const MAX_CANDLES = 300;

export interface MarketView {
  book: BookSides;
  ticker: Ticker | null;
  trades: PublicTrade[];
  candles: Candle[];
  status: {
    state: 'loading' | 'live' | 'stale' | 'stopped' | 'error';
    message: string;
    /** Streamed by the platform's WebSocket API, or polled over REST (unknown until main says). */
    source?: 'stream' | 'polling';
  };
}

const EMPTY: MarketView = {
  book: { asks: [], bids: [] },
  ticker: null,
  trades: [],
  candles: [],
  status: { state: 'loading', message: 'Connecting…' },
};

export const mergeCandles = (current: Candle[], changed: Candle[]): Candle[] => {
  const byTime = new Map(current.map((c) => [c.t, c]));
  for (const c of changed) byTime.set(c.t, c);
  return [...byTime.values()].sort((a, b) => a.t - b.t).slice(-MAX_CANDLES);
};

export const useMarket = (pair: string, interval: CandleInterval): MarketView => {
  const [view, setView] = useState<MarketView>(EMPTY);
  const version = useRef(0);
  const active = useRef('');
  /** The book as of `version`, ahead of the screen by at most one frame. */
  const book = useRef<BookSides>(EMPTY.book);
  /** The frame after the last render, while one is awaited; and whether a change waits for it. */
  const frame = useRef<number | undefined>(undefined);
  const waiting = useRef(false);
  const setBookNow = (next: BookSides) => {
    book.current = next;
    setView((v) => ({ ...v, book: next }));
  };
  // Rendered synchronously: in the event's own task, or in the frame's callback before it paints
  // (a plain setState there would render only after this frame was painted).
  const render = () => flushSync(() => setView((v) => (v.book === book.current ? v : { ...v, book: book.current })));
  /** At the next frame: render what came since the last render, or note that the frame is free. */
  const onFrame = () => {
    frame.current = undefined;
    if (!waiting.current) return;
    waiting.current = false;
    render();
    frame.current = requestAnimationFrame(onFrame);
  };
  /**
   * The first change after a quiet frame is rendered at once (the least latency); changes that
   * follow it before the next frame wait for that frame and render together (one render per frame).
   */
  const setBookSoon = (next: BookSides) => {
    book.current = next;
    if (frame.current !== undefined) {
      waiting.current = true;
      return;
    }
    render();
    frame.current = requestAnimationFrame(onFrame);
  };
  useEffect(
    () => () => {
      if (frame.current !== undefined) cancelAnimationFrame(frame.current);
    },
    [],
  );

  useEffect(() => {
    // No pair yet (the pair list is still loading): nothing to watch.
    if (pair === '') return undefined;
    let cancelled = false;
    active.current = pair;
    version.current = 0;
    book.current = EMPTY.book;
    setView(EMPTY);
    call('trade.watchMarket', { pair, candleInterval: interval })
      .then((state) => {
        if (cancelled) return;
        version.current = state.book.version;
        book.current = { asks: state.book.asks, bids: state.book.bids };
        setView((v) => ({
          book: book.current,
          ticker: state.ticker,
          trades: state.trades.slice(0, MAX_TRADES),
          candles: mergeCandles([], state.candles),
          // Main may have said where the feed comes from before this answer arrived: keep that.
          status: v.status.state === 'live' && v.status.source ? v.status : { state: 'live', message: 'Live' },
        }));
      })
      .catch((error: unknown) => {
        if (!cancelled)
          setView((v) => ({
            ...v,
            status: { state: 'error', message: error instanceof Error ? error.message : String(error) },
          }));
      });
    return () => {
      cancelled = true;
      active.current = '';
      void call('trade.unwatchMarket', {}).catch(() => undefined);
    };
  }, [pair, interval]);

  const resync = () => {
    call('trade.bookSnapshot', { pair })
      .then((snapshot) => {
        if (active.current !== pair) return;
        version.current = snapshot.version;
        setBookNow({ asks: snapshot.asks, bids: snapshot.bids });
      })
      .catch(() => undefined);
  };

  useDeskEvent('trade.bookChanged', (update: BookUpdate) => {
    if (update.pair !== active.current || version.current === 0) return;
    if (update.full) {
      version.current = update.to;
      setBookSoon({ asks: update.asks, bids: update.bids });
      return;
    }
    if (update.from !== version.current) {
      resync();
      return;
    }
    version.current = update.to;
    setBookSoon(applyBookChange(book.current, update));
  });
  useDeskEvent('trade.tickerChanged', (ticker) => {
    if (ticker.pair === active.current) setView((v) => ({ ...v, ticker }));
  });
  useDeskEvent('trade.tradesAdded', ({ pair: p, trades }) => {
    if (p === active.current) setView((v) => ({ ...v, trades: [...trades, ...v.trades].slice(0, MAX_TRADES) }));
  });
  useDeskEvent('trade.candlesChanged', ({ pair: p, interval: i, candles }) => {
    if (p === active.current && i === interval) setView((v) => ({ ...v, candles: mergeCandles(v.candles, candles) }));
  });
  useDeskEvent('trade.feedStatus', ({ pair: p, state, message, source }) => {
    if (p === active.current) setView((v) => ({ ...v, status: { state, message, ...(source ? { source } : {}) } }));
  });
  return view;
};
