/**
 * The policy check, as a pure function: a proposed movement, the profile's policy, the movements
 * already made (from the journal) and the time → what refuses it (limits, allowlist, time window)
 * and why it needs an approver. No I/O: the caller reads the journal and the prices, so the same
 * function is property-tested over random sequences (evaluate.property.test.ts) and enforced in main.
 */
import Decimal from 'decimal.js';
import { destinationKey } from '../../shared/contract/funding';
import type { Limits, Policy, TimeWindow } from '../../shared/contract/policies';
import { formatMoney } from '../../shared/format/money';

export const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** A movement as the policy sees it: a proposed one or one already made. */
export interface PolicyMovement {
  readonly kind: 'withdrawal' | 'push';
  readonly currency: string;
  readonly amount: string;
  /** Unix ms (journal time for past movements). */
  readonly at: number;
  /** Its USDT value; undefined when no price is known. */
  readonly usdt?: string | undefined;
  /** `destinationKey(chain, address, memo)` for a withdrawal, `uid:<n>` for a push. */
  readonly destination: string;
}

export interface Evaluation {
  /** Hard refusals (POLICY): nothing is sent, no approval can override them. */
  readonly refusals: readonly string[];
  /** Why another operator must approve it (empty: no approval needed). */
  readonly approvalReasons: readonly string[];
  /** A withdrawal to a destination this profile never sent to (whether or not a rule asks for approval then). */
  readonly newDestination?: boolean;
}

export const pushDestination = (uid: number | string): string => `uid:${uid}`;

/** Minutes after midnight in the window's time zone. */
const minuteOfDay = (nowMs: number, offsetMinutes: number): number => {
  const minutes = Math.floor(nowMs / 60_000) + offsetMinutes;
  return ((minutes % 1440) + 1440) % 1440;
};

export const insideWindow = (window: TimeWindow, nowMs: number): boolean => {
  const m = minuteOfDay(nowMs, window.utcOffsetMinutes);
  return window.fromMinute < window.toMinute
    ? m >= window.fromMinute && m < window.toMinute
    : m >= window.fromMinute || m < window.toMinute; // over midnight
};

