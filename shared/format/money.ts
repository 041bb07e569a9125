/**
 * Money as people read and type it — the one formatter and the one parser (docs/architecture.md,
 * "Amounts"). Amounts stay decimal strings end to end and are handled with decimal.js, never
 * through a JS number (a float silently changes digits).
 *
 *   formatMoney('1000', 'USDT')                       → "1,000 USDT"
 *   formatMoney('0.00000000048', 'BTC', { estimate }) → "< 0.00000001 BTC"
 *   parseAmountInput(' 1 000,5 ')                      → { ok: false, message: AMOUNT_FORMAT_MESSAGE }
 *   parseAmountInput('1,000.50')                       → { ok: true, value: '1000.5' }
 *
 * Pure: no DOM, no Node — main and the renderer write amounts the same way.
 */
import Decimal from 'decimal.js';

/** A plain decimal string: optional sign, digits, optional fraction. No exponent, no separators. */
const DECIMAL_RE = /^[+-]?(\d+\.?\d*|\.\d+)$/;

export const isDecimalString = (value: string): boolean => DECIMAL_RE.test(value.trim());

/** Number of digits after the point of a decimal string as written ("1.2300" → 4). */
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
  /** Drop the zeros that end the fraction after rounding to `precision` ("650.00" → "650"). */
  readonly trim?: boolean;
  /** Truncation by default: never show more than there is. */
  readonly rounding?: Rounding;
  /** Thousands separators in the integer part (default true). */
  readonly grouping?: boolean;
  /** Prefix positive values with "+" (for changes and PnL). */
  readonly sign?: boolean;
}

export interface MoneyFormat extends AmountFormat {
  /**
   * A computed estimate (a fee preview, a value in another currency): shown as "≈ x" rounded half-up
   * to `precision` (default: the currency's, see currencyPrecision) without padding zeros, or as
   * "< smallest unit" when it is above zero but rounds to nothing. Never more decimals than that.
   */
  readonly estimate?: boolean;
}

/**
 * Display precision of a currency for a value the app computes in it (a total, a value in the
 * quote, an estimate) when neither the platform (a chain's decimals, a pair's precision) nor the
 * caller states one: cents for the dollar-like currencies, 8 decimals (a satoshi) otherwise.
 */
const KNOWN_PRECISION: Readonly<Record<string, number>> = {
  BTC: 8,
  ETH: 8,
  USDT: 2,
  USDC: 2,
  USD: 2,
  EUR: 2,
  CNY: 2,
  GT: 8,
};
export const DEFAULT_PRECISION = 8;

export const currencyPrecision = (currency: string): number => KNOWN_PRECISION[currency] ?? DEFAULT_PRECISION;

const group = (integer: string): string => integer.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** "650.00" → "650", "0.50" → "0.5". */
const trimZeros = (fixed: string): string => (fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed);

const toDecimal = (value: string | Decimal): Decimal => {
  if (Decimal.isDecimal(value)) {
    if (!value.isFinite()) throw new RangeError(`Not a decimal amount: “${value.toString()}”`);
    return value;
  }
  const text = value.trim();
  if (!isDecimalString(text)) throw new RangeError(`Not a decimal amount: “${value}”`);
  return new Decimal(text);
};

/** Groups and signs an already fixed decimal text ("-1234.50" → "-1,234.50"). */
const present = (fixed: string, format: AmountFormat): string => {
  const negative = fixed.startsWith('-');
  const unsigned = negative ? fixed.slice(1) : fixed;
  const [integer = '0', fraction] = unsigned.split('.');
  const body = ((format.grouping ?? true) ? group(integer) : integer) + (fraction === undefined ? '' : `.${fraction}`);
  // "-0.00" after rounding a tiny negative is shown as "0.00": a sign on zero misleads.
  const isZero = /^[0.]*$/.test(unsigned);
  if (negative && !isZero) return `-${body}`;
  if (format.sign && !isZero) return `+${body}`;
  return body;
};

/**
 * The number alone, e.g. formatAmount('1234567.891', { precision: 2 }) → "1,234,567.89". For a
 * table cell whose row names the currency, and for counts; anything else shown to a person is
 * formatMoney. Throws RangeError on anything that is not a plain decimal string: a malformed amount
 * is a bug to see, not a number to guess.
 */
export const formatAmount = (value: string | Decimal, format: AmountFormat = {}): string => {
  const decimal = toDecimal(value);
  const fixed =
    format.precision === undefined
      ? decimal.toFixed()
      : decimal.toFixed(format.precision, ROUNDING[format.rounding ?? 'down']);
  return present(format.trim ? trimZeros(fixed) : fixed, format);
};

