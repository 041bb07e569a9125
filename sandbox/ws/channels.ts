/**
 * The channels of the WebSocket API v4 (spot) and what feeds them (api-facts §8). Transport-free:
 * sandbox/ws/server.ts owns the sockets and hands each request here.
 *
 * Topics: a channel plus a key derived from the payload (a pair, "1m_BTC_USDT", "BTC_USDT|100ms", or
 * for private channels "<user>|<pair or !all>"). A message is serialised once per topic and written
 * to every connection subscribed to it.
 *
 * Order books: the engines tell each level change (SpotExchange.onBookChange, hooked only once a
 * book channel is subscribed). spot.order_book_update keeps, per pair and interval, the levels
 * touched since its last message and sends them every interval with their absolute sizes; U/u are
 * the book ids (the REST `with_id` id) the message covers, so REST snapshot + updates is the book.
 * spot.obu sends the best N levels: a full first push per subscriber, then the differences.
 * Trades, orders, user trades and balances are published after the change that made them (a
 * setImmediate flush, out of the matching transaction).
 */
import type { SandboxClock } from '../clock';
import type { StreamFaults } from '../http/faults';
import { CANDLE_INTERVALS, type CandleInterval, isCandleInterval } from '../spot/candles';
import type { BookChange, OrderEventKind, SpotExchange, TradeEvent } from '../spot/exchange';
import type { MarketData } from '../spot/marketData';
import { formatScaled } from '../spot/matching/decimal';
import type { MatchingEngine } from '../spot/matching/engine';
import { myTradeView, orderView, publicTradeView } from '../spot/orders/view';
import { findPair, type SpotPair } from '../spot/pairs';
import type { OrderRow } from '../spot/store';
import type { BalanceChange, Ledger } from '../store/ledger';

/** A connection as the channels see it. */
export interface Subscriber {
  readonly id: number;
  /** Writes one text frame (dropped when the socket is gone or hopelessly behind). */
  send(text: string): void;
}

export type SubscribeOutcome =
  | { readonly ok: true; readonly afterAck?: () => void }
  | { readonly ok: false; readonly code: number; readonly message: string };

export const BAD_REQUEST = 2;

export const PUBLIC_CHANNELS = [
  'spot.tickers',
  'spot.trades',
  'spot.candlesticks',
  'spot.book_ticker',
  'spot.order_book',
  'spot.order_book_update',
  'spot.obu',
] as const;
export const PRIVATE_CHANNELS = ['spot.orders', 'spot.usertrades', 'spot.balances'] as const;
export type Channel = (typeof PUBLIC_CHANNELS)[number] | (typeof PRIVATE_CHANNELS)[number];

export const isChannel = (c: string): c is Channel =>
  (PUBLIC_CHANNELS as readonly string[]).includes(c) || (PRIVATE_CHANNELS as readonly string[]).includes(c);
export const isPrivateChannel = (c: string): boolean => (PRIVATE_CHANNELS as readonly string[]).includes(c);

const MAX_PAYLOAD_ITEMS = 100;
/** spot.order_book_update batching intervals (api-facts §8; 20 ms is the fast book). */
const UPDATE_INTERVALS: Readonly<Record<string, number>> = { '20ms': 20, '100ms': 100, '1000ms': 1000 };
const SNAPSHOT_INTERVALS: Readonly<Record<string, number>> = { '100ms': 100, '1000ms': 1000 };
const SNAPSHOT_LEVELS = new Set(['1', '5', '10', '20', '30', '50', '100']);
/** spot.obu depths and their push intervals. */
const OBU_DEPTHS: Readonly<Record<string, number>> = { '50': 20, '400': 100 };
/** Tickers and the current candle are pushed at most this often per topic. */
const SLOW_PUSH_MS = 1000;
const TIMER_MS = 20;

interface UpdateStream {
  readonly pair: SpotPair;
  readonly topic: string;
  readonly everyMs: number;
  nextAt: number;
  engine: MatchingEngine | undefined;
  lastSent: number;
  /** Touched levels: price ticks × 2 + 1 for bids. */
  readonly touched: Set<number>;
  reset: boolean;
}

