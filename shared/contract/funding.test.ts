import { describe, expect, it } from 'vitest';
import {
  amountProblem,
  type CurrencyChainInfo,
  feeFor,
  needsTypedConfirmation,
  quote,
  typedAmountMatches,
  type WithdrawRules,
} from './funding';

const rules: WithdrawRules = {
  currency: 'USDT',
  feeFixed: '1',
  feePercent: '0',
  feeFixedOnChains: { TRX: '0.8', ETH: '3.5' },
  feePercentOnChains: { TRX: '0.1' },
  dayLimit: '10000',
  dayLimitRemaining: '2500',
  minAmount: '10',
  maxPerWithdrawal: '2000',
};
const trx: CurrencyChainInfo = {
  chain: 'TRX',
  nameEn: 'Tron',
  nameCn: '',
  disabled: false,
  depositDisabled: false,
  withdrawDisabled: false,
  decimals: 6,
  usesMemo: false,
};

describe('withdrawal quote', () => {
  it('adds the per-chain fixed fee and percentage exactly (no float drift)', () => {
    // 0.8 + 0.1% of 100.1 = 0.9001
    expect(feeFor(rules, 'TRX', '100.1', 6)).toBe('0.9001');
    expect(quote(rules, 'TRX', '100.1', 6, 'added')).toEqual({ fee: '0.9001', net: '100.1', debit: '101.0001' });
    expect(quote(rules, 'TRX', '100.1', 6, 'deducted')).toEqual({ fee: '0.9001', net: '99.1999', debit: '100.1' });
  });

  it('falls back to the currency fee and rounds the fee up to the chain precision', () => {
    expect(feeFor(rules, 'BSC', '50')).toBe('1');
    expect(feeFor({ ...rules, feePercent: '0.3333' }, 'BSC', '1', 2)).toBe('1.01');
  });
});

describe('amount rules before sending', () => {
  const check = (amount: string, available = '5000') => amountProblem({ amount, rules, chain: trx, available });

  it('accepts an amount inside every limit', () => {
    expect(check('100')).toBeUndefined();
  });

  it('stops format, precision, minimum, per-withdrawal, daily and balance problems with the number in words', () => {
    expect(check('')).toBe('Enter an amount.');
    expect(check('1e3')).toMatch(/digits/);
    expect(check('-5')).toMatch(/digits/);
    expect(check('0')).toMatch(/more than zero/);
    expect(check('10.1234567')).toMatch(/at most 6 digits/);
    expect(check('9.99')).toBe('The minimum withdrawal is 10 USDT.');
    expect(check('2000.01')).toBe('At most 2,000 USDT per withdrawal.');
    expect(amountProblem({ amount: '1999', rules: { ...rules, dayLimitRemaining: '1500' }, chain: trx })).toBe(
      "Only 1,500 USDT of today's limit remains.",
    );
    expect(check('100', '100.5')).toMatch(/needs 100.9 USDT \(amount \+ fee\) and 100.5 USDT is available/);
  });

  it('rejects an amount that does not cover the fee when the fee is deducted', () => {
    expect(amountProblem({ amount: '0.5', rules: { ...rules, minAmount: '0' }, chain: trx, mode: 'deducted' })).toMatch(
      /does not cover the fee/,
    );
  });
});

describe('typed confirmation', () => {
  it('is required above the currency threshold and for currencies without one', () => {
    expect(needsTypedConfirmation('100', 'USDT', { USDT: '1000' })).toBe(false);
    expect(needsTypedConfirmation('1000.01', 'USDT', { USDT: '1000' })).toBe(true);
    expect(needsTypedConfirmation('0.001', 'BTC', { USDT: '1000' })).toBe(true);
  });

  it('matches the same number only', () => {
    expect(typedAmountMatches('1,500.50', '1500.5')).toBe(true);
    expect(typedAmountMatches('1500', '1500.5')).toBe(false);
    expect(typedAmountMatches('abc', '1')).toBe(false);
  });
});