const hhmm = (minute: number): string =>
  `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

const zone = (offset: number): string =>
  offset === 0 ? 'UTC' : `UTC${offset > 0 ? '+' : '−'}${hhmm(Math.abs(offset)).replace(/:00$/, '')}`;

/** Movements that count toward the rolling 24 hours ending at `now` (the window is (now − 24 h, now]). */
export const inRollingDay = (history: readonly PolicyMovement[], now: number): PolicyMovement[] =>
  history.filter((m) => m.at > now - DAY_MS && m.at <= now);

const checkLimits = (
  limits: Limits | undefined,
  amount: Decimal,
  used: Decimal,
  unit: string,
  what: string,
  refusals: string[],
): void => {
  if (limits === undefined) return;
  if (limits.perTransaction !== undefined && amount.greaterThan(limits.perTransaction)) {
    refusals.push(
      `${what} ${formatMoney(amount, unit)} is above the per-transaction limit of ${formatMoney(limits.perTransaction, unit)}.`,
    );
  }
  if (limits.rolling24h !== undefined && used.plus(amount).greaterThan(limits.rolling24h)) {
    const left = Decimal.max(new Decimal(limits.rolling24h).minus(used), 0);
    refusals.push(
      `The 24-hour limit of ${formatMoney(limits.rolling24h, unit)} would be exceeded: ${formatMoney(used, unit)} already moved in the last 24 hours, ${formatMoney(left, unit)} left.`,
    );
  }
};

/**
 * Checks `proposed` against `policy`. `history`: the profile's withdrawals and pushes that were not
 * refused or abandoned (any age; only the last 24 hours count toward limits). `knownDestinations`:
 * destinations this profile already sent to (for "new destination").
 */
export const evaluatePolicy = (
  policy: Policy,
  proposed: PolicyMovement,
  history: readonly PolicyMovement[],
  knownDestinations: ReadonlySet<string>,
  now: number,
): Evaluation => {
  const refusals: string[] = [];
  const approvalReasons: string[] = [];
  const currency = proposed.currency.toUpperCase();
  const amount = new Decimal(proposed.amount);
  const day = inRollingDay(history, now);

  // Time of day.
  if (policy.timeWindow && !insideWindow(policy.timeWindow, now)) {
    const w = policy.timeWindow;
    refusals.push(
      `Money may move only between ${hhmm(w.fromMinute)} and ${hhmm(w.toMinute)} (${zone(w.utcOffsetMinutes)}).`,
    );
  }

  // Per currency, in that currency.
  const currencyLimits = policy.limits[currency];
  if (currencyLimits) {
    const used = day
      .filter((m) => m.currency.toUpperCase() === currency)
      .reduce((sum, m) => sum.plus(m.amount), new Decimal(0));
    checkLimits(currencyLimits, amount, used, currency, 'The amount', refusals);
  }

  // Every currency, in USDT value: a value that cannot be known is refused (never guessed as 0).
  const usdtLimited = policy.usdtLimits.perTransaction !== undefined || policy.usdtLimits.rolling24h !== undefined;
  if (usdtLimited) {
    const unpriced = [proposed, ...(policy.usdtLimits.rolling24h !== undefined ? day : [])].filter(
      (m) => m.usdt === undefined,
    );
    if (unpriced.length > 0) {
      const names = [...new Set(unpriced.map((m) => m.currency.toUpperCase()))].join(', ');
      refusals.push(`The USDT value of ${names} is not known right now, so the USDT limits cannot be checked.`);
    } else {
      const used = day.reduce((sum, m) => sum.plus(m.usdt as string), new Decimal(0));
      checkLimits(policy.usdtLimits, new Decimal(proposed.usdt as string), used, 'USDT', 'Its value of', refusals);
    }
  }

  // Destination allowlist (withdrawals), with its cooling-off period.
  if (proposed.kind === 'withdrawal' && policy.allowlist.required) {
    const entry = policy.allowlist.entries.find(
      (e) =>
        e.currency.toUpperCase() === currency && destinationKey(e.chain, e.address, e.memo) === proposed.destination,
    );
    if (entry === undefined) {
      refusals.push('This destination is not on the profile’s allowlist.');
    } else {
      const usableAt = entry.addedAt + policy.allowlist.coolingOffHours * HOUR_MS;
      if (now < usableAt) {
        refusals.push(
          `“${entry.label}” was added to the allowlist ${new Date(entry.addedAt).toISOString()}; it can be used from ${new Date(usableAt).toISOString()} (cooling-off period of ${policy.allowlist.coolingOffHours} h).`,
        );
      }
    }
  }

  // Approval rules.
  const rules = policy.approval;
  if (rules.aboveUsdt !== undefined) {
    if (proposed.usdt === undefined) {
      approvalReasons.push(`Its USDT value is not known (the rule is: above ${formatMoney(rules.aboveUsdt, 'USDT')}).`);
    } else if (new Decimal(proposed.usdt).greaterThan(rules.aboveUsdt)) {
      approvalReasons.push(
        `Worth ${formatMoney(proposed.usdt, 'USDT')}, above ${formatMoney(rules.aboveUsdt, 'USDT')}.`,
      );
    }
  }
  if (rules.newDestination && proposed.kind === 'withdrawal' && !knownDestinations.has(proposed.destination)) {
    approvalReasons.push('A destination this profile never sent to.');
  }
  if (rules.anyPush && proposed.kind === 'push') approvalReasons.push('Every UID transfer needs an approver.');

  const newDestination = proposed.kind === 'withdrawal' && !knownDestinations.has(proposed.destination);
  return { refusals, approvalReasons, ...(newDestination ? { newDestination } : {}) };
};

/**
 * A whole batch, row after row, as if each were proposed after the ones before it had gone out:
 * every row that passes counts toward the limits of the rows after it (so the preview shows which
 * rows a batch would take past a 24-hour limit). Pure, like `evaluatePolicy`.
 */
export const evaluateBatch = (
  policy: Policy,
  rows: readonly PolicyMovement[],
  history: readonly PolicyMovement[],
  knownDestinations: ReadonlySet<string>,
  now: number,
): Evaluation[] => {
  const seen = [...history];
  return rows.map((row) => {
    const proposed = { ...row, at: now };
    const result = evaluatePolicy(policy, proposed, seen, knownDestinations, now);
    if (result.refusals.length === 0) seen.push(proposed);
    return result;
  });
};