interface ObuStream {
  readonly pair: SpotPair;
  readonly topic: string;
  readonly depth: number;
  readonly everyMs: number;
  nextAt: number;
  engine: MatchingEngine | undefined;
  lastSent: number;
  /** What subscribers hold: level key → size text. */
  levels: Map<number, string>;
}

interface SnapshotStream {
  readonly pair: SpotPair;
  readonly topic: string;
  readonly levels: number;
  readonly everyMs: number;
  nextAt: number;
  engine: MatchingEngine | undefined;
  lastSent: number;
}

interface SlowTopic {
  readonly pair: SpotPair;
  readonly interval?: CandleInterval;
  dirty: boolean;
  lastAt: number;
}

export interface ChannelDeps {
  readonly exchange: SpotExchange;
  readonly market: MarketData;
  readonly ledger: Ledger;
  readonly clock: SandboxClock;
  readonly faults: StreamFaults;
}

export class Channels {
  /** channel → topic key → connections. */
  private readonly topics = new Map<string, Map<string, Set<Subscriber>>>();
  /** Per connection, its topics (channel NUL key), to drop them when it goes. */
  private readonly byConnection = new Map<Subscriber, Set<string>>();
  private readonly updateStreams = new Map<string, UpdateStream>();
  private readonly updateStreamsByPair = new Map<string, UpdateStream[]>();
  private readonly obuStreams = new Map<string, ObuStream>();
  private readonly snapshotStreams = new Map<string, SnapshotStream>();
  private readonly slowTopics = new Map<string, SlowTopic>();
  private readonly bookTickerDirty = new Set<string>();
  private readonly bookTickerLast = new Map<string, string>();
  private unhookBooks: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** Messages waiting for the flush after the current change: topic → items (arrays) or texts. */
  private pendingItems = new Map<string, { channel: string; key: string; items: unknown[] }>();
  private pendingTexts: { channel: string; key: string; text: string }[] = [];
  private flushScheduled = false;
  private bookTickerScheduled = false;
  private closed = false;
  /** Hooked only while spot.balances has subscribers (every ledger write would pay for it). */
  private unhookLedger: (() => void) | undefined;

