/**
 * The market feed on a stream (a scripted WebSocket server on loopback plays the platform): the
 * book is the REST snapshot plus the sequenced updates; a gap or a cut rebuilds it from a new
 * snapshot and polling stands in meanwhile; while the stream is live the book is not polled.
 */
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';
import { applyBookChange, type BookSides } from '../../shared/trade/book';
import { PlatformClock } from '../api/clock';
import { PlatformStream } from '../api/stream';
import type { Scheduler } from '../scheduler';
import { ManualScheduler } from '../testing/scheduler';
import { waitUntil } from '../testing/waitUntil';
import { MarketFeed, STREAM_CONNECT_GRACE_MS } from './marketFeed';

const PAIR = 'BTC_USDT';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The platform's book: every change bumps the id; subscribers of the book channel get each change. */
const platform = async (options: { holdAcks?: boolean } = {}) => {
  let id = 10;
  /** Subscription answers held back (options.holdAcks) until `releaseAcks()`. */
  const heldAcks: (() => void)[] = [];
  const asks = new Map<string, string>([['101', '1']]);
  const bids = new Map<string, string>([['99', '1']]);
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => server.once('listening', resolve));
  const bookSockets = new Set<WebSocket>();
  server.on('connection', (socket) => {
    socket.on('message', (data) => {
      const request = JSON.parse(data.toString()) as { id: number; channel: string; event: string };
      if (request.event !== 'subscribe') return;
      const ack = () => {
        if (request.channel === 'spot.order_book_update') bookSockets.add(socket);
        socket.send(
          JSON.stringify({
            id: request.id,
            channel: request.channel,
            event: 'subscribe',
            result: { status: 'success' },
          }),
        );
      };
      if (options.holdAcks) heldAcks.push(ack);
      else ack();
    });
    socket.on('close', () => bookSockets.delete(socket));
  });
  let restReads = 0;
  const sorted = (m: Map<string, string>, desc: boolean): [string, string][] =>
    [...m.entries()].sort(([a], [b]) => (desc ? Number(b) - Number(a) : Number(a) - Number(b)));
  const spot = {
    orderBook: async () => {
      restReads++;
      return { id, asks: sorted(asks, false), bids: sorted(bids, true) };
    },
    tickers: async () => [{ currency_pair: PAIR, last: '100' }],
    trades: async () => [],
    candlesticks: async () => [],
  };
  cleanups.push(async () => {
    for (const client of server.clients) client.terminate();
    await new Promise((resolve) => server.close(resolve));
  });
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws/v4/`,
    spot,
    restReads: () => restReads,
    heldAcks: () => heldAcks.length,
    releaseAcks: () => {
      for (const ack of heldAcks.splice(0)) ack();
    },
    /** Changes the book; `deliver: false` loses the update on the way (a gap for the client). */
    change(side: 'asks' | 'bids', price: string, size: string, deliver = true) {
      const map = side === 'asks' ? asks : bids;
      if (size === '0') map.delete(price);
      else map.set(price, size);
      id++;
      if (!deliver) return;
      const result = {
        t: Date.now(),
        s: PAIR,
        U: id,
        u: id,
        b: side === 'bids' ? [[price, size]] : [],
        a: side === 'asks' ? [[price, size]] : [],
      };
      for (const socket of bookSockets)
        socket.send(JSON.stringify({ channel: 'spot.order_book_update', event: 'update', result }));
    },
    cut() {
      for (const socket of server.clients) socket.terminate();
    },
    book: () => ({ asks: sorted(asks, false), bids: sorted(bids, true) }),
  };
};

/** The renderer's side: applies every bookChanged event to the snapshot the watch answer gave. */
const startFeed = async (p: Awaited<ReturnType<typeof platform>>, scheduler?: Scheduler) => {
  const stream = new PlatformStream({ url: p.url, clock: new PlatformClock(), minBackoffMs: 20, maxBackoffMs: 40 });
  const statuses: { source?: string; message: string }[] = [];
  let book: BookSides = { asks: [], bids: [] };
  const feed = new MarketFeed({
    spot: () => p.spot as never,
    stream: () => stream,
    periods: { book: 20, ticker: 60_000, trades: 60_000, candles: 60_000 },
    ...(scheduler ? { scheduler } : {}),
    emit: ((name: string, payload: unknown) => {
      if (name === 'trade.bookChanged') book = applyBookChange(book, payload as BookSides);
      if (name === 'trade.feedStatus') statuses.push(payload as { source?: string; message: string });
    }) as never,
  });
  cleanups.push(
    () => stream.close(),
    () => feed.stop(),
  );
  const state = await feed.start(PAIR, '1m');
  book = { asks: state.book.asks, bids: state.book.bids };
  return { statuses, book: () => book, streamed: () => statuses.at(-1)?.source === 'stream' };
};

const until = (check: () => boolean) => waitUntil(check, { timeoutMs: 3_000, everyMs: 5 });

describe('MarketFeed on a stream', () => {
  it('keeps the book from the snapshot plus updates, and does not poll the book meanwhile', async () => {
    const p = await platform();
    // The feed's polls on a clock the test moves: "no read" is checked over poll periods that surely passed.
    const scheduler = new ManualScheduler();
    cleanups.push(() => scheduler.close());
    const feed = await startFeed(p, scheduler);
    await until(feed.streamed);
    const readsWhenLive = p.restReads();
    for (let i = 0; i < 30; i++)
      p.change(i % 2 ? 'asks' : 'bids', String(i % 2 ? 102 + (i % 5) : 98 - (i % 5)), String(i));
    await until(() => JSON.stringify(feed.book()) === JSON.stringify(p.book()));
    await scheduler.advance(150); // seven book poll periods
    expect(p.restReads()).toBe(readsWhenLive);
  });

  it('opening reads the book twice, not three times: no poll while the first subscription is on its way', async () => {
    const p = await platform({ holdAcks: true });
    const scheduler = new ManualScheduler();
    cleanups.push(() => scheduler.close());
    const feed = await startFeed(p, scheduler);
    expect(p.restReads()).toBe(1); // the snapshot the screen opens with
    await until(() => p.heldAcks() > 0);
    await scheduler.advance(STREAM_CONNECT_GRACE_MS - 100); // many book poll periods, within the grace
    expect(p.restReads()).toBe(1);
    p.releaseAcks();
    await until(feed.streamed);
    expect(p.restReads()).toBe(2); // the stream's own snapshot, taken once it is subscribed
  });

  it('a subscription that does not come: polling takes over after the grace', async () => {
    const p = await platform({ holdAcks: true });
    const scheduler = new ManualScheduler();
    cleanups.push(() => scheduler.close());
    const feed = await startFeed(p, scheduler);
    await until(() => p.heldAcks() > 0);
    await scheduler.advance(STREAM_CONNECT_GRACE_MS + 100);
    await until(() => p.restReads() > 1);
    p.change('bids', '98.5', '7', false); // the stream is not there: only polling can see it
    await scheduler.advance(100);
    await until(() => feed.book().bids.some(([price]) => price === '98.5'));
  });

  it('a lost update is a gap: polling stands in, a new snapshot rebuilds the book, then the stream again', async () => {
    const p = await platform();
    const feed = await startFeed(p);
    await until(feed.streamed);
    p.change('asks', '105', '2');
    p.change('asks', '106', '3', false); // lost on the way
    p.change('bids', '97', '4'); // U > last + 1: a gap
    await until(() => feed.statuses.some((s) => s.source === 'polling' && /missed/.test(s.message)));
    await until(feed.streamed);
    await until(() => JSON.stringify(feed.book()) === JSON.stringify(p.book()));
    expect(feed.book().asks).toContainEqual(['106', '3']);
  });

  it('after a cut the book stays right: polled while down, rebuilt on reconnect', async () => {
    const p = await platform();
    const feed = await startFeed(p);
    await until(feed.streamed);
    p.cut();
    await until(() => feed.statuses.at(-1)?.source === 'polling');
    p.change('bids', '98.5', '7', false); // while the socket is down: only polling can see it
    await until(() => feed.book().bids.some(([price]) => price === '98.5'));
    await until(feed.streamed);
    p.change('asks', '101', '0');
    await until(() => JSON.stringify(feed.book()) === JSON.stringify(p.book()));
  });
});
