import Decimal from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AMOUNT_FORMAT_MESSAGE,
  AMOUNT_NEGATIVE_MESSAGE,
  AMOUNT_REQUIRED_MESSAGE,
  formatAmount,
  formatAmountOrText,
  formatBase,
  formatChange,
  formatMoney,
  formatMoneyOrText,
  formatPercent,
  formatPrice,
  formatShare,
  formatValue,
  parseAmountInput,
} from './money';

/** Canonical decimal strings of any size: integer digits, optional fraction, no float in between. */
const digits = (min: number, max: number) =>
  fc.array(fc.constantFrom(...'0123456789'), { minLength: min, maxLength: max }).map((d) => d.join(''));
const decimalText = fc
  .tuple(fc.boolean(), digits(1, 25), digits(0, 20))
  .map(([negative, integer, fraction]) => `${negative ? '-' : ''}${integer}${fraction === '' ? '' : `.${fraction}`}`);
const canonical = (text: string): string => {
  const d = new Decimal(text);
  return d.isZero() ? '0' : d.toFixed();
};

describe('formatMoney', () => {
  it('groups thousands and always writes the unit', () => {
    expect(formatMoney('1000', 'USDT')).toBe('1,000 USDT');
    expect(formatMoney('1000000', 'USDT')).toBe('1,000,000 USDT');
    expect(formatMoney('248673.5', 'USDT')).toBe('248,673.5 USDT');
    expect(formatMoney('64000000000', 'USDT')).toBe('64,000,000,000 USDT');
    expect(formatMoney('0.5', 'BTC')).toBe('0.5 BTC');
  });

  it('uses the precision it is given (truncating unless told otherwise)', () => {
    expect(formatMoney('1.999', 'USDT', { precision: 2 })).toBe('1.99 USDT');
    expect(formatMoney('1.999', 'USDT', { precision: 2, rounding: 'half-up' })).toBe('2.00 USDT');
    expect(formatMoney('5', 'BTC', { precision: 4 })).toBe('5.0000 BTC');
  });

  it('rounds an estimate to the currency precision, never more decimals', () => {
    expect(formatMoney('0.00000000048425587', 'BTC', { estimate: true })).toBe('< 0.00000001 BTC');
    expect(formatMoney('0.048425587', 'BTC', { estimate: true })).toBe('≈ 0.04842559 BTC');
    expect(formatMoney('12.5', 'USDT', { estimate: true })).toBe('≈ 12.5 USDT');
    expect(formatMoney('1234.56789', 'USDT', { estimate: true, precision: 2 })).toBe('≈ 1,234.57 USDT');
    expect(formatMoney('0', 'BTC', { estimate: true })).toBe('≈ 0 BTC');
    expect(formatMoney('0.0001', 'USDT', { estimate: true, precision: 2 })).toBe('< 0.01 USDT');
  });

  it('signs on request, never on zero', () => {
    expect(formatMoney('3', 'USDT', { sign: true })).toBe('+3 USDT');
    expect(formatMoney('-3', 'USDT', { sign: true })).toBe('-3 USDT');
    expect(formatMoney('0', 'USDT', { sign: true })).toBe('0 USDT');
    expect(formatMoney('-0.001', 'USDT', { precision: 2 })).toBe('0.00 USDT');
  });

  it('takes a Decimal as well as a string', () => {
    expect(formatMoney(new Decimal('1234.5'), 'USDT')).toBe('1,234.5 USDT');
  });

  it.each(['', 'abc', '1e5', '1,000', 'NaN', 'Infinity', '1.2.3'])('refuses “%s”', (value) => {
    expect(() => formatMoney(value, 'USDT')).toThrow(RangeError);
  });

  it('shows an odd platform text as it came, with the unit', () => {
    expect(formatMoneyOrText('1000', 'USDT')).toBe('1,000 USDT');
    expect(formatMoneyOrText('n/a', 'USDT')).toBe('n/a USDT');
    // A pair that never traded has empty ticker fields: no lone unit on screen.
    expect(formatMoneyOrText('', 'USDT')).toBe('—');
    expect(formatAmountOrText('117119450.3366079', { precision: 2 })).toBe('117,119,450.33');
  });

  it('formats ratios as percentages', () => {
    expect(formatPercent('0.125')).toBe('12.5%');
    expect(formatPercent('0.002')).toBe('0.2%');
    expect(formatPercent('0.00125')).toBe('0.13%');
  });

  it('writes a share of a whole with one decimal, and none of nothing', () => {
    expect(formatShare('25', '200')).toBe('12.5%');
    expect(formatShare('1', '3')).toBe('33.3%');
    expect(formatShare('1', '0')).toBe('—');
  });

  it('writes a change signed with two decimals, zero without a sign', () => {
    expect(formatChange('1.37')).toBe('+1.37%');
    expect(formatChange('-0.8')).toBe('-0.80%');
    expect(formatChange('0')).toBe('0.00%');
  });

  it('writes a computed value at its currency’s display precision, without trailing zeros', () => {
    expect(formatValue('650.001', 'USDT')).toBe('650 USDT');
    expect(formatValue('349349.999', 'USDT')).toBe('349,350 USDT');
    expect(formatValue('604756.05', 'USDT')).toBe('604,756.05 USDT');
    expect(formatValue('2.850000001', 'BTC')).toBe('2.85 BTC');
  });

  it('writes a price at the pair’s tick and a base amount at most at its amount decimals', () => {
    const pair = { precision: 1, amountPrecision: 6, quote: 'USDT', base: 'BTC' };
    expect(formatPrice('65052', pair)).toBe('65,052.0');
    expect(formatPrice('64974.55', pair)).toBe('64,974.6');
    expect(formatPrice('64974.5', pair, { unit: true })).toBe('64,974.5 USDT');
    expect(formatBase('0.41200000', pair)).toBe('0.412');
    expect(formatBase('0.1234567', pair, { unit: true })).toBe('0.123456 BTC');
    expect(formatBase('5', pair)).toBe('5');
  });

  it('property: never a float artifact — the digits are exactly the input’s', () => {
    fc.assert(
      fc.property(decimalText, (text) => {
        const shown = formatAmount(text);
        expect(shown.replace(/,/g, '')).toBe(canonical(text));
        expect(shown).not.toMatch(/e|Infinity|NaN/);
      }),
    );
  });

  it('property: groups of three after the first, commas only in the integer part', () => {
    fc.assert(
      fc.property(decimalText, fc.string({ minLength: 1, maxLength: 6 }), (text, currency) => {
        const shown = formatMoney(text, currency.replace(/\s/g, 'X'));
        const [number = ''] = shown.split(' ');
        const [integer = '', fraction] = number.replace(/^-/, '').split('.');
        expect(integer).toMatch(/^\d{1,3}(,\d{3})*$/);
        if (fraction !== undefined) expect(fraction).toMatch(/^\d+$/);
        expect(shown.endsWith(` ${currency.replace(/\s/g, 'X')}`)).toBe(true);
      }),
    );
  });

  it('property: an estimate has at most the precision’s decimals and is within half a unit', () => {
    fc.assert(
      fc.property(decimalText, fc.integer({ min: 0, max: 12 }), (text, precision) => {
        const shown = formatMoney(text, 'BTC', { estimate: true, precision });
        const number = shown.replace(/^(≈|<|> ) ?/, '').replace(/ BTC$/, '');
        const fraction = number.split('.')[1] ?? '';
        expect(fraction.length).toBeLessThanOrEqual(precision);
        if (shown.startsWith('≈')) {
          const diff = new Decimal(number.replace(/,/g, '')).minus(text).abs();
          expect(diff.lte(new Decimal(10).pow(-precision).div(2))).toBe(true);
        }
      }),
    );
  });
});