  constructor(private readonly deps: ChannelDeps) {
    deps.exchange.onTrade((t) => this.onTrade(t));
    deps.exchange.onOrder((row, event) => this.onOrder(row, event));
  }

  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    this.timer = undefined;
    this.unhookBooks?.();
    this.unhookBooks = undefined;
    this.unhookLedger?.();
    this.unhookLedger = undefined;
    this.topics.clear();
    this.byConnection.clear();
  }

  // --- subscriptions ----------------------------------------------------------------------------

  subscribe(conn: Subscriber, channel: Channel, payload: unknown, userId: number | undefined): SubscribeOutcome {
    const parsed = this.topicKeys(channel, payload, userId);
    if (!parsed.ok) return parsed;
    const after: (() => void)[] = [];
    for (const key of parsed.keys) {
      const first = this.add(conn, channel, key);
      const initial = this.startTopic(channel, key, conn, first);
      if (initial) after.push(initial);
    }
    return {
      ok: true,
      afterAck:
        after.length > 0
          ? () => {
              for (const f of after) f();
            }
          : undefined,
    };
  }

  unsubscribe(conn: Subscriber, channel: Channel, payload: unknown, userId: number | undefined): SubscribeOutcome {
    const parsed = this.topicKeys(channel, payload, userId);
    if (!parsed.ok) return parsed;
    for (const key of parsed.keys) this.remove(conn, channel, key);
    return { ok: true };
  }

  /** A connection went away: all its subscriptions end. */
  drop(conn: Subscriber): void {
    const mine = this.byConnection.get(conn);
    this.byConnection.delete(conn);
    if (mine === undefined) return;
    for (const id of mine) {
      const [channel, key] = id.split('\0') as [string, string];
      this.remove(conn, channel, key);
    }
  }

  subscriptionCount(): number {
    let n = 0;
    for (const set of this.byConnection.values()) n += set.size;
    return n;
  }

  private add(conn: Subscriber, channel: string, key: string): boolean {
    let byKey = this.topics.get(channel);
    if (byKey === undefined) {
      byKey = new Map();
      this.topics.set(channel, byKey);
    }
    let conns = byKey.get(key);
    const first = conns === undefined;
    if (conns === undefined) {
      conns = new Set();
      byKey.set(key, conns);
    }
    conns.add(conn);
    let mine = this.byConnection.get(conn);
    if (mine === undefined) {
      mine = new Set();
      this.byConnection.set(conn, mine);
    }
    mine.add(`${channel}\0${key}`);
    return first;
  }

  private remove(conn: Subscriber, channel: string, key: string): void {
    this.byConnection.get(conn)?.delete(`${channel}\0${key}`);
    const byKey = this.topics.get(channel);
    const conns = byKey?.get(key);
    if (conns === undefined || !conns.delete(conn) || conns.size > 0) return;
    byKey!.delete(key);
    this.stopTopic(channel, key);
  }

  private subscribers(channel: string, key: string): Set<Subscriber> | undefined {
    return this.topics.get(channel)?.get(key);
  }

  /** Validates a payload and turns it into topic keys. */
  private topicKeys(
    channel: Channel,
    payload: unknown,
    userId: number | undefined,
  ): { ok: true; keys: string[] } | { ok: false; code: number; message: string } {
    const bad = (message: string) => ({ ok: false as const, code: BAD_REQUEST, message });
    const items = payload === undefined || payload === null ? [] : payload;
    if (!Array.isArray(items) || items.length > MAX_PAYLOAD_ITEMS || items.some((p) => typeof p !== 'string'))
      return bad(`payload must be an array of at most ${MAX_PAYLOAD_ITEMS} strings`);
    const list = items as string[];
    const pairOf = (id: string) => findPair(id);
    const pairs = (): { ok: true; keys: string[] } | { ok: false; code: number; message: string } => {
      if (list.length === 0) return bad('payload must name at least one currency pair');
      for (const id of list) if (pairOf(id) === undefined) return bad(`unknown currency pair ${id}`);
      return { ok: true, keys: [...new Set(list)] };
    };
    switch (channel) {
      case 'spot.tickers':
      case 'spot.trades':
      case 'spot.book_ticker':
        return pairs();
      case 'spot.candlesticks': {
        const [interval, pair] = list;
        if (list.length !== 2 || interval === undefined || pair === undefined)
          return bad('payload must be [interval, currency_pair], e.g. ["1m", "BTC_USDT"]');
        if (!isCandleInterval(interval)) return bad(`interval must be one of ${CANDLE_INTERVALS.join(', ')}`);
        if (pairOf(pair) === undefined) return bad(`unknown currency pair ${pair}`);
        return { ok: true, keys: [`${interval}_${pair}`] };
      }
      case 'spot.order_book': {
        const [pair, levels, interval] = list;
        if (list.length !== 3 || pair === undefined || levels === undefined || interval === undefined)
          return bad('payload must be [currency_pair, levels, interval], e.g. ["BTC_USDT", "20", "100ms"]');
        if (pairOf(pair) === undefined) return bad(`unknown currency pair ${pair}`);
        if (!SNAPSHOT_LEVELS.has(levels)) return bad(`levels must be one of ${[...SNAPSHOT_LEVELS].join(', ')}`);
        if (SNAPSHOT_INTERVALS[interval] === undefined)
          return bad(`interval must be one of ${Object.keys(SNAPSHOT_INTERVALS).join(', ')}`);
        return { ok: true, keys: [`${pair}|${levels}|${interval}`] };
      }
      case 'spot.order_book_update': {
        const [pair, interval] = list;
        if (list.length !== 2 || pair === undefined || interval === undefined)
          return bad('payload must be [currency_pair, interval], e.g. ["BTC_USDT", "100ms"]');
        if (pairOf(pair) === undefined) return bad(`unknown currency pair ${pair}`);
        if (UPDATE_INTERVALS[interval] === undefined)
          return bad(`interval must be one of ${Object.keys(UPDATE_INTERVALS).join(', ')}`);
        return { ok: true, keys: [`${pair}|${interval}`] };
      }
      case 'spot.obu': {
        if (list.length === 0) return bad('payload must name books, e.g. ["ob.BTC_USDT.50"]');
        for (const name of list) {
          const m = /^ob\.([A-Z0-9]+_[A-Z0-9]+)\.(\d+)$/.exec(name);
          if (m === null || OBU_DEPTHS[m[2]!] === undefined)
            return bad(`${name}: books are named ob.<PAIR>.50 or ob.<PAIR>.400`);
          if (pairOf(m[1]!) === undefined) return bad(`unknown currency pair ${m[1]}`);
        }
        return { ok: true, keys: [...new Set(list)] };
      }
      case 'spot.orders':
      case 'spot.usertrades': {
        if (userId === undefined) return bad('private channel without a caller');
        const targets = list.length === 0 || list.includes('!all') ? ['!all'] : list;
        for (const id of targets)
          if (id !== '!all' && pairOf(id) === undefined) return bad(`unknown currency pair ${id}`);
        return { ok: true, keys: [...new Set(targets)].map((t) => `${userId}|${t}`) };
      }
      case 'spot.balances':
        if (userId === undefined) return bad('private channel without a caller');
        return { ok: true, keys: [String(userId)] };
    }
  }

  // --- topic lifecycles -------------------------------------------------------------------------

  /** Sets up what feeds a topic; returns what to send the new subscriber right after the ack. */
  private startTopic(channel: Channel, key: string, conn: Subscriber, first: boolean): (() => void) | undefined {
    const now = Date.now();
    switch (channel) {
      case 'spot.order_book_update': {
        if (!first) return undefined;
        const [pairId, interval] = key.split('|') as [string, string];
        const pair = findPair(pairId)!;
        this.hookBooks();
        const engine = this.deps.exchange.pairState(pairId)!.engine;
        const stream: UpdateStream = {
          pair,
          topic: key,
          everyMs: UPDATE_INTERVALS[interval]!,
          nextAt: now,
          engine,
          lastSent: engine.version,
          touched: new Set(),
          reset: false,
        };
        this.updateStreams.set(key, stream);
        const list = this.updateStreamsByPair.get(pairId) ?? [];
        list.push(stream);
        this.updateStreamsByPair.set(pairId, list);
        this.startTimer();
        return undefined;
      }
      case 'spot.obu': {
        const [, pairId, depth] = key.split('.') as [string, string, string];
        let stream = this.obuStreams.get(key);
        if (stream === undefined) {
          const engine = this.deps.exchange.pairState(pairId)!.engine;
          stream = {
            pair: findPair(pairId)!,
            topic: key,
            depth: Number(depth),
            everyMs: OBU_DEPTHS[depth]!,
            nextAt: now,
            engine,
            lastSent: engine.version,
            levels: this.topLevels(findPair(pairId)!, engine, Number(depth)),
          };
          this.obuStreams.set(key, stream);
          this.startTimer();
        } else {
          // Bring the others up to now, so the newcomer's full book and the next change agree.
          this.flushObu(stream, true);
        }
        const s = stream;
        return () => conn.send(this.envelope('spot.obu', 'update', this.obuFull(s)));
      }
      case 'spot.order_book': {
        const [pairId, levels, interval] = key.split('|') as [string, string, string];
        let stream = this.snapshotStreams.get(key);
        if (stream === undefined) {
          stream = {
            pair: findPair(pairId)!,
            topic: key,
            levels: Number(levels),
            everyMs: SNAPSHOT_INTERVALS[interval]!,
            nextAt: now,
            engine: undefined,
            lastSent: -1,
          };
          this.snapshotStreams.set(key, stream);
          this.startTimer();
        }
        const s = stream;
        return () => conn.send(this.envelope('spot.order_book', 'update', this.snapshot(s)));
      }
      case 'spot.balances':
        if (this.unhookLedger === undefined && !this.closed)
          this.unhookLedger = this.deps.ledger.onChange((c) => this.onBalance(c));
        return undefined;
      case 'spot.book_ticker':
        this.hookBooks();
        return () => {
          const result = this.bookTicker(key);
          if (result !== undefined) conn.send(this.envelope('spot.book_ticker', 'update', result));
        };
      case 'spot.tickers':
      case 'spot.candlesticks': {
        const slowKey = `${channel}\0${key}`;
        if (!this.slowTopics.has(slowKey)) {
          const pairId = channel === 'spot.tickers' ? key : key.slice(key.indexOf('_') + 1);
          const interval = channel === 'spot.tickers' ? undefined : (key.slice(0, key.indexOf('_')) as CandleInterval);
          this.slowTopics.set(slowKey, { pair: findPair(pairId)!, interval, dirty: false, lastAt: 0 });
          this.startTimer();
        }
        return () => {
          const result = channel === 'spot.tickers' ? this.ticker(key) : this.candle(key);
          if (result !== undefined) conn.send(this.envelope(channel, 'update', result));
        };
      }
      default:
        return undefined;
    }
  }

  private stopTopic(channel: string, key: string): void {
    switch (channel) {
      case 'spot.order_book_update': {
        const stream = this.updateStreams.get(key);
        this.updateStreams.delete(key);
        if (stream === undefined) return;
        const list = (this.updateStreamsByPair.get(stream.pair.id) ?? []).filter((s) => s !== stream);
        if (list.length === 0) this.updateStreamsByPair.delete(stream.pair.id);
        else this.updateStreamsByPair.set(stream.pair.id, list);
        return;
      }
      case 'spot.obu':
        this.obuStreams.delete(key);
        return;
      case 'spot.balances':
        if ((this.topics.get('spot.balances')?.size ?? 0) === 0) {
          this.unhookLedger?.();
          this.unhookLedger = undefined;
        }
        return;
      case 'spot.order_book':
        this.snapshotStreams.delete(key);
        return;
      case 'spot.book_ticker':
        this.bookTickerLast.delete(key);
        return;
      case 'spot.tickers':
      case 'spot.candlesticks':
        this.slowTopics.delete(`${channel}\0${key}`);
        return;
    }
  }

  private hookBooks(): void {
    if (this.unhookBooks !== undefined || this.closed) return;
    this.unhookBooks = this.deps.exchange.onBookChange((change) => this.onBookChange(change));
  }

  private startTimer(): void {
    if (this.timer !== undefined || this.closed) return;
    this.timer = setInterval(() => this.onTimer(), TIMER_MS);
    this.timer.unref();
  }

  // --- events from the exchange and the ledger ---------------------------------------------------

  /** Called inside the matching engine for every level change: keep it cheap. */
  private onBookChange(change: BookChange): void {
    const streams = this.updateStreamsByPair.get(change.pair);
    if (streams !== undefined) {
      if (change.reset) {
        for (const s of streams) s.reset = true;
      } else {
        const level = change.price * 2 + (change.side === 'buy' ? 1 : 0);
        for (const s of streams) s.touched.add(level);
      }
    }
    if (this.topics.get('spot.book_ticker')?.has(change.pair)) {
      this.bookTickerDirty.add(change.pair);
      if (!this.bookTickerScheduled) {
        this.bookTickerScheduled = true;
        setImmediate(() => this.flushBookTickers());
      }
    }
  }

  private onTrade(t: TradeEvent): void {
    const row = t.row;
    if (row === undefined) return;
    for (const slow of this.slowTopics.values()) if (slow.pair.id === t.pair) slow.dirty = true;
    if (this.subscribers('spot.trades', t.pair) !== undefined) {
      const view = publicTradeView(row);
      this.queueText('spot.trades', t.pair, {
        ...view,
        id: row.id,
        create_time: Math.floor(row.create_us / 1_000_000),
      });
    }
    if (this.topics.get('spot.usertrades') !== undefined) {
      const parties: [number, 'maker' | 'taker'][] = [
        [row.maker_user, 'maker'],
        [row.taker_user, 'taker'],
      ];
      for (const [user, role] of parties) {
        const keys = [`${user}|${t.pair}`, `${user}|!all`].filter((k) => this.subscribers('spot.usertrades', k));
        if (keys.length === 0) continue;
        const view = myTradeView(row, role);
        const item = { ...view, id: row.id, user_id: user, create_time: Math.floor(row.create_us / 1_000_000) };
        for (const key of keys) this.queueItem('spot.usertrades', key, item);
      }
    }
  }

  private onOrder(row: OrderRow, event: OrderEventKind): void {
    const byKey = this.topics.get('spot.orders');
    if (byKey === undefined) return;
    const keys = [`${row.user_id}|${row.currency_pair}`, `${row.user_id}|!all`].filter((k) => byKey.has(k));
    if (keys.length === 0) return;
    // The row is the exchange's live object: take the view now.
    const item = { ...orderView(row), user: row.user_id, event };
    for (const key of keys) this.queueItem('spot.orders', key, item);
  }

  private onBalance(c: BalanceChange): void {
    if (c.key.account !== 'spot' || (c.key.pair ?? '') !== '') return;
    const key = String(c.key.userId);
    if (this.subscribers('spot.balances', key) === undefined) return;
    const total = addDecimals(c.available, c.locked);
    this.queueItem('spot.balances', key, {
      timestamp: String(Math.floor(c.time / 1000)),
      timestamp_ms: String(c.time),
      user: key,
      currency: c.key.currency,
      change: c.change,
      total,
      available: c.available,
      freeze: c.locked,
      freeze_change: c.lockedChange,
      change_type: changeType(c),
    });
  }

  private queueItem(channel: string, key: string, item: unknown): void {
    const id = `${channel}\0${key}`;
    let pending = this.pendingItems.get(id);
    if (pending === undefined) {
      pending = { channel, key, items: [] };
      this.pendingItems.set(id, pending);
    }
    pending.items.push(item);
    this.scheduleFlush();
  }

  private queueText(channel: string, key: string, result: unknown): void {
    this.pendingTexts.push({ channel, key, text: this.envelope(channel, 'update', result) });
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    if (this.flushScheduled || this.closed) return;
    this.flushScheduled = true;
    setImmediate(() => this.flushPending());
  }

  private flushPending(): void {
    this.flushScheduled = false;
    const texts = this.pendingTexts;
    const items = this.pendingItems;
    this.pendingTexts = [];
    this.pendingItems = new Map();
    for (const { channel, key, text } of texts) this.publish(channel, key, text);
    for (const { channel, key, items: list } of items.values())
      this.publish(channel, key, this.envelope(channel, 'update', list));
  }

  private publish(channel: string, key: string, text: string): void {
    const conns = this.subscribers(channel, key);
    if (conns === undefined) return;
    for (const conn of conns) conn.send(text);
  }

  envelope(channel: string, event: string, result: unknown): string {
    const ms = this.deps.clock.now();
    return JSON.stringify({ time: Math.floor(ms / 1000), time_ms: ms, channel, event, result });
  }

  // --- periodic pushes ---------------------------------------------------------------------------

  private onTimer(): void {
    const now = Date.now();
    for (const stream of this.updateStreams.values()) {
      if (now < stream.nextAt) continue;
      stream.nextAt = now + stream.everyMs;
      this.flushUpdates(stream);
    }
    for (const stream of this.obuStreams.values()) {
      if (now < stream.nextAt) continue;
      stream.nextAt = now + stream.everyMs;
      this.flushObu(stream, false);
    }
    for (const stream of this.snapshotStreams.values()) {
      if (now < stream.nextAt) continue;
      stream.nextAt = now + stream.everyMs;
      const engine = this.deps.exchange.pairState(stream.pair.id)!.engine;
      if (engine === stream.engine && engine.version === stream.lastSent) continue;
      this.publish('spot.order_book', stream.topic, this.envelope('spot.order_book', 'update', this.snapshot(stream)));
    }
    for (const [id, slow] of this.slowTopics) {
      if (!slow.dirty || now - slow.lastAt < SLOW_PUSH_MS) continue;
      slow.dirty = false;
      slow.lastAt = now;
      const [channel, key] = id.split('\0') as [string, string];
      const result = channel === 'spot.tickers' ? this.ticker(key) : this.candle(key);
      if (result !== undefined) this.publish(channel, key, this.envelope(channel, 'update', result));
    }
  }

  private flushUpdates(stream: UpdateStream): void {
    const state = this.deps.exchange.pairState(stream.pair.id)!;
    const engine = state.engine;
    const { pair } = stream;
    const t = this.deps.clock.now();
    if (stream.reset || engine !== stream.engine) {
      // The books were rebuilt: the ids start over, so send the whole book.
      stream.reset = false;
      stream.engine = engine;
      stream.touched.clear();
      stream.lastSent = engine.version;
      const full = this.topLevels(pair, engine, Number.POSITIVE_INFINITY);
      const { b, a } = splitLevels(full, pair);
      const result = {
        t,
        e: 'depthUpdate',
        E: Math.floor(t / 1000),
        s: pair.id,
        U: engine.version,
        u: engine.version,
        b,
        a,
        full: true,
      };
      this.publish('spot.order_book_update', stream.topic, this.envelope('spot.order_book_update', 'update', result));
      return;
    }
    if (engine.version === stream.lastSent) return;
    const U = stream.lastSent + 1;
    const u = engine.version;
    stream.lastSent = u;
    const touched = [...stream.touched];
    stream.touched.clear();
    if (this.deps.faults.dropBookUpdate()) return;
    const b: [string, string][] = [];
    const a: [string, string][] = [];
    touched.sort((x, y) => x - y);
    for (const level of touched) {
      const isBid = level % 2 === 1;
      const price = (level - (isBid ? 1 : 0)) / 2;
      const lots = (isBid ? engine.bids : engine.asks).level(price)?.total ?? 0n;
      (isBid ? b : a).push([formatScaled(BigInt(price), pair.precision), formatScaled(lots, pair.amountPrecision)]);
    }
    b.reverse();
    const result = { t, e: 'depthUpdate', E: Math.floor(t / 1000), s: pair.id, U, u, b, a };
    this.publish('spot.order_book_update', stream.topic, this.envelope('spot.order_book_update', 'update', result));
  }

  /** Sends the differences of the best N levels since the last push (`force`: even when a fault would drop it). */
  private flushObu(stream: ObuStream, force: boolean): void {
    const engine = this.deps.exchange.pairState(stream.pair.id)!.engine;
    if (engine === stream.engine && engine.version === stream.lastSent) return;
    const next = this.topLevels(stream.pair, engine, stream.depth);
    const rebuilt = engine !== stream.engine;
    const changes = new Map<number, string>();
    for (const [level, size] of next) if (stream.levels.get(level) !== size) changes.set(level, size);
    for (const level of stream.levels.keys()) if (!next.has(level)) changes.set(level, '0');
    const U = stream.lastSent + 1;
    const u = engine.version;
    stream.engine = engine;
    stream.lastSent = u;
    stream.levels = next;
    const t = this.deps.clock.now();
    if (rebuilt) {
      this.publish('spot.obu', stream.topic, this.envelope('spot.obu', 'update', this.obuFull(stream)));
      return;
    }
    if (!force && this.deps.faults.dropBookUpdate()) return;
    const { b, a } = splitLevels(changes, stream.pair);
    this.publish('spot.obu', stream.topic, this.envelope('spot.obu', 'update', { t, s: stream.topic, U, u, b, a }));
  }

  private obuFull(stream: ObuStream): Record<string, unknown> {
    const { b, a } = splitLevels(stream.levels, stream.pair);
    return { t: this.deps.clock.now(), full: true, s: stream.topic, U: stream.lastSent, u: stream.lastSent, b, a };
  }

  private snapshot(stream: SnapshotStream): Record<string, unknown> {
    const engine = this.deps.exchange.pairState(stream.pair.id)!.engine;
    stream.engine = engine;
    stream.lastSent = engine.version;
    const { pair } = stream;
    const side = (s: 'buy' | 'sell') =>
      engine
        .depth(s, stream.levels)
        .map((l) => [formatScaled(BigInt(l.price), pair.precision), formatScaled(l.lots, pair.amountPrecision)]);
    return {
      t: this.deps.clock.now(),
      lastUpdateId: engine.version,
      s: pair.id,
      l: String(stream.levels),
      bids: side('buy'),
      asks: side('sell'),
    };
  }

  /** Best `depth` levels of both sides: level key → size text (price text is derived again). */
  private topLevels(pair: SpotPair, engine: MatchingEngine, depth: number): Map<number, string> {
    const out = new Map<number, string>();
    for (const level of engine.bids.bestLevels(depth))
      out.set(level.price * 2 + 1, formatScaled(level.total, pair.amountPrecision));
    for (const level of engine.asks.bestLevels(depth))
      out.set(level.price * 2, formatScaled(level.total, pair.amountPrecision));
    return out;
  }

  private flushBookTickers(): void {
    this.bookTickerScheduled = false;
    for (const pairId of this.bookTickerDirty) {
      const result = this.bookTicker(pairId);
      if (result === undefined) continue;
      const text = `${result.b}/${result.B}/${result.a}/${result.A}`;
      if (this.bookTickerLast.get(pairId) === text) continue;
      this.bookTickerLast.set(pairId, text);
      this.publish('spot.book_ticker', pairId, this.envelope('spot.book_ticker', 'update', result));
    }
    this.bookTickerDirty.clear();
  }

  private bookTicker(
    pairId: string,
  ): { t: number; u: number; s: string; b: string; B: string; a: string; A: string } | undefined {
    const state = this.deps.exchange.pairState(pairId);
    if (state === undefined) return undefined;
    const { engine, pair } = state;
    const bid = engine.bids.best();
    const ask = engine.asks.best();
    const price = (p: number | undefined) => (p === undefined ? '' : formatScaled(BigInt(p), pair.precision));
    const size = (s: bigint | undefined) => (s === undefined ? '' : formatScaled(s, pair.amountPrecision));
    return {
      t: this.deps.clock.now(),
      u: engine.version,
      s: pair.id,
      b: price(bid?.price),
      B: size(bid?.total),
      a: price(ask?.price),
      A: size(ask?.total),
    };
  }

  private ticker(pairId: string): Record<string, unknown> | undefined {
    const view = this.deps.market.tickers({ currency_pair: pairId })[0];
    if (view === undefined) return undefined;
    const keep = [
      'currency_pair',
      'last',
      'lowest_ask',
      'highest_bid',
      'change_percentage',
      'base_volume',
      'quote_volume',
      'high_24h',
      'low_24h',
    ];
    return Object.fromEntries(keep.map((k) => [k, view[k]]));
  }

  private candle(key: string): Record<string, unknown> | undefined {
    const cut = key.indexOf('_');
    const interval = key.slice(0, cut) as CandleInterval;
    const state = this.deps.exchange.pairState(key.slice(cut + 1));
    const c = state?.candles.get(interval);
    if (state === undefined || c === undefined) return undefined;
    const { pair } = state;
    const price = (ticks: number) => formatScaled(BigInt(ticks), pair.precision);
    return {
      t: String(c.t),
      // Quote volume, like the REST row's index 1; `a` is the base amount (api-facts §1.9, §8).
      v: formatScaled(c.volume_quote, state.quoteScale),
      c: price(c.close),
      h: price(c.high),
      l: price(c.low),
      o: price(c.open),
      n: key,
      a: formatScaled(c.volume_base, pair.amountPrecision),
      w: false,
    };
  }
}

