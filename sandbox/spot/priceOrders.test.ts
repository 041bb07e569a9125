// Price-triggered orders, the insurance history and cross-margin liquidation over real HTTP against
// an in-process sandbox (memory database, market off): create, list, get, cancel, cancel all, the
// platform's labels for bad input, the trigger engine on the sandbox's own trades, and expiry on a
// manual clock.

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { controlAnswer, startTestSandbox, type TestSandbox, type TestUser } from '../testing/harness';

type Json = Record<string, unknown>;
interface PriceOrder {
  id: number;
  user: number;
  market: string;
  status: string;
  reason: string;
  fired_order_id: number;
  ctime: number;
  ftime: number;
  trigger: { price: string; rule: string; expiration: number };
  put: Json & { text: string; price: string; amount: string };
}

const PAIR = 'BTC_USDT';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox({ clock: 'real' });
  sb.limiter.enforce = false;
});
afterAll(async () => {
  await sb?.close();
});
afterEach(() => {
  sb.clearBooks();
  // No test leaves a trigger that a later test's trades could fire.
  sb.ctx.db.prepare("UPDATE spot_price_orders SET status = 'cancelled' WHERE status = 'open'").run();
});

function stopLoss(over: { trigger?: Json; put?: Json; market?: string } = {}): Json {
  return {
    market: over.market ?? PAIR,
    trigger: { price: '30000', rule: '<=', expiration: 3600, ...over.trigger },
    put: { type: 'limit', side: 'sell', price: '29900', amount: '0.01', account: 'normal', ...over.put },
  };
}

async function create(user: TestUser, body: Json): Promise<number> {
  const res = await user.api.post<{ id: number }>('/spot/price_orders', body);
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  expect(Object.keys(res.body)).toEqual(['id']);
  return res.body.id;
}

async function get(user: TestUser, id: number): Promise<PriceOrder> {
  const res = await user.api.get<PriceOrder>(`/spot/price_orders/${id}`);
  expect(res.status).toBe(200);
  return res.body;
}

/** A trade at `price` between two fresh users (maker buys, taker sells). */
async function tradeAt(price: string, amount = '0.001'): Promise<void> {
  const maker = sb.user({ USDT: '1000000' });
  const taker = sb.user({ BTC: '10' });
  const m = await maker.api.post('/spot/orders', { currency_pair: PAIR, side: 'buy', price, amount });
  expect(m.status).toBe(201);
  const t = await taker.api.post<Json>('/spot/orders', {
    currency_pair: PAIR,
    side: 'sell',
    price,
    amount,
    time_in_force: 'ioc',
  });
  expect(t.status).toBe(201);
  expect(t.body.finish_as).toBe('filled');
}

