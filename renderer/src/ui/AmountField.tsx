import type { ReactNode } from 'react';
import { decimalPlaces, formatMoney, parseAmountInput } from '../lib/format';
import { TextField, type TextFieldProps } from './TextField';

/**
 * The canonical decimal string of what was typed ("1,000.50" → "1000.5"), or undefined when it
 * cannot be read (the field shows why). Send and check this, never the raw text.
 */
export const amountValue = (typed: string): string | undefined => {
  const parsed = parseAmountInput(typed);
  return parsed.ok ? parsed.value : undefined;
};

/**
 * Why an amount string is not acceptable, or undefined when it is. Empty is "required" only when
 * asked; the screen decides about minimums and balances. Reading is parseAmountInput's ("1,000",
 * "1 000", ".5", "100." are fine); the precision is checked on the canonical value.
 */
export const amountProblem = (
  value: string,
  options: { readonly precision?: number; readonly required?: boolean; readonly allowZero?: boolean } = {},
): string | undefined => {
  const parsed = parseAmountInput(value);
  if (!parsed.ok) return parsed.empty && !options.required ? undefined : parsed.message;
  const text = parsed.value;
  if (options.precision !== undefined && decimalPlaces(text) > options.precision) {
    return options.precision === 0
      ? 'Use whole numbers only.'
      : `Use at most ${options.precision} digit${options.precision === 1 ? '' : 's'} after the point.`;
  }
  if (!options.allowZero && text === '0') return 'The amount must be more than zero.';
  return undefined;
};

export interface AmountFieldProps extends Omit<TextFieldProps, 'inputMode' | 'type' | 'suffix'> {
  /** Maximum digits after the point (the pair's or currency's precision). */
  readonly precision?: number;
  /** Show format problems inline as the person types (in addition to `error`). */
  readonly validate?: boolean;
  /** The unit, written after the input ("USDT", "%"). */
  readonly currency?: string;
  /** What can be used (a balance): "Available: 1,000 USDT" under the field. */
  readonly available?: string | undefined;
  /** Fills in everything available: a "Use all" button beside it (only with `available`). */
  readonly onUseAll?: () => void;
  /** Test id of the line under the field (what is available, or the hint). */
  readonly hintTestId?: string;
}

/** What is available (with "Use all"), then the caller's hint. */
const amountHint = (
  { available, currency = '', onUseAll, hint }: Pick<AmountFieldProps, 'available' | 'currency' | 'onUseAll' | 'hint'>,
  testId: string | undefined,
): ReactNode => {
  if (available === undefined && !hint) return undefined;
  return (
    <span data-testid={testId}>
      {available !== undefined ? (
        <>
          Available: {formatMoney(available, currency)}
          {onUseAll ? (
            <>
              {' '}
              <button type="button" className="link-button" onClick={onUseAll}>
                Use all
              </button>
            </>
          ) : null}
          {hint ? ' · ' : null}
        </>
      ) : null}
      {hint}
    </span>
  );
};

/**
 * A decimal-string amount input with its unit and, when given, what is available: the value is
 * never turned into a float. The one amount block of the forms (withdrawal, transfer, UID transfer,
 * order ticket).
 */
export const AmountField = ({
  precision,
  validate = true,
  error,
  className,
  currency,
  available,
  onUseAll,
  hint,
  hintTestId,
  ...rest
}: AmountFieldProps) => {
  const problem = validate ? amountProblem(rest.value, precision === undefined ? {} : { precision }) : undefined;
  return (
    <TextField
      {...rest}
      className={['amount-field', className].filter(Boolean).join(' ')}
      inputMode="decimal"
      suffix={currency}
      hint={amountHint({ available, currency, onUseAll, hint }, hintTestId)}
      error={error ?? problem}
    />
  );
};
