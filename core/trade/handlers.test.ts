import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/apiError';
import type { ServiceContext } from '../context';
import type { DeskFailure } from '../errors';
import { openJournalDb } from '../journal/db';
import { MovementEngine } from '../movements/engine';
import { RULES_FRESH_MS } from '../rules/cache';
import { ManualScheduler } from '../testing/scheduler';
import { createTradeHandlers } from './handlers';

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

/** An open buy of 0.01 BTC at 65000, nothing filled yet. */
const resting = { ...placed, type: 'limit', price: '65000', left: '0.01' };

const withLimit = (settings: Map<string, unknown>, maxNotional: string) =>
  settings.set('trade.settings', {
    priceDeviationPercent: '5',
    maxNotional,
    confirmOrders: false,
    shortcuts: false,
    favourites: [],
  });

const setup = (placeOrder: () => Promise<unknown>, getOrder: () => Promise<unknown> = async () => placed) => {
  const spot = {
    currencyPairs: vi.fn(async () => [PAIR]),
    accounts: vi.fn(async () => [
      { currency: 'BTC', available: '1', locked: '0' },
      { currency: 'USDT', available: '100000', locked: '0' },
    ]),
    placeOrder: vi.fn(placeOrder),
    getOrder: vi.fn(getOrder),
    amendOrder: vi.fn(async (_id: string, _pair: string, change: { price?: string; amount?: string }) => ({
      ...resting,
      ...change,
    })),
    cancelOrder: vi.fn(async () => ({ ...resting, status: 'cancelled', finish_as: 'cancelled' })),
  };
  const settings = new Map<string, unknown>();
  // Orders go through the movement engine (journaled with their text before they are sent).
  // The platform's clock, measured: the same as this computer's.
  const clock = { offsetMs: 0, last: { offsetMs: 0 }, now: () => Date.now(), needsMeasuring: () => false };
  // The rules an order's check may need: the user's STP group and the pair's fee rates.
  const account = {
    stpGroups: vi.fn(async () => [{ id: 7 }]),
    stpGroupUsers: vi.fn(async () => [{ user_id: 1 }]),
  };
  const wallet = { fee: vi.fn(async () => ({ user_id: 1, maker_fee: '0.001', taker_fee: '0.002' })) };
  const api = { spot, account, wallet, client: { clock, syncClock: async () => 0 } };
  const movements = new MovementEngine({
    db: openJournalDb(':memory:'),
    profileId: () => 'p1',
    platform: () => api as unknown as ReturnType<ServiceContext['platform']>,
    onChange: () => {},
    backgroundMs: 0,
  });
  // Time for the rules cache: moved by hand.
  const scheduler = new ManualScheduler();
  const ctx = {
    emit: vi.fn(),
    scheduler,
    platform: () => api,
    movements,
    onProfileChange: () => () => {},
    settings: {
      get: (k: string, d: unknown) => settings.get(k) ?? d,
      set: (k: string, v: unknown) => settings.set(k, v),
    },
    audit: { record: vi.fn() },
    activeProfile: () => ({ userId: 1 }),
  } as unknown as ServiceContext;
  return { handlers: createTradeHandlers(ctx), spot, account, wallet, settings, movements, scheduler };
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
    expect(result).toMatchObject({ outcome: 'accepted', text: 't-desk-a', order: { id: '42', text: 't-desk-a' } });
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
      // The engine's request id (journaled before sending) and the signed-time hook.
      { requestId: expect.any(String), onSigned: expect.any(Function) },
    ]);
  });

  it('never resends when the answer is lost: it looks the order up by its text id', async () => {
    const { handlers, spot } = setup(async () => {
      throw lost();
    });
    const result = await handlers.placeOrder(order, call);
    expect(result.order?.id).toBe('42');
    expect(spot.placeOrder).toHaveBeenCalledTimes(1);
    expect(spot.getOrder).toHaveBeenCalledWith('t-desk-a', { currency_pair: 'BTC_USDT' });
  });

  it('answers an unknown outcome as a value when the lost order cannot be found, without resending', async () => {
    const { handlers, spot } = setup(
      async () => {
        throw lost();
      },
      async () => {
        throw new Error('not found');
      },
    );
    const result = await handlers.placeOrder(order, call);
    expect(result).toMatchObject({ outcome: 'unknown', text: 't-desk-a', requestId: 'td-1' });
    expect(result.order).toBeUndefined();
    expect(result.note).toContain('t-desk-a');
    expect(spot.placeOrder).toHaveBeenCalledTimes(1);
  });

  it('answers a placed order it cannot read back as accepted, with a note and no order', async () => {
    const s = setup(async () => placed);
    await s.handlers.placeOrder(order, call);
    // The same submission again joins the placed order; reading it back fails this time.
    s.spot.getOrder.mockRejectedValue(new Error('unavailable'));
    const again = await s.handlers.placeOrder(order, call);
    expect(again).toMatchObject({ outcome: 'accepted', text: 't-desk-a' });
    expect(again.order).toBeUndefined();
    expect(again.note).toMatch(/was placed \(id 42\).*Do not place it again/);
    expect(s.spot.placeOrder).toHaveBeenCalledTimes(1);
  });

  it('journals the order with its text before sending it, and a repeat of the same text joins it', async () => {
    let journaledFirst: unknown;
    const s = setup(async () => {
      journaledFirst = s.movements.list()[0];
      return placed;
    });
    await s.handlers.placeOrder(order, call);
    expect(journaledFirst).toMatchObject({ kind: 'spotOrder', state: 'sent', clientId: 't-desk-a', currency: 'BTC' });
    expect(s.movements.list()[0]).toMatchObject({ state: 'done', platformId: '42' });
    // The same submission again (a double click, a retry): no second order.
    await expect(s.handlers.placeOrder(order, call)).resolves.toMatchObject({ order: { id: '42' } });
    expect(s.spot.placeOrder).toHaveBeenCalledTimes(1);
  });

  it('a refusal is the platform’s error with delivery not_sent, and the order is journaled as failed', async () => {
    const s = setup(async () => {
      throw new ApiError({
        kind: 'platform',
        status: 400,
        label: 'BALANCE_NOT_ENOUGH',
        message: 'Not enough balance',
        requestId: 'td-3',
        method: 'POST',
        path: '/spot/orders',
      });
    });
    const failure = await s.handlers.placeOrder(order, call).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).toIpcError()).toMatchObject({ code: 'PLATFORM', delivery: 'not_sent' });
    expect(s.movements.list()[0]).toMatchObject({ state: 'failed', label: 'BALANCE_NOT_ENOUGH' });
    expect(s.spot.placeOrder).toHaveBeenCalledTimes(1);
  });

  it('enforces the precision and the max notional again in main, sending nothing', async () => {
    const { handlers, spot, settings } = setup(async () => placed);
    const tooPrecise = await handlers.placeOrder({ ...order, price: '65000.25' }, call).catch((e: unknown) => e);
    expect((tooPrecise as DeskFailure).detail).toMatchObject({
      code: 'INVALID_INPUT',
      fields: { price: expect.any(String) },
    });
    withLimit(settings, '100');
    const tooBig = await handlers.placeOrder(order, call).catch((e: unknown) => e);
    expect((tooBig as DeskFailure).detail.fields?.total).toMatch(/limit of 100 USDT/);
    expect(spot.placeOrder).not.toHaveBeenCalled();
  });
});

