/**
 * While a pair is watched, follows the user's open orders of that pair and the spot balances of its
 * two currencies, and tells the renderer when either changed (a fill by someone else, an order
 * placed and filled between two polls, a cancel elsewhere, a deposit), so the screen refreshes
 * orders, trades and balances without being asked. A fill is told once with how much traded
 * (`trade.orderFilled`, the trader's fill notice).
 *
 * Where the profile has the platform's stream, the private channels `spot.orders` and
 * `spot.balances` say it as it happens and nothing is polled; otherwise (and while the stream is
 * down) it polls every 2 s: an open order that shrank or left the book is read back once. Private
 * endpoints allow 200 requests per 10 s per endpoint; two requests every 2 s are far below.
 */
import Decimal from 'decimal.js';
import { StreamOrder } from '../../shared/platform/api/stream';
import type { PlatformApi } from '../api/platform';
import type { PlatformStream } from '../api/stream';
import type { Emit } from '../types';
import { toOrder } from './mappers';

export const ORDERS_POLL_MS = 2_000;

/** Orders this app placed carry this client text prefix (shared/trade/ticket.ts). */
const isOwnOrder = (text: string): boolean => text.startsWith('t-desk-');

type Spot = Pick<PlatformApi['spot'], 'listOrders' | 'accounts' | 'getOrder'>;

interface Seen {
  /** Order id → remaining amount. */
  orders: Map<string, string>;
  /** available|locked of each of the pair's currencies. */
  balances: string;
}

/** Open orders that shrank or left the book between two polls, with what was left before. */
export const changedOrders = (before: Seen, after: Seen): { id: string; leftBefore: string }[] =>
  [...before.orders]
    .filter(([id, left]) => after.orders.get(id) !== left)
    .map(([id, leftBefore]) => ({ id, leftBefore }));

/** What changed between two polls, or undefined when nothing did. */
export const classifyChange = (before: Seen, after: Seen): 'filled' | 'placed' | undefined => {
  // An order that vanished or shrank traded (or was cancelled elsewhere): refresh as a fill.
  if (changedOrders(before, after).length > 0) return 'filled';
  for (const id of after.orders.keys()) if (!before.orders.has(id)) return 'placed';
  return before.balances === after.balances ? undefined : 'filled';
};

export class OrdersWatcher {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private generation = 0;
  /**
   * What an order had left when it was last read back: a read-back can be newer than the next list
   * (the order filled further meanwhile), and a fill must be told once, not again at the next poll.
   */
  private readonly leftAtLookup = new Map<string, string>();
  /** The watched pair, and orders the app placed on it since the last poll (id → left). */
  private pair: string | undefined;
  private readonly placed = new Map<string, string>();

  /** The stream's private channels are subscribed and answering: nothing is polled. */
  private streamLive = false;
  private unsubscribe: (() => void)[] = [];

  constructor(
    private readonly spot: () => Spot,
    private readonly emit: Emit,
    private readonly period = ORDERS_POLL_MS,
    private readonly stream: () => PlatformStream | undefined = () => undefined,
  ) {}

  start(pair: string): void {
    this.stop();
    this.leftAtLookup.clear();
    this.placed.clear();
    this.pair = pair;
    const generation = ++this.generation;
    const currencies = pair.split('_');
    let previous: Seen | undefined;
    this.attachStream(pair, currencies, generation, () => {
      // Polling compares with its last look: after a stretch on the stream, that look is old.
      previous = undefined;
    });
    const tick = async () => {
      if (this.streamLive) {
        this.reschedule(tick, generation);
        return;
      }
      try {
        const [orders, accounts] = await Promise.all([
          this.spot().listOrders({ currency_pair: pair, status: 'open', limit: 100 }),
          this.spot().accounts(),
        ]);
        if (generation !== this.generation) return;
        const current: Seen = {
          orders: new Map(orders.map((o) => [String(o.id), o.left ?? ''])),
          balances: accounts
            .filter((a) => currencies.includes(a.currency))
            .map((a) => `${a.currency}:${a.available}|${a.locked}`)
            .sort()
            .join(','),
        };
        // Orders this app placed since the last poll count as seen: one filled before this poll
        // (placed and crossed within a poll interval) still gets its fill notice.
        // (Before the first poll they join this one's list, and are compared from the next poll on.)
        const base = previous ?? current;
        for (const [id, left] of this.placed) if (!base.orders.has(id)) base.orders.set(id, left);
        this.placed.clear();
        const change = previous === undefined ? undefined : classifyChange(previous, current);
        if (change) this.emit('trade.ordersChanged', { pair, reason: change });
        const changed = previous === undefined ? [] : changedOrders(previous, current);
        previous = current;
        for (const { id, leftBefore } of changed) await this.reportFill(pair, id, leftBefore, generation);
      } catch {
        // Not connected or the platform is unreachable: the market feed reports staleness; try again.
      }
      this.reschedule(tick, generation);
    };
    void tick();
  }

