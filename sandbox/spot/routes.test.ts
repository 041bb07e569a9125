// Spot API over real HTTP: a sandbox started in-process (memory database, market off), users with
// signed keys, and every rule a trader would notice.

import ccxt from 'ccxt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pointCcxtAtSandbox } from '../testing/conformance';
import { startTestSandbox, type TestSandbox, type TestUser } from '../testing/harness';
import { gateApi } from '../testing/sdks';
import { SPOT_PAIRS } from './pairs';

const { ApiClient, Order: SdkOrder, SpotApi } = gateApi;

type Json = Record<string, unknown>;
type OrderJson = Json & { id: string; status: string; finish_as: string; left: string };

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox({ clock: 'real' });
});
afterAll(async () => {
  await sb?.close();
});
// Every test starts from empty books.
afterEach(() => {
  sb.clearBooks();
});

const PAIR = 'BTC_USDT';

async function place(user: TestUser, body: Json, pair = PAIR): Promise<OrderJson> {
  const res = await user.api.post<OrderJson>('/spot/orders', { currency_pair: pair, ...body });
  if (res.status !== 201) throw new Error(`placement failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function refused(user: TestUser, body: Json): Promise<{ status: number; label: string }> {
  const res = await user.api.post<{ label: string }>('/spot/orders', { currency_pair: PAIR, ...body });
  return { status: res.status, label: res.body.label };
}

/** Each test trades on its own price band so resting orders of other tests never interfere. */
let band = 10_000;
function prices() {
  band += 1000;
  return { p: (offset: number) => String(band + offset) };
}

describe('public market data', () => {
  it('serves time, currencies and pairs with precisions and minimums', async () => {
    const u = sb.user();
    const time = await u.api.get<{ server_time: number }>('/spot/time');
    expect(Math.abs(time.body.server_time - Date.now())).toBeLessThan(5000);
    const pair = await u.api.get<Json>(`/spot/currency_pairs/${PAIR}`);
    expect(pair.body).toMatchObject({
      id: PAIR,
      base: 'BTC',
      quote: 'USDT',
      precision: 1,
      amount_precision: 6,
      min_quote_amount: '3',
      trade_status: 'tradable',
    });
    const pairs = await u.api.get<Json[]>('/spot/currency_pairs');
    expect(pairs.body.map((p) => p.id)).toEqual(
      expect.arrayContaining(['BTC_USDT', 'ETH_USDT', 'GT_USDT', 'XRP_USDT']),
    );
    const btc = await u.api.get<Json>('/spot/currencies/BTC');
    expect(btc.body).toMatchObject({ currency: 'BTC', chain: 'BTC', trade_disabled: false });
    expect((await u.api.get<Json>('/spot/currency_pairs/NOPE_USDT')).body).toMatchObject({
      label: 'INVALID_CURRENCY_PAIR',
    });
    expect((await u.api.get<Json>('/spot/currencies/NOPE')).body).toMatchObject({ label: 'INVALID_CURRENCY' });
  });

  it('order book aggregates levels, honours limit and with_id', async () => {
    const mm = sb.user({ ETH: '100', USDT: '100000' });
    const ethPair = 'ETH_USDT';
    for (const price of ['3001.05', '3001.95', '3003']) {
      await place(mm, { side: 'sell', amount: '1', price }, ethPair);
    }
    await place(mm, { side: 'buy', amount: '2', price: '2999.5' }, ethPair);
    const book = await mm.api.get<Json>('/spot/order_book', { currency_pair: ethPair, with_id: 'true', limit: 2 });
    expect(book.body.asks).toEqual([
      ['3001.05', '1'],
      ['3001.95', '1'],
    ]);
    expect(book.body.bids).toEqual([['2999.5', '2']]);
    expect(typeof book.body.id).toBe('number');
    expect(book.body.current).toBeGreaterThanOrEqual(book.body.update as number);
    const grouped = await mm.api.get<Json>('/spot/order_book', { currency_pair: ethPair, interval: '1' });
    expect(grouped.body.asks).toEqual([
      ['3002', '2'],
      ['3003', '1'],
    ]);
    expect(grouped.body.bids).toEqual([['2999', '2']]);
    expect(grouped.body).not.toHaveProperty('id');
    const bad = await mm.api.get<Json>('/spot/order_book', { currency_pair: ethPair, interval: '0.001' });
    expect(bad.body).toMatchObject({ label: 'INVALID_PARAM_VALUE' });
  });

  it('trades, tickers and 8-column candlesticks follow fills', async () => {
    const seller = sb.user({ GT: '1000' });
    const buyer = sb.user({ USDT: '100000' });
    await place(seller, { side: 'sell', amount: '10', price: '8.5' }, 'GT_USDT');
    await place(buyer, { side: 'buy', amount: '4', price: '8.5' }, 'GT_USDT');
    const trades = await buyer.api.get<Json[]>('/spot/trades', { currency_pair: 'GT_USDT' });
    expect(trades.body[0]).toMatchObject({ currency_pair: 'GT_USDT', side: 'buy', amount: '4', price: '8.5' });
    expect(trades.body[0]).not.toHaveProperty('role');
    const ticker = await buyer.api.get<Json[]>('/spot/tickers', { currency_pair: 'GT_USDT' });
    expect(ticker.body[0]).toMatchObject({
      currency_pair: 'GT_USDT',
      last: '8.5',
      lowest_ask: '8.5',
      lowest_size: '6',
    });
    expect(ticker.body[0]?.base_volume).toBe('4');
    // Live prices replace the catalog's static ones (total balance, small-balance conversion).
    expect(sb.ctx.prices.usdt('GT')?.toFixed()).toBe('8.5');
    const all = await buyer.api.get<Json[]>('/spot/tickers');
    expect(all.body).toHaveLength(SPOT_PAIRS.length);
    const candles = await buyer.api.get<string[][]>('/spot/candlesticks', {
      currency_pair: 'GT_USDT',
      interval: '1m',
      limit: 5,
    });
    const last = candles.body.at(-1)!;
    expect(last).toHaveLength(8);
    expect(last.slice(1, 7)).toEqual(['34', '8.5', '8.5', '8.5', '8.5', '4']);
    expect(last[7]).toBe('false');
    const mixed = await buyer.api.get<Json>('/spot/candlesticks', { currency_pair: 'GT_USDT', limit: 5, from: 1 });
    expect(mixed.body).toMatchObject({ label: 'INVALID_PARAM_VALUE' });
    const tooMany = await buyer.api.get<Json>('/spot/candlesticks', {
      currency_pair: 'GT_USDT',
      interval: '1s',
      from: 0,
      to: 5000,
    });
    expect(tooMany.body).toMatchObject({ label: 'INVALID_PARAM_VALUE' });
    const badInterval = await buyer.api.get<Json>('/spot/candlesticks', { currency_pair: 'GT_USDT', interval: '2m' });
    expect(badInterval.body).toMatchObject({ label: 'INVALID_PARAM_VALUE' });
  });
});

describe('matching over HTTP', () => {
  it("fills the spec's example in the order A, C, B", async () => {
    const { p } = prices();
    const seller = sb.user({ BTC: '10' });
    const buyer = sb.user({ USDT: '1000000' });
    const a = await place(seller, { side: 'sell', amount: '0.01', price: p(0) });
    const b = await place(seller, { side: 'sell', amount: '0.01', price: p(2) });
    const c = await place(seller, { side: 'sell', amount: '0.01', price: p(0) });
    const taker = await place(buyer, { side: 'buy', amount: '0.03', price: p(2) });
    expect(taker).toMatchObject({ status: 'closed', finish_as: 'filled' });
    const fills = await buyer.api.get<Json[]>('/spot/my_trades', { currency_pair: PAIR, order_id: taker.id });
    const makerOrder = async (tradeId: unknown) => {
      const mine = await seller.api.get<Json[]>('/spot/my_trades', { currency_pair: PAIR });
      return mine.body.find((t) => t.id === tradeId)?.order_id;
    };
    const sequence = [];
    for (const t of [...fills.body].reverse()) sequence.push(await makerOrder(t.id));
    expect(sequence).toEqual([a.id, c.id, b.id]);
  });

  it('gtc rests, ioc cancels the rest, poc never takes, fok is all or nothing', async () => {
    const { p } = prices();
    const seller = sb.user({ BTC: '10' });
    const buyer = sb.user({ USDT: '1000000' });
    await place(seller, { side: 'sell', amount: '0.01', price: p(0) });
    const ioc = await place(buyer, { side: 'buy', amount: '0.02', price: p(0), time_in_force: 'ioc' });
    expect(ioc).toMatchObject({ status: 'cancelled', finish_as: 'ioc', filled_amount: '0.01', left: '0.01' });
    await place(seller, { side: 'sell', amount: '0.01', price: p(5) });
    const usdtBefore = sb.balance(buyer.id, 'USDT');
    const poc = await refused(buyer, { side: 'buy', amount: '0.01', price: p(5), time_in_force: 'poc', text: 't-poc' });
    expect(poc).toEqual({ status: 400, label: 'POC_FILL_IMMEDIATELY' });
    expect(sb.balance(buyer.id, 'USDT')).toEqual(usdtBefore); // refused: nothing locked, nothing stored
    const pocMaker = await place(buyer, { side: 'buy', amount: '0.01', price: p(1), time_in_force: 'poc' });
    expect(pocMaker).toMatchObject({ status: 'open', finish_as: 'open' });
    const fokFail = await place(buyer, { side: 'buy', amount: '0.02', price: p(5), time_in_force: 'fok' });
    expect(fokFail).toMatchObject({ status: 'cancelled', finish_as: 'fok', filled_amount: '0' });
    const fok = await place(buyer, { side: 'buy', amount: '0.01', price: p(5), time_in_force: 'fok' });
    expect(fok).toMatchObject({ status: 'closed', finish_as: 'filled' });
    const gtc = await place(buyer, { side: 'buy', amount: '0.01', price: p(2) });
    expect(gtc).toMatchObject({ status: 'open', finish_as: 'open', left: '0.01', time_in_force: 'gtc' });
    expect(sb.balance(buyer.id, 'USDT').locked).toBe(String((2 * band + 3) / 100)); // 0.01 at p(1) and at p(2)
  });

  it('market buy spends quote, market sell sells base', async () => {
    const { p } = prices();
    const mm = sb.user({ BTC: '10', USDT: '1000000' });
    const taker = sb.user({ BTC: '1', USDT: '100000' }, { taker_fee: '0', maker_fee: '0' });
    await place(mm, { side: 'sell', amount: '0.01', price: p(20) });
    await place(mm, { side: 'buy', amount: '0.01', price: p(-10) });
    const buy = await place(taker, { side: 'buy', type: 'market', amount: String((band + 20) / 200) });
    expect(buy).toMatchObject({
      type: 'market',
      price: '0',
      time_in_force: 'ioc',
      status: 'closed',
      filled_amount: '0.005',
    });
    const sell = await place(taker, { side: 'sell', type: 'market', amount: '0.004', time_in_force: 'fok' });
    expect(sell).toMatchObject({
      status: 'closed',
      finish_as: 'filled',
      filled_total: String(((band - 10) * 4) / 1000),
    });
    const gtcMarket = await refused(taker, { side: 'buy', type: 'market', amount: '10', time_in_force: 'gtc' });
    expect(gtcMarket).toEqual({ status: 400, label: 'INVALID_PARAM_VALUE' });
  });

  it('a partial fill then cancel releases exactly the unfilled part', async () => {
    const { p } = prices();
    const seller = sb.user({ BTC: '1' }, { maker_fee: '0.001', taker_fee: '0.002' });
    const buyer = sb.user({ USDT: '1000000' }, { maker_fee: '0.001', taker_fee: '0.002' });
    const ask = await place(seller, { side: 'sell', amount: '0.5', price: p(0) });
    expect(sb.balance(seller.id, 'BTC')).toEqual({ available: '0.5', locked: '0.5' });
    await place(buyer, { side: 'buy', amount: '0.2', price: p(0) });
    const partly = await seller.api.get<OrderJson>(`/spot/orders/${ask.id}`, { currency_pair: PAIR });
    expect(partly.body).toMatchObject({ status: 'open', left: '0.3', filled_amount: '0.2' });
    const cancelled = await seller.api.delete<OrderJson>(`/spot/orders/${ask.id}`, { currency_pair: PAIR });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({
      status: 'cancelled',
      finish_as: 'cancelled',
      left: '0.3',
      filled_amount: '0.2',
    });
    expect(sb.balance(seller.id, 'BTC')).toEqual({ available: '0.8', locked: '0' });
    // Maker fee 0.1 % of the quote received.
    const received = band * 0.2;
    expect(sb.balance(seller.id, 'USDT').available).toBe(String(received - received / 1000));
    const again = await seller.api.delete<Json>(`/spot/orders/${ask.id}`, { currency_pair: PAIR });
    expect(again.body).toMatchObject({ label: 'ORDER_CANCELLED' });
    const missing = await seller.api.delete<Json>('/spot/orders/999999999', { currency_pair: PAIR });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ label: 'ORDER_NOT_FOUND' });
  });

  it('amend keeps priority only when the amount is reduced', async () => {
    const { p } = prices();
    const a = sb.user({ BTC: '1' });
    const b = sb.user({ BTC: '1' });
    const buyer = sb.user({ USDT: '1000000' });
    const first = await place(a, { side: 'sell', amount: '0.02', price: p(0) });
    const second = await place(b, { side: 'sell', amount: '0.02', price: p(0) });
    const reduced = await a.api.patch<OrderJson>(
      `/spot/orders/${first.id}`,
      { amount: '0.01', amend_text: 'smaller' },
      { currency_pair: PAIR },
    );
    expect(reduced.body).toMatchObject({ amount: '0.01', left: '0.01', amend_text: 'smaller' });
    expect(sb.balance(a.id, 'BTC').locked).toBe('0.01');
    await place(buyer, { side: 'buy', amount: '0.01', price: p(0) });
    expect((await a.api.get<OrderJson>(`/spot/orders/${first.id}`)).body.status).toBe('closed');
    // b is now first in line; raising its amount sends it behind a new order of a.
    const third = await place(a, { side: 'sell', amount: '0.01', price: p(0) });
    await b.api.patch(`/spot/orders/${second.id}`, { amount: '0.03' }, { currency_pair: PAIR });
    await place(buyer, { side: 'buy', amount: '0.01', price: p(0) });
    expect((await a.api.get<OrderJson>(`/spot/orders/${third.id}`)).body.status).toBe('closed');
    expect((await b.api.get<OrderJson>(`/spot/orders/${second.id}`)).body).toMatchObject({
      status: 'open',
      left: '0.03',
    });
    // A price change also moves to the back (of the new level) and can trade.
    const moved = await b.api.patch<OrderJson>(`/spot/orders/${second.id}`, { price: p(-1) }, { currency_pair: PAIR });
    expect(moved.body).toMatchObject({ price: p(-1), status: 'open' });
    const below = await b.api.patch<OrderJson>(
      `/spot/orders/${second.id}`,
      { amount: '0.000001' },
      { currency_pair: PAIR },
    );
    expect(below.body).toMatchObject({ label: 'AMOUNT_TOO_LITTLE' });
    const noChange = await b.api.patch<Json>(`/spot/orders/${second.id}`, {}, { currency_pair: PAIR });
    expect(noChange.body).toMatchObject({ label: 'MISSING_REQUIRED_PARAM' });
  });

  it('rejects precision, minimum and malformed orders with the platform labels, changing nothing', async () => {
    const u = sb.user({ USDT: '100', BTC: '1' });
    const before = sb.balance(u.id, 'USDT');
    expect(await refused(u, { side: 'buy', amount: '0.001', price: '60000.05' })).toEqual({
      status: 400,
      label: 'INVALID_PRECISION',
    });
    expect(await refused(u, { side: 'buy', amount: '0.0000001', price: '60000' })).toEqual({
      status: 400,
      label: 'INVALID_PRECISION',
    });
    expect(await refused(u, { side: 'buy', amount: '0.000001', price: '60000' })).toEqual({
      status: 400,
      label: 'AMOUNT_TOO_LITTLE',
    });
    expect(await refused(u, { side: 'sell', type: 'market', amount: '0.000001' })).toEqual({
      status: 400,
      label: 'AMOUNT_TOO_LITTLE',
    });
    expect(await refused(u, { side: 'buy', type: 'market', amount: '1' })).toEqual({
      status: 400,
      label: 'AMOUNT_TOO_LITTLE',
    });
    expect(await refused(u, { side: 'buy', amount: '0.01', price: '60000' })).toEqual({
      status: 400,
      label: 'BALANCE_NOT_ENOUGH',
    });
    expect(await refused(u, { side: 'buy', amount: '0.01' })).toEqual({ status: 400, label: 'MISSING_REQUIRED_PARAM' });
    expect(await refused(u, { side: 'hold', amount: '0.01', price: '1' })).toEqual({
      status: 400,
      label: 'INVALID_PARAM_VALUE',
    });
    expect(await refused(u, { side: 'buy', amount: '-1', price: '1' })).toEqual({
      status: 400,
      label: 'INVALID_PARAM_VALUE',
    });
    expect(await refused(u, { side: 'buy', amount: '0.01', price: '100', text: 'no-prefix' })).toEqual({
      status: 400,
      label: 'INVALID_PARAM_VALUE',
    });
    expect(await refused(u, { currency_pair: 'DOGE_BTC', side: 'buy', amount: '1', price: '1' })).toEqual({
      status: 400,
      label: 'INVALID_CURRENCY_PAIR',
    });
    expect(sb.balance(u.id, 'USDT')).toEqual(before);
    expect((await u.api.get<Json[]>('/spot/open_orders')).body).toEqual([]);
  });

  it('refuses placement after its x-gate-exptime', async () => {
    const u = sb.user({ USDT: '100000' });
    const body = { currency_pair: PAIR, side: 'buy', amount: '0.001', price: '20000' };
    const late = await u.api.request<Json>('POST', '/spot/orders', {
      body,
      headers: { 'x-gate-exptime': String(Date.now() - 1000) },
    });
    expect(late.body).toMatchObject({ label: 'REQUEST_EXPIRED' });
    expect(sb.balance(u.id, 'USDT').locked).toBe('0');
    const inTime = await u.api.request<Json>('POST', '/spot/orders', {
      body,
      headers: { 'x-gate-exptime': String(Date.now() + 60_000) },
    });
    expect(inTime.status).toBe(201);
  });

  it('action_mode ACK and RESULT trim the answer', async () => {
    const { p } = prices();
    const u = sb.user({ USDT: '100000' });
    const ack = await place(u, { side: 'buy', amount: '0.001', price: p(0), action_mode: 'ACK', text: 't-ack' });
    expect(Object.keys(ack).sort()).toEqual(['amend_text', 'id', 'text']);
    const result = await place(u, { side: 'buy', amount: '0.001', price: p(0), action_mode: 'RESULT' });
    expect(result).toHaveProperty('status', 'open');
    expect(result).not.toHaveProperty('fee');
    const viaChannel = await u.api.request<Json>('POST', '/spot/orders', {
      body: { currency_pair: PAIR, side: 'buy', amount: '0.001', price: p(0) },
      headers: { 'X-Gate-Channel-Id': 'ccxt' },
    });
    expect(viaChannel.body.biz_info).toBe('ch:ccxt');
    const full = await place(u, { side: 'buy', amount: '0.001', price: p(0) });
    expect(full).not.toHaveProperty('biz_info');
    expect(full).toMatchObject({ fee: '0', fee_currency: 'BTC', stp_id: 0, stp_act: '-', text: 'apiv4' });
  });
});

describe('self-trade prevention', () => {
  let main: TestUser;
  let sub: TestUser;
  let outsider: TestUser;
  let groupId: number;

  beforeAll(async () => {
    main = sb.user({ BTC: '10', USDT: '10000000' });
    sub = sb.subAccount(main, { BTC: '10', USDT: '10000000' });
    outsider = sb.user({ BTC: '10', USDT: '10000000' });
    const group = await main.api.post<{ id: number; name: string; creator_id: number }>('/account/stp_groups', {
      name: 'desk',
    });
    expect(group.body).toMatchObject({ name: 'desk', creator_id: main.id });
    groupId = group.body.id;
    const members = await main.api.post<Json[]>(`/account/stp_groups/${groupId}/users`, [main.id, sub.id]);
    expect(members.body.map((m) => m.user_id).sort()).toEqual([main.id, sub.id].sort());
  });

  it('manages groups: list with fuzzy name, members, refusal of foreign users, removal', async () => {
    const listed = await main.api.get<Json[]>('/account/stp_groups', { name: 'es' });
    expect(listed.body.map((g) => g.id)).toEqual([groupId]);
    const foreign = await main.api.post<Json>(`/account/stp_groups/${groupId}/users`, [outsider.id]);
    expect(foreign.body).toMatchObject({ label: 'INVALID_PARAM_VALUE' });
    const notMine = await outsider.api.get<Json>(`/account/stp_groups/${groupId}/users`);
    expect(notMine.status).toBe(404);
    const fromSub = await sub.api.post<Json>('/account/stp_groups', { name: 'x' });
    expect(fromSub.status).toBe(403);
    const subSees = await sub.api.get<Json[]>(`/account/stp_groups/${groupId}/users`);
    expect(subSees.body.map((m) => m.user_id)).toContain(sub.id);
    const extra = sb.subAccount(main);
    await main.api.post(`/account/stp_groups/${groupId}/users`, [extra.id]);
    const remaining = await main.api.delete<Json[]>(`/account/stp_groups/${groupId}/users`, { user_id: extra.id });
    expect(remaining.body.map((m) => m.user_id).sort()).toEqual([main.id, sub.id].sort());
  });

  it('orders carry stp_id; stp_act outside any group is refused', async () => {
    const { p } = prices();
    const o = await place(sub, { side: 'buy', amount: '0.001', price: p(0) });
    expect(o.stp_id).toBe(groupId);
    expect(await refused(outsider, { side: 'buy', amount: '0.001', price: p(0), stp_act: 'cn' })).toEqual({
      status: 400,
      label: 'INVALID_PARAM_VALUE',
    });
  });

  it('cn (the default): the taker is cancelled with finish_as=stp, the maker stays open', async () => {
    const { p } = prices();
    const maker = await place(main, { side: 'sell', amount: '0.01', price: p(0) });
    const taker = await place(sub, { side: 'buy', amount: '0.01', price: p(0) });
    expect(taker).toMatchObject({ status: 'cancelled', finish_as: 'stp', filled_amount: '0', stp_act: '-' });
    expect((await main.api.get<OrderJson>(`/spot/orders/${maker.id}`)).body).toMatchObject({ status: 'open' });
  });

  it('co: the maker is cancelled with finish_as=stp and the taker goes on', async () => {
    const { p } = prices();
    const maker = await place(main, { side: 'sell', amount: '0.01', price: p(0) });
    const other = await place(outsider, { side: 'sell', amount: '0.01', price: p(1) });
    const taker = await place(sub, { side: 'buy', amount: '0.01', price: p(1), stp_act: 'co' });
    expect(taker).toMatchObject({ status: 'closed', finish_as: 'filled', stp_act: 'co' });
    expect((await main.api.get<OrderJson>(`/spot/orders/${maker.id}`)).body).toMatchObject({
      status: 'cancelled',
      finish_as: 'stp',
    });
    expect((await outsider.api.get<OrderJson>(`/spot/orders/${other.id}`)).body.status).toBe('closed');
    expect(sb.balance(main.id, 'BTC').locked).toBe('0');
  });

  it('cb: both are cancelled with finish_as=stp', async () => {
    const { p } = prices();
    const maker = await place(main, { side: 'sell', amount: '0.01', price: p(0) });
    const taker = await place(sub, { side: 'buy', amount: '0.01', price: p(0), stp_act: 'cb' });
    expect(taker).toMatchObject({ status: 'cancelled', finish_as: 'stp' });
    expect((await main.api.get<OrderJson>(`/spot/orders/${maker.id}`)).body).toMatchObject({
      status: 'cancelled',
      finish_as: 'stp',
    });
  });

  it('different groups (or none) trade normally', async () => {
    const { p } = prices();
    await place(outsider, { side: 'sell', amount: '0.01', price: p(0) });
    const taker = await place(sub, { side: 'buy', amount: '0.01', price: p(0) });
    expect(taker).toMatchObject({ status: 'closed', finish_as: 'filled' });
  });
});

describe('lists, cancel-all and batches', () => {
  it('cancel-all by pair and side, open_orders, finished orders, text ids', async () => {
    const { p } = prices();
    const u = sb.user({ USDT: '1000000', ETH: '10' });
    await place(u, { side: 'buy', amount: '0.001', price: p(0), text: 't-one' });
    await place(u, { side: 'buy', amount: '0.001', price: p(1) });
    await place(u, { side: 'sell', amount: '1', price: '9999' }, 'ETH_USDT');
    const open = await u.api.get<{ currency_pair: string; total: number }[]>('/spot/open_orders');
    expect(open.body.map((g) => [g.currency_pair, g.total]).sort()).toEqual([
      ['BTC_USDT', 2],
      ['ETH_USDT', 1],
    ]);
    const byText = await u.api.get<OrderJson>('/spot/orders/t-one', { currency_pair: PAIR });
    expect(byText.body.text).toBe('t-one');
    const listOpen = await u.api.get<OrderJson[]>('/spot/orders', { currency_pair: PAIR, status: 'open' });
    expect(listOpen.body).toHaveLength(2);
    const noStatus = await u.api.get<Json>('/spot/orders', { currency_pair: PAIR });
    expect(noStatus.body).toMatchObject({ label: 'MISSING_REQUIRED_PARAM' });
    const cancelled = await u.api.delete<(OrderJson & { succeeded: boolean })[]>('/spot/orders', {
      currency_pair: PAIR,
      side: 'buy',
    });
    expect(cancelled.body).toHaveLength(2);
    expect(cancelled.body.every((o) => o.succeeded && o.status === 'cancelled')).toBe(true);
    expect(sb.balance(u.id, 'USDT').locked).toBe('0');
    expect(sb.balance(u.id, 'ETH').locked).toBe('1');
    const finished = await u.api.get<OrderJson[]>('/spot/orders', { currency_pair: PAIR, status: 'finished' });
    expect(finished.body.map((o) => o.finish_as)).toEqual(['cancelled', 'cancelled']);
    const rest = await u.api.delete<OrderJson[]>('/spot/orders');
    expect(rest.body.map((o) => o.currency_pair)).toEqual(['ETH_USDT']);
  });

  it('batch_orders reports each order, with per-item failures and batch-wide limits', async () => {
    const { p } = prices();
    const u = sb.user({ USDT: '1000000' });
    const res = await u.api.post<Json[]>('/spot/batch_orders', [
      { currency_pair: PAIR, side: 'buy', amount: '0.001', price: p(0), text: 't-b1' },
      { currency_pair: PAIR, side: 'buy', amount: '0.001', price: '1.05', text: 't-b2' },
    ]);
    expect(res.status).toBe(200);
    expect(res.body[0]).toMatchObject({ succeeded: true, text: 't-b1', status: 'open' });
    expect(res.body[0]?.order_id).toBe(res.body[0]?.id);
    expect(res.body[1]).toMatchObject({ succeeded: false, text: 't-b2', label: 'INVALID_PRECISION' });
    // `text` is required per order of a batch: only the order without one is refused.
    const untagged = await u.api.post<Json[]>('/spot/batch_orders', [
      { currency_pair: PAIR, side: 'buy', amount: '0.001', price: p(0) },
      { currency_pair: PAIR, side: 'buy', amount: '0.001', price: p(0), text: 't-b3' },
      { currency_pair: PAIR, side: 'buy', amount: '0.001', price: p(0), text: '' },
    ]);
    expect(untagged.status).toBe(200);
    expect(untagged.body.map((o) => [o.succeeded, o.label])).toEqual([
      [false, 'MISSING_REQUIRED_PARAM'],
      [true, ''],
      [false, 'MISSING_REQUIRED_PARAM'],
    ]);
    const eleven = Array.from({ length: 11 }, () => ({
      currency_pair: PAIR,
      side: 'buy',
      amount: '0.001',
      price: p(0),
    }));
    expect((await u.api.post<Json>('/spot/batch_orders', eleven)).body).toMatchObject({ label: 'TOO_MANY_ORDERS' });
    const five = ['BTC_USDT', 'ETH_USDT', 'GT_USDT', 'XRP_USDT', 'DOGE_USDT'].map((pair) => ({
      currency_pair: pair,
      side: 'buy',
      amount: '1',
      price: '1',
    }));
    expect((await u.api.post<Json>('/spot/batch_orders', five)).body).toMatchObject({
      label: 'TOO_MANY_CURRENCY_PAIRS',
    });
  });

  it('amend_batch_orders and cancel_batch_orders', async () => {
    const { p } = prices();
    const u = sb.user({ USDT: '1000000' });
    const a = await place(u, { side: 'buy', amount: '0.001', price: p(0) });
    const b = await place(u, { side: 'buy', amount: '0.001', price: p(0) });
    const amended = await u.api.post<Json[]>('/spot/amend_batch_orders', [
      { order_id: a.id, currency_pair: PAIR, price: p(-1) },
      { order_id: '123', currency_pair: PAIR, price: p(-1) },
    ]);
    expect(amended.body[0]).toMatchObject({ succeeded: true, id: a.id, price: p(-1) });
    expect(amended.body[1]).toMatchObject({ succeeded: false, label: 'ORDER_NOT_FOUND' });
    const cancelled = await u.api.post<Json[]>('/spot/cancel_batch_orders', [
      { currency_pair: PAIR, id: a.id },
      { currency_pair: PAIR, id: b.id },
      { currency_pair: PAIR, id: a.id },
    ]);
    expect(cancelled.body.map((r) => r.succeeded)).toEqual([true, true, false]);
    expect(cancelled.body[2]).toMatchObject({ label: 'ORDER_CANCELLED', id: a.id });
    expect(sb.balance(u.id, 'USDT').locked).toBe('0');
  });

  it('my_trades, account_book, accounts, fee and batch_fee', async () => {
    const { p } = prices();
    const seller = sb.user({ BTC: '1' });
    const buyer = sb.user({ USDT: '1000000' }, { maker_fee: '0.001', taker_fee: '0.002' });
    await place(seller, { side: 'sell', amount: '0.1', price: p(0), text: 't-ask' });
    const bid = await place(buyer, { side: 'buy', amount: '0.1', price: p(0), text: 't-bid' });
    const trades = await buyer.api.get<Json[]>('/spot/my_trades', { currency_pair: PAIR });
    expect(trades.body).toHaveLength(1);
    expect(trades.body[0]).toMatchObject({
      side: 'buy',
      role: 'taker',
      order_id: bid.id,
      amount: '0.1',
      fee: '0.0002',
      fee_currency: 'BTC',
      text: 't-bid',
    });
    const sellerTrades = await seller.api.get<Json[]>('/spot/my_trades');
    expect(sellerTrades.body[0]).toMatchObject({ side: 'sell', role: 'maker', text: 't-ask' });
    const book = await buyer.api.get<Json[]>('/spot/account_book', { currency: 'BTC' });
    expect(book.body.map((e) => [e.type, e.change, e.code])).toEqual([
      ['fee', '-0.0002', '2'],
      ['trade', '0.1', '1'],
    ]);
    const accounts = await buyer.api.get<Json[]>('/spot/accounts', { currency: 'BTC' });
    expect(accounts.body).toEqual([
      { currency: 'BTC', available: '0.0998', locked: '0', update_id: expect.any(Number) },
    ]);
    const fee = await buyer.api.get<Json>('/spot/fee', { currency_pair: PAIR });
    expect(fee.body).toMatchObject({ taker_fee: '0.002', maker_fee: '0.001', currency_pair: PAIR, user_id: buyer.id });
    const batch = await buyer.api.get<Record<string, Json>>('/spot/batch_fee', { currency_pairs: 'BTC_USDT,ETH_USDT' });
    expect(Object.keys(batch.body)).toEqual(['BTC_USDT', 'ETH_USDT']);
  });
});

describe('limits and clients', () => {
  it('placement is limited to 10 per second per user and market', async () => {
    const u = sb.user({ USDT: '1000000', ETH: '10' });
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const r = await u.api.post<Json>('/spot/orders', {
        currency_pair: PAIR,
        side: 'buy',
        amount: '0.001',
        price: '5000',
      });
      statuses.push(r.status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 201)).toBe(true);
    expect(statuses[10]).toBe(429);
    const other = await u.api.post<Json>('/spot/orders', {
      currency_pair: 'ETH_USDT',
      side: 'sell',
      amount: '1',
      price: '9000',
    });
    expect(other.status).toBe(201);
  });

  it('a batch counts once against each market it names, not against one shared counter', async () => {
    const u = sb.user({ USDT: '1000' });
    // Items too small to be accepted: the limiter counts before any order is looked at.
    const item = (pair: string) => ({ currency_pair: pair, side: 'buy', amount: '0.0001', price: '1' });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      statuses.push((await u.api.post('/spot/batch_orders', [item(PAIR), item(PAIR), item('ETH_USDT')])).status);
    }
    expect(statuses).toEqual(Array(10).fill(200));
    // Another market still has its whole allowance…
    expect((await u.api.post('/spot/batch_orders', [item('GT_USDT')])).status).toBe(200);
    // …while both markets of the earlier batches are used up, whichever endpoint asks.
    expect((await u.api.post('/spot/batch_orders', [item('GT_USDT'), item('ETH_USDT')])).status).toBe(429);
    expect((await u.api.post('/spot/orders', item(PAIR))).status).toBe(429);
  });

  it('places and cancels through the official SDK gate-api', async () => {
    const u = sb.user({ USDT: '100000' });
    const key = sb.ctx.users.createKey(u.id, { perms: [{ name: 'spot', read_only: false }], ipWhitelist: [] });
    const client = new ApiClient(sb.baseUrl);
    client.setApiKeySecret(key.key, key.secret);
    const api = new SpotApi(client);
    const order = new SdkOrder();
    order.currencyPair = PAIR;
    order.side = SdkOrder.Side.Buy;
    order.amount = '0.001';
    order.price = '20000';
    order.text = 't-sdk';
    const created = await api.createOrder(order);
    expect(created.response.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'open', text: 't-sdk', currencyPair: PAIR });
    const cancelled = await api.cancelOrder(created.body.id!, PAIR);
    expect(cancelled.body.status).toBe('cancelled');
    const book = await api.listOrderBook(PAIR, { limit: 5 });
    expect(Array.isArray(book.body.asks)).toBe(true);
  });
});

describe('third-party client', () => {
  it('ccxt (gate) loads markets, reads the book, places and cancels', async () => {
    const u = sb.user({ USDT: '100000' });
    const key = sb.ctx.users.createKey(u.id, { perms: [{ name: 'spot', read_only: false }], ipWhitelist: [] });
    const ex = pointCcxtAtSandbox(new ccxt.gate({ apiKey: key.key, secret: key.secret }), sb);
    // ccxt also reads the deprecated GET /margin/currency_pairs, which the sandbox does not serve.
    (ex as unknown as { publicMarginGetCurrencyPairs: () => Promise<unknown[]> }).publicMarginGetCurrencyPairs =
      async () => [];
    await ex.loadMarkets();
    expect(ex.markets?.['BTC/USDT']?.precision.price).toBe(0.1);
    const order = await ex.createOrder('BTC/USDT', 'limit', 'buy', 0.001, 30000);
    expect(order).toMatchObject({ status: 'open', price: 30000, amount: 0.001 });
    expect(order.info.biz_info).toBe('ch:ccxt');
    const book = await ex.fetchOrderBook('BTC/USDT', 5);
    expect(book.bids[0]).toEqual([30000, 0.001]);
    const cancelled = await ex.cancelOrder(String(order.id), 'BTC/USDT');
    expect(cancelled.status).toBe('canceled');
  });
});

describe('persistence', () => {
  it('orders, trades and the book survive a restart', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { startSandbox } = await import('../server');
    const { SignedClient } = await import('../testing/client');
    const dataDir = mkdtempSync(join(tmpdir(), 'spot-persist-'));
    try {
      const first = await startSandbox({ port: 0, dataDir, market: 'off', seed: 9 });
      const api = new SignedClient(first.baseUrl, { key: first.key, secret: first.secret });
      const bid = await api.post<OrderJson>('/spot/orders', {
        currency_pair: PAIR,
        side: 'buy',
        amount: '0.001',
        price: '30000',
      });
      expect(bid.status).toBe(201);
      const lockedBefore = first.ctx.ledger.get({ userId: first.userId, account: 'spot', currency: 'USDT' }).locked;
      await first.close();

      const second = await startSandbox({ port: 0, dataDir, market: 'off' });
      try {
        const again = new SignedClient(second.baseUrl, { key: second.key, secret: second.secret });
        const order = await again.get<OrderJson>(`/spot/orders/${bid.body.id}`, { currency_pair: PAIR });
        expect(order.body).toMatchObject({ status: 'open', left: '0.001' });
        const book = await again.get<{ bids: string[][] }>('/spot/order_book', { currency_pair: PAIR });
        expect(book.body.bids[0]).toEqual(['30000', '0.001']);
        expect(second.ctx.ledger.get({ userId: second.userId, account: 'spot', currency: 'USDT' }).locked).toBe(
          lockedBefore,
        );
        const cancelled = await again.delete<OrderJson>(`/spot/orders/${bid.body.id}`, { currency_pair: PAIR });
        expect(cancelled.body.status).toBe('cancelled');
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('manual clock', () => {
  it('never writes a record time ahead of /spot/time, and a client that did not re-sync still signs in', async () => {
    const manual = await startTestSandbox({ clock: 'manual' });
    try {
      manual.ctx.clock.advance(3600); // an hour ahead of the wall clock
      const u = manual.user({ USDT: '100000' }); // its client signs with the wall clock
      const order = await u.api.post<OrderJson & { create_time_ms: number | string }>('/spot/orders', {
        currency_pair: PAIR,
        side: 'buy',
        amount: '0.001',
        price: '20000',
      });
      expect(order.status).toBe(201);
      const serverTime = (await u.api.get<{ server_time: number }>('/spot/time')).body.server_time;
      expect(Number(order.body.create_time_ms)).toBeLessThanOrEqual(serverTime);
      expect(serverTime).toBeGreaterThanOrEqual(Date.now() + 3_599_000);
    } finally {
      await manual.close();
    }
  });
});

describe('countdown cancel-all', () => {
  it('cancels the open orders when business time passes the countdown, unless re-armed or disarmed', async () => {
    const manual = await startTestSandbox({ clock: 'manual' });
    try {
      const u = manual.user({ USDT: '100000' });
      const order = (
        await u.api.post<OrderJson>('/spot/orders', {
          currency_pair: PAIR,
          side: 'buy',
          amount: '0.001',
          price: '20000',
        })
      ).body;
      const tooShort = await u.api.post<Json>('/spot/countdown_cancel_all', { timeout: 3 });
      expect(tooShort.body).toMatchObject({ label: 'INVALID_PARAM_VALUE' });
      const armed = await u.api.post<{ triggerTime: number }>('/spot/countdown_cancel_all', {
        timeout: 10,
        currency_pair: PAIR,
      });
      expect(armed.body.triggerTime).toBe(manual.ctx.clock.now() + 10_000);
      manual.ctx.clock.advance(8);
      await u.api.post('/spot/countdown_cancel_all', { timeout: 10, currency_pair: PAIR }); // re-armed
      manual.ctx.clock.advance(8);
      expect((await u.api.get<OrderJson>(`/spot/orders/${order.id}`)).body.status).toBe('open');
      manual.ctx.clock.advance(3);
      expect((await u.api.get<OrderJson>(`/spot/orders/${order.id}`)).body).toMatchObject({
        status: 'cancelled',
        finish_as: 'cancelled',
      });
      expect(manual.balance(u.id, 'USDT').locked).toBe('0');
      await u.api.post('/spot/orders', { currency_pair: PAIR, side: 'buy', amount: '0.001', price: '20000' });
      await u.api.post('/spot/countdown_cancel_all', { timeout: 5 });
      expect(
        (await u.api.post<{ triggerTime: number }>('/spot/countdown_cancel_all', { timeout: 0 })).body.triggerTime,
      ).toBe(0);
      manual.ctx.clock.advance(10);
      expect((await u.api.get<unknown[]>('/spot/open_orders')).body).toHaveLength(1);
    } finally {
      await manual.close();
    }
  });
});