describe('price-triggered orders: CRUD', () => {
  it('creates, lists open and finished, gets, cancels one and cancels all', async () => {
    const u = sb.user({ BTC: '1' });
    const a = await create(u, stopLoss({ put: { text: 't-stop-a' } }));
    const b = await create(u, stopLoss({ trigger: { price: '50000', rule: '>=' } }));
    const c = await create(u, stopLoss({ market: 'ETH_USDT', trigger: { price: '1000' }, put: { price: '990' } }));

    const one = await get(u, a);
    expect(one).toMatchObject({
      id: a,
      user: u.id,
      market: PAIR,
      status: 'open',
      fired_order_id: 0,
      ftime: 0,
      reason: '',
      trigger: { price: '30000', rule: '<=', expiration: 3600 },
      put: {
        type: 'limit',
        side: 'sell',
        price: '29900',
        amount: '0.01',
        account: 'normal',
        time_in_force: 'gtc',
        text: 't-stop-a',
      },
    });
    expect(Math.abs(one.ctime - Date.now() / 1000)).toBeLessThan(10);

    const open = await u.api.get<PriceOrder[]>('/spot/price_orders', { status: 'open' });
    expect(open.body.map((o) => o.id)).toEqual([c, b, a]);
    const btcOnly = await u.api.get<PriceOrder[]>('/spot/price_orders', { status: 'open', market: PAIR, limit: 1 });
    expect(btcOnly.body.map((o) => o.id)).toEqual([b]);
    const paged = await u.api.get<PriceOrder[]>('/spot/price_orders', { status: 'open', market: PAIR, offset: 1 });
    expect(paged.body.map((o) => o.id)).toEqual([a]);

    const cancelled = await u.api.delete<PriceOrder>(`/spot/price_orders/${a}`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id: a, status: 'cancelled' });
    expect(cancelled.body.ftime).toBeGreaterThan(0);
    const again = await u.api.delete<{ label: string }>(`/spot/price_orders/${a}`);
    expect(again.body.label).toBe('ORDER_CANCELLED');

    const all = await u.api.delete<PriceOrder[]>('/spot/price_orders', { market: PAIR, account: 'normal' });
    expect(all.body.map((o) => [o.id, o.status])).toEqual([[b, 'cancelled']]);
    const rest = await u.api.delete<PriceOrder[]>('/spot/price_orders');
    expect(rest.body.map((o) => o.id)).toEqual([c]);

    expect((await u.api.get<PriceOrder[]>('/spot/price_orders', { status: 'open' })).body).toEqual([]);
    const finished = await u.api.get<PriceOrder[]>('/spot/price_orders', { status: 'finished' });
    expect(finished.body.map((o) => [o.id, o.status])).toEqual([
      [c, 'cancelled'],
      [b, 'cancelled'],
      [a, 'cancelled'],
    ]);
  });

  it("keeps users apart: another user's order is not found", async () => {
    const u = sb.user();
    const other = sb.user();
    const id = await create(u, stopLoss());
    const res = await other.api.get<{ label: string }>(`/spot/price_orders/${id}`);
    expect(res.status).toBe(404);
    expect(res.body.label).toBe('ORDER_NOT_FOUND');
    expect((await other.api.delete<{ label: string }>(`/spot/price_orders/${id}`)).status).toBe(404);
    expect((await other.api.get<PriceOrder[]>('/spot/price_orders', { status: 'open' })).body).toEqual([]);
    expect((await u.api.get<{ label: string }>('/spot/price_orders/abc')).body.label).toBe('ORDER_NOT_FOUND');
  });
});

describe('price-triggered orders: validation', () => {
  const cases: [string, Json, number, string][] = [
    ['no market', { ...stopLoss(), market: undefined }, 400, 'MISSING_REQUIRED_PARAM'],
    ['unknown market', stopLoss({ market: 'NOPE_USDT' }), 400, 'INVALID_CURRENCY_PAIR'],
    ['no trigger', { ...stopLoss(), trigger: undefined }, 400, 'MISSING_REQUIRED_PARAM'],
    ['no put', { ...stopLoss(), put: undefined }, 400, 'MISSING_REQUIRED_PARAM'],
    ['bad rule', stopLoss({ trigger: { rule: '<' } }), 400, 'INVALID_PARAM_VALUE'],
    ['missing rule', stopLoss({ trigger: { rule: undefined } }), 400, 'MISSING_REQUIRED_PARAM'],
    ['trigger price not a number', stopLoss({ trigger: { price: 'abc' } }), 400, 'INVALID_PARAM_VALUE'],
    ['trigger price too precise', stopLoss({ trigger: { price: '30000.55' } }), 400, 'INVALID_PRECISION'],
    ['zero trigger price', stopLoss({ trigger: { price: '0' } }), 400, 'INVALID_PARAM_VALUE'],
    ['negative expiration', stopLoss({ trigger: { expiration: -5 } }), 400, 'INVALID_PARAM_VALUE'],
    ['missing expiration', stopLoss({ trigger: { expiration: undefined } }), 400, 'MISSING_REQUIRED_PARAM'],
    ['bad side', stopLoss({ put: { side: 'short' } }), 400, 'INVALID_PARAM_VALUE'],
    ['bad type', stopLoss({ put: { type: 'stop' } }), 400, 'INVALID_PARAM_VALUE'],
    ['bad time in force', stopLoss({ put: { time_in_force: 'poc' } }), 400, 'INVALID_PARAM_VALUE'],
    ['amount too precise', stopLoss({ put: { amount: '0.0000001' } }), 400, 'INVALID_PRECISION'],
    ['order below the minimum', stopLoss({ put: { amount: '0.00001' } }), 400, 'AMOUNT_TOO_LITTLE'],
    ['limit without price', stopLoss({ put: { price: undefined } }), 400, 'MISSING_REQUIRED_PARAM'],
    ['text without t-', stopLoss({ put: { text: 'stop1' } }), 400, 'INVALID_PARAM_VALUE'],
    ['margin account', stopLoss({ put: { account: 'margin' } }), 400, 'MARGIN_NOT_SUPPORTED'],
    ['bad account', stopLoss({ put: { account: 'futures' } }), 400, 'INVALID_PARAM_VALUE'],
  ];
  it.each(cases)('%s → %s %s, nothing stored', async (_name, body, status, label) => {
    const u = sb.user({ BTC: '1' });
    const res = await u.api.post<{ label: string }>('/spot/price_orders', body);
    expect(res.status).toBe(status);
    expect(res.body.label).toBe(label);
    expect((await u.api.get<PriceOrder[]>('/spot/price_orders', { status: 'open' })).body).toEqual([]);
  });

  it('refuses a list without or with a bad status, and bad paging', async () => {
    const u = sb.user();
    expect((await u.api.get<{ label: string }>('/spot/price_orders')).body.label).toBe('MISSING_REQUIRED_PARAM');
    expect((await u.api.get<{ label: string }>('/spot/price_orders', { status: 'done' })).body.label).toBe(
      'INVALID_PARAM_VALUE',
    );
    expect((await u.api.get<{ label: string }>('/spot/price_orders', { status: 'open', limit: 0 })).body.label).toBe(
      'INVALID_PARAM_VALUE',
    );
    expect(
      (await u.api.get<{ label: string }>('/spot/price_orders', { status: 'open', market: 'X_Y' })).body.label,
    ).toBe('INVALID_CURRENCY_PAIR');
  });

  it('accepts a market put order (ioc) and normalises numbers', async () => {
    const u = sb.user();
    const id = await create(u, stopLoss({ put: { type: 'market', price: '0', amount: '0.010', text: 't-m1' } }));
    const o = await get(u, id);
    expect(o.put).toMatchObject({ type: 'market', time_in_force: 'ioc', price: '0', text: 't-m1' });
  });
});

