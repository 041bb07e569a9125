/**
 * Client-side rate limiter mirroring the platform's Limits table, so normal use never meets a 429.
 * Each bucket is a sliding window: at most `limit` requests in any `windowMs` (plus a small margin),
 * which also satisfies a fixed-window counter on the server. A slot is not reused until `windowMs`
 * after its request was ANSWERED (the caller calls the function `acquire` resolves with): the
 * platform counted the request somewhere between the grant and the answer, so however late a
 * request left this computer (a busy event loop, the socket queue) or reached the platform, the
 * next one in its slot cannot land in the same window — rows may be sent several at a time without
 * risking a 429. Waiters are served first come, first served. A 429 blocks the bucket until the
 * reset time the platform names. The queue and budget are observable for the UI.
 *
 * Time is the scheduler's monotonic clock: a step of the computer's clock (back 10 minutes, say)
 * neither stalls the queue nor lets a burst through. Every wait is bounded: a caller says how long
 * it may wait for its slot (`maxWaitMs`; the API client passes the request's own timeout), counted
 * from its turn — a request queued behind others (a batch queues its rows on purpose) waits for
 * them, each of them bounded the same way. At its turn a slot known to be further away than that
 * (a 429 pause) is refused at once, and one that has not come `maxWaitMs` after it should have (the
 * requests holding the slots not answered) is refused then, with `SlotWaitTooLong`: nothing was
 * sent, and the caller says so instead of hanging.
 */
import { abortError, type Scheduler, systemScheduler, type Timer } from '../scheduler';

export interface RateRule {
  /** Bucket identity: requests sharing a key share a budget. */
  readonly key: string;
  /** Human name of the scope, for the UI. */
  readonly scope: string;
  readonly limit: number;
  readonly windowMs: number;
}

export interface BucketState {
  readonly key: string;
  readonly scope: string;
  readonly limit: number;
  readonly windowMs: number;
  /** Requests granted within the current window. */
  readonly used: number;
  /** Requests waiting for a slot. */
  readonly queued: number;
  /** When the platform asked us to pause (429), until this time (wall clock, ms since epoch: for the UI). */
  readonly blockedUntil?: number;
}

export interface LimiterSnapshot {
  readonly buckets: readonly BucketState[];
  /** Total requests waiting across buckets. */
  readonly queued: number;
  /** The tightest remaining budget, as a fraction 0..1 (1 = nothing used). */
  readonly headroom: number;
}

interface Waiter {
  readonly resolve: (settle: Settle) => void;
  readonly reject: (error: Error) => void;
  /** It is first in the queue (or a 429 paused the bucket meanwhile): its bound is set (see the file's comment). */
  readonly onTurn: () => void;
  /** Leaves the queue (granted, refused, aborted or cleared): the abort listener and the bound's timer go. */
  readonly release: () => void;
}

/** How long a caller may wait for a slot, and its cancellation. */
export interface AcquireOptions {
  readonly signal?: AbortSignal;
  /** The longest wait for its slot from its turn on (the request's own timeout); default: as long as it takes. */
  readonly maxWaitMs?: number;
}

/**
 * A slot could not be had within the caller's bound: the request was not sent. `waitMs`: how long it
 * would still have waited at least (monotonic), known in advance; undefined when the bound passed
 * with the requests holding the slots still unanswered.
 */
export class SlotWaitTooLong extends Error {
  constructor(
    readonly rule: RateRule,
    readonly waitMs: number | undefined,
    readonly maxWaitMs: number,
  ) {
    super(
      `the app's rate limit for ${rule.scope} (${rule.limit} per ${rule.windowMs / 1000} s) has no slot within ${Math.ceil(maxWaitMs / 1000)} s`,
    );
    this.name = 'SlotWaitTooLong';
  }
}

/** A granted slot: when it was granted and when its request was answered (undefined: in flight). */
interface Grant {
  readonly at: number;
  end: number | undefined;
}

/** How late a timer may fire on a loaded machine (the bound's slack over the requests it waits for). */
const LATE_TIMER_MS = 1_000;

/** Tells the limiter the request of a grant was answered (or failed); idempotent. */
export type Settle = () => void;

class Bucket {
  readonly grants: Grant[] = [];
  readonly waiters: Waiter[] = [];
  /** Monotonic ms until which the platform asked for a pause (429). */
  blockedUntil = Number.NEGATIVE_INFINITY;
  timer: Timer | undefined;
  constructor(readonly rule: RateRule) {}
}

