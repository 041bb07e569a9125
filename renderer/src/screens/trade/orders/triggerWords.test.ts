import { describe, expect, it } from 'vitest';
import { describeTriggerOrder, triggerStateWords } from './triggerWords';

const units = { base: 'BTC', quote: 'USDT' };

describe('trigger words', () => {
  it('says the order a trigger places', () => {
    expect(describeTriggerOrder({ side: 'sell', type: 'limit', price: '59900', amount: '0.01' }, units)).toBe(
      'Sell 0.01 BTC at 59,900 USDT',
    );
    expect(describeTriggerOrder({ side: 'buy', type: 'market', price: '', amount: '100' }, units)).toBe(
      'Buy with 100 USDT at market',
    );
  });

  it('says where a trigger stands', () => {
    expect(triggerStateWords({ status: 'open', firedOrderId: null, reason: '' })).toBe('is waiting');
    expect(triggerStateWords({ status: 'fired', firedOrderId: '42', reason: '' })).toBe('fired: order 42 placed');
    expect(triggerStateWords({ status: 'failed', firedOrderId: null, reason: 'BALANCE_NOT_ENOUGH: x' })).toBe(
      'failed: not enough balance when it fired',
    );
    expect(triggerStateWords({ status: 'cancelled', firedOrderId: null, reason: '' })).toBe('was cancelled');
  });
});
