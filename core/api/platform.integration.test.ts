/**
 * Every operation of the PlatformApi against a real sandbox over HTTP (signed, rate-limited,
 * validated), plus the clock, the limiter and the error paths.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { control, type SandboxHandle, startTestSandbox } from '../../sandbox/testing/harness';
import { PlatformConnection } from '../profiles/connection';
import { ApiError } from './apiError';
import type { RequestRecord } from './client';

let sandbox: SandboxHandle;
let conn: PlatformConnection;
const records: RequestRecord[] = [];

beforeAll(async () => {
  sandbox = await startTestSandbox({ market: 'on' });
  conn = new PlatformConnection({
    baseUrl: sandbox.baseUrl,
    credentials: { key: sandbox.key, secret: sandbox.secret },
    onRequest: (r) => records.push(r),
  });
  await conn.client.syncClock();
});

afterAll(async () => {
  conn?.close();
  await sandbox?.close();
});

const expectLabel = async (promise: Promise<unknown>, label: string) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).label).toBe(label);
  return error as ApiError;
};

describe('wallet operations', () => {
  it('reads chains, addresses, fees and limits', async () => {
    const api = conn.api;
    const chains = await api.wallet.currencyChains('USDT');
    expect(chains.map((c) => c.chain)).toEqual(expect.arrayContaining(['TRX', 'ETH']));
    const address = await api.wallet.depositAddress('USDT');
    expect(address.multichain_addresses.length).toBeGreaterThan(1);
    const status = await api.wallet.withdrawStatus('USDT');
    expect(status[0]?.currency).toBe('USDT');
    expect(status[0]?.withdraw_fix_on_chains).toHaveProperty('TRX');
    const saved = await api.wallet.savedAddresses({ currency: 'USDT' });
    expect(saved.length).toBeGreaterThan(2);
    const fee = await api.wallet.fee();
    expect(fee.taker_fee).toMatch(/^\d/);
    const total = await api.wallet.totalBalance('USDT');
    expect(Number(total.total.amount)).toBeGreaterThan(0);
    expect(await api.wallet.lowCapExchangeList()).toEqual(expect.any(Array));
  });

  it('lists deposits and withdrawals with times parsed as numbers', async () => {
    const now = Math.floor(Date.now() / 1000);
    const deposits = await conn.api.wallet.deposits({ from: now - 10 * 86400, to: now + 60 });
    expect(deposits.length).toBeGreaterThanOrEqual(3);
    expect(typeof deposits[0]?.timestamp).toBe('number');
    const withdrawals = await conn.api.wallet.withdrawals({ from: now - 10 * 86400, to: now + 60 });
    expect(withdrawals.some((w) => w.id === 'w20000001')).toBe(true);
  });

  it('reads sub-account balances of every kind', async () => {
    const api = conn.api;
    const subs = await api.subAccounts.list();
    expect(subs.length).toBeGreaterThanOrEqual(2);
    const spot = await api.wallet.subAccountBalances();
    expect(spot.length).toBeGreaterThanOrEqual(2);
    expect(await api.wallet.subAccountMarginBalances()).toEqual(expect.any(Array));
    expect(await api.wallet.subAccountFuturesBalances({ settle: 'usdt' })).toEqual(expect.any(Array));
    expect(await api.wallet.subAccountCrossMarginBalances()).toEqual(expect.any(Array));
  });

  it('small balances: list, convert, history', async () => {
    const api = conn.api;
    const small = await api.wallet.smallBalance();
    expect(small.length).toBeGreaterThan(0);
    await api.wallet.convertSmallBalance({ currency: [small[0]!.currency] });
    const history = await api.wallet.smallBalanceHistory();
    expect(history.some((h) => h.currency === small[0]!.currency)).toBe(true);
  });

  it('transfers between own accounts, main↔sub and sub↔sub, with order status by client id', async () => {
    const api = conn.api;
    const subs = await api.subAccounts.list();
    const [a, b] = subs;
    const own = await api.wallet.transfer({
      currency: 'USDT',
      from: 'spot',
      to: 'futures',
      amount: '10',
      settle: 'usdt',
    });
    expect(own.tx_id).toBeTruthy();
    const toSub = await api.wallet.subAccountTransfer({
      sub_account: String(a!.user_id),
      currency: 'USDT',
      amount: '5',
      direction: 'to',
      client_order_id: 'itest-main-sub-1',
    });
    expect((await api.wallet.orderStatus({ client_order_id: 'itest-main-sub-1' })).tx_id).toBe(toSub.tx_id);
    // A repeat of the same client id never moves funds twice.
    await expectLabel(
      api.wallet.subAccountTransfer({
        sub_account: String(a!.user_id),
        currency: 'USDT',
        amount: '5',
        direction: 'to',
        client_order_id: 'itest-main-sub-1',
      }),
      'DUPLICATE_REQUEST',
    );
    await api.wallet.subToSubTransfer({
      currency: 'USDT',
      sub_account_from: String(a!.user_id),
      sub_account_from_type: 'spot',
      sub_account_to: String(b!.user_id),
      sub_account_to_type: 'spot',
      amount: '1',
    });
    const list = await api.wallet.subAccountTransfers({ sub_uid: String(a!.user_id) });
    expect(list.some((t) => t.client_order_id === 'itest-main-sub-1')).toBe(true);
    const book = await api.books.futures('usdt', { type: 'dnw' });
    expect(book.some((e) => e.change === '10')).toBe(true);
    expect(await api.books.margin({ currency: 'USDT' })).toEqual(expect.any(Array));
  });
});

describe('withdrawal operations', () => {
  it('withdraws to a saved address, finds it by withdraw_order_id, cancels it', async () => {
    const api = conn.api;
    const saved = (await api.wallet.savedAddresses({ currency: 'USDT', chain: 'TRX' })).find((s) => s.verified === '1');
    const record = await api.withdrawals.create({
      currency: 'USDT',
      chain: 'TRX',
      address: saved!.address,
      amount: '20',
      withdraw_order_id: 'itest-wd-1',
    });
    expect(record.id).toMatch(/^w/);
    const found = await api.wallet.withdrawals({ withdraw_order_id: 'itest-wd-1' });
    expect(found.map((w) => w.id)).toContain(record.id);
    const cancelled = await api.withdrawals.cancel(record.id);
    expect(cancelled.id).toBe(record.id);
  });

  it('pushes to another main account and lists the push', async () => {
    const other = await control<{ user_id: number }>(sandbox, '/users', {});
    const push = await conn.api.withdrawals.push({ receive_uid: other.user_id, currency: 'USDT', amount: '3' });
    expect(push.id).toBeTruthy();
    const pushes = await conn.api.wallet.pushRecords({ transaction_type: 'withdraw' });
    expect(pushes.some((p) => p.id === push.id && p.receive_uid === other.user_id)).toBe(true);
  });
});

describe('sub-account operations', () => {
  it('create, get, keys CRUD (secret only at creation, whitelist kept when sent), lock, unlock, unified mode', async () => {
    const api = conn.api;
    const sub = await api.subAccounts.create({ login_name: `itest_${Date.now().toString(36)}`, remark: 'itest' });
    expect((await api.subAccounts.get(sub.user_id)).login_name).toBe(sub.login_name);
    const created = await api.subAccounts.createKey(sub.user_id, {
      name: 'bot',
      perms: [{ name: 'spot', read_only: false }],
      ip_whitelist: ['10.0.0.1'],
    });
    expect(created.secret.length).toBeGreaterThan(10);
    const keys = await api.subAccounts.listKeys(sub.user_id);
    expect(keys[0]).not.toHaveProperty('secret');
    await api.subAccounts.updateKey(sub.user_id, created.key, {
      name: 'bot2',
      perms: [{ name: 'spot', read_only: true }],
      ip_whitelist: ['10.0.0.2'],
    });
    const updated = await api.subAccounts.getKey(sub.user_id, created.key);
    expect(updated.name).toBe('bot2');
    expect(updated.ip_whitelist).toEqual(['10.0.0.2']);
    await api.subAccounts.deleteKey(sub.user_id, created.key);
    const gone = await api.subAccounts.getKey(sub.user_id, created.key).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(ApiError);
    expect((gone as ApiError).status).toBeGreaterThanOrEqual(400);
    await api.subAccounts.lock(sub.user_id);
    expect((await api.subAccounts.get(sub.user_id)).state).toBe(2);
    await api.subAccounts.unlock(sub.user_id);
    expect((await api.subAccounts.unifiedMode()).length).toBeGreaterThan(0);
  });

  it('STP groups: create, list, add, list members, remove', async () => {
    const api = conn.api;
    const group = await api.account.createStpGroup(`itest${Date.now() % 100000}`);
    expect((await api.account.stpGroups()).map((g) => g.id)).toContain(group.id);
    const subs = await api.subAccounts.list();
    const members = await api.account.addStpGroupUsers(group.id, [subs[0]!.user_id]);
    expect(members.map((m) => m.user_id)).toContain(subs[0]!.user_id);
    expect((await api.account.stpGroupUsers(group.id)).length).toBe(1);
    const remaining = await api.account.removeStpGroupUsers(group.id, [subs[0]!.user_id]);
    expect(remaining).toHaveLength(0);
  });
});

describe('spot operations the order ticket uses', () => {
  it('market data: time, currencies, pairs, tickers, book, trades, candles', async () => {
    const api = conn.api;
    expect((await api.spot.time()).server_time).toBeGreaterThan(1e12);
    expect((await api.spot.currencies()).length).toBeGreaterThan(3);
    expect((await api.spot.currency('BTC')).currency).toBe('BTC');
    const pairs = await api.spot.currencyPairs();
    expect(pairs.map((p) => p.id)).toContain('BTC_USDT');
    expect((await api.spot.currencyPair('BTC_USDT')).base).toBe('BTC');
    expect((await api.spot.tickers({ currency_pair: 'BTC_USDT' }))[0]?.currency_pair).toBe('BTC_USDT');
    const book = await api.spot.orderBook({ currency_pair: 'BTC_USDT', limit: 5, with_id: true });
    expect(book.asks.length + book.bids.length).toBeGreaterThan(0);
    expect(await api.spot.trades({ currency_pair: 'BTC_USDT', limit: 10 })).toEqual(expect.any(Array));
    const candles = await api.spot.candlesticks({ currency_pair: 'BTC_USDT', interval: '1m', limit: 5 });
    expect(candles.length).toBeGreaterThan(0);
    expect(typeof candles[0]?.t).toBe('number');
  });

  it('orders: place, get, amend, list, open orders, cancel, cancel all, my trades, fee, accounts', async () => {
    const api = conn.api;
    const accounts = await api.spot.accounts();
    expect(accounts.some((a) => a.currency === 'USDT')).toBe(true);
    const book = await api.spot.orderBook({ currency_pair: 'BTC_USDT', limit: 1 });
    const bid = book.bids[0]?.[0] ?? '10000';
    const low = (Number(bid) * 0.5).toFixed(1);
    const order = await api.spot.placeOrder({
      currency_pair: 'BTC_USDT',
      side: 'buy',
      amount: '0.001',
      price: low,
      text: 't-itest1',
    });
    expect(order.status).toBe('open');
    expect((await api.spot.getOrder(order.id, { currency_pair: 'BTC_USDT' })).id).toBe(order.id);
    const amended = await api.spot.amendOrder(order.id, 'BTC_USDT', { amount: '0.0005' });
    expect(amended.amount).toBe('0.0005');
    expect((await api.spot.listOrders({ currency_pair: 'BTC_USDT', status: 'open' })).map((o) => o.id)).toContain(
      order.id,
    );
    expect((await api.spot.openOrders()).some((o) => o.currency_pair === 'BTC_USDT')).toBe(true);
    const cancelled = await api.spot.cancelOrder(order.id, { currency_pair: 'BTC_USDT' });
    expect(cancelled.status).toBe('cancelled');
    await api.spot.placeOrder({ currency_pair: 'BTC_USDT', side: 'buy', amount: '0.001', price: low });
    const all = await api.spot.cancelAllOrders({ currency_pair: 'BTC_USDT' });
    expect(all.length).toBeGreaterThanOrEqual(1);
    expect(await api.spot.myTrades({ currency_pair: 'BTC_USDT' })).toEqual(expect.any(Array));
    expect((await api.spot.fee('BTC_USDT')).taker_fee).toMatch(/^\d/);
    const book2 = await api.spot.accountBook({ currency: 'USDT', limit: 10 });
    expect(book2).toEqual(expect.any(Array));
  });
});

describe('clock', () => {
  it('corrects a skewed server clock and re-measures on REQUEST_EXPIRED', async () => {
    const skewed = new PlatformConnection({
      baseUrl: sandbox.baseUrl,
      credentials: { key: sandbox.key, secret: sandbox.secret },
    });
    try {
      await control(sandbox, '/clock', { offset_seconds: 300 });
      // Not measured yet: the first signed call expires, the client re-measures and retries once.
      const resynced: number[] = [];
      const client = new PlatformConnection({
        baseUrl: sandbox.baseUrl,
        credentials: { key: sandbox.key, secret: sandbox.secret },
        onClockResync: (offset) => resynced.push(offset),
      });
      expect((await client.api.spot.accounts()).length).toBeGreaterThan(0);
      expect(resynced).toHaveLength(1);
      expect(resynced[0]).toBeGreaterThan(295_000);
      expect(client.clock.isLarge()).toBe(true);
      client.close();
      const offset = await skewed.client.syncClock();
      expect(Math.abs(offset - 300_000)).toBeLessThan(2_000);
      expect((await skewed.api.wallet.withdrawStatus('BTC')).length).toBe(1);
    } finally {
      await control(sandbox, '/clock', { offset_seconds: 0 });
      skewed.close();
    }
  });
});

describe('rate limiter', () => {
  it('a burst far above a limit is spread out by the client and never meets a 429', async () => {
    const burst = new PlatformConnection({
      baseUrl: sandbox.baseUrl,
      credentials: { key: sandbox.key, secret: sandbox.secret },
    });
    const statuses: number[] = [];
    const seen = new PlatformConnection({
      baseUrl: sandbox.baseUrl,
      credentials: { key: sandbox.key, secret: sandbox.secret },
      onRequest: (r) => statuses.push(r.status),
    });
    try {
      await seen.client.syncClock();
      // POST /withdrawals/push: 1 per 10 s. Three in a row must be spaced, never refused.
      // Use the spot placement limit instead (10/s per market) so the test stays fast: 25 orders.
      const book = await seen.api.spot.orderBook({ currency_pair: 'ETH_USDT', limit: 1 });
      const price = (Number(book.bids[0]?.[0] ?? '1000') * 0.5).toFixed(2);
      const started = Date.now();
      const placed = await Promise.all(
        Array.from({ length: 25 }, () =>
          seen.api.spot.placeOrder({ currency_pair: 'ETH_USDT', side: 'buy', amount: '0.01', price }),
        ),
      );
      const elapsed = Date.now() - started;
      expect(placed).toHaveLength(25);
      expect(statuses.filter((s) => s === 429)).toHaveLength(0);
      expect(elapsed).toBeGreaterThanOrEqual(2_000); // 25 at 10/s need at least two more windows
      const snapshot = seen.limiter.snapshot();
      expect(snapshot.buckets.find((b) => b.key.startsWith('spotPlace'))?.limit).toBe(10);
      await seen.api.spot.cancelAllOrders({ currency_pair: 'ETH_USDT' });
    } finally {
      burst.close();
      seen.close();
    }
  });

  it('backs off on a 429 using the reset header and then succeeds', async () => {
    await control(sandbox, '/faults', {
      rules: [{ method: 'GET', path: '/api/v4/wallet/fee', kind: 'status_429', times: 1 }],
    });
    const statuses: number[] = [];
    const c = new PlatformConnection({
      baseUrl: sandbox.baseUrl,
      credentials: { key: sandbox.key, secret: sandbox.secret },
      onRequest: (r) => statuses.push(r.status),
    });
    try {
      expect((await c.api.wallet.fee()).taker_fee).toBeTruthy();
      expect(statuses).toEqual([429, 200]);
    } finally {
      c.close();
      await control(sandbox, '/faults', undefined, 'DELETE');
    }
  });
});

describe('error paths', () => {
  it('a wrong secret is INVALID_SIGNATURE with advice and the request id', async () => {
    const bad = new PlatformConnection({
      baseUrl: sandbox.baseUrl,
      credentials: { key: sandbox.key, secret: 'not-the-secret' },
    });
    try {
      const error = await expectLabel(bad.api.spot.accounts(), 'INVALID_SIGNATURE');
      expect(error.status).toBe(401);
      const ipc = error.toIpcError();
      expect(ipc).toMatchObject({ code: 'PLATFORM', label: 'INVALID_SIGNATURE', requestId: error.requestId });
      expect(ipc.advice).toMatch(/secret/i);
      expect(JSON.stringify(ipc)).not.toContain('not-the-secret');
    } finally {
      bad.close();
    }
  });

  it('an unknown key is INVALID_KEY; a read-only key writing is READ_ONLY', async () => {
    const unknown = new PlatformConnection({
      baseUrl: sandbox.baseUrl,
      credentials: { key: 'f'.repeat(32), secret: 'x'.repeat(64) },
    });
    await expectLabel(unknown.api.spot.accounts(), 'INVALID_KEY');
    unknown.close();
    const ro = await control<{ key: string; secret: string }>(sandbox, '/keys', {
      user_id: sandbox.userId,
      perms: [{ name: 'wallet', read_only: true }],
    });
    const readOnly = new PlatformConnection({ baseUrl: sandbox.baseUrl, credentials: ro });
    try {
      await readOnly.api.wallet.withdrawStatus();
      await expectLabel(
        readOnly.api.wallet.transfer({ currency: 'USDT', from: 'spot', to: 'futures', amount: '1', settle: 'usdt' }),
        'READ_ONLY',
      );
    } finally {
      readOnly.close();
    }
  });

  it('a refused platform answer keeps its label; bad input changes nothing', async () => {
    await expectLabel(
      conn.api.wallet.transfer({ currency: 'USDT', from: 'spot', to: 'futures', amount: '99999999', settle: 'usdt' }),
      'BALANCE_NOT_ENOUGH',
    );
  });

  it('an unreachable platform is a NETWORK error that certainly did nothing', async () => {
    const dead = new PlatformConnection({
      baseUrl: 'http://127.0.0.1:9/api/v4',
      credentials: { key: 'k'.repeat(32), secret: 's' },
    });
    try {
      const error = await expectLabel(dead.api.wallet.withdrawStatus(), 'NETWORK_UNREACHABLE');
      expect(error.delivery).toBe('not-executed');
      expect(error.toIpcError().code).toBe('NETWORK');
    } finally {
      dead.close();
    }
  });

  it('a connection cut after the platform acted leaves the outcome unknown (never "failed")', async () => {
    await control(sandbox, '/faults', {
      rules: [{ method: 'POST', path: '/api/v4/wallet/transfers', kind: 'drop_after', times: 1 }],
    });
    const error = await expectLabel(
      conn.api.wallet.transfer({ currency: 'USDT', from: 'spot', to: 'futures', amount: '1', settle: 'usdt' }),
      'NETWORK_INTERRUPTED',
    );
    expect(error.delivery).toBe('unknown');
  });

  it('every request carried an X-Client-Request-Id and no record holds the secret', () => {
    expect(records.length).toBeGreaterThan(30);
    for (const r of records) expect(r.requestId).toMatch(/^td-/);
    expect(JSON.stringify(records)).not.toContain(sandbox.secret);
  });
});
