import { decimalPlaces, parseAmountInput } from '../lib/format';
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

export interface AmountFieldProps extends Omit<TextFieldProps, 'inputMode' | 'type'> {
  /** Maximum digits after the point (the pair's or currency's precision). */
  readonly precision?: number;
  /** Show format problems inline as the person types (in addition to `error`). */
  readonly validate?: boolean;
}

/** A decimal-string amount input: the value is never turned into a float. */
export const AmountField = ({ precision, validate = true, error, className, ...rest }: AmountFieldProps) => {
  const problem = validate ? amountProblem(rest.value, precision === undefined ? {} : { precision }) : undefined;
  return (
    <TextField
      {...rest}
      className={['amount-field', className].filter(Boolean).join(' ')}
      inputMode="decimal"
      error={error ?? problem}
    />
  );
};
