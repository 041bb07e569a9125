/**
 * Whether a withdrawal will wait for another operator's approval, said BEFORE it is sent: the
 * profile's policy (policies.get) read with the amount's value in USDT (the firm view's valuation
 * route) and whether the destination is new. Main decides; this only warns in time.
 */
import Decimal from 'decimal.js';
import type { Policy } from '../../../../shared/contract/policies';
import type { Ticker } from '../../../../shared/contract/trade';
import { valuationIn } from '../../../../shared/platform/valuation';
import { formatMoney, formatValue } from '../../lib/format';

export interface ForecastInput {
  readonly policy: Policy | undefined;
  readonly tickers: readonly Ticker[] | undefined;
  readonly currency: string;
  /** The canonical amount, or '' while none can be read. */
  readonly amount: string;
  /** Never sent to before. */
  readonly newDestination: boolean;
}

/** The sentences of each approval rule the withdrawal meets (empty: it goes without approval). */
export const approvalReasons = ({ policy, tickers, currency, amount, newDestination }: ForecastInput): string[] => {
  if (policy === undefined || amount === '') return [];
  const reasons: string[] = [];
  const threshold = policy.approval.aboveUsdt;
  if (threshold !== undefined) {
    const price = valuationIn(
      'USDT',
      (tickers ?? []).map((t) => ({ ...t })),
    )(currency)?.price;
    if (price !== undefined) {
      const value = new Decimal(amount).times(price);
      if (value.gt(threshold)) {
        reasons.push(
          currency === 'USDT'
            ? `Above ${formatMoney(threshold, 'USDT')}.`
            : `Worth about ${formatValue(value, 'USDT')}, above ${formatMoney(threshold, 'USDT')}.`,
        );
      }
    }
  }
  if (policy.approval.newDestination && newDestination) reasons.push('A new destination.');
  return reasons;
};