describe('parseAmountInput', () => {
  it.each([
    ['1000', '1000'],
    ['1,000', '1000'],
    ['1 000', '1000'],
    ['1,000.5', '1000.5'],
    ['1,000,000.25', '1000000.25'],
    ['.5', '0.5'],
    ['100.', '100'],
    ['1.50', '1.5'],
    ['007', '7'],
    ['0', '0'],
    ['0.000', '0'],
    ['  12.5\n', '12.5'],
    ['1\u00a0000', '1000'],
    ['1\u2009000\u202f000', '1000000'],
    ['\u200b42\ufeff', '42'],
    ['0.123 456', '0.123456'],
    ['+5', '5'],
    ['1, 000', '1000'],
  ])('reads “%s” as %s', (typed, value) => {
    expect(parseAmountInput(typed)).toEqual({ ok: true, value });
  });

  it.each([
    '1,5',
    '1.000,5',
    '1,00',
    '1,0000',
    '0,500',
    ',5',
    '1..5',
    '1.2.3',
    '.',
    '12 34',
    '1e5',
    '12abc',
    'USDT 5',
    '0x10',
    '∞',
    '1.5,000',
  ])('refuses “%s” with the one message', (typed) => {
    expect(parseAmountInput(typed)).toEqual({ ok: false, message: AMOUNT_FORMAT_MESSAGE });
  });

  it('says empty and negative plainly', () => {
    expect(parseAmountInput('  ')).toEqual({ ok: false, message: AMOUNT_REQUIRED_MESSAGE, empty: true });
    expect(parseAmountInput('-5')).toEqual({ ok: false, message: AMOUNT_NEGATIVE_MESSAGE });
    expect(parseAmountInput('\u22125')).toEqual({ ok: false, message: AMOUNT_NEGATIVE_MESSAGE });
    expect(parseAmountInput('-1,000.5', { allowNegative: true })).toEqual({ ok: true, value: '-1000.5' });
    expect(parseAmountInput('-0')).toEqual({ ok: true, value: '0' });
  });

  it('property: format → parse gives back the canonical value', () => {
    fc.assert(
      fc.property(decimalText, (text) => {
        expect(parseAmountInput(formatAmount(text), { allowNegative: true })).toEqual({
          ok: true,
          value: canonical(text),
        });
      }),
    );
  });

  it('property: pasted whitespace around and between thousands changes nothing', () => {
    const space = fc.constantFrom(' ', '\u00a0', '\u2009', '\u202f', '\t', '\n');
    fc.assert(
      fc.property(decimalText, space, space, (text, before, after) => {
        const positive = text.replace(/^-/, '');
        const spaced = formatAmount(positive).replace(/,/g, before);
        expect(parseAmountInput(`${before}${spaced}${after}`)).toEqual({ ok: true, value: canonical(positive) });
      }),
    );
  });

  it('property: the value is always a canonical decimal string, or one clear refusal', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12, unit: fc.constantFrom(...'0123456789.,- a') }), (typed) => {
        const parsed = parseAmountInput(typed, { allowNegative: true });
        if (parsed.ok) expect(parsed.value).toBe(canonical(parsed.value));
        else expect([AMOUNT_FORMAT_MESSAGE, AMOUNT_REQUIRED_MESSAGE]).toContain(parsed.message);
      }),
    );
  });
});
