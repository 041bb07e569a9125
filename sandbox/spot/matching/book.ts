// One side of a price-time order book. Prices are integer ticks (price × 10^precision) and
// amounts integer lots (amount × 10^amount_precision) as bigint, so matching is exact and fast;
// decimal strings exist only at the HTTP edge.
//
// Layout chosen for speed on books of thousands of levels: a sorted array of level prices with the
// BEST price at the END (taking or emptying the best level is a pop), a Map from price to level for
// O(1) lookup, and each level an intrusive doubly linked FIFO so a cancel anywhere is O(1).

export type Side = 'buy' | 'sell';

export interface RestingOrder {
  readonly id: string;
  /** Account that owns the order (user id). */
  readonly owner: number;
  readonly side: Side;
  /** Limit price in ticks. */
  price: number;
  /** Remaining amount in lots. */
  left: bigint;
  /** STP group of the owner when the order was placed; 0 = none. */
  readonly stpGroup: number;
  /** Time priority: lower is earlier. */
  seq: number;
  prev: RestingOrder | null;
  next: RestingOrder | null;
  level: PriceLevel | null;
}

export class PriceLevel {
  head: RestingOrder | null = null;
  tail: RestingOrder | null = null;
  /** Sum of `left` of the orders at this level, in lots. */
  total = 0n;
  count = 0;
  constructor(readonly price: number) {}
}

export class BookSide {
  /** Level prices, worst first, best last. */
  private readonly prices: number[] = [];
  private readonly levels = new Map<number, PriceLevel>();

  constructor(readonly side: Side) {}

  /** True when price `a` is strictly better than `b` for this side. */
  private better(a: number, b: number): boolean {
    return this.side === 'buy' ? a > b : a < b;
  }

  best(): PriceLevel | undefined {
    const n = this.prices.length;
    return n === 0 ? undefined : this.levels.get(this.prices[n - 1]!);
  }

  levelCount(): number {
    return this.prices.length;
  }

  level(price: number): PriceLevel | undefined {
    return this.levels.get(price);
  }

  /** Appends the order at the back of its price level. */
  append(order: RestingOrder): void {
    let level = this.levels.get(order.price);
    if (level === undefined) {
      level = new PriceLevel(order.price);
      this.levels.set(order.price, level);
      this.insertPrice(order.price);
    }
    order.level = level;
    order.next = null;
    order.prev = level.tail;
    if (level.tail === null) level.head = order;
    else level.tail.next = order;
    level.tail = order;
    level.total += order.left;
    level.count++;
  }

  /** Inserts the order in its level at the place its `seq` gives it (used when restoring a book). */
  insertBySeq(order: RestingOrder): void {
    const level = this.levels.get(order.price);
    if (level === undefined || level.tail === null || level.tail.seq < order.seq) {
      this.append(order);
      return;
    }
    let after: RestingOrder | null = level.tail;
    while (after !== null && after.seq > order.seq) after = after.prev;
    order.level = level;
    order.prev = after;
    order.next = after === null ? level.head : after.next;
    if (order.next !== null) order.next.prev = order;
    if (after === null) level.head = order;
    else after.next = order;
    level.total += order.left;
    level.count++;
  }

  remove(order: RestingOrder): void {
    const level = order.level;
    if (level === null) return;
    if (order.prev === null) level.head = order.next;
    else order.prev.next = order.next;
    if (order.next === null) level.tail = order.prev;
    else order.next.prev = order.prev;
    level.total -= order.left;
    level.count--;
    order.prev = null;
    order.next = null;
    order.level = null;
    if (level.count === 0) this.removeLevel(level.price);
  }

  /** Reduces a resting order's amount in place (keeps its time priority). */
  reduce(order: RestingOrder, newLeft: bigint): void {
    if (order.level !== null) order.level.total -= order.left - newLeft;
    order.left = newLeft;
  }

  /** Levels from best to worst, up to `max` of them. */
  *bestLevels(max = Number.POSITIVE_INFINITY): Generator<PriceLevel> {
    let emitted = 0;
    for (let i = this.prices.length - 1; i >= 0 && emitted < max; i--, emitted++) {
      yield this.levels.get(this.prices[i]!)!;
    }
  }

  private insertPrice(price: number): void {
    const prices = this.prices;
    const n = prices.length;
    // Most new levels appear near the touch, i.e. near the end of the array.
    if (n === 0 || this.better(price, prices[n - 1]!)) {
      prices.push(price);
      return;
    }
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.better(price, prices[mid]!)) lo = mid + 1;
      else hi = mid;
    }
    prices.splice(lo, 0, price);
  }

  private removeLevel(price: number): void {
    this.levels.delete(price);
    const prices = this.prices;
    const n = prices.length;
    if (prices[n - 1] === price) {
      prices.pop();
      return;
    }
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.better(price, prices[mid]!)) lo = mid + 1;
      else hi = mid;
    }
    if (prices[lo] === price) prices.splice(lo, 1);
  }
}
