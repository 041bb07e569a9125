/**
 * Platform reads that change rarely — withdrawal rules and fees, chain info, spot pairs, pair fee
 * rates, the STP group, sub-account names — kept for a short while in main, so an action's precheck uses what a screen
 * read a moment ago instead of asking the platform again (issue 11: a withdrawal used to read its
 * rules three times). Two reads of the same key at once share one request. Every entry is dropped
 * when the profile changes; an action that changes what an entry holds drops it itself
 * (`invalidate`), e.g. a withdrawal lowers the day's remaining limit.
 *
 * One cache per core (per ServiceContext): the handlers of every area share it (`rulesCacheOf`).
 */
import type { ServiceContext } from '../context';

/** How long a rule read stays usable for a precheck, and how often a screen that shows it reads it again. */
export const RULES_FRESH_MS = 60_000;

/**
 * For an action's last check of rules an action does not change (a pair's precision and minimums,
 * the STP group): those kept, however old — the ones the screen showed and checked the action
 * against — read only when none are kept (after a profile switch). So an order costs the same however
 * long its ticket was open; rules that changed meanwhile are the platform's to refuse, and nothing is
 * placed on a refusal.
 */
export const RULES_AS_SHOWN = Number.POSITIVE_INFINITY;

/** The main account's sub-accounts (GET /sub_accounts?type=0): the list screens and the history's names. */
export const SUB_ACCOUNTS_KEY = 'subAccounts:list';

interface Entry {
  readonly at: number;
  readonly value: unknown;
}

export class RulesCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<unknown>>();
  /** Bumped by clear() and invalidate(): a read that started before either is not stored after it. */
  private generation = 0;

  /** `now`: monotonic milliseconds (the core's scheduler), so a step of the computer's clock ages nothing. */
  constructor(private readonly now: () => number) {}

  /**
   * The value stored under `key` if it is at most `maxAgeMs` old; else the read already under way
   * for it; else `load()`, stored when it succeeds (a failure is not kept). `maxAgeMs` 0 never
   * uses a stored value but still joins a read in flight.
   */
  get<T>(key: string, maxAgeMs: number, load: () => Promise<T>): Promise<T> {
    const hit = this.peek<T>(key, maxAgeMs);
    if (hit !== undefined) return Promise.resolve(hit);
    const running = this.inFlight.get(key);
    if (running) return running as Promise<T>;
    const generation = this.generation;
    const read = load().then((value) => {
      if (generation === this.generation) this.entries.set(key, { at: this.now(), value });
      return value;
    });
    const tracked = read.finally(() => {
      if (this.inFlight.get(key) === tracked) this.inFlight.delete(key);
    });
    this.inFlight.set(key, tracked);
    return tracked;
  }

  /** The stored value when it is at most `maxAgeMs` old. */
  peek<T>(key: string, maxAgeMs: number): T | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined || this.now() - entry.at > maxAgeMs) return undefined;
    return entry.value as T;
  }

  /** Stores a value read elsewhere (e.g. by a screen's own read of the same thing). */
  put(key: string, value: unknown): void {
    this.entries.set(key, { at: this.now(), value });
  }

  /** Drops every entry whose key starts with `prefix` (and forgets reads in flight for them). */
  invalidate(prefix: string): void {
    this.generation += 1;
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.entries.delete(key);
    for (const key of [...this.inFlight.keys()]) if (key.startsWith(prefix)) this.inFlight.delete(key);
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
    this.inFlight.clear();
  }
}

const caches = new WeakMap<ServiceContext, RulesCache>();

/** The core's one rules cache, emptied whenever the active profile changes. */
export const rulesCacheOf = (ctx: ServiceContext): RulesCache => {
  let cache = caches.get(ctx);
  if (cache === undefined) {
    const created = new RulesCache(() => ctx.scheduler.now());
    ctx.onProfileChange(() => created.clear());
    caches.set(ctx, created);
    cache = created;
  }
  return cache;
};
