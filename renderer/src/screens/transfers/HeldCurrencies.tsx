/**
 * The currencies the source spot account holds, each with what is available, as buttons under the
 * Currency field: a click picks it (the field still takes any other currency typed).
 */
import Decimal from 'decimal.js';
import { useDeskQuery } from '../../lib/desk';
import { formatMoney } from '../../lib/format';

/** At most this many, largest holdings in the list's order (non-zero first). */
const SHOWN = 8;

const nonZero = (amount: string): boolean => {
  try {
    return !new Decimal(amount).isZero();
  } catch {
    return false;
  }
};

export function HeldCurrencies({
  holder,
  chosen,
  onPick,
}: {
  readonly holder: 'main' | number;
  readonly chosen: string;
  readonly onPick: (currency: string) => void;
}) {
  const main = useDeskQuery(['balances.spot', {}], { staleTime: 10_000, enabled: holder === 'main' });
  const sub = useDeskQuery(['subAccounts.balances', holder === 'main' ? {} : { userId: holder }], {
    staleTime: 10_000,
    enabled: holder !== 'main',
  });
  const held =
    holder === 'main'
      ? (main.data ?? []).map((b) => ({ currency: b.currency, available: b.available }))
      : Object.entries(sub.data?.balances.find((b) => b.userId === holder)?.spot ?? {}).map(
          ([currency, available]) => ({
            currency,
            available,
          }),
        );
  const shown = held.filter((h) => nonZero(h.available)).slice(0, SHOWN);
  if (shown.length === 0) return null;
  return (
    <div className="held-currencies" data-testid="transfer-held">
      <span className="field-hint" id="transfer-held-label">
        Held in the source spot account:
      </span>
      <ul aria-labelledby="transfer-held-label">
        {shown.map((h) => (
          <li key={h.currency}>
            <button
              type="button"
              className="held-currency"
              aria-pressed={chosen === h.currency}
              onClick={() => onPick(h.currency)}
              data-testid={`transfer-held-${h.currency}`}
            >
              {formatMoney(h.available, h.currency)}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