/** Level map (key → size) → bids descending and asks ascending, as [price, size] texts. */
function splitLevels(levels: Map<number, string>, pair: SpotPair): { b: [string, string][]; a: [string, string][] } {
  const bids: number[] = [];
  const asks: number[] = [];
  for (const level of levels.keys()) (level % 2 === 1 ? bids : asks).push(level);
  bids.sort((x, y) => y - x);
  asks.sort((x, y) => x - y);
  const text = (level: number): [string, string] => {
    const price = (level - (level % 2)) / 2;
    return [formatScaled(BigInt(price), pair.precision), levels.get(level)!];
  };
  return { b: bids.map(text), a: asks.map(text) };
}

function addDecimals(a: string, b: string): string {
  if (b === '0') return a;
  if (a === '0') return b;
  // Exact: both are canonical decimals from the ledger.
  const scale = Math.max(a.split('.')[1]?.length ?? 0, b.split('.')[1]?.length ?? 0);
  const toInt = (s: string) => {
    const [i, f = ''] = s.split('.');
    return BigInt(`${i}${f.padEnd(scale, '0')}`);
  };
  return formatScaled(toInt(a) + toInt(b), scale);
}

/** The platform's change_type of a balance push (names as the official docs list them; the sandbox's mapping). */
function changeType(c: BalanceChange): string {
  switch (c.type) {
    case 'trade':
    case 'fee':
      return 'order-match';
    case '':
      return c.lockedChange.startsWith('-') ? 'order-cancel' : 'order-create';
    case 'dnw':
      return c.change.startsWith('-') ? 'withdraw' : 'deposit';
    default:
      return c.type;
  }
}