export interface LimiterOptions {
  /** Its monotonic clock times every grant and wait; its timers wake the queue (default: the system's). */
  readonly scheduler?: Scheduler;
  /**
   * Extra spacing added to every window against jitter between leaving here and arriving there (a
   * busy event loop, the socket queue); default max(150 ms, 2 % of the window). 150 ms costs a
   * person nothing and keeps a 10-per-second window safe on a loaded two-core machine.
   */
  readonly marginMs?: (windowMs: number) => number;
  /**
   * A grant whose caller never settles it counts as answered this long after it was granted
   * (default 60 s, above any request's answer timeout), so a forgotten settle cannot hold a slot.
   */
  readonly holdMs?: number;
  /** Called (at most once per tick) when queue or budget changes. */
  readonly onChange?: () => void;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly scheduler: Scheduler;
  private readonly margin: (windowMs: number) => number;
  private readonly holdMs: number;
  private changeScheduled = false;

  constructor(private readonly options: LimiterOptions = {}) {
    this.scheduler = options.scheduler ?? systemScheduler();
    this.margin = options.marginMs ?? ((w) => Math.max(150, Math.ceil(w * 0.02)));
    this.holdMs = options.holdMs ?? 60_000;
  }

  /**
   * Resolves when a request under `rule` may be sent; the slot is counted from that moment until
   * `windowMs` (+ margin) after the request is answered: call the returned `Settle` when it is.
   * Rejects with `SlotWaitTooLong` when its slot cannot be had within `maxWaitMs` of its turn (see
   * the file's comment), with an AbortError when `signal` aborts first.
   */
  acquire(rule: RateRule, options: AcquireOptions = {}): Promise<Settle> {
    const { signal, maxWaitMs } = options;
    const bucket = this.bucket(rule);
    if (signal?.aborted) return Promise.reject(abortError());
    if (bucket.waiters.length === 0) {
      const grant = this.tryGrant(bucket);
      if (grant) return Promise.resolve(this.settler(bucket, grant));
      // Its turn already: a slot known to be too far away is refused before it queues.
      const waitMs = this.hopefulGrantAt(bucket) - this.now();
      if (maxWaitMs !== undefined && waitMs > maxWaitMs) {
        return Promise.reject(new SlotWaitTooLong(rule, waitMs, maxWaitMs));
      }
    }
    return new Promise<Settle>((resolve, reject) => {
      let bound: Timer | undefined;
      const leave = (error: Error) => {
        const index = bucket.waiters.indexOf(waiter);
        if (index >= 0) bucket.waiters.splice(index, 1);
        waiter.release();
        reject(error);
        this.changed();
        if (index === 0) this.nextTurn(bucket);
      };
      const onAbort = () => leave(abortError());
      const waiter: Waiter = {
        resolve,
        reject,
        onTurn: () => {
          if (maxWaitMs === undefined) return;
          bound?.cancel();
          const slotAt = this.hopefulGrantAt(bucket);
          const waitMs = slotAt - this.now();
          if (waitMs > maxWaitMs) {
            leave(new SlotWaitTooLong(rule, waitMs, maxWaitMs));
            return;
          }
          // The requests holding the slots may answer late (each within its own timeout, on a busy
          // machine a little later): the slot may come up to `maxWaitMs` (+ LATE_TIMER_MS) after it
          // should have, not later.
          bound = this.scheduler.setTimeout(
            () => leave(new SlotWaitTooLong(rule, undefined, maxWaitMs)),
            waitMs + maxWaitMs + LATE_TIMER_MS,
          );
        },
        release: () => {
          signal?.removeEventListener('abort', onAbort);
          bound?.cancel();
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      bucket.waiters.push(waiter);
      this.changed();
      if (bucket.waiters.length === 1) waiter.onTurn();
      this.schedule(bucket);
    });
  }

  /**
   * The platform answered 429: nothing more in this bucket until `untilMs` (this limiter's
   * monotonic clock: convert the platform's reset time with `monotonicFromPlatform`).
   */
  block(rule: RateRule, untilMs: number): void {
    const bucket = this.bucket(rule);
    bucket.blockedUntil = Math.max(bucket.blockedUntil, untilMs);
    this.changed();
    // The first waiter's slot moved: its bound is counted from the new time (or it is refused now).
    this.nextTurn(bucket);
    this.reschedule(bucket);
  }

  /** This limiter's monotonic time now (what `block` takes). */
  now(): number {
    return this.scheduler.now();
  }

  snapshot(): LimiterSnapshot {
    const now = this.now();
    const buckets: BucketState[] = [];
    let queued = 0;
    let headroom = 1;
    for (const bucket of this.buckets.values()) {
      this.prune(bucket, now);
      const { rule } = bucket;
      queued += bucket.waiters.length;
      headroom = Math.min(headroom, 1 - bucket.grants.length / rule.limit);
      buckets.push({
        key: rule.key,
        scope: rule.scope,
        limit: rule.limit,
        windowMs: rule.windowMs,
        used: bucket.grants.length,
        queued: bucket.waiters.length,
        // Shown to people: as a wall-clock time.
        ...(bucket.blockedUntil > now
          ? { blockedUntil: Math.round(this.scheduler.wallNow() + (bucket.blockedUntil - now)) }
          : {}),
      });
    }
    return { buckets, queued, headroom: Math.max(0, headroom) };
  }

  /** Rejects every waiter (shutdown or profile switch). */
  clear(reason = 'the connection was closed'): void {
    for (const bucket of this.buckets.values()) {
      bucket.timer?.cancel();
      for (const waiter of bucket.waiters.splice(0)) {
        waiter.release();
        waiter.reject(new Error(reason));
      }
    }
    this.buckets.clear();
  }

  private bucket(rule: RateRule): Bucket {
    let bucket = this.buckets.get(rule.key);
    if (bucket === undefined) {
      bucket = new Bucket(rule);
      this.buckets.set(rule.key, bucket);
    }
    return bucket;
  }

  private windowOf(bucket: Bucket): number {
    return bucket.rule.windowMs + this.margin(bucket.rule.windowMs);
  }

  /** When a grant's slot may be used again: a window after its answer (or after `holdMs`). */
  private freeAt(bucket: Bucket, grant: Grant): number {
    return (grant.end ?? grant.at + this.holdMs) + this.windowOf(bucket);
  }

  private prune(bucket: Bucket, now: number): void {
    for (let i = bucket.grants.length - 1; i >= 0; i--) {
      if (this.freeAt(bucket, bucket.grants[i] as Grant) <= now) bucket.grants.splice(i, 1);
    }
  }

  private tryGrant(bucket: Bucket): Grant | undefined {
    const now = this.now();
    if (bucket.blockedUntil > now) return undefined;
    this.prune(bucket, now);
    if (bucket.grants.length >= bucket.rule.limit) return undefined;
    const grant: Grant = { at: now, end: undefined };
    bucket.grants.push(grant);
    this.changed();
    return grant;
  }

  private settler(bucket: Bucket, grant: Grant): Settle {
    return () => {
      if (grant.end !== undefined) return;
      grant.end = Math.max(this.now(), grant.at);
      // The slot's reuse time is now known (earlier than `holdMs` assumed): wake the queue for it.
      this.reschedule(bucket);
    };
  }

  /**
   * When the first in the queue would get its slot if every request in flight were answered now:
   * the earliest it can possibly be. A wait beyond the caller's bound even so is refused at once.
   */
  private hopefulGrantAt(bucket: Bucket): number {
    const now = this.now();
    this.prune(bucket, now);
    const window = this.windowOf(bucket);
    // The earliest free time of the slots in use, those in flight as if answered now.
    const free = bucket.grants.map((g) => (g.end ?? now) + window).sort((a, b) => a - b);
    const slotAt = free.length < bucket.rule.limit ? now : (free[free.length - bucket.rule.limit] as number) + 1;
    return Math.max(slotAt, bucket.blockedUntil);
  }

  /** The first waiter left or was granted: the next one's turn (its bound) begins. */
  private nextTurn(bucket: Bucket): void {
    bucket.waiters[0]?.onTurn();
  }

  /** When the next slot opens in this bucket. */
  private nextSlotAt(bucket: Bucket): number {
    const now = this.now();
    this.prune(bucket, now);
    let at = now;
    if (bucket.grants.length >= bucket.rule.limit) {
      const free = bucket.grants.map((g) => this.freeAt(bucket, g)).sort((a, b) => a - b);
      at = (free[bucket.grants.length - bucket.rule.limit] as number) + 1;
    }
    return Math.max(at, bucket.blockedUntil);
  }

  private schedule(bucket: Bucket): void {
    if (bucket.timer !== undefined || bucket.waiters.length === 0) return;
    const delay = Math.max(0, this.nextSlotAt(bucket) - this.now());
    bucket.timer = this.scheduler.setTimeout(() => {
      bucket.timer = undefined;
      this.drain(bucket);
    }, delay);
  }

  /** The next slot's time changed (an answer came, a 429 paused the bucket): wake the queue for it. */
  private reschedule(bucket: Bucket): void {
    if (bucket.timer === undefined) {
      this.schedule(bucket);
      return;
    }
    bucket.timer.cancel();
    bucket.timer = undefined;
    this.schedule(bucket);
  }

  private drain(bucket: Bucket): void {
    while (bucket.waiters.length > 0) {
      const grant = this.tryGrant(bucket);
      if (grant === undefined) break;
      const waiter = bucket.waiters.shift() as Waiter;
      waiter.release();
      waiter.resolve(this.settler(bucket, grant));
      this.nextTurn(bucket);
    }
    this.schedule(bucket);
  }

  private changed(): void {
    if (this.options.onChange === undefined || this.changeScheduled) return;
    this.changeScheduled = true;
    queueMicrotask(() => {
      this.changeScheduled = false;
      this.options.onChange?.();
    });
  }
}
