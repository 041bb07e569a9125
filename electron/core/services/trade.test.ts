import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/apiError';
import { DeskFailure } from '../errors';
import type { ServiceContext } from './context';
import { createTradeHandlers } from './trade';

const PAIR = {
  id: 'BTC_USDT',
  base: 'BTC',
  quote: 'USDT',
  precision: 1,
  amount_precision: 6,
  min_base_amount: '0.00001',
  min_quote_amount: '3',
  trade_status: 'tradable',
};

const placed = { id: '42', text: 't-desk-a', currency_pair: 'BTC_USDT', status: 'open', side: 'buy', amount: '0.01' };

const setup = (placeOrder: () => Promise<unknown>, getOrder: () => Promise<unknown> = async () => placed) => {
  const spot = {
    currencyPairs: vi.fn(async () => [PAIR]),
    placeOrder: vi.fn(placeOrder),
    getOrder: vi.fn(getOrder),
  };
  const settings = new Map<string, unknown>();
  const ctx = {
    emit: vi.fn(),
    platform: () => ({ spot }),
    onProfileChange: () => () => {},
    settings: {
      get: (k: string, d: unknown) => settings.get(k) ?? d,
      set: (k: string, v: unknown) => settings.set(k, v),
    },
    audit: { record: vi.fn() },
    activeProfile: () => undefined,
  } as unknown as ServiceContext;
  return { handlers: createTradeHandlers(ctx), spot, settings };
};

const order = {
  pair: 'BTC_USDT',
  side: 'buy' as const,
  type: 'limit' as const,
  price: '65000',
  amount: '0.01',
  timeInForce: 'gtc' as const,
  text: 't-desk-a',
};
const call = { operation: 'trade.placeOrder' };

const lost = () =>
  new ApiError({
    kind: 'interrupted',
    status: 0,
    label: 'NETWORK_INTERRUPTED',
    message: 'socket hang up',
    requestId: 'td-1',
    method: 'POST',
    path: '/spot/orders',
  });

describe('trade.placeOrder', () => {
  it('sends once with the client text id and account spot', async () => {
    const { handlers, spot } = setup(async () => placed);
    const result = await handlers.placeOrder(order, call);
    expect(result).toMatchObject({ id: '42', text: 't-desk-a' });
    expect(spot.placeOrder).toHaveBeenCalledTimes(1);
    expect(spot.placeOrder.mock.calls[0]).toEqual([
      {
        currency_pair: 'BTC_USDT',
        side: 'buy',
        type: 'limit',
        amount: '0.01',
        price: '65000',
        time_in_force: 'gtc',
        account: 'spot',
        text: 't-desk-a',
      },
    ]);
  });

  it('never resends when the answer is lost: it looks the order up by its text id', async () => {
    const { handlers, spot } = setup(async () => {
      throw lost();
    });
    const result = await handlers.placeOrder(order, call);
    expect(result.id).toBe('42');
    expect(spot.placeOrder).toHaveBeenCalledTimes(1);
    expect(spot.getOrder).toHaveBeenCalledWith('t-desk-a', { currency_pair: 'BTC_USDT' });
  });

  it('reports an unknown outcome when the lost order cannot be found, without resending', async () => {
    const { handlers, spot } = setup(
      async () => {
        throw lost();
      },
      async () => {
        throw new Error('not found');
      },
    );
    const failure = await handlers.placeOrder(order, call).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(DeskFailure);
    expect((failure as DeskFailure).detail).toMatchObject({ code: 'OUTCOME_UNKNOWN', requestId: 'td-1' });
    expect((failure as DeskFailure).detail.message).toContain('t-desk-a');
    expect(spot.placeOrder).toHaveBeenCalledTimes(1);
  });

  it('enforces the precision and the max notional again in main, sending nothing', async () => {
    const { handlers, spot, settings } = setup(async () => placed);
    const tooPrecise = await handlers.placeOrder({ ...order, price: '65000.25' }, call).catch((e: unknown) => e);
    expect((tooPrecise as DeskFailure).detail).toMatchObject({
      code: 'INVALID_INPUT',
      fields: { price: expect.any(String) },
    });
    settings.set('trade.settings', {
      priceDeviationPercent: '5',
      maxNotional: '100',
      confirmOrders: false,
      shortcuts: false,
      favourites: [],
    });
    const tooBig = await handlers.placeOrder(order, call).catch((e: unknown) => e);
    expect((tooBig as DeskFailure).detail.fields?.total).toMatch(/limit of 100 USDT/);
    expect(spot.placeOrder).not.toHaveBeenCalled();
  });
});
