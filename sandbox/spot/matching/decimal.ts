// Exact conversion between the API's decimal strings and the engine's scaled integers.

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

export type ParseFailure = 'format' | 'precision';

/**
 * Parses a non-negative decimal string into an integer of 10^-scale units.
 * Trailing zeros beyond the scale are accepted ("1.50" at scale 1); any other extra digit is a
 * precision failure, anything that is not a plain decimal (signs, exponents, spaces) a format failure.
 */
export function parseScaled(text: string, scale: number): bigint | ParseFailure {
  const m = DECIMAL.exec(text);
  if (m === null) return 'format';
  const whole = m[1]!;
  let frac = m[2] ?? '';
  if (frac.length > scale) {
    if (!/^0*$/.test(frac.slice(scale))) return 'precision';
    frac = frac.slice(0, scale);
  }
  return BigInt(whole + frac.padEnd(scale, '0'));
}

/** Formats an integer of 10^-scale units as a decimal string without trailing zeros. */
export function formatScaled(value: bigint, scale: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString();
  if (scale === 0) return (negative ? '-' : '') + digits;
  const padded = digits.padStart(scale + 1, '0');
  const whole = padded.slice(0, padded.length - scale);
  const frac = padded.slice(padded.length - scale).replace(/0+$/, '');
  return (negative ? '-' : '') + (frac === '' ? whole : `${whole}.${frac}`);
}

/** Rescales an integer from one scale to a larger one (exact). */
export function rescaleUp(value: bigint, from: number, to: number): bigint {
  return value * 10n ** BigInt(to - from);
}
