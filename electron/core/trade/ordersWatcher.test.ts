import { describe, expect, it } from 'vitest';
import { classifyChange } from './ordersWatcher';

const seen = (orders: [string, string][], balances = 'BTC:1|0,USDT:100|0') => ({ orders: new Map(orders), balances });

describe('classifyChange', () => {
  it('reports a fill when an open order vanished or shrank', () => {
    expect(classifyChange(seen([['1', '0.5']]), seen([]))).toBe('filled');
    expect(classifyChange(seen([['1', '0.5']]), seen([['1', '0.2']]))).toBe('filled');
  });

  it('reports a new order as placed', () => {
    expect(classifyChange(seen([]), seen([['2', '1']]))).toBe('placed');
  });

  it('catches an order placed and filled between two polls through the balances', () => {
    expect(classifyChange(seen([]), seen([], 'BTC:1.01|0,USDT:35|0'))).toBe('filled');
  });

  it('reports nothing when nothing changed', () => {
    expect(classifyChange(seen([['1', '0.5']]), seen([['1', '0.5']]))).toBeUndefined();
  });
});
