import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../../../shared/contract/policies';
import type { Ticker } from '../../../../shared/contract/trade';
import { approvalReasons } from './approvalForecast';

const policy = { ...DEFAULT_POLICY, approval: { ...DEFAULT_POLICY.approval, aboveUsdt: '50', newDestination: true } };
const tickers = [{ pair: 'BTC_USDT', last: '65000' }] as Ticker[];

describe('approvalReasons', () => {
  it('says before Send that an amount above the threshold, or a new destination, waits for approval', () => {
    expect(approvalReasons({ policy, tickers, currency: 'USDT', amount: '100', newDestination: false })).toEqual([
      'Above 50 USDT.',
    ]);
    expect(approvalReasons({ policy, tickers, currency: 'BTC', amount: '0.001', newDestination: true })).toEqual([
      'Worth about 65 USDT, above 50 USDT.',
      'A new destination.',
    ]);
    expect(approvalReasons({ policy, tickers, currency: 'USDT', amount: '50', newDestination: false })).toEqual([]);
    expect(
      approvalReasons({ policy: undefined, tickers, currency: 'USDT', amount: '100', newDestination: true }),
    ).toEqual([]);
  });
});