  private reschedule(tick: () => Promise<void>, generation: number): void {
    if (generation !== this.generation) return;
    this.timer = setTimeout(tick, this.period);
    (this.timer as { unref?: () => void }).unref?.();
  }

  /**
   * spot.orders and spot.balances of the watched pair. While both answer, polling pauses; when the
   * stream goes down it resumes (`onPollingResumes` drops its stale last look).
   */
  private attachStream(
    pair: string,
    currencies: readonly string[],
    generation: number,
    onPollingResumes: () => void,
  ): void {
    const stream = this.stream();
    if (stream === undefined) return;
    /** What each open order had left, as the stream last said. */
    const left = new Map<string, string>();
    const subscribed = new Set<string>();
    const up = (channel: string) => {
      subscribed.add(channel);
      this.streamLive = subscribed.size === 2;
    };
    const down = () => {
      subscribed.clear();
      if (this.streamLive) onPollingResumes();
      this.streamLive = false;
    };
    const onOrder = (result: unknown): void => {
      const parsed = StreamOrder.safeParse(result);
      if (!parsed.success || generation !== this.generation) return;
      const raw = parsed.data;
      if (raw.currency_pair !== undefined && raw.currency_pair !== pair) return;
      const order = toOrder(raw, pair);
      // What it had left before this event. This app's own orders are known only once their
      // placement answer said they rest (track): an order that filled at once is told by
      // that answer, not again here.
      const before =
        left.get(order.id) ?? this.placed.get(order.id) ?? (isOwnOrder(order.text) ? undefined : order.amount);
      if (raw.event === 'finish') left.delete(order.id);
      // An own order's `put` comes before its placement answer; one that ends at once (put, then
      // finish) has its fill told by that answer, so the put must not become a baseline here.
      else if (raw.event !== 'put' || before !== undefined) left.set(order.id, order.left);
      let filledNow: Decimal | undefined;
      try {
        filledNow = before === undefined ? undefined : new Decimal(before).minus(order.left);
      } catch {
        filledNow = undefined;
      }
      const filled = filledNow?.gt(0) && raw.event !== 'put';
      // A market buy's `left` is in quote currency; its fill notice comes from the placement answer.
      if (filled && order.type === 'limit') {
        this.emit('trade.orderFilled', { order, filledNow: (filledNow as Decimal).toFixed() });
      }
      this.emit('trade.ordersChanged', {
        pair,
        reason: raw.event === 'put' && !filled ? 'placed' : 'filled',
        orders: [order],
      });
    };
    this.unsubscribe.push(
      stream.subscribe(
        'spot.orders',
        [pair],
        {
          onSubscribed: () => up('spot.orders'),
          onDown: down,
          onUpdate: (result) => {
            // The platform pushes a list of orders per message (the official clients read an array).
            for (const item of Array.isArray(result) ? result : [result]) onOrder(item);
          },
        },
        { private: true },
      ),
      stream.subscribe(
        'spot.balances',
        [],
        {
          onSubscribed: () => up('spot.balances'),
          onDown: down,
          onUpdate: (result) => {
            const changes = Array.isArray(result) ? result : [result];
            const touches = changes.some(
              (c) =>
                typeof c === 'object' &&
                c !== null &&
                currencies.includes(String((c as { currency?: unknown }).currency)),
            );
            // Balances only: no order named (`orders: []`), the screens read the balances again.
            if (touches && generation === this.generation)
              this.emit('trade.ordersChanged', { pair, reason: 'filled', orders: [] });
          },
        },
        { private: true },
      ),
    );
  }

  /** An order the app just placed that rests on the book of the watched pair. */
  track(pair: string, id: string, left: string): void {
    if (pair === this.pair) this.placed.set(id, left);
  }

  /** Reads a changed order back; emits the part that filled since the last poll, if any. */
  private async reportFill(pair: string, id: string, leftBefore: string, generation: number): Promise<void> {
    const raw = await this.spot()
      .getOrder(id, { currency_pair: pair })
      .catch(() => undefined);
    if (raw === undefined || generation !== this.generation) return;
    const order = toOrder(raw, pair);
    let filledNow: Decimal;
    try {
      const known = this.leftAtLookup.get(id);
      // `left` only ever shrinks: the smaller of the two is the newer.
      const before = known === undefined ? new Decimal(leftBefore) : Decimal.min(leftBefore, known);
      filledNow = before.minus(order.left);
    } catch {
      return; // an answer without a usable `left`: nothing to say
    }
    this.leftAtLookup.set(id, order.left);
    // A market buy's `left` is in quote currency; its fill notice comes from the placement answer.
    if (filledNow.gt(0) && order.type === 'limit')
      this.emit('trade.orderFilled', { order, filledNow: filledNow.toFixed() });
  }

  stop(): void {
    this.generation++;
    this.pair = undefined;
    this.streamLive = false;
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    this.unsubscribe = [];
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