describe('the rules an order is checked against', () => {
  it('are the ones the ticket showed, however long it was open: the order costs its POST and the balances', async () => {
    const s = setup(async () => placed);
    // The Trade screen opens the pair: its rules (pairs, fee rates, STP group) and balances.
    await s.handlers.pairs({}, { operation: 'trade.pairs' });
    await s.handlers.terms({ pair: 'BTC_USDT' }, { operation: 'trade.terms' });
    await s.handlers.account({ pair: 'BTC_USDT' }, { operation: 'trade.account' });
    const opened = {
      pairs: s.spot.currencyPairs.mock.calls.length,
      groups: s.account.stpGroups.mock.calls.length,
      fees: s.wallet.fee.mock.calls.length,
      balances: s.spot.accounts.mock.calls.length,
    };
    expect(opened).toEqual({ pairs: 1, groups: 1, fees: 1, balances: 1 });

    // The person looks at the ticket for ten minutes, longer than any rule is kept for a screen.
    s.scheduler.jump(10 * RULES_FRESH_MS);
    const result = await s.handlers.placeOrder({ ...order, stpAct: 'cn' }, call);
    expect(result.outcome).toBe('accepted');
    // The screen then reads what the order moved: the balances, not the rules.
    await s.handlers.account({ pair: 'BTC_USDT' }, { operation: 'trade.account' });

    expect(s.spot.placeOrder).toHaveBeenCalledTimes(1);
    expect({
      pairs: s.spot.currencyPairs.mock.calls.length,
      groups: s.account.stpGroups.mock.calls.length,
      fees: s.wallet.fee.mock.calls.length,
      balances: s.spot.accounts.mock.calls.length,
    }).toEqual({ ...opened, balances: opened.balances + 1 });

    // Opening the pair again after that long reads its rules again.
    await s.handlers.terms({ pair: 'BTC_USDT' }, { operation: 'trade.terms' });
    expect(s.account.stpGroups).toHaveBeenCalledTimes(2);
    expect(s.wallet.fee).toHaveBeenCalledTimes(2);
  });
});

