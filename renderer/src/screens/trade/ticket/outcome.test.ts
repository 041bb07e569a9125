import { describe, expect, it } from 'vitest';
import type { Order } from '../../../../../shared/contract/trade';
import { describeOutcome, outcomeTone } from './outcome';

const order = (over: Partial<Order>): Order => ({
  id: '1',
  text: 't-x',
  pair: 'BTC_USDT',
  side: 'buy',
  type: 'limit',
  price: '65000',
  amount: '0.5',
  left: '0.5',
  filledAmount: '0',
  filledTotal: '0',
  avgDealPrice: '0',
  fee: '0',
  feeCurrency: 'BTC',
  timeInForce: 'gtc',
  status: 'open',
  finishAs: 'open',
  createTimeMs: 1,
  updateTimeMs: 1,
  ...over,
});

describe('describeOutcome', () => {
  it('says an IOC remainder was cancelled, with both amounts', () => {
    const text = describeOutcome(
      order({ status: 'cancelled', finishAs: 'ioc', filledAmount: '0.3', left: '0.2', timeInForce: 'ioc' }),
    );
    expect(text).toBe('Immediate-or-cancel: 0.3 BTC filled; the remaining 0.2 BTC was cancelled.');
  });

  it('explains a self-trade prevention cancel', () => {
    expect(describeOutcome(order({ status: 'cancelled', finishAs: 'stp' }))).toMatch(
      /^Self-trade prevention: .*STP group/,
    );
  });

  it('explains post-only and fill-or-kill refusals', () => {
    expect(describeOutcome(order({ status: 'cancelled', finishAs: 'poc' }))).toMatch(/would have traded at once/);
    expect(describeOutcome(order({ status: 'cancelled', finishAs: 'fok' }))).toMatch(/nothing traded/);
  });

  it('describes a resting and a partly filled order', () => {
    expect(describeOutcome(order({}))).toBe('Resting on the book: buy 0.5 BTC at 65,000 USDT.');
    expect(describeOutcome(order({ filledAmount: '0.1', left: '0.4' }))).toMatch(/Partly filled \(0.1 BTC\)/);
  });
});

describe('outcomeTone', () => {
  it('warns when the order ended at once with nothing traded, and only then', () => {
    expect(outcomeTone(order({ status: 'cancelled', finishAs: 'poc' }))).toBe('warn');
    expect(outcomeTone(order({ status: 'cancelled', finishAs: 'fok' }))).toBe('warn');
    expect(outcomeTone(order({ status: 'cancelled', finishAs: 'ioc' }))).toBe('warn');
    expect(outcomeTone(order({ status: 'cancelled', finishAs: 'ioc', filledAmount: '0.3', left: '0.2' }))).toBe('good');
    expect(outcomeTone(order({ status: 'closed', finishAs: 'filled', filledAmount: '0.5', left: '0' }))).toBe('good');
    expect(outcomeTone(order({}))).toBe('good');
  });
});
