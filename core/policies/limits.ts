/**
 * The policy's limits applied to the journal (docs/approvals.md): a proposed withdrawal or push, or
 * a whole batch of them, against the profile's policy and the movements of the last 24 hours —
 * plus those reserved now, past the check and not yet journaled. The pure rules are evaluate.ts;
 * this module reads the journal and the prices and keeps the reservations.
 */
import Decimal from 'decimal.js';
import { destinationKey } from '../../shared/contract/funding';
import type { PlatformApi } from '../api/platform';
import { DeskFailure } from '../errors';
import type { AuditLog } from '../journal/types';
import type { Movement, Movements } from '../movements/types';
import { type Evaluation, evaluateBatch, evaluatePolicy, type PolicyMovement, pushDestination } from './evaluate';
import type { PolicyStore } from './store';

const HOUR_MS = 3_600_000;

/** Releases a movement's place in the limits once it is in the journal (or was refused). */
export type Release = () => void;

export interface LimitsDeps {
  readonly platform: () => PlatformApi;
  readonly movements: Movements;
  readonly audit: AuditLog;
  readonly policies: PolicyStore;
  readonly now?: () => number;
}

/** Where a journaled withdrawal or push went, as the policy names destinations. */
export const movementDestination = (m: Movement): string =>
  m.kind === 'withdrawal'
    ? destinationKey(String(m.params.chain ?? ''), String(m.params.address ?? ''), m.params.memo as string | undefined)
    : pushDestination(String(m.params.receive_uid ?? ''));

export interface Limits {
  /** USDT value of an amount at the platform's last price; undefined when no price can be read. */
  usdtValue(currency: string, amount: string): Promise<string | undefined>;
  /**
   * Reads the prices, then checks in one synchronous turn; with `reserve`, a movement that passes
   * takes its place in the limits in that same turn (`release` gives it back): two movements
   * confirmed at once cannot both take the last of a limit.
   */
  evaluate(
    profileId: string,
    proposed: Omit<PolicyMovement, 'at'>,
    reserve?: boolean,
  ): Promise<Evaluation & { release: Release }>;
  /** Each row of a batch, in order (each passing row counts toward the limits of the next). */
  evaluateRows(profileId: string, rows: readonly Omit<PolicyMovement, 'at' | 'usdt'>[]): Promise<Evaluation[]>;
  /** POLICY with the refusals, audited as `policies.refused` (nothing is sent). */
  refuse(profileId: string, what: string, refusals: readonly string[]): DeskFailure;
}

export const createLimits = (deps: LimitsDeps): Limits => {
  const now = deps.now ?? Date.now;
  /** Movements past the check and not yet in the journal: they count toward the limits. */
  const reserved = new Set<PolicyMovement>();

  const usdtValue = async (currency: string, amount: string): Promise<string | undefined> => {
    const c = currency.toUpperCase();
    if (c === 'USDT') return new Decimal(amount).toFixed();
    try {
      const [ticker] = await deps.platform().spot.tickers({ currency_pair: `${c}_USDT` });
      if (ticker === undefined || !ticker.last) return undefined;
      return new Decimal(amount).times(ticker.last).toFixed();
    } catch {
      return undefined;
    }
  };

  const recentMovements = (profileId: string, at: number) =>
    (['withdrawal', 'push'] as const)
      .flatMap((kind) => deps.movements.list({ kind, profileId, from: at - 24 * HOUR_MS - 60_000, limit: 100_000 }))
      .filter((m) => m.state !== 'failed');

  /** USDT prices (per 1 unit) of every currency moved in the last 24 h and of `more`, read before the check. */
  const pricesFor = async (
    profileId: string,
    at: number,
    more: readonly string[] = [],
  ): Promise<Map<string, string | undefined>> => {
    const prices = new Map<string, string | undefined>();
    for (const c of [...recentMovements(profileId, at).map((m) => m.currency), ...more]) {
      const currency = c.toUpperCase();
      if (!prices.has(currency)) prices.set(currency, await usdtValue(currency, '1'));
    }
    return prices;
  };

  /**
   * The profile's withdrawals and pushes of the last 24 h (not refused) plus those reserved now.
   * Synchronous on purpose: the caller checks and reserves in the same turn, so no movement can be
   * journaled or released between what was read and what is reserved.
   */
  const historyNow = (profileId: string, at: number, prices: Map<string, string | undefined>): PolicyMovement[] => [
    ...recentMovements(profileId, at).map((m) => {
      const price = prices.get(m.currency.toUpperCase());
      return {
        kind: m.kind as 'withdrawal' | 'push',
        currency: m.currency.toUpperCase(),
        amount: m.amount,
        at: m.createdAt,
        usdt: price === undefined ? undefined : new Decimal(m.amount).times(price).toFixed(),
        destination: movementDestination(m),
      };
    }),
    ...reserved,
  ];

  const knownDestinations = (profileId: string): Set<string> =>
    new Set(
      deps.movements
        .list({ kind: 'withdrawal', profileId, limit: 100_000 })
        .filter((m) => m.state !== 'failed')
        .map(movementDestination),
    );

  return {
    usdtValue,

    evaluate: async (profileId, proposed, reserve = false) => {
      const prices = await pricesFor(profileId, now());
      const at = now();
      const movement: PolicyMovement = { ...proposed, at };
      const result = evaluatePolicy(
        deps.policies.get(profileId),
        movement,
        historyNow(profileId, at, prices),
        knownDestinations(profileId),
        at,
      );
      if (!reserve || result.refusals.length > 0) return { ...result, release: () => {} };
      reserved.add(movement);
      return { ...result, release: () => reserved.delete(movement) };
    },

    evaluateRows: async (profileId, rows) => {
      if (rows.length === 0) return [];
      const at = now();
      const prices = await pricesFor(
        profileId,
        at,
        rows.map((r) => r.currency),
      );
      const movements: PolicyMovement[] = rows.map((r) => {
        const price = prices.get(r.currency.toUpperCase());
        return {
          ...r,
          currency: r.currency.toUpperCase(),
          at,
          usdt: price === undefined ? undefined : new Decimal(r.amount).times(price).toFixed(),
        };
      });
      return evaluateBatch(
        deps.policies.get(profileId),
        movements,
        historyNow(profileId, at, prices),
        knownDestinations(profileId),
        at,
      );
    },

    refuse: (profileId, what, refusals) => {
      deps.audit.record({
        action: 'policies.refused',
        profileId,
        params: { what, refusals },
        outcome: 'error',
        label: 'POLICY',
      });
      return new DeskFailure({
        code: 'POLICY',
        message: refusals.join(' '),
        advice: 'Nothing was sent. An admin can change the policy in Settings → Policies.',
      });
    },
  };
};
