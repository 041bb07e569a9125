// The matching engine of one currency pair: price priority, then time priority; limit and market
// orders; gtc / ioc / poc / fok; self-trade prevention by the taker's stp_act; amend rules.
// Pure and synchronous: no I/O, no clock. The spot service locks funds before calling it and settles
// the returned fills in the same database transaction.

import { BookSide, type RestingOrder, type Side } from './book';

export type { RestingOrder, Side } from './book';

export type OrderType = 'limit' | 'market';
export type TimeInForce = 'gtc' | 'ioc' | 'poc' | 'fok';
export type StpAct = 'cn' | 'co' | 'cb';

/** Why a taker stopped: the spot API's finish_as values this engine produces. */
export type Outcome = 'open' | 'filled' | 'ioc' | 'poc' | 'fok' | 'stp';

const minBig = (a: bigint, b: bigint): bigint => (a < b ? a : b);

export interface IncomingOrder {
  id: string;
  owner: number;
  side: Side;
  type: OrderType;
  /** Limit price in ticks (ignored for market orders). */
  price: number;
  /**
   * Limit and market sell: base amount in lots. Market buy: quote budget in quote units of
   * 10^-(precision + amount_precision), i.e. the unit of ticks × lots.
   */
  amount: bigint;
  timeInForce: TimeInForce;
  /** The owner's STP group, 0 when none. */
  stpGroup: number;
  /** Strategy when meeting a resting order of the same STP group; members default to cn. */
  stpAct: StpAct;
}

export interface Fill {
  makerId: string;
  makerOwner: number;
  /** Trade price in ticks (always the maker's price). */
  price: number;
  lots: bigint;
  /** lots × price: quote amount in units of 10^-(precision + amount_precision). */
  quote: bigint;
  /** The maker's remaining amount after this fill (0 = maker fully filled and gone). */
  makerLeft: bigint;
}

export interface MatchResult {
  outcome: Outcome;
  fills: Fill[];
  /** Resting orders cancelled by STP (co / cb), with `left` as it was when cancelled. */
  stpCancelled: RestingOrder[];
  /** Taker base lots filled. */
  filledLots: bigint;
  /** Taker quote turnover (ticks × lots units). */
  filledQuote: bigint;
  /**
   * What remains of the order's amount: lots, or for a market buy the unspent quote budget.
   * Non-zero with outcome `open` means the order now rests on the book.
   */
  left: bigint;
}

export interface DepthLevel {
  price: number;
  lots: bigint;
}

export class MatchingEngine {
  readonly bids = new BookSide('buy');
  readonly asks = new BookSide('sell');
  private readonly orders = new Map<string, RestingOrder>();
  private nextSeq = 1;
  /** Bumped on every book change; exposed as the order book `id`. */
  version = 0;
  /**
   * Told the side and price of the level each bump of `version` changed (one call per bump), when
   * set: the WebSocket book stream derives its sequenced updates from it. Unset costs one check.
   */
  onLevelChange: ((side: Side, price: number) => void) | undefined = undefined;

  get restingCount(): number {
    return this.orders.size;
  }

  get(id: string): RestingOrder | undefined {
    return this.orders.get(id);
  }

  /** Best bid / ask price in ticks, or undefined when that side is empty. */
  bestBid(): number | undefined {
    return this.bids.best()?.price;
  }

  bestAsk(): number | undefined {
    return this.asks.best()?.price;
  }

  /** True when a limit order at `price` on `side` would trade immediately. */
  wouldCross(side: Side, price: number): boolean {
    const best = side === 'buy' ? this.asks.best() : this.bids.best();
    if (best === undefined) return false;
    return side === 'buy' ? best.price <= price : best.price >= price;
  }