/**
 * An amount with its unit, always: formatMoney('248673.5', 'USDT') → "248,673.5 USDT". With
 * `estimate`, "≈ 0.04842559 BTC" or "< 0.00000001 BTC" (see MoneyFormat).
 */
export const formatMoney = (amount: string | Decimal, currency: string, format: MoneyFormat = {}): string => {
  const unit = currency === '' ? '' : ` ${currency}`;
  if (!format.estimate) return `${formatAmount(amount, format)}${unit}`;
  const precision = format.precision ?? currencyPrecision(currency);
  const decimal = toDecimal(amount);
  const rounded = decimal.toDecimalPlaces(precision, ROUNDING[format.rounding ?? 'half-up']);
  if (rounded.isZero() && !decimal.isZero()) {
    const smallest = new Decimal(10).pow(-precision).toFixed(precision);
    return `${decimal.isNegative() ? '> -' : '< '}${smallest}${unit}`;
  }
  return `≈ ${present(rounded.toFixed(), format)}${unit}`;
};

/**
 * For a platform text shown as information (an event's amount, a ticker's volume): formatted when
 * it is a decimal string, else shown as it came — a notice must not fail over one odd field.
 */
export const formatAmountOrText = (value: string, format: AmountFormat = {}): string =>
  isDecimalString(value) ? formatAmount(value, format) : value;

/**
 * formatMoney for a platform text that may not be a decimal (then shown as it came, with its unit).
 * An empty field (a ticker of a pair that never traded) is "—", never a lone unit.
 */
export const formatMoneyOrText = (value: string, currency: string, format: MoneyFormat = {}): string =>
  isDecimalString(value)
    ? formatMoney(value, currency, format)
    : value.trim() === ''
      ? '—'
      : `${value}${currency === '' ? '' : ` ${currency}`}`;

/** "12.5%" from a ratio string ("0.125", a fee rate "0.002" → "0.2%"): at most `precision` decimals. */
export const formatPercent = (ratio: string, precision = 2): string =>
  `${formatAmount(new Decimal(ratio).times(100).toFixed(), { precision, rounding: 'half-up', trim: true })}%`;

/** The share of `part` in `whole`, as a percentage with one decimal ("12.3%"); "—" when the whole is zero. */
export const formatShare = (part: string | Decimal, whole: string | Decimal): string => {
  const total = toDecimal(whole);
  return total.isZero() ? '—' : formatPercent(toDecimal(part).div(total).toFixed(), 1);
};

/**
 * A change already in percent ("1.37" → "+1.37%", "-0.8" → "-0.80%"): signed, two decimals, so a
 * column of changes lines up. Zero is "0.00%", never a green "+0%".
 */
export const formatChange = (percent: string | Decimal): string =>
  `${formatAmount(percent, { precision: 2, rounding: 'half-up', sign: true })}%`;

/**
 * A value the app computed in a currency (a total, a holding's value in the quote, price × amount):
 * rounded to the currency's display precision (currencyPrecision), without trailing zeros, with
 * its unit — "650 USDT", "604,756.05 USDT", "2.85 BTC". Never more digits than a person can use.
 */
/** How a value computed in `currency` is written (formatValue's format, for a table column's <Amount>). */
export const valueFormat = (currency: string): AmountFormat => ({
  precision: currencyPrecision(currency),
  rounding: 'half-up',
  trim: true,
});

export const formatValue = (
  value: string | Decimal,
  currency: string,
  options: { readonly unit?: boolean } = {},
): string => {
  const text = formatAmount(value, valueFormat(currency));
  return (options.unit ?? true) && currency !== '' ? `${text} ${currency}` : text;
};

/** What a price is written with: the pair's tick (its price decimals) and its quote currency. */
export interface PriceScale {
  readonly precision: number;
  readonly quote: string;
}

/**
 * A price at the pair's tick, every decimal written ("64,974.5", "0.16244", "3,481.20"): the book,
 * the header, the trades, the orders, the chart's axis and every message write a price the same
 * way. A computed price (a mid, an average) is rounded half-up to the tick. With `unit`, the quote
 * follows ("64,974.5 USDT").
 */
export const formatPrice = (
  price: string | Decimal,
  pair: PriceScale,
  options: { readonly unit?: boolean } = {},
): string => {
  const text = formatAmount(price, { precision: pair.precision, rounding: 'half-up' });
  return options.unit ? `${text} ${pair.quote}` : text;
};

