/**
 * What the balance totals share: chart axes written by the formatter, and an incomplete total that
 * says so at the total itself, with what it leaves out (never a silently smaller number).
 */
import Decimal from 'decimal.js';
import { useState } from 'react';
import type { FirmAccountType, FirmView } from '../../../../shared/contract/balances';
import { formatMoney, formatValue } from '../../lib/format';
import { Notice } from '../../ui';

const TYPE_WORDS: Record<FirmAccountType | 'subAccounts' | 'prices', string> = {
  spot: 'spot',
  margin: 'isolated margin',
  crossMargin: 'cross margin',
  futures: 'perpetual futures',
  delivery: 'delivery futures',
  options: 'options',
  subAccounts: 'the sub-account list',
  prices: 'the prices',
};

/** A chart axis value (a plot number) written as the value it stands for, without its unit (the axis names it). */
export const axisValue = (value: number, currency: string): string =>
  formatValue(new Decimal(value).toFixed(), currency, { unit: false });

export interface LeftOutHolding {
  readonly account: string;
  readonly type: FirmAccountType;
  readonly currency: string;
  readonly amount: string;
}

/** Every holding the total could not value (no price in the quote), with whose it is. */
export const unpricedHoldings = (view: FirmView): LeftOutHolding[] =>
  view.accounts.flatMap((a) =>
    a.holdings
      .filter((h) => h.value === null)
      .map((h) => ({ account: a.label, type: h.account, currency: h.currency, amount: h.amount })),
  );

/**
 * At the total: what it leaves out and why — each currency without a price (its amount across the
 * firm and in how many holdings), each account type that could not be read — so the number is never
 * mistaken for the whole firm. Every holding left out is one click away: the list is drawn only when
 * opened (at treasury scale it is 1,500 holdings, and drawing it with the total was most of the
 * view's longest task).
 */
export function LeftOut({ view, holdings }: { view: FirmView; holdings: readonly LeftOutHolding[] }) {
  const [listed, setListed] = useState(false);
  const unread = view.accounts.flatMap((a) =>
    Object.entries(a.errors).map(([type, why]) => ({ account: a.label, type, why })),
  );
  if (holdings.length === 0 && unread.length === 0) return null;
  const count = view.accounts.reduce((n, a) => n + a.holdings.length, 0);
  const holdingsOf = new Map<string, number>();
  for (const h of holdings) holdingsOf.set(h.currency, (holdingsOf.get(h.currency) ?? 0) + 1);
  const unpricedCurrencies = view.currencies.filter((c) => holdingsOf.has(c.currency));
  return (
    <Notice
      tone="warn"
      role="note"
      data-testid="firm-incomplete"
      title={`Incomplete: the total leaves out ${holdings.length > 0 ? `${holdings.length} of ${count} holdings` : 'accounts that could not be read'}.`}
    >
      {holdings.length > 0 ? (
        <div className="notice-text" data-testid="firm-unpriced">
          No price in {view.quote} for:{' '}
          {unpricedCurrencies
            .map((c) => {
              const n = holdingsOf.get(c.currency) ?? 0;
              return `${formatMoney(c.amount, c.currency)} (${n} ${n === 1 ? 'holding' : 'holdings'})`;
            })
            .join('; ')}
          .
          <details onToggle={(e) => setListed(e.currentTarget.open)} data-testid="firm-unpriced-holdings">
            <summary>Every holding left out ({holdings.length})</summary>
            {listed
              ? holdings
                  .map((h) => `${formatMoney(h.amount, h.currency)} (${h.account}, ${TYPE_WORDS[h.type] ?? h.type})`)
                  .join('; ')
              : null}
          </details>
        </div>
      ) : null}
      {unread.length > 0 ? (
        <div className="notice-text">
          Not read:{' '}
          {unread.map((u) => `${u.account}, ${TYPE_WORDS[u.type as FirmAccountType] ?? u.type} (${u.why})`).join('; ')}.
          Their holdings are unknown, not zero.
        </div>
      ) : null}
    </Notice>
  );
}
