import { describe, expect, it } from 'vitest';
import {
  decimalPlaces,
  formatAmount,
  formatAmountOrText,
  formatPercent,
  formatTime,
  isDecimalString,
  zoneLabel,
} from './format';

describe('formatAmount', () => {
  it('groups thousands and keeps every digit of the string', () => {
    expect(formatAmount('1234567.891')).toBe('1,234,567.891');
    expect(formatAmount('12345678901234567890.123456789012345678')).toBe(
      '12,345,678,901,234,567,890.123456789012345678',
    );
    expect(formatAmount('0.1')).toBe('0.1');
  });

  it('truncates to the precision by default (never shows more than there is)', () => {
    expect(formatAmount('1.999', { precision: 2 })).toBe('1.99');
    expect(formatAmount('1.999', { precision: 2, rounding: 'half-up' })).toBe('2.00');
    expect(formatAmount('5', { precision: 4 })).toBe('5.0000');
    expect(formatAmount('0.1', { precision: 0 })).toBe('0');
  });

  it('does not go through a float', () => {
    // 0.1 + 0.2 style errors and 2^53 limits would show here.
    expect(formatAmount('9007199254740993')).toBe('9,007,199,254,740,993');
    expect(formatAmount('0.30000000000000000001', { precision: 20 })).toBe('0.30000000000000000001');
  });

  it('signs: negative shown, zero never signed, + on request', () => {
    expect(formatAmount('-1234.5')).toBe('-1,234.5');
    expect(formatAmount('-0.001', { precision: 2 })).toBe('0.00');
    expect(formatAmount('3', { sign: true })).toBe('+3');
    expect(formatAmount('0', { sign: true })).toBe('0');
  });

  it('can leave out grouping', () => {
    expect(formatAmount('1234567', { grouping: false })).toBe('1234567');
  });

  it.each(['', 'abc', '1e5', '1,000', 'NaN', 'Infinity', '1.2.3'])('refuses “%s”', (value) => {
    expect(() => formatAmount(value)).toThrow(RangeError);
  });

  it('formats ratios as percentages', () => {
    expect(formatPercent('0.125')).toBe('12.5%');
    expect(formatPercent('0.00015', 3)).toBe('0.015%');
  });
});

describe('decimal helpers', () => {
  it('recognise plain decimals only', () => {
    expect(isDecimalString('10.5')).toBe(true);
    expect(isDecimalString('.5')).toBe(true);
    expect(isDecimalString('5.')).toBe(true);
    expect(isDecimalString('1e3')).toBe(false);
    expect(decimalPlaces('1.2300')).toBe(4);
    expect(decimalPlaces('12')).toBe(0);
  });
});

describe('formatTime', () => {
  const instant = Date.UTC(2026, 0, 2, 20, 4, 5); // 2026-01-02 20:04:05 UTC

  it('shows UTC and UTC+8 (crossing midnight into the next day)', () => {
    expect(formatTime(instant, 'UTC')).toBe('2026-01-02 20:04:05');
    expect(formatTime(instant, 'UTC+8')).toBe('2026-01-03 04:04:05');
    expect(formatTime(instant, 'UTC+8', { withZone: true })).toBe('2026-01-03 04:04:05 UTC+8');
    expect(formatTime(instant, 'UTC', { timeOnly: true })).toBe('20:04:05');
  });

  it('labels the local zone by its offset at that instant', () => {
    expect(zoneLabel('local', instant)).toMatch(/^UTC([+-]\d{2}:\d{2})?$/);
    expect(formatTime(instant, 'local', { withZone: true })).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/);
  });

  it('refuses a non-time', () => {
    expect(() => formatTime(Number.NaN, 'UTC')).toThrow(RangeError);
  });
});

describe('formatAmountOrText', () => {
  it('formats a decimal string and shows anything else as it came', () => {
    expect(formatAmountOrText('117119450.3366079', { precision: 2 })).toBe('117,119,450.33');
    expect(formatAmountOrText('-12.5')).toBe('-12.5');
    expect(formatAmountOrText('n/a')).toBe('n/a');
  });
});