/** What an amount of a pair's base currency is written with: its amount decimals. */
export interface AmountScale {
  readonly amountPrecision: number;
  readonly base: string;
}

/**
 * An amount of the pair's base currency ("0.412", "2.35"): at most the pair's amount decimals
 * (truncated: never more than there is), without trailing zeros — in a table column the decimals
 * line up with invisible padding (<Amount alignTo>), not with zeros in the text. With `unit`, the
 * base follows ("0.412 BTC").
 */
export const formatBase = (
  amount: string | Decimal,
  pair: AmountScale,
  options: { readonly unit?: boolean } = {},
): string => {
  const text = formatAmount(amount, { precision: pair.amountPrecision, trim: true });
  return options.unit ? `${text} ${pair.base}` : text;
};

// ---------- Parsing what people type ----------

/** The one message for an amount that cannot be read without guessing. */
export const AMOUNT_FORMAT_MESSAGE =
  'Write the amount with digits and at most one decimal point, e.g. 1,000.5 (commas or spaces only between thousands).';
export const AMOUNT_REQUIRED_MESSAGE = 'Enter an amount.';
export const AMOUNT_NEGATIVE_MESSAGE = 'The amount cannot be negative.';

export type ParsedAmount =
  | { readonly ok: true; readonly value: string }
  | { readonly ok: false; readonly message: string; readonly empty?: true };

// Whitespace of every kind a paste brings (\s covers NBSP, thin, narrow and figure spaces, BOM),
// plus the zero-width characters, which \s does not.
const SPACES = /[\s\u200B-\u200D\u2060]+/g;
const SIGNS = /^[-+\u2212]/;

/**
 * Reads a typed or pasted amount into a canonical decimal string ("1,000.50" → "1000.5",
 * ".5" → "0.5", "100." → "100", " 1 000 " → "1000"). Accepts commas and spaces between thousands
 * only; refuses, with AMOUNT_FORMAT_MESSAGE, what could be read two ways ("1,5", "1.000,5", "1,00"),
 * several points, letters and exponents. Precision and limits are the caller's (the currency's,
 * the pair's, the chain's) to check on the canonical value.
 */
export const parseAmountInput = (text: string, options: { readonly allowNegative?: boolean } = {}): ParsedAmount => {
  const trimmed = text.replace(/^[\s\u200B-\u200D\u2060]+|[\s\u200B-\u200D\u2060]+$/g, '');
  if (trimmed === '') return { ok: false, message: AMOUNT_REQUIRED_MESSAGE, empty: true };
  const signChar = SIGNS.exec(trimmed)?.[0];
  const negative = signChar !== undefined && signChar !== '+';
  const body = (signChar === undefined ? trimmed : trimmed.slice(1)).replace(/^[\s\u200B-\u200D\u2060]+/, '');
  if (!/^[\d.,\s\u200B-\u200D\u2060]+$/.test(body)) return { ok: false, message: AMOUNT_FORMAT_MESSAGE };
  const parts = body.split('.');
  if (parts.length > 2) return { ok: false, message: AMOUNT_FORMAT_MESSAGE };
  const [integerText = '', fractionText = ''] = parts;
  // Separators (a comma, a run of spaces, or a comma with spaces around it) only between thousands.
  const groups = integerText
    .replace(SPACES, ' ')
    .trim()
    .split(/ ?, ?| /);
  const grouped = groups.length > 1;
  // "0,500" is not five hundred: a grouped number never starts with 0.
  if (grouped && !groups.every((g, i) => (i === 0 ? /^[1-9]\d{0,2}$/.test(g) : /^\d{3}$/.test(g)))) {
    return { ok: false, message: AMOUNT_FORMAT_MESSAGE };
  }
  const integer = groups.join('');
  // Digits after the point may be spaced ("0.123 456") but never hold a comma.
  const fraction = fractionText.replace(SPACES, '');
  if (!/^\d*$/.test(integer) || !/^\d*$/.test(fraction) || (integer === '' && fraction === '')) {
    return { ok: false, message: AMOUNT_FORMAT_MESSAGE };
  }
  const value = new Decimal(`${integer === '' ? '0' : integer}.${fraction === '' ? '0' : fraction}`);
  if (negative && !value.isZero() && !options.allowNegative) return { ok: false, message: AMOUNT_NEGATIVE_MESSAGE };
  if (value.isZero()) return { ok: true, value: '0' };
  return { ok: true, value: (negative ? value.neg() : value).toFixed() };
};
