// POST /spot/countdown_cancel_all (api-facts §1.5): a dead man's switch. Each call re-arms a timer for
// the user (optionally one pair); when business time passes it without another call, the user's open
// orders (of that pair) are cancelled. Timers live in memory: a restart disarms them.

import { ApiFailure } from '../http/errors';
import type { SpotExchange } from './exchange';

const MIN_TIMEOUT_S = 5;

export class CountdownCancel {
  /** `${userId}|${pair or ''}` → trigger time (Unix ms). */
  private readonly timers = new Map<string, number>();

  constructor(private readonly exchange: SpotExchange) {}

  /** Arms (timeout ≥ 5 s) or disarms (timeout 0) a countdown; answers `{triggerTime}` in ms (camel case, as the platform and its SDK model TriggerTime) (0 when off). */
  set(userId: number, timeoutS: number, pair: string | undefined, nowMs: number): { triggerTime: number } {
    if (timeoutS !== 0 && timeoutS < MIN_TIMEOUT_S) {
      throw new ApiFailure('INVALID_PARAM_VALUE', `timeout must be 0 (disable) or at least ${MIN_TIMEOUT_S} seconds`);
    }
    const key = `${userId}|${pair ?? ''}`;
    if (timeoutS === 0) {
      this.timers.delete(key);
      return { triggerTime: 0 };
    }
    const trigger = nowMs + timeoutS * 1000;
    this.timers.set(key, trigger);
    return { triggerTime: trigger };
  }

  /** Fires every countdown that is due. */
  fire(nowMs: number): void {
    for (const [key, trigger] of this.timers) {
      if (trigger > nowMs) continue;
      this.timers.delete(key);
      const [user, pair] = key.split('|') as [string, string];
      this.exchange.cancelAll(Number(user), pair === '' ? undefined : pair);
    }
  }
}