  place(order: IncomingOrder): MatchResult {
    const result: MatchResult = {
      outcome: 'filled',
      fills: [],
      stpCancelled: [],
      filledLots: 0n,
      filledQuote: 0n,
      left: order.amount,
    };
    if (order.timeInForce === 'poc' && order.type === 'limit' && this.wouldCross(order.side, order.price)) {
      result.outcome = 'poc';
      return result;
    }
    if (order.timeInForce === 'fok' && !this.canFillCompletely(order)) {
      result.outcome = 'fok';
      return result;
    }
    const stoppedBy = this.match(order, result);
    if (stoppedBy !== null) {
      result.outcome = stoppedBy;
    } else if (result.left === 0n) {
      result.outcome = 'filled';
    } else if (order.type === 'market') {
      result.outcome = 'ioc';
    } else if (order.timeInForce === 'gtc' || order.timeInForce === 'poc') {
      this.rest(order, result.left, this.nextSeq++);
      result.outcome = 'open';
    } else {
      result.outcome = 'ioc';
    }
    return result;
  }

  /** Puts an order back on the book without matching (restoring persisted state). */
  restore(order: {
    id: string;
    owner: number;
    side: Side;
    price: number;
    left: bigint;
    stpGroup: number;
    seq: number;
  }) {
    const resting: RestingOrder = { ...order, prev: null, next: null, level: null };
    (order.side === 'buy' ? this.bids : this.asks).insertBySeq(resting);
    this.orders.set(order.id, resting);
    if (order.seq >= this.nextSeq) this.nextSeq = order.seq + 1;
    this.changed(order.side, order.price);
  }

  cancel(id: string): RestingOrder | undefined {
    const order = this.orders.get(id);
    if (order === undefined) return undefined;
    this.unlink(order);
    return order;
  }

  /**
   * Amends a resting order. Priority is kept only when the amount is reduced at the same price; a
   * price change or an amount increase sends the remainder to the back of its (new) level, matching
   * first if the new price crosses. `newLeft` is the new remaining amount in lots (> 0; the caller
   * turns "amount at or below filled" into a cancel). Returns undefined when the order is not resting.
   */
  amend(
    id: string,
    newPrice: number,
    newLeft: bigint,
    taker: { timeInForce: TimeInForce; stpAct: StpAct },
  ): { kept: boolean; result: MatchResult } | undefined {
    const order = this.orders.get(id);
    if (order === undefined) return undefined;
    if (newPrice === order.price && newLeft <= order.left) {
      (order.side === 'buy' ? this.bids : this.asks).reduce(order, newLeft);
      this.changed(order.side, order.price);
      return {
        kept: true,
        result: { outcome: 'open', fills: [], stpCancelled: [], filledLots: 0n, filledQuote: 0n, left: newLeft },
      };
    }
    this.unlink(order);
    const result = this.place({
      id: order.id,
      owner: order.owner,
      side: order.side,
      type: 'limit',
      price: newPrice,
      amount: newLeft,
      timeInForce: taker.timeInForce === 'poc' ? 'gtc' : taker.timeInForce,
      stpGroup: order.stpGroup,
      stpAct: taker.stpAct,
    });
    return { kept: false, result };
  }

  depth(side: Side, maxLevels: number): DepthLevel[] {
    const out: DepthLevel[] = [];
    for (const level of (side === 'buy' ? this.bids : this.asks).bestLevels(maxLevels)) {
      out.push({ price: level.price, lots: level.total });
    }
    return out;
  }

  /** All resting orders of one side in priority order (best price, then earliest). */
  *restingOrders(side: Side): Generator<RestingOrder> {
    for (const level of (side === 'buy' ? this.bids : this.asks).bestLevels()) {
      for (let o = level.head; o !== null; o = o.next) yield o;
    }
  }

  private rest(order: IncomingOrder, left: bigint, seq: number): void {
    const resting: RestingOrder = {
      id: order.id,
      owner: order.owner,
      side: order.side,
      price: order.price,
      left,
      stpGroup: order.stpGroup,
      seq,
      prev: null,
      next: null,
      level: null,
    };
    (order.side === 'buy' ? this.bids : this.asks).append(resting);
    this.orders.set(order.id, resting);
    this.changed(order.side, order.price);
  }

