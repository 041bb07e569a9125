/**
 * Stop and take-profit orders through the real core (dispatcher, zod contract, API client) against
 * an in-process sandbox over HTTP: the guards refuse before sending, a trigger is placed, listed,
 * fired by a crossing trade (its order appears among the open orders), and cancelled.
 */
import { describe, expect, it } from 'vitest';
import type { TriggerOrder } from '../../shared/contract/trade';
import { withSandboxCore } from '../testing/core';

// A fresh main account with spot USDT and BTC.
const { call, value } = withSandboxCore({ account: 'fresh', spot: { USDT: '10000', BTC: '1' } });

const stop = {
  pair: 'BTC_USDT',
  rule: '<=',
  triggerPrice: '30000',
  side: 'sell',
  type: 'limit',
  price: '29900',
  amount: '0.01',
  expiresInSeconds: 86_400,
  text: 't-stop-a',
};

describe('trade triggers against the sandbox', () => {
  it('refuses a trigger that breaks the order rules, or an order or trigger without its text, before anything is sent', async () => {
    const precise = await call('trade.placeTrigger', { ...stop, triggerPrice: '30000.25' });
    expect(precise).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', fields: { triggerPrice: expect.any(String) } },
    });
    const small = await call('trade.placeTrigger', { ...stop, amount: '0.00001' });
    expect(small).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    const badText = await call('trade.placeTrigger', { ...stop, text: 'no-prefix' });
    expect(badText).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    // Without its client id a lost answer could not be looked up: the contract asks for one.
    const { text: _, ...noText } = stop;
    const missing = await call('trade.placeTrigger', noText);
    expect(missing).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', fields: { text: expect.any(String) } },
    });
    expect(await value<TriggerOrder[]>('trade.triggerOrders', { status: 'open' })).toEqual([]);
  });

  it('places a stop-loss, fires it with a crossing trade, and cancels another', async () => {
    const placed = await value<TriggerOrder>('trade.placeTrigger', { ...stop, text: 't-stop-int' });
    expect(placed).toMatchObject({
      pair: 'BTC_USDT',
      rule: '<=',
      triggerPrice: '30000',
      side: 'sell',
      price: '29900',
      amount: '0.01',
      text: 't-stop-int',
      status: 'open',
      firedOrderId: null,
      finishTimeMs: null,
    });
    expect(placed.expiresAtMs - placed.createTimeMs).toBe(86_400_000);
    const other = await value<TriggerOrder>('trade.placeTrigger', {
      ...stop,
      rule: '>=',
      triggerPrice: '90000',
      price: '89000',
      text: 't-stop-b',
    });
    const open = await value<TriggerOrder[]>('trade.triggerOrders', { status: 'open', pair: 'BTC_USDT' });
    expect(open.map((t) => t.id)).toEqual([other.id, placed.id]);

    // The user trades with itself at 30000 (no STP group): the last price meets "<= 30000".
    await value('trade.placeOrder', {
      pair: 'BTC_USDT',
      side: 'buy',
      type: 'limit',
      price: '30000',
      amount: '0.001',
      timeInForce: 'gtc',
      text: 't-cross-buy',
    });
    await value('trade.placeOrder', {
      pair: 'BTC_USDT',
      side: 'sell',
      type: 'limit',
      price: '30000',
      amount: '0.001',
      timeInForce: 'ioc',
      text: 't-cross-sell',
    });

    const finished = await value<TriggerOrder[]>('trade.triggerOrders', { status: 'finished' });
    const fired = finished.find((t) => t.id === placed.id);
    expect(fired).toMatchObject({ status: 'fired', reason: '' });
    expect(fired?.firedOrderId).toMatch(/^\d+$/);
    const orders = await value<{ id: string; text: string; price: string }[]>('trade.openOrders', { pair: 'BTC_USDT' });
    expect(orders.find((o) => o.id === fired?.firedOrderId)).toMatchObject({ text: 't-stop-int', price: '29900' });

    const cancelled = await value<TriggerOrder>('trade.cancelTrigger', { id: other.id });
    expect(cancelled).toMatchObject({ id: other.id, status: 'cancelled' });
    const again = await call('trade.cancelTrigger', { id: other.id });
    expect(again).toMatchObject({ ok: false, error: { label: 'ORDER_CANCELLED' } });

    await value('trade.placeTrigger', { ...stop, rule: '>=', triggerPrice: '95000', price: '94000', text: 't-stop-c' });
    const all = await value<{ cancelled: TriggerOrder[] }>('trade.cancelAllTriggers', { pair: 'BTC_USDT' });
    expect(all.cancelled).toHaveLength(1);
    expect(await value<TriggerOrder[]>('trade.triggerOrders', { status: 'open' })).toEqual([]);
  });
});
