import { type AmountFormat, formatAmount } from '../lib/format';

/**
 * A decimal-string amount with fixed-width digits. `tone="auto"` colours by sign using the
 * person's up/down colours.
 */
export const Amount = ({
  value,
  currency,
  tone,
  testId,
  ...format
}: AmountFormat & {
  readonly value: string;
  readonly currency?: string;
  readonly tone?: 'auto';
  readonly testId?: string;
}) => {
  const text = formatAmount(value, format);
  const sign = tone === 'auto' ? (text.startsWith('-') ? 'down' : /^[+]?[0,.]*$/.test(text) ? '' : 'up') : '';
  return (
    <span className={['amount', sign ? `amount-${sign}` : ''].filter(Boolean).join(' ')} data-testid={testId}>
      {text}
      {currency ? <span className="amount-currency"> {currency}</span> : null}
    </span>
  );
};