  private unlink(order: RestingOrder): void {
    (order.side === 'buy' ? this.bids : this.asks).remove(order);
    this.orders.delete(order.id);
    this.changed(order.side, order.price);
  }

  private changed(side: Side, price: number): void {
    this.version++;
    if (this.onLevelChange !== undefined) this.onLevelChange(side, price);
  }

  /** Runs the taker against the opposite side; returns the outcome when something other than the book ran out stopped it. */
  private match(order: IncomingOrder, result: MatchResult): Outcome | null {
    const book = order.side === 'buy' ? this.asks : this.bids;
    const isBuy = order.side === 'buy';
    const limited = order.type === 'limit';
    const quoteBudget = order.type === 'market' && isBuy;
    const limit = order.price;
    const group = order.stpGroup;
    let remaining = order.amount;
    let filledLots = 0n;
    let filledQuote = 0n;
    let stopped: Outcome | null = null;

    outer: while (remaining > 0n) {
      const level = book.best();
      if (level === undefined) break;
      if (limited && (isBuy ? level.price > limit : level.price < limit)) break;
      const priceBig = BigInt(level.price);
      let maker = level.head;
      while (maker !== null) {
        const next = maker.next;
        if (group !== 0 && maker.stpGroup === group) {
          if (order.stpAct === 'cn') {
            stopped = 'stp';
            break outer;
          }
          result.stpCancelled.push(maker);
          this.unlink(maker);
          if (order.stpAct === 'cb') {
            stopped = 'stp';
            break outer;
          }
          maker = next;
          continue;
        }
        let lots: bigint;
        if (quoteBudget) {
          const affordable = remaining / priceBig;
          if (affordable === 0n) {
            // The budget left buys less than one lot here: the market buy is done.
            stopped = 'filled';
            break outer;
          }
          lots = minBig(affordable, maker.left);
        } else {
          lots = minBig(remaining, maker.left);
        }
        const quote = lots * priceBig;
        const makerLeft = maker.left - lots;
        result.fills.push({ makerId: maker.id, makerOwner: maker.owner, price: level.price, lots, quote, makerLeft });
        filledLots += lots;
        filledQuote += quote;
        remaining -= quoteBudget ? quote : lots;
        if (makerLeft === 0n) {
          this.unlink(maker);
        } else {
          maker.left = makerLeft;
          level.total -= lots;
          this.changed(maker.side, level.price);
        }
        if (remaining === 0n) break outer;
        maker = next;
      }
    }
    result.filledLots = filledLots;
    result.filledQuote = filledQuote;
    result.left = remaining;
    return stopped;
  }

  /** FOK pre-check: walks the book without changing it, with the same STP rules as `match`. */
  private canFillCompletely(order: IncomingOrder): boolean {
    const book = order.side === 'buy' ? this.asks : this.bids;
    const isBuy = order.side === 'buy';
    const quoteBudget = order.type === 'market' && isBuy;
    let remaining = order.amount;
    for (const level of book.bestLevels()) {
      if (order.type === 'limit' && (isBuy ? level.price > order.price : level.price < order.price)) return false;
      const priceBig = BigInt(level.price);
      for (let maker = level.head; maker !== null; maker = maker.next) {
        if (order.stpGroup !== 0 && maker.stpGroup === order.stpGroup) {
          if (order.stpAct === 'co') continue;
          return false;
        }
        if (quoteBudget) {
          const affordable = remaining / priceBig;
          if (affordable === 0n) return true;
          const lots = minBig(affordable, maker.left);
          remaining -= lots * priceBig;
        } else {
          remaining -= minBig(remaining, maker.left);
        }
        if (remaining === 0n) return true;
      }
    }
    return false;
  }
}
