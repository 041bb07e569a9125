/**
 * Fixed-window request counters over the ONE table of shared/platform/limits.ts. A counter is keyed
 * by rule, caller (user id, or IP for public endpoints) and — per the rule's scope — the endpoint or
 * the market, so main and sub-accounts are counted separately.
 */
import { RATE_LIMITS, type RateLimitKey } from '../../shared/platform/limits';

export interface RateState {
  readonly limit: number;
  readonly remain: number;
  /** Unix seconds: when the window reopens if exceeded, else the current time (api-facts §5). */
  readonly reset: number;
  readonly exceeded: boolean;
}

interface Window {
  count: number;
  endsAt: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  /** When false, counting and headers go on but nothing is refused (benchmarks). */
  enforce = true;

  constructor(private readonly nowMs: () => number) {}

  /** Counts one request and says whether it is within the limit. */
  hit(rule: RateLimitKey, caller: string, endpoint: string, market = ''): RateState {
    const spec = RATE_LIMITS[rule];
    const scopeKey = spec.scope === 'endpoint' ? endpoint : spec.scope === 'group_market' ? market : '';
    const key = `${rule}|${caller}|${scopeKey}`;
    const now = this.nowMs();
    let w = this.windows.get(key);
    if (!w || w.endsAt <= now) {
      if (this.windows.size > 100_000) this.sweep(now);
      w = { count: 0, endsAt: now + spec.windowMs };
      this.windows.set(key, w);
    }
    w.count += 1;
    const exceeded = w.count > spec.limit;
    return {
      limit: spec.limit,
      remain: Math.max(0, spec.limit - w.count),
      reset: Math.floor((exceeded ? w.endsAt : now) / 1000),
      exceeded: exceeded && this.enforce,
    };
  }

  reset(): void {
    this.windows.clear();
  }

  private sweep(now: number): void {
    for (const [key, w] of this.windows) if (w.endsAt <= now) this.windows.delete(key);
  }
}