describe('the trigger engine', () => {
  it('fires a stop-loss when a trade crosses its price: the put order is placed for the user', async () => {
    const u = sb.user({ BTC: '1' });
    const id = await create(u, stopLoss({ put: { text: 't-sl1' } }));
    await tradeAt('30100'); // above the stop: nothing happens
    expect((await get(u, id)).status).toBe('open');

    await tradeAt('30000'); // meets "last <= 30000"
    const fired = await get(u, id);
    expect(fired.status).toBe('finish');
    expect(fired.fired_order_id).toBeGreaterThan(0);
    expect(fired.ftime).toBeGreaterThan(0);

    const order = await u.api.get<Json>(`/spot/orders/${fired.fired_order_id}`, { currency_pair: PAIR });
    expect(order.status).toBe(200);
    expect(order.body).toMatchObject({ side: 'sell', price: '29900', amount: '0.01', text: 't-sl1' });
    // Placed as a normal order: its funds are locked in the ledger. The 30000 bid of the trade was
    // used up, so it rests.
    expect(order.body.status).toBe('open');
    expect(sb.balance(u.id, 'BTC')).toEqual({ available: '0.99', locked: '0.01' });

    expect((await u.api.get<PriceOrder[]>('/spot/price_orders', { status: 'open' })).body).toEqual([]);
    const finished = await u.api.get<PriceOrder[]>('/spot/price_orders', { status: 'finished' });
    expect(finished.body.map((o) => [o.id, o.status])).toEqual([[id, 'finish']]);
  });

  it('fires a take-profit (>=) whose order then trades against the book', async () => {
    const u = sb.user({ BTC: '1' });
    const id = await create(
      u,
      stopLoss({ trigger: { price: '41000', rule: '>=' }, put: { price: '40000', amount: '0.002' } }),
    );
    const bidder = sb.user({ USDT: '1000' });
    await bidder.api.post('/spot/orders', { currency_pair: PAIR, side: 'buy', price: '40500', amount: '0.002' });
    await tradeAt('41000');
    const fired = await get(u, id);
    expect(fired.status).toBe('finish');
    const order = await u.api.get<Json>(`/spot/orders/${fired.fired_order_id}`, { currency_pair: PAIR });
    expect(order.body).toMatchObject({ status: 'closed', finish_as: 'filled' });
  });

  it('fails with the reason when the user cannot pay for the order when it fires', async () => {
    const u = sb.user(); // no BTC
    const id = await create(u, stopLoss({ trigger: { price: '25000' }, put: { price: '24900' } }));
    await tradeAt('24000');
    const failed = await get(u, id);
    expect(failed.status).toBe('failed');
    expect(failed.fired_order_id).toBe(0);
    expect(failed.reason).toMatch(/^BALANCE_NOT_ENOUGH/);
    expect(sb.balance(u.id, 'BTC')).toEqual({ available: '0', locked: '0' });
  });

  it('fires at once when the last price already meets the rule', async () => {
    await tradeAt('20000');
    const u = sb.user({ BTC: '1' });
    const id = await create(u, stopLoss({ trigger: { price: '21000' }, put: { price: '19000' } }));
    expect((await get(u, id)).status).toBe('finish');
  });

  it('does not fire a cancelled trigger', async () => {
    const u = sb.user({ BTC: '1' });
    // Above the last price, so it does not fire at once.
    const id = await create(u, stopLoss({ trigger: { price: '45000', rule: '>=' } }));
    await u.api.delete(`/spot/price_orders/${id}`);
    await tradeAt('46000');
    expect((await get(u, id)).status).toBe('cancelled');
    expect(sb.balance(u.id, 'BTC').locked).toBe('0');
  });
});

