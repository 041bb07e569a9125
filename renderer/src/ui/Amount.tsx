import type { ReactNode } from 'react';
import {
  type AmountFormat,
  decimalPlaces,
  formatAmount,
  formatMoney,
  isDecimalString,
  type MoneyFormat,
} from '../lib/format';
import './Amount.css';

/**
 * A decimal-string amount with fixed-width digits (formatMoney's text: "1,000 USDT"). `tone="auto"`
 * colours by sign using the person's up/down colours. In a table column, `alignTo` (the column's
 * most decimals, see alignmentOf) pads the fraction with invisible zeros so the points line up
 * in right-aligned cells; the padding is CSS (::after), never part of the text.
 */
export const Amount = ({
  value,
  currency,
  tone,
  testId,
  alignTo,
  ...format
}: MoneyFormat & {
  readonly value: string;
  readonly currency?: string;
  readonly tone?: 'auto';
  readonly testId?: string;
  readonly alignTo?: number;
}) => {
  const text = format.estimate ? formatMoney(value, currency ?? '', format) : formatAmount(value, format);
  const sign = tone === 'auto' ? (text.startsWith('-') ? 'down' : /^[+]?[0,.]*$/.test(text) ? '' : 'up') : '';
  const shown = decimalPlaces(text);
  const missing = alignTo !== undefined && !format.estimate ? Math.max(0, alignTo - shown) : 0;
  const pad = missing === 0 ? undefined : `${shown === 0 ? '.' : ''}${'0'.repeat(missing)}`;
  return (
    <span className={['amount', sign ? `amount-${sign}` : ''].filter(Boolean).join(' ')} data-testid={testId}>
      <span className="amount-number" data-pad={pad}>
        {text}
      </span>
      {currency && !format.estimate ? <span className="amount-currency"> {currency}</span> : null}
    </span>
  );
};

/**
 * How many decimals the widest of these amounts shows once formatted (`format`: a pair's amount
 * precision, trimmed), for `alignTo`. Text that is not a decimal is left out.
 */
export const alignmentOf = (values: Iterable<string | undefined>, format: AmountFormat = {}): number => {
  let most = 0;
  for (const value of values) {
    if (value !== undefined && isDecimalString(value))
      most = Math.max(most, decimalPlaces(formatAmount(value, format)));
  }
  return most;
};

/**
 * A table column's cell for a decimal-string field: `<Amount>` with the decimals of every row lined
 * up (`cell: alignedAmounts(rows, (r) => r.amount)`), written with `format` (e.g. a pair's amount
 * precision, trimmed). Anything that is not a decimal shows as it came, an empty value as `empty`.
 */
export const alignedAmounts = <Row,>(
  rows: readonly Row[] | undefined,
  pick: (row: Row) => string | undefined,
  { empty = '—', format = {} }: { readonly empty?: string; readonly format?: AmountFormat } = {},
): ((row: Row) => ReactNode) => {
  const alignTo = alignmentOf((rows ?? []).map(pick), format);
  return (row) => {
    const value = pick(row);
    if (value === undefined || value === '') return empty;
    return isDecimalString(value) ? <Amount value={value} alignTo={alignTo} {...format} /> : value;
  };
};
