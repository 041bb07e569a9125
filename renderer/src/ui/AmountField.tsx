import { decimalPlaces, isDecimalString } from '../lib/format';
import { TextField, type TextFieldProps } from './TextField';

/**
 * Why an amount string is not acceptable, or undefined when it is. Empty is "required" only when
 * asked; the screen decides about minimums and balances.
 */
export const amountProblem = (
  value: string,
  options: { readonly precision?: number; readonly required?: boolean; readonly allowZero?: boolean } = {},
): string | undefined => {
  const text = value.trim();
  if (text === '') return options.required ? 'Enter an amount.' : undefined;
  if (!isDecimalString(text) || text.startsWith('+')) return 'Use digits and at most one decimal point.';
  if (text.startsWith('-')) return 'The amount cannot be negative.';
  if (options.precision !== undefined && decimalPlaces(text) > options.precision) {
    return options.precision === 0
      ? 'Use whole numbers only.'
      : `Use at most ${options.precision} digit${options.precision === 1 ? '' : 's'} after the point.`;
  }
  if (!options.allowZero && /^[0.]+$/.test(text)) return 'The amount must be more than zero.';
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