describe('trade.placeOrder of a market sell', () => {
  const sell = {
    pair: 'BTC_USDT',
    side: 'sell' as const,
    type: 'market' as const,
    amount: '0.01',
    timeInForce: 'ioc' as const,
    text: 't-desk-a',
  };

  it('refuses it under a max notional when no book values it (the pair is not watched), sending nothing', async () => {
    const { handlers, spot, settings } = setup(async () => placed);
    withLimit(settings, '100');
    const failure = await handlers.placeOrder(sell, call).catch((e: unknown) => e);
    expect((failure as DeskFailure).detail).toMatchObject({
      code: 'INVALID_INPUT',
      fields: { total: expect.stringMatching(/cannot be estimated, so your limit of 100 USDT/) },
    });
    expect(spot.placeOrder).not.toHaveBeenCalled();
  });

  it('sends it without a max notional', async () => {
    const { handlers, spot } = setup(async () => placed);
    await handlers.placeOrder(sell, call);
    expect(spot.placeOrder).toHaveBeenCalledTimes(1);
  });
});

describe('trade.amendOrder', () => {
  const amend = { operation: 'trade.amendOrder' };
  const target = { pair: 'BTC_USDT', orderId: '42' };

  it('checks the amended order against the max notional, sending nothing when it is above', async () => {
    const { handlers, spot, settings } = setup(
      async () => placed,
      async () => resting,
    );
    withLimit(settings, '1000');
    // 0.01 at 65000 is 650 USDT; raised to 1 BTC it would be 65000.
    const failure = await handlers.amendOrder({ ...target, amount: '1' }, amend).catch((e: unknown) => e);
    expect((failure as DeskFailure).detail).toMatchObject({
      code: 'INVALID_INPUT',
      fields: { total: expect.stringMatching(/limit of 1,000 USDT/) },
    });
    expect(spot.getOrder).toHaveBeenCalledWith('42', { currency_pair: 'BTC_USDT' });
    expect(spot.amendOrder).not.toHaveBeenCalled();
  });

  it('refuses too many decimals and an amended order worth less than the pair’s minimum', async () => {
    const { handlers, spot } = setup(
      async () => placed,
      async () => resting,
    );
    const precise = await handlers.amendOrder({ ...target, price: '65000.25' }, amend).catch((e: unknown) => e);
    expect((precise as DeskFailure).detail.fields?.price).toMatch(/at most 1 decimals/);
    const small = await handlers.amendOrder({ ...target, price: '100' }, amend).catch((e: unknown) => e);
    expect((small as DeskFailure).detail.fields?.total).toMatch(/at least 3 USDT/);
    expect(spot.amendOrder).not.toHaveBeenCalled();
  });

  it('sends an amendment within the rules once, with only the changed field', async () => {
    const { handlers, spot, settings } = setup(
      async () => placed,
      async () => resting,
    );
    withLimit(settings, '1000');
    const result = await handlers.amendOrder({ ...target, amount: '0.015' }, amend);
    expect(spot.amendOrder.mock.calls).toEqual([['42', 'BTC_USDT', { amount: '0.015' }]]);
    expect(result.amount).toBe('0.015');
  });
});

describe('the journal follows an order this desk placed', () => {
  it('an order amended then cancelled is cancelled in Money movements, not left open', async () => {
    const { handlers, movements } = setup(
      async () => resting,
      async () => resting,
    );
    await handlers.placeOrder(order, call);
    expect(movements.list()[0]).toMatchObject({ kind: 'spotOrder', platformStatus: 'open' });
    await handlers.amendOrder({ pair: 'BTC_USDT', orderId: '42', amount: '0.015' }, { operation: 'trade.amendOrder' });
    expect(movements.list()[0]?.platformStatus).toBe('open');
    await handlers.cancelOrder({ pair: 'BTC_USDT', orderId: '42' }, { operation: 'trade.cancelOrder' });
    expect(movements.list()[0]?.platformStatus).toBe('cancelled');
  });
});

describe('trade.findOrder', () => {
  const find = { operation: 'trade.findOrder' };
  const notFound = () =>
    new ApiError({
      kind: 'platform',
      status: 404,
      label: 'ORDER_NOT_FOUND',
      message: 'Order not found',
      requestId: 'td-2',
      method: 'GET',
      path: '/spot/orders/t-desk-a',
    });

  it('returns the order found by its client id', async () => {
    const { handlers, spot } = setup(async () => placed);
    const found = await handlers.findOrder({ pair: 'BTC_USDT', text: 't-desk-a' }, find);
    expect(found).toMatchObject({ id: '42', text: 't-desk-a' });
    expect(spot.getOrder).toHaveBeenCalledWith('t-desk-a', { currency_pair: 'BTC_USDT' });
  });

  it('answers null only when the platform says there is no such order', async () => {
    const absent = setup(
      async () => placed,
      async () => {
        throw notFound();
      },
    );
    expect(await absent.handlers.findOrder({ pair: 'BTC_USDT', text: 't-desk-a' }, find)).toBeNull();
    const cut = setup(
      async () => placed,
      async () => {
        throw lost();
      },
    );
    await expect(cut.handlers.findOrder({ pair: 'BTC_USDT', text: 't-desk-a' }, find)).rejects.toBeInstanceOf(ApiError);
  });
});
