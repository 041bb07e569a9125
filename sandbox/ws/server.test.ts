// The WebSocket API v4 (spot) over a real socket against a sandbox started in-process (memory
// database, market off): the envelope, errors, private channels after REST orders, the book stream
// reproducing the sandbox's own book (property test), a dropped update seen as a gap, and the app's
// own client (PlatformStream) working against it unchanged.

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { PlatformClock } from '../../core/api/clock';
import { PlatformStream } from '../../core/api/stream';
import { BookSync } from '../../shared/trade/bookSync';
import { controlAnswer, type SignedClient, startTestSandbox, type TestSandbox } from '../testing/harness';
import { type StreamReply, TestStream } from '../testing/stream';
import { MAX_FRAME } from './server';

type Json = Record<string, unknown>;
type Level = [string, string];
interface RestBook {
  id: number;
  bids: Level[];
  asks: Level[];
}

let sb: TestSandbox;
const streams: TestStream[] = [];

beforeAll(async () => {
  sb = await startTestSandbox({ market: 'off', clock: 'real', seed: 11 });
  sb.limiter.enforce = false;
});
afterAll(async () => {
  for (const s of streams) s.close();
  await sb?.close();
});

async function open(): Promise<TestStream> {
  const s = await TestStream.open(sb.wsUrl);
  streams.push(s);
  return s;
}

const user = (funds: Record<string, string> = { USDT: '100000000', BTC: '1000' }) => sb.user(funds);

