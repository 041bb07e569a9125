/**
 * Waits in exact time, counting down: a TOO_FAST or TOO_MANY_REQUESTS refusal says how long until
 * the platform's window for that endpoint reopens (the window from shared/platform/limits.ts, or the
 * platform's own reset time when the limiter was told one), and says so again once it has.
 */
import { useEffect, useState } from 'react';
import type { RateLimitKey } from '../../../shared/platform/limits';
import { RATE_LIMITS, SAME_ADDRESS_WITHDRAWAL } from '../../../shared/platform/limits';
import { allowanceWords, OPERATION_RULE } from '../../../shared/platform/pacing';

/** Whole seconds left, rounded up ("3 s", then "2 s", "1 s"). */
export const secondsLeft = (until: number, now: number): number => Math.max(0, Math.ceil((until - now) / 1000));

/** The time now, re-read four times a second until `until` has passed. */
export const useNow = (until: number | undefined): number => {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until === undefined || until <= Date.now()) return undefined;
    const timer = setInterval(() => {
      const t = Date.now();
      setNow(t);
      if (t >= until) clearInterval(timer);
    }, 250);
    return () => clearInterval(timer);
  }, [until]);
  return now;
};

/** "Try again in 3 s" counting down to "You can try again now." */
export const Countdown = ({ until, testId = 'countdown' }: { until: number; testId?: string }) => {
  const now = useNow(until);
  const left = secondsLeft(until, now);
  return (
    <span className="countdown" data-testid={testId} data-left={left} role="timer" aria-live="off">
      {left > 0 ? `You can try again in ${left} s.` : 'You can try again now.'}
    </span>
  );
};

const PACED = new Set(['TOO_FAST', 'TOO_MANY_REQUESTS']);

interface PacedError {
  readonly operation?: string;
  readonly label?: string;
}

/** The rule behind a pacing refusal of an operation, if it is one. */
export const pacingRuleOf = (error: unknown): RateLimitKey | undefined => {
  if (typeof error !== 'object' || error === null) return undefined;
  const { operation, label } = error as PacedError;
  if (!label || !PACED.has(label)) return undefined;
  return (operation && OPERATION_RULE[operation]) || undefined;
};

/** What a pacing refusal allows and how long its window is: TOO_FAST has its own (per address). */
const pacingOf = (error: unknown): { words: string; windowMs: number } | undefined => {
  if (typeof error === 'object' && error !== null && (error as PacedError).label === 'TOO_FAST') {
    return { words: SAME_ADDRESS_WITHDRAWAL.words, windowMs: SAME_ADDRESS_WITHDRAWAL.windowMs };
  }
  const rule = pacingRuleOf(error);
  return rule === undefined ? undefined : { words: allowanceWords(rule), windowMs: RATE_LIMITS[rule].windowMs };
};

/**
 * Under an error: for a pacing refusal, the platform's real allowance for that action and the exact
 * time left, counting down. Nothing for any other error. `blockedUntil` is the platform's reset time
 * when known (the limiter's bucket); otherwise the window is counted from when the refusal arrived.
 */
export const RetryCountdown = ({ error, blockedUntil }: { error: unknown; blockedUntil?: number }) => {
  const pacing = pacingOf(error);
  const [until, setUntil] = useState<number | undefined>();
  // biome-ignore lint/correctness/useExhaustiveDependencies: each new refusal (a new error object) starts its own wait.
  useEffect(() => {
    setUntil(pacing === undefined ? undefined : (blockedUntil ?? Date.now() + pacing.windowMs));
  }, [error, pacing?.windowMs, blockedUntil]);
  if (pacing === undefined || until === undefined) return null;
  return (
    <div className="notice-text" data-testid="retry-countdown">
      The platform accepts {pacing.words}. <Countdown until={until} />
    </div>
  );
};