describe('expiry on a manual clock', () => {
  let manual: TestSandbox;
  beforeAll(async () => {
    manual = await startTestSandbox({ clock: 'manual' });
  });
  afterAll(async () => {
    await manual?.close();
  });

  it('an open trigger becomes expired once business time passes its expiration', async () => {
    const u = manual.user({ BTC: '1' });
    const id = await create(u, stopLoss({ trigger: { expiration: 60 } }));
    const advance = (seconds: number) => controlAnswer(manual, 'POST', '/advance', { seconds });
    expect((await advance(59)).status).toBe(200);
    expect((await u.api.get<PriceOrder>(`/spot/price_orders/${id}`)).body.status).toBe('open');
    await advance(2);
    const expired = (await u.api.get<PriceOrder>(`/spot/price_orders/${id}`)).body;
    expect(expired.status).toBe('expired');
    expect(expired.ftime - expired.ctime).toBeGreaterThanOrEqual(60);
    expect((await u.api.delete<{ label: string }>(`/spot/price_orders/${id}`)).body.label).toBe('ORDER_CLOSED');
  });
});

describe('persistence', () => {
  it('keeps trigger orders in the database', () => {
    const cols = sb.ctx.db.prepare("SELECT name FROM pragma_table_info('spot_price_orders')").all() as Json[];
    expect(cols.map((c) => c.name)).toContain('fired_order_id');
  });
});

describe('insurance history and cross-margin liquidation', () => {
  it('answers a daily insurance series, newest first, paged', async () => {
    const u = sb.user();
    const day = 86_400;
    const to = 1_700_000_000 - (1_700_000_000 % day);
    const res = await u.api.get<{ currency: string; balance: string; time: number }[]>('/spot/insurance_history', {
      business: 'margin',
      currency: 'BTC',
      from: to - 9 * day,
      to,
      limit: 4,
      page: 2,
    });
    expect(res.status).toBe(200);
    expect(res.body.map((p) => p.time)).toEqual([to - 4 * day, to - 5 * day, to - 6 * day, to - 7 * day]);
    for (const p of res.body) {
      expect(p.currency).toBe('BTC');
      expect(p.balance).toMatch(/^\d+(\.\d+)?$/);
    }
    const bad = await u.api.get<{ label: string }>('/spot/insurance_history', { business: 'x', currency: 'BTC' });
    expect(bad.body.label).toBe('INVALID_PARAM_VALUE');
    const missing = await u.api.get<{ label: string }>('/spot/insurance_history', { business: 'margin' });
    expect(missing.body.label).toBe('MISSING_REQUIRED_PARAM');
  });

  it('refuses cross_liquidate_orders for an account that is not in cross-margin mode', async () => {
    const u = sb.user({ USDT: '100' });
    const res = await u.api.post<{ label: string }>('/spot/cross_liquidate_orders', {
      currency_pair: PAIR,
      amount: '0.001',
      price: '30000',
      text: 't-liq',
    });
    expect(res.status).toBe(400);
    expect(res.body.label).toBe('MARGIN_NOT_SUPPORTED');
    const bad = await u.api.post<{ label: string }>('/spot/cross_liquidate_orders', { amount: '1', price: '1' });
    expect(bad.body.label).toBe('MISSING_REQUIRED_PARAM');
  });
});
