/**
 * Display formatting. Amounts stay decimal strings end to end and are formatted with decimal.js,
 * never through a JS number (a float would silently change digits). Times are shown in the
 * display time zone the person chose in Settings.
 */
import Decimal from 'decimal.js';

/** A plain decimal as people type it: optional sign, digits, optional fraction. No exponent. */
const DECIMAL_RE = /^[+-]?(\d+\.?\d*|\.\d+)$/;

export const isDecimalString = (value: string): boolean => DECIMAL_RE.test(value.trim());

/** Number of digits after the point of a decimal string ("1.2300" → 4). */
export const decimalPlaces = (value: string): number => {
  const dot = value.indexOf('.');
  return dot < 0 ? 0 : value.length - dot - 1;
};

export type Rounding = 'down' | 'half-up' | 'up';

const ROUNDING: Record<Rounding, Decimal.Rounding> = {
  down: Decimal.ROUND_DOWN,
  'half-up': Decimal.ROUND_HALF_UP,
  up: Decimal.ROUND_UP,
};

export interface AmountFormat {
  /** Digits after the point; omitted = exactly as many as the value has. */
  readonly precision?: number;
  /** Truncation by default: never show more than there is. */
  readonly rounding?: Rounding;
  /** Thousands separators in the integer part (default true). */
  readonly grouping?: boolean;
  /** Prefix positive values with "+" (for changes and PnL). */
  readonly signed?: boolean;
}

const group = (integer: string): string => integer.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/**
 * Formats a decimal string, e.g. formatAmount('1234567.891', { precision: 2 }) → "1,234,567.89".
 * Throws RangeError on anything that is not a plain decimal string: a malformed amount is a bug to
 * see, not a number to guess.
 */
export const formatAmount = (value: string, format: AmountFormat = {}): string => {
  const text = value.trim();
  if (!isDecimalString(text)) throw new RangeError(`Not a decimal amount: “${value}”`);
  const decimal = new Decimal(text);
  const fixed =
    format.precision === undefined
      ? decimal.toFixed()
      : decimal.toFixed(format.precision, ROUNDING[format.rounding ?? 'down']);
  const negative = fixed.startsWith('-');
  const unsigned = negative ? fixed.slice(1) : fixed;
  const [integer = '0', fraction] = unsigned.split('.');
  const body = ((format.grouping ?? true) ? group(integer) : integer) + (fraction === undefined ? '' : `.${fraction}`);
  // "-0.00" after rounding a tiny negative is shown as "0.00": a sign on zero misleads.
  const isZero = /^[0.]*$/.test(unsigned);
  if (negative && !isZero) return `-${body}`;
  if (format.signed && !isZero) return `+${body}`;
  return body;
};

/**
 * For a platform text shown as information (an event's amount, a ticker's volume): formatted when it
 * is a decimal string, else shown as it came — a notice must not fail over one odd field.
 */
export const formatAmountOrText = (value: string, format: AmountFormat = {}): string =>
  isDecimalString(value) ? formatAmount(value, format) : value;

/** "12.5%" from a ratio string ("0.125"), with the given precision. */
export const formatPercent = (ratio: string, precision = 2): string =>
  `${formatAmount(new Decimal(ratio).times(100).toFixed(), { precision, rounding: 'half-up' })}%`;

export {
  DISPLAY_TIME_ZONES,
  type DisplayTimeZone,
  formatTime,
  isoInZone,
  type TimeFormat,
  zoneLabel,
} from '../../../shared/format/time';

/** The full instant in UTC, ISO 8601, for tooltips ("shown in UTC+8; UTC is …"). */
export const isoUtc = (epochMs: number): string => new Date(epochMs).toISOString();

/** Long identifiers (addresses, tx ids) grouped in fours so people can compare them in full. */
export const chunk = (value: string, size = 4): string => value.match(new RegExp(`.{1,${size}}`, 'g'))?.join(' ') ?? '';