async function place(api: SignedClient, body: Json): Promise<Json & { id: string }> {
  const res = await api.post<Json & { id: string }>('/spot/orders', { currency_pair: 'BTC_USDT', ...body });
  if (res.status !== 201) throw new Error(`placement failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function restBook(pair: string): Promise<RestBook> {
  const res = await fetch(`${sb.baseUrl}/spot/order_book?currency_pair=${pair}&with_id=true&limit=1000`);
  return (await res.json()) as RestBook;
}

const isUpdate = (channel: string) => (m: StreamReply) => m.channel === channel && m.event === 'update';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('envelope and errors', () => {
  it('acknowledges a subscription with the request id, and answers spot.ping with spot.pong', async () => {
    const s = await open();
    const ack = await s.request('spot.trades', 'subscribe', ['BTC_USDT']);
    expect(ack).toMatchObject({ channel: 'spot.trades', event: 'subscribe', result: { status: 'success' } });
    expect(typeof ack.time).toBe('number');
    expect(typeof ack.time_ms).toBe('number');
    expect(ack.error).toBeUndefined();
    s.send({ time: Math.floor(Date.now() / 1000), channel: 'spot.ping' });
    const pong = await s.next((m) => m.channel === 'spot.pong');
    expect(pong.error).toBeUndefined();
    const un = await s.request('spot.trades', 'unsubscribe', ['BTC_USDT']);
    expect(un).toMatchObject({ event: 'unsubscribe', result: { status: 'success' } });
  });

  it('refuses an unknown channel, a bad payload and a bad event with code 2', async () => {
    const s = await open();
    expect((await s.request('spot.nope', 'subscribe', ['BTC_USDT'])).error?.code).toBe(2);
    expect((await s.request('spot.trades', 'subscribe', ['NOPE_USDT'])).error?.code).toBe(2);
    expect((await s.request('spot.trades', 'subscribe', 'BTC_USDT')).error?.code).toBe(2);
    expect((await s.request('spot.order_book_update', 'subscribe', ['BTC_USDT', '7ms'])).error?.code).toBe(2);
    expect((await s.request('spot.candlesticks', 'subscribe', ['BTC_USDT', '1m'])).error?.code).toBe(2);
    const bad = s.next((m) => m.id === 99);
    s.send({ time: 1, id: 99, channel: 'spot.trades', event: 'explode', payload: ['BTC_USDT'] });
    expect((await bad).error?.code).toBe(2);
  });

  it('answers garbage with code 1 and keeps the socket; closes on a frame over the cap, and the server lives on', async () => {
    const s = await open();
    s.send('{not json');
    expect((await s.next((m) => m.error?.code === 1)).error?.message).toMatch(/format/i);
    s.send('[1,2,3]');
    s.send(Buffer.from([0xff, 0xfe, 0x00]));
    s.send({ time: 1, id: 5, channel: 'spot.ping' });
    await s.next((m) => m.id === 5 && m.channel === 'spot.pong');
    s.send('x'.repeat(MAX_FRAME + 10));
    expect((await s.whenClosed()).code).toBe(1009);
    const again = await open();
    expect((await again.request('spot.tickers', 'subscribe', ['BTC_USDT'])).result).toEqual({ status: 'success' });
  });

  it('refuses private channels without valid auth (4), with an old time (6); a non-stream path gets 404', async () => {
    const u = user();
    const s = await open();
    expect((await s.request('spot.orders', 'subscribe', ['BTC_USDT'])).error?.code).toBe(4);
    const wrong = await s.request('spot.orders', 'subscribe', ['BTC_USDT'], { key: u.key, secret: 'wrong' });
    expect(wrong.error?.code).toBe(4);
    expect(wrong.result).toEqual({ status: 'fail' });
    const unknown = await s.request('spot.balances', 'subscribe', [], { key: 'nokey', secret: u.secret });
    expect(unknown.error?.code).toBe(4);
    const time = Math.floor(Date.now() / 1000) - 3600;
    const { signChannel } = await import('../http/signature');
    const old = s.next((m) => m.id === 77);
    s.send({
      time,
      id: 77,
      channel: 'spot.orders',
      event: 'subscribe',
      payload: ['!all'],
      auth: { method: 'api_key', KEY: u.key, SIGN: signChannel(u.secret, 'spot.orders', 'subscribe', time) },
    });
    expect((await old).error?.code).toBe(6);
    const refused = await new Promise<number>((resolve) => {
      const ws = new WebSocket(sb.wsUrl.replace('/ws/v4/', '/ws/v3/'));
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('error', () => {});
    });
    expect(refused).toBe(404);
  });
});

describe('private channels', () => {
  it('tells orders, user trades and balances of REST orders to their owner only', async () => {
    const maker = user();
    const taker = user();
    const other = user();
    const s = await open();
    const spy = await open();
    for (const ch of ['spot.orders', 'spot.usertrades']) {
      expect((await s.request(ch, 'subscribe', ['BTC_USDT'], maker)).result).toEqual({ status: 'success' });
      expect((await spy.request(ch, 'subscribe', ['!all'], other)).result).toEqual({ status: 'success' });
    }
    expect((await s.request('spot.balances', 'subscribe', [], maker)).result).toEqual({ status: 'success' });

    const order = await place(maker.api, { side: 'buy', amount: '0.01', price: '41000' });
    const put = await s.next(isUpdate('spot.orders'));
    const [item] = put.result as Json[];
    expect(item).toMatchObject({ id: order.id, event: 'put', user: maker.id, status: 'open', left: '0.01' });
    const locked = await s.next(
      (m) => isUpdate('spot.balances')(m) && (m.result as Json[]).some((b) => b.currency === 'USDT'),
    );
    const usdt = (locked.result as Json[]).find((b) => b.currency === 'USDT')!;
    expect(usdt).toMatchObject({
      user: String(maker.id),
      available: '99999590',
      freeze: '410',
      freeze_change: '410',
      change: '0',
      total: '100000000',
      change_type: 'order-create',
    });
    expect(typeof usdt.timestamp).toBe('string');
    expect(typeof usdt.timestamp_ms).toBe('string');

    await place(taker.api, { side: 'sell', amount: '0.004', price: '41000' });
    const fill = await s.next(
      (m) => isUpdate('spot.orders')(m) && (m.result as Json[]).some((o) => o.event === 'update'),
    );
    expect((fill.result as Json[])[0]).toMatchObject({ id: order.id, left: '0.006', filled_amount: '0.004' });
    const trade = await s.next(isUpdate('spot.usertrades'));
    expect((trade.result as Json[])[0]).toMatchObject({
      order_id: order.id,
      role: 'maker',
      side: 'buy',
      amount: '0.004',
      price: '41000',
      user_id: maker.id,
    });
    await s.next(
      (m) => isUpdate('spot.balances')(m) && (m.result as Json[]).some((b) => b.change_type === 'order-match'),
    );

    await maker.api.delete(`/spot/orders/${order.id}`, { currency_pair: 'BTC_USDT' });
    const finish = await s.next(
      (m) => isUpdate('spot.orders')(m) && (m.result as Json[]).some((o) => o.event === 'finish'),
    );
    expect((finish.result as Json[])[0]).toMatchObject({ id: order.id, status: 'cancelled' });
    // A ping answered on the spy's socket: whatever was sent to it before has arrived.
    spy.send({ time: Math.floor(Date.now() / 1000), id: 99, channel: 'spot.ping' });
    await spy.next((m) => m.id === 99 && m.channel === 'spot.pong');
    expect(spy.messages.filter((m) => m.event === 'update')).toEqual([]);
  });
});

describe('public channels', () => {
  it('pushes trades, tickers, candles, the best bid/ask, book snapshots and spot.obu', async () => {
    const a = user();
    const b = user();
    const s = await open();
    await s.request('spot.trades', 'subscribe', ['BTC_USDT']);
    await s.request('spot.tickers', 'subscribe', ['BTC_USDT']);
    await s.request('spot.candlesticks', 'subscribe', ['1m', 'BTC_USDT']);
    await s.request('spot.book_ticker', 'subscribe', ['BTC_USDT']);
    await s.request('spot.order_book', 'subscribe', ['BTC_USDT', '5', '100ms']);
    await s.request('spot.obu', 'subscribe', ['ob.BTC_USDT.50']);
    const first = await s.next(isUpdate('spot.obu'));
    expect(first.result).toMatchObject({ full: true, s: 'ob.BTC_USDT.50' });
    const firstId = (first.result as { u: number }).u;

    await place(a.api, { side: 'sell', amount: '0.02', price: '30001' });
    await place(b.api, { side: 'buy', amount: '0.005', price: '30001' });
    const trade = await s.next(isUpdate('spot.trades'));
    expect(trade.result).toMatchObject({ currency_pair: 'BTC_USDT', side: 'buy', amount: '0.005', price: '30001' });
    expect(typeof (trade.result as Json).id).toBe('number');
    expect(typeof (trade.result as Json).create_time_ms).toBe('string');
    const ticker = await s.next((m) => isUpdate('spot.tickers')(m) && (m.result as Json).last === '30001');
    expect(ticker.result).toMatchObject({ currency_pair: 'BTC_USDT', lowest_ask: '30001' });
    const candle = await s.next((m) => isUpdate('spot.candlesticks')(m) && (m.result as Json).c === '30001');
    expect(candle.result).toMatchObject({ n: '1m_BTC_USDT', o: expect.any(String), a: expect.any(String) });
    const bt = await s.next((m) => isUpdate('spot.book_ticker')(m) && (m.result as Json).A === '0.015');
    expect(bt.result).toMatchObject({ s: 'BTC_USDT', a: '30001' });
    const snap = await s.next(
      (m) =>
        isUpdate('spot.order_book')(m) &&
        (m.result as { asks: Level[] }).asks.some(([p, q]) => p === '30001' && q === '0.015'),
    );
    expect(snap.result).toMatchObject({ s: 'BTC_USDT', asks: expect.arrayContaining([['30001', '0.015']]) });
    const inc = await s.next((m) => isUpdate('spot.obu')(m) && (m.result as Json).full === undefined);
    expect((inc.result as { U: number }).U).toBe(firstId + 1);
  });
});

describe('order book stream', () => {
  /** Subscribes, takes the REST snapshot, and feeds every update to a BookSync. */
  async function follow(pair: string, interval = '20ms') {
    const s = await open();
    const sync = new BookSync();
    const outcomes: string[] = [];
    s.ws.on('message', (data) => {
      const m = JSON.parse(data.toString()) as StreamReply;
      if (m.channel !== 'spot.order_book_update' || m.event !== 'update') return;
      const r = m.result as { U: number; u: number; b: Level[]; a: Level[]; s: string; full?: boolean };
      if (r.s !== pair) return;
      outcomes.push(sync.update({ U: r.U, u: r.u, bids: r.b, asks: r.a, full: r.full }));
    });
    const ack = await s.request('spot.order_book_update', 'subscribe', [pair, interval]);
    expect(ack.result).toEqual({ status: 'success' });
    const snap = await restBook(pair);
    outcomes.push(sync.snapshot(snap.id, snap.bids, snap.asks));
    return { s, sync, outcomes };
  }

  async function converged(sync: BookSync, pair: string): Promise<RestBook> {
    for (let i = 0; i < 100; i++) {
      const book = await restBook(pair);
      if (sync.lastId === book.id) return book;
      await sleep(25);
    }
    throw new Error(`the stream did not reach the REST book id (at ${sync.lastId})`);
  }

  it('REST snapshot + every update reproduces the sandbox book after random placements and cancels', async () => {
    const traders = [user(), user(), user()];
    const pair = 'ETH_USDT';
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('place' as const),
        who: fc.integer({ min: 0, max: 2 }),
        side: fc.constantFrom('buy', 'sell'),
        // A narrow band around 3000 so orders cross, rest, and share levels.
        price: fc.integer({ min: 299_000, max: 301_000 }).map((c) => (c / 100).toFixed(2)),
        amount: fc.integer({ min: 1, max: 500 }).map((n) => (n / 1000).toFixed(3)),
        tif: fc.constantFrom('gtc', 'gtc', 'gtc', 'ioc'),
      }),
      fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('pause' as const), ms: fc.integer({ min: 0, max: 30 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: 40 }), async (ops) => {
        const { s, sync, outcomes } = await follow(pair);
        const open: { who: number; id: string }[] = [];
        for (const o of ops) {
          if (o.kind === 'place') {
            const res = await traders[o.who]!.api.post<Json & { id: string; status: string }>('/spot/orders', {
              currency_pair: pair,
              side: o.side,
              price: o.price,
              amount: o.amount,
              time_in_force: o.tif,
            });
            if (res.status === 201 && res.body.status === 'open') open.push({ who: o.who, id: res.body.id });
          } else if (o.kind === 'cancel' && open.length > 0) {
            const [victim] = open.splice(o.pick % open.length, 1);
            await traders[victim!.who]!.api.delete(`/spot/orders/${victim!.id}`, { currency_pair: pair });
          } else if (o.kind === 'pause') {
            // fixed-sleep-ok: a pause of the generated workload (the book must converge whatever the timing)
            await sleep(o.ms);
          }
        }
        const book = await converged(sync, pair);
        s.close();
        expect(outcomes).not.toContain('gap');
        const mine = sync.levels();
        expect(mine.bids).toEqual(book.bids);
        expect(mine.asks).toEqual(book.asks);
      }),
      { numRuns: 25 },
    );
  }, 120_000);

  it('a dropped update (control API fault) is a gap for BookSync', async () => {
    const t = user();
    const { sync, outcomes } = await follow('BTC_USDT');
    const res = await controlAnswer(sb, 'POST', '/stream/faults', { drop_book_updates: 1 });
    expect(res.body).toMatchObject({ drop_next: 1 });
    await place(t.api, { side: 'buy', amount: '0.001', price: '20000' });
    const faultState = async () =>
      (await (await fetch(`${sb.controlUrl}/stream/faults`, { headers: sb.controlHeaders })).json()) as Json;
    // The first update was sent (and dropped) before the second order makes the next one.
    for (let i = 0; i < 100 && (await faultState()).dropped !== 1; i++) await sleep(10);
    await place(t.api, { side: 'buy', amount: '0.001', price: '20001' });
    for (let i = 0; i < 40 && !outcomes.includes('gap'); i++) await sleep(25);
    expect(outcomes).toContain('gap');
    expect(sync.synced).toBe(false);
    const state = (await (
      await fetch(`${sb.controlUrl}/stream/faults`, { headers: sb.controlHeaders })
    ).json()) as Json;
    expect(state).toMatchObject({ drop_next: 0, dropped: 1 });
  });

  it('POST /sandbox/stream/cut closes every socket', async () => {
    const s1 = await open();
    const s2 = await open();
    const res = await fetch(`${sb.controlUrl}/stream/cut`, { method: 'POST', headers: sb.controlHeaders });
    expect(((await res.json()) as { closed: number }).closed).toBeGreaterThanOrEqual(2);
    await s1.whenClosed();
    await s2.whenClosed();
  });
});

describe("the app's client (PlatformStream) unchanged", () => {
  it('subscribes public and signed channels, gets acks and updates', async () => {
    const u = user();
    const stream = new PlatformStream({
      url: sb.wsUrl,
      clock: new PlatformClock(),
      credentials: () => ({ key: u.key, secret: u.secret }),
      minBackoffMs: 50,
    });
    try {
      const events: string[] = [];
      const subscribed = (name: string) =>
        new Promise<void>((resolve, reject) => {
          const handlers = {
            onSubscribed: () => {
              events.push(`${name} up`);
              resolve();
            },
            onDown: (reason: string) => reject(new Error(`${name}: ${reason}`)),
            onUpdate: (result: unknown) => events.push(`${name} ${JSON.stringify(result).slice(0, 40)}`),
          };
          if (name === 'book') stream.subscribe('spot.order_book_update', ['BTC_USDT', '100ms'], handlers);
          else stream.subscribe('spot.balances', [], handlers, { private: true });
        });
      await Promise.all([subscribed('book'), subscribed('balances')]);
      await place(u.api, { side: 'buy', amount: '0.001', price: '10000' });
      for (let i = 0; i < 40 && !events.some((e) => e.startsWith('balances [')); i++) await sleep(25);
      for (let i = 0; i < 40 && !events.some((e) => e.startsWith('book {')); i++) await sleep(25);
      expect(events.some((e) => e.startsWith('balances ['))).toBe(true);
      expect(events.some((e) => e.startsWith('book {'))).toBe(true);
    } finally {
      stream.close();
    }
  });
});

describe('with the simulated market running', () => {
  it('REST snapshot + updates stays the sandbox book while the simulator trades', async () => {
    const live = await startTestSandbox({ market: 'on', clock: 'real', seed: 5 });
    const s = await TestStream.open(live.wsUrl);
    try {
      const sync = new BookSync();
      const outcomes: string[] = [];
      s.ws.on('message', (data) => {
        const m = JSON.parse(data.toString()) as StreamReply;
        if (m.channel !== 'spot.order_book_update' || m.event !== 'update') return;
        const r = m.result as { U: number; u: number; b: Level[]; a: Level[]; full?: boolean };
        outcomes.push(sync.update({ U: r.U, u: r.u, bids: r.b, asks: r.a, full: r.full }));
      });
      await s.request('spot.order_book_update', 'subscribe', ['BTC_USDT', '20ms']);
      const book = async () =>
        (await (
          await fetch(`${live.baseUrl}/spot/order_book?currency_pair=BTC_USDT&with_id=true&limit=1000`)
        ).json()) as RestBook;
      const first = await book();
      outcomes.push(sync.snapshot(first.id, first.bids, first.asks));
      // The live market moves the book for a while (several updates applied on the snapshot).
      for (let i = 0; i < 400 && outcomes.filter((o) => o === 'applied').length <= 3; i++) await sleep(10);
      let matched = false;
      for (let i = 0; i < 100 && !matched; i++) {
        const now = await book();
        if (sync.lastId === now.id) {
          expect(sync.levels()).toEqual({ bids: now.bids, asks: now.asks });
          matched = true;
        } else await sleep(5);
      }
      expect(matched).toBe(true);
      expect(outcomes).not.toContain('gap');
      expect(outcomes.filter((o) => o === 'applied').length).toBeGreaterThan(3);
    } finally {
      s.close();
      await live.close();
    }
  }, 20_000);
});
