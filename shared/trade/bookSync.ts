/**
 * A local copy of an order book kept from a REST snapshot plus the stream's sequenced updates
 * (spot.order_book_update / spot.obu), the platform's recipe (api-facts §8): buffer updates until
 * the snapshot (`GET /spot/order_book?with_id=true`, id N) arrives; drop updates that end at or
 * before N; the first one applied must contain N+1 (U ≤ N+1 ≤ u); each next one must start right
 * after the last (U ≤ last+1 ≤ u). Anything else is a gap: the copy is no longer the platform's
 * book and must be rebuilt from a new snapshot. An update flagged `full` replaces the book.
 * Sizes are absolute; "0" removes a level. Pure: main's feed and the tests use it.
 */
import type { BookLevel } from '../contract/trade';
import { canonicalDecimal, compareDecimal } from './book';

export interface BookUpdate {
  /** First and last update id this message covers. */
  readonly U: number;
  readonly u: number;
  readonly bids: readonly (readonly [string, string])[];
  readonly asks: readonly (readonly [string, string])[];
  /** The whole book at `u`, not a change. */
  readonly full?: boolean;
}

export type SyncResult =
  /** The update changed the copy (or was already contained in it). */
  | 'applied'
  /** Waiting for the snapshot: kept for later. */
  | 'buffered'
  /** Already contained in the snapshot: ignored. */
  | 'stale'
  /** Updates are missing: the copy is invalid until the next snapshot. */
  | 'gap';

/** Updates kept while the snapshot is on its way; more means the snapshot is far behind. */
const MAX_BUFFERED = 5_000;

const isZero = (size: string): boolean => /^0*(\.0*)?$/.test(size);

export class BookSync {
  private id: number | undefined;
  /** Canonical price → the level as the platform wrote it. */
  private readonly bids = new Map<string, BookLevel>();
  private readonly asks = new Map<string, BookLevel>();
  private buffered: BookUpdate[] = [];

  /** Whether the copy is the platform's book as of `lastId`. */
  get synced(): boolean {
    return this.id !== undefined;
  }

  get lastId(): number | undefined {
    return this.id;
  }

  /** Forget the copy (a gap, a reconnect): updates are buffered until the next snapshot. */
  reset(): void {
    this.id = undefined;
    this.bids.clear();
    this.asks.clear();
    this.buffered = [];
  }

  /**
   * The REST snapshot (its `id`, with_id=true). Buffered updates are applied on top; 'gap' when
   * they do not connect to it (the snapshot is newer than every buffered update is fine).
   */
  snapshot(
    id: number,
    bids: readonly (readonly [string, string])[],
    asks: readonly (readonly [string, string])[],
  ): SyncResult {
    const waiting = this.buffered;
    this.buffered = [];
    this.load(id, bids, asks);
    for (const update of waiting) {
      if (this.update(update) === 'gap') return 'gap';
    }
    return 'applied';
  }

  update(update: BookUpdate): SyncResult {
    if (update.full) {
      this.load(update.u, update.bids, update.asks);
      return 'applied';
    }
    if (this.id === undefined) {
      if (this.buffered.length >= MAX_BUFFERED) this.buffered.shift();
      this.buffered.push(update);
      return 'buffered';
    }
    if (update.u <= this.id) return 'stale';
    if (update.U > this.id + 1) {
      this.reset();
      return 'gap';
    }
    this.apply(this.bids, update.bids);
    this.apply(this.asks, update.asks);
    this.id = update.u;
    return 'applied';
  }

  /** The best `depth` levels per side: asks ascending, bids descending. */
  levels(depth = Number.POSITIVE_INFINITY): { bids: BookLevel[]; asks: BookLevel[] } {
    const side = (map: Map<string, BookLevel>, descending: boolean): BookLevel[] =>
      [...map.values()].sort(([a], [b]) => (descending ? compareDecimal(b, a) : compareDecimal(a, b))).slice(0, depth);
    return { bids: side(this.bids, true), asks: side(this.asks, false) };
  }

  private load(
    id: number,
    bids: readonly (readonly [string, string])[],
    asks: readonly (readonly [string, string])[],
  ): void {
    this.bids.clear();
    this.asks.clear();
    this.apply(this.bids, bids);
    this.apply(this.asks, asks);
    this.id = id;
  }

  private apply(side: Map<string, BookLevel>, changes: readonly (readonly [string, string])[]): void {
    for (const [price, size] of changes) {
      // One key per price value ("1.50" and "1.5" are the same level).
      const key = canonicalDecimal(price);
      if (isZero(size)) side.delete(key);
      else side.set(key, [price, size]);
    }
  }
}
