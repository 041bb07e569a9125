import { describe, expect, it } from 'vitest';
import type { EventName } from '../../shared/contract';
import { waitUntil } from '../testing/waitUntil';
import { MarketFeed } from './marketFeed';

type Book = { id: number; asks: [string, string][]; bids: [string, string][] };

const fakeSpot = (books: Book[]) => {
  let calls = 0;
  const spot = {
    orderBook: async () => {
      const book = books[Math.min(calls, books.length - 1)]!;
      calls++;
      if (book.id < 0) throw new Error('platform down');
      return book;
    },
    tickers: async () => [{ currency_pair: 'BTC_USDT', last: '100' }],
    trades: async () => [],
    candlesticks: async () => [],
  };
  return spot as never;
};

const collect = () => {
  const events: { name: EventName; payload: unknown }[] = [];
  const emit = ((name: EventName, payload: unknown) => events.push({ name, payload })) as never;
  return { events, emit };
};

const until = (check: () => boolean) => waitUntil(check, { timeoutMs: 3_000, everyMs: 5 });

describe('MarketFeed', () => {
  it('pushes only the levels that changed, with consecutive versions', async () => {
    const { events, emit } = collect();
    const spot = fakeSpot([
      {
        id: 1,
        asks: [
          ['101', '1'],
          ['102', '2'],
        ],
        bids: [['99', '1']],
      },
      {
        id: 2,
        asks: [
          ['101', '1'],
          ['102', '3'],
        ],
        bids: [['99', '1']],
      },
      {
        id: 3,
        asks: [
          ['101', '1'],
          ['102', '3'],
        ],
        bids: [],
      },
    ]);
    const feed = new MarketFeed({
      spot: () => spot,
      emit,
      periods: { book: 1, ticker: 10_000, trades: 10_000, candles: 10_000 },
    });
    const state = await feed.start('BTC_USDT', '1m');
    expect(state.book.version).toBe(1);
    expect(state.ticker?.last).toBe('100');
    await until(() => events.filter((e) => e.name === 'trade.bookChanged').length >= 2);
    feed.stop();
    const changes = events.filter((e) => e.name === 'trade.bookChanged').map((e) => e.payload);
    expect(changes[0]).toMatchObject({ from: 1, to: 2, asks: [['102', '3']], bids: [] });
    expect(changes[1]).toMatchObject({ from: 2, to: 3, asks: [], bids: [['99', '0']] });
    // Identical polls after that push nothing.
    expect(changes).toHaveLength(2);
    expect(feed.snapshot('BTC_USDT')).toBeUndefined();
  });

  it('reports a stale feed while polls fail and live again after', async () => {
    const { events, emit } = collect();
    const spot = fakeSpot([
      { id: 1, asks: [], bids: [] },
      { id: -1, asks: [], bids: [] },
      { id: 2, asks: [['5', '1']], bids: [] },
    ]);
    const feed = new MarketFeed({
      spot: () => spot,
      emit,
      periods: { book: 1, ticker: 10_000, trades: 10_000, candles: 10_000 },
    });
    await feed.start('BTC_USDT', '1m');
    const live = () =>
      events.filter((e) => e.name === 'trade.feedStatus' && (e.payload as { state: string }).state === 'live');
    await until(() => live().length >= 2);
    feed.stop();
    const states = events
      .filter((e) => e.name === 'trade.feedStatus')
      .map((e) => (e.payload as { state: string }).state);
    // Live by polling from the start (no stream here), stale while polls fail, live again after.
    expect(states).toEqual(['live', 'stale', 'live', 'stopped']);
    expect(live()[0]?.payload).toMatchObject({ source: 'polling', message: expect.stringMatching(/no stream/) });
  });
});
