import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../server';
import { api, type Credentials, controlAnswer, mainCreds, startTestSandbox } from '../testing/harness';

let sb: SandboxHandle;
let main: Credentials;
type Err = { label: string; message: string };
type Rec = Record<string, unknown>;
const TRADING = 10_000_002;
const OPS = 10_000_003;

beforeAll(async () => {
  sb = await startTestSandbox({ seed: 1 });
  main = mainCreds(sb);
});
afterAll(() => sb.close());

const balance = async (currency: string, creds = main) =>
  (await api<{ currency: string; available: string }[]>(sb, creds, 'GET', `/spot/accounts?currency=${currency}`))
    .body[0]?.available ?? '0';

describe('currencies, addresses and records', () => {
  it('lists currency chains without a signature, with the memo chain flagged', async () => {
    const res = await api<Rec[]>(sb, null, 'GET', '/wallet/currency_chains?currency=USDT');
    expect(res.status).toBe(200);
    const chains = Object.fromEntries(res.body.map((c) => [c.chain, c]));
    expect(Object.keys(chains)).toEqual(expect.arrayContaining(['ETH', 'TRX', 'TON']));
    expect(chains.TON).toMatchObject({ is_tag: 1, is_withdraw_disabled: 0, decimal: '6' });
    expect(chains.SOL).toMatchObject({ is_withdraw_disabled: 1 });
    expect((await api<Err>(sb, null, 'GET', '/wallet/currency_chains?currency=NOPE')).body.label).toBe(
      'INVALID_CURRENCY',
    );
    expect((await api<Err>(sb, null, 'GET', '/wallet/currency_chains')).body.label).toBe('MISSING_REQUIRED_PARAM');
    expect((await api<Rec[]>(sb, null, 'GET', '/wallet/currency_chains?currency=DUST')).body).toEqual([]);
  });

  it('gives per-chain deposit addresses, with a memo on memo chains', async () => {
    const res = await api<{ multichain_addresses: Rec[]; address: string; min_deposit_amount: string }>(
      sb,
      main,
      'GET',
      '/wallet/deposit_address?currency=USDT',
    );
    const byChain = Object.fromEntries(res.body.multichain_addresses.map((a) => [a.chain, a]));
    expect(byChain.ETH?.address).toMatch(/^0x[0-9a-f]{40}$/);
    expect(byChain.TON).toMatchObject({ payment_name: 'Memo', obtain_failed: 0 });
    expect(byChain.TON?.payment_id).toMatch(/^\d+$/);
    expect(res.body.min_deposit_amount).toBe('1');
  });

  it('lists deposits with the 7-day default and the 30-day rule', async () => {
    const all = await api<Rec[]>(sb, main, 'GET', '/wallet/deposits');
    expect(all.body.length).toBe(3);
    expect(all.body[0]).toMatchObject({ currency: 'ETH', status: 'DONE' });
    const btc = await api<Rec[]>(sb, main, 'GET', '/wallet/deposits?currency=BTC&limit=1');
    expect(btc.body.map((d) => d.currency)).toEqual(['BTC']);
    const now = Math.floor(sb.ctx.clock.now() / 1000);
    const tooWide = await api<Err>(sb, main, 'GET', `/wallet/deposits?from=${now - 31 * 86400}&to=${now}`);
    expect(tooWide.body.label).toBe('INVALID_PARAM_VALUE');
    const old = await api<Rec[]>(sb, main, 'GET', `/wallet/deposits?from=${now - 30 * 86400}&to=${now - 8 * 86400}`);
    expect(old.body).toEqual([]);
    expect((await api<Err>(sb, main, 'GET', '/wallet/deposits?limit=501')).body.label).toBe('INVALID_PARAM_VALUE');
    const page2 = await api<Rec[]>(sb, main, 'GET', '/wallet/deposits?limit=2&offset=2');
    expect(page2.body.length).toBe(1);
  });

  it('lists withdrawals (list form) and finds one by withdraw_id regardless of time', async () => {
    const res = await api<Rec[]>(sb, main, 'GET', '/wallet/withdrawals');
    expect(res.body[0]).toMatchObject({
      id: 'w20000001',
      status: 'DONE',
      fee: '1',
      fail_reason: '',
      block_number: '61234567',
    });
    const one = await api<Rec[]>(sb, main, 'GET', '/wallet/withdrawals?withdraw_id=w20000001&from=1&to=2');
    expect(one.body.map((w) => w.id)).toEqual(['w20000001']);
  });

  it('reports withdraw status with per-chain fees and the daily limit remaining', async () => {
    const res = await api<Rec[]>(sb, main, 'GET', '/wallet/withdraw_status?currency=USDT');
    expect(res.body[0]).toMatchObject({
      currency: 'USDT',
      withdraw_amount_mini: '10',
      withdraw_fix_on_chains: { ETH: '5', TRX: '1', TON: '0.5', SOL: '1' },
      withdraw_day_limit: '2000000',
    });
    const all = await api<Rec[]>(sb, main, 'GET', '/wallet/withdraw_status');
    expect(all.body.map((c) => c.currency)).not.toContain('DUST');
  });

  it('lists saved addresses by currency and chain', async () => {
    const res = await api<Rec[]>(sb, main, 'GET', '/wallet/saved_address?currency=USDT&chain=TON');
    expect(res.body).toEqual([expect.objectContaining({ chain: 'TON', tag: '7734001', verified: '1' })]);
    expect((await api<Err>(sb, main, 'GET', '/wallet/saved_address')).body.label).toBe('MISSING_REQUIRED_PARAM');
    expect((await api<Err>(sb, main, 'GET', '/wallet/saved_address?currency=USDT&limit=101')).body.label).toBe(
      'INVALID_PARAM_VALUE',
    );
  });

  it('gives the trade fee tier and the low-cap list', async () => {
    const fee = await api<Rec>(sb, main, 'GET', '/wallet/fee?currency_pair=BTC_USDT');
    expect(fee.body).toMatchObject({ user_id: sb.userId, taker_fee: '0.002', maker_fee: '0.002', debit_fee: 3 });
    expect((await api<Err>(sb, main, 'GET', '/wallet/fee?settle=EUR')).body.label).toBe('INVALID_PARAM_VALUE');
    expect((await api(sb, main, 'GET', '/wallet/getLowCapExchangeList')).body).toEqual(['DUST']);
  });
});

describe('balances', () => {
  it('totals every account in USDT, BTC, USD and CNY', async () => {
    const usdt = await api<{ total: Rec; details: Record<string, Rec> }>(sb, main, 'GET', '/wallet/total_balance');
    expect(usdt.body.details.futures).toMatchObject({ currency: 'USDT', unrealised_pnl: '0' });
    expect(usdt.body.details.margin).toHaveProperty('borrowed', '0');
    expect(Number(usdt.body.total.amount)).toBeGreaterThan(500_000);
    const cny = await api<{ total: Rec }>(sb, main, 'GET', '/wallet/total_balance?currency=CNY');
    expect(Number(cny.body.total.amount)).toBeCloseTo(Number(usdt.body.total.amount) * 7.2, 0);
    expect((await api<Err>(sb, main, 'GET', '/wallet/total_balance?currency=EUR')).body.label).toBe(
      'INVALID_PARAM_VALUE',
    );
  });

  it('shows sub-account spot, margin, perpetual and cross-margin balances', async () => {
    const spot = await api<Rec[]>(sb, main, 'GET', `/wallet/sub_account_balances?sub_uid=${TRADING}`);
    expect(spot.body).toEqual([{ uid: String(TRADING), available: { BTC: '0.2', USDT: '10000' } }]);
    const paged = await api<Rec[]>(sb, main, 'GET', '/wallet/sub_account_balances?limit=1&page=2');
    expect(paged.body.map((b) => b.uid)).toEqual([String(OPS)]);
    const margin = await api<{ available: Rec[] }[]>(
      sb,
      main,
      'GET',
      `/wallet/sub_account_margin_balances?sub_uid=${TRADING}`,
    );
    expect(margin.body[0]?.available[0]).toMatchObject({
      currency_pair: 'ETH_USDT',
      quote: { currency: 'USDT', available: '300' },
    });
    const futures = await api<{ available: Record<string, Rec> }[]>(
      sb,
      main,
      'GET',
      `/wallet/sub_account_futures_balances?sub_uid=${TRADING}&settle=usdt`,
    );
    expect(futures.body[0]?.available.usdt).toMatchObject({ total: '2500', available: '2500', currency: 'USDT' });
    const cross = await api<{ available: Rec }[]>(sb, main, 'GET', '/wallet/sub_account_cross_margin_balances');
    expect(cross.body[0]?.available).toMatchObject({ user_id: 0, total: '0' });
    const unknown = await api<Err>(sb, main, 'GET', '/wallet/sub_account_balances?sub_uid=42');
    expect([unknown.status, unknown.body.label]).toEqual([404, 'SUB_ACCOUNT_NOT_FOUND']);
  });

  it('lists, converts and records small balances', async () => {
    const small = await api<Rec[]>(sb, main, 'GET', '/wallet/small_balance');
    expect(small.body.map((s) => s.currency).sort()).toEqual(['DUST', 'PEPE', 'SHIB']);
    const gtBefore = Number(await balance('GT'));
    expect((await api<Err>(sb, main, 'POST', '/wallet/small_balance', {})).body.label).toBe('MISSING_REQUIRED_PARAM');
    expect((await api<Err>(sb, main, 'POST', '/wallet/small_balance', { currency: ['BTC'] })).body.label).toBe(
      'INVALID_CURRENCY',
    );
    expect((await api(sb, main, 'POST', '/wallet/small_balance', { currency: ['SHIB'] })).status).toBe(200);
    expect(await balance('SHIB')).toBe('0');
    expect(Number(await balance('GT'))).toBeGreaterThan(gtBefore);
    expect((await api(sb, main, 'POST', '/wallet/small_balance', { is_all: true })).status).toBe(200);
    expect((await api<Rec[]>(sb, main, 'GET', '/wallet/small_balance')).body).toEqual([]);
    const history = await api<Rec[]>(sb, main, 'GET', '/wallet/small_balance_history');
    expect(history.body.map((h) => h.currency).sort()).toEqual(['DUST', 'PEPE', 'SHIB']);
    expect(history.body[0]).toMatchObject({ id: expect.any(String), create_time: expect.any(Number) });
    expect((await api<Rec[]>(sb, main, 'GET', '/wallet/small_balance_history?currency=SHIB')).body.length).toBe(1);
    expect((await api<Err>(sb, main, 'GET', '/wallet/small_balance_history?limit=0')).body.label).toBe(
      'INVALID_PARAM_VALUE',
    );
  });
});

describe('transfers', () => {
  it('moves funds between own accounts with the margin pair and settle rules, recorded in the account books', async () => {
    const t = (b: Rec) => api<Rec>(sb, main, 'POST', '/wallet/transfers', b);
    expect((await t({ currency: 'USDT', from: 'spot', to: 'margin', amount: '100' })).body.label).toBe(
      'MISSING_REQUIRED_PARAM',
    );
    expect(
      (await t({ currency: 'USDT', from: 'spot', to: 'margin', amount: '100', currency_pair: 'XX_YY' })).body.label,
    ).toBe('INVALID_CURRENCY_PAIR');
    expect(
      (await t({ currency: 'GT', from: 'spot', to: 'margin', amount: '1', currency_pair: 'BTC_USDT' })).body.label,
    ).toBe('INVALID_PARAM_VALUE');
    expect((await t({ currency: 'USDT', from: 'spot', to: 'futures', amount: '1' })).body.label).toBe(
      'MISSING_REQUIRED_PARAM',
    );
    expect((await t({ currency: 'BTC', from: 'spot', to: 'futures', amount: '1', settle: 'usdt' })).body.label).toBe(
      'INVALID_PARAM_VALUE',
    );
    expect((await t({ currency: 'USDT', from: 'spot', to: 'spot', amount: '1' })).body.label).toBe(
      'INVALID_PARAM_VALUE',
    );
    expect(
      (await t({ currency: 'USDT', from: 'futures', to: 'spot', amount: '999999', settle: 'usdt' })).body.label,
    ).toBe('FUTURES_BALANCE_NOT_ENOUGH');
    const before = Number(await balance('USDT'));
    const margin = await t({ currency: 'USDT', from: 'spot', to: 'margin', amount: '100', currency_pair: 'BTC_USDT' });
    expect(margin.body.tx_id).toEqual(expect.any(Number));
    const futures = await t({ currency: 'USDT', from: 'spot', to: 'futures', amount: '50', settle: 'usdt' });
    const delivery = await t({ currency: 'USDT', from: 'spot', to: 'delivery', amount: '25', settle: 'usdt' });
    expect(futures.status).toBe(200);
    expect(delivery.status).toBe(200);
    expect(Number(await balance('USDT'))).toBe(before - 175);
    const mbook = await api<Rec[]>(sb, main, 'GET', '/margin/account_book?currency_pair=BTC_USDT&currency=USDT');
    expect(mbook.body[0]).toMatchObject({ change: '100', balance: '5100', type: 'dnw', currency_pair: 'BTC_USDT' });
    const fbook = await api<Rec[]>(sb, main, 'GET', '/futures/usdt/account_book?type=dnw');
    expect(fbook.body[0]).toMatchObject({ change: '50', balance: '20050', type: 'dnw' });
    const dbook = await api<Rec[]>(sb, main, 'GET', '/delivery/usdt/account_book?type=dnw');
    expect(dbook.body[0]).toMatchObject({ change: '25', balance: '1025' });
    expect((await api<Err>(sb, main, 'GET', '/futures/eth/account_book')).body.label).toBe('INVALID_PARAM_VALUE');
  });

  it('main↔sub transfers are idempotent on client_order_id and visible in records and order status', async () => {
    const body = {
      sub_account: String(TRADING),
      currency: 'USDT',
      amount: '12.5',
      direction: 'to',
      client_order_id: 'desk-001',
    };
    const before = await balance('USDT');
    const first = await api<{ tx_id: number }>(sb, main, 'POST', '/wallet/sub_account_transfers', body);
    expect(first.status).toBe(200);
    const again = await api<Err>(sb, main, 'POST', '/wallet/sub_account_transfers', body);
    expect([again.status, again.body.label]).toEqual([400, 'DUPLICATE_REQUEST']);
    expect(Number(await balance('USDT'))).toBe(Number(before) - 12.5);
    const status = await api<Rec>(sb, main, 'GET', '/wallet/order_status?client_order_id=desk-001');
    expect(status.body).toEqual({ tx_id: String(first.body.tx_id), status: 'SUCCESS' });
    expect((await api<Rec>(sb, main, 'GET', `/wallet/order_status?tx_id=${first.body.tx_id}`)).status).toBe(200);
    expect((await api<Err>(sb, main, 'GET', '/wallet/order_status?client_order_id=never')).body.label).toBe(
      'ORDER_NOT_FOUND',
    );
    expect((await api<Err>(sb, main, 'GET', '/wallet/order_status')).body.label).toBe('MISSING_REQUIRED_PARAM');
    const records = await api<Rec[]>(sb, main, 'GET', `/wallet/sub_account_transfers?sub_uid=${TRADING}`);
    expect(records.body[0]).toMatchObject({
      uid: String(sb.userId),
      sub_account: String(TRADING),
      direction: 'to',
      amount: '12.5',
      client_order_id: 'desk-001',
      status: 'success',
    });
  });

  it('main↔sub transfer validations: client id, sub-account, lock, futures type, balance', async () => {
    const t = async (b: Rec) => (await api<Err>(sb, main, 'POST', '/wallet/sub_account_transfers', b)).body;
    const base = { sub_account: String(TRADING), currency: 'USDT', amount: '1', direction: 'to' };
    expect((await t({ ...base, client_order_id: 'has space' })).label).toBe('INVALID_CLIENT_ORDER_ID');
    expect((await t({ ...base, client_order_id: 'x'.repeat(65) })).label).toBe('INVALID_CLIENT_ORDER_ID');
    expect((await t({ ...base, sub_account: '999' })).label).toBe('SUB_ACCOUNT_NOT_FOUND');
    expect((await t({ ...base, direction: 'sideways' })).label).toBe('INVALID_PARAM_VALUE');
    expect((await t({ ...base, amount: '99999999' })).label).toBe('BALANCE_NOT_ENOUGH');
    await api(sb, main, 'POST', `/sub_accounts/${OPS}/lock`);
    expect((await t({ ...base, sub_account: String(OPS) })).label).toBe('SUB_ACCOUNT_LOCKED');
    await api(sb, main, 'POST', `/sub_accounts/${OPS}/unlock`);
    const fut = await api<{ tx_id: number }>(sb, main, 'POST', '/wallet/sub_account_transfers', {
      ...base,
      sub_account_type: 'futures',
    });
    expect(fut.status).toBe(200);
    const futBal = await api<{ available: Record<string, Rec> }[]>(
      sb,
      main,
      'GET',
      `/wallet/sub_account_futures_balances?sub_uid=${TRADING}`,
    );
    expect(futBal.body[0]?.available.usdt?.available).toBe('2501');
  });

  it('sub↔sub transfers with the main key or the source sub-account key only', async () => {
    const body = {
      currency: 'USDT',
      sub_account_from: String(TRADING),
      sub_account_from_type: 'spot',
      sub_account_to: String(OPS),
      sub_account_to_type: 'spot',
      amount: '10',
    };
    const res = await api<{ tx_id: number }>(sb, main, 'POST', '/wallet/sub_account_to_sub_account', body);
    expect(res.status).toBe(200);
    const opsBalances = await api<Rec[]>(sb, main, 'GET', `/wallet/sub_account_balances?sub_uid=${OPS}`);
    expect(opsBalances.body[0]).toMatchObject({ available: { USDT: '2010' } });
    const opsKey = (
      await controlAnswer<Credentials>(sb, 'POST', '/keys', {
        user_id: OPS,
        perms: [{ name: 'wallet', read_only: false }],
      })
    ).body;
    const foreign = await api<Err>(sb, opsKey, 'POST', '/wallet/sub_account_to_sub_account', body);
    expect(foreign.body.label).toBe('FORBIDDEN');
    const own = await api(sb, opsKey, 'POST', '/wallet/sub_account_to_sub_account', {
      ...body,
      sub_account_from: String(OPS),
      sub_account_to: String(TRADING),
      amount: '10',
    });
    expect(own.status).toBe(200);
    expect(
      (
        await api<Err>(sb, main, 'POST', '/wallet/sub_account_to_sub_account', {
          ...body,
          sub_account_to: String(TRADING),
        })
      ).body.label,
    ).toBe('INVALID_PARAM_VALUE');
    expect((await api<Rec>(sb, main, 'GET', `/wallet/order_status?tx_id=${res.body.tx_id}`)).body.status).toBe(
      'SUCCESS',
    );
  });

  it('concurrent repeats of one client_order_id move funds once', async () => {
    const before = Number(await balance('USDT'));
    const body = {
      sub_account: String(TRADING),
      currency: 'USDT',
      amount: '3',
      direction: 'to',
      client_order_id: 'race-1',
    };
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => api(sb, main, 'POST', '/wallet/sub_account_transfers', body)),
    );
    expect(answers.filter((a) => a.status === 200).length).toBe(1);
    expect(Number(await balance('USDT'))).toBe(before - 3);
  });
});

describe("the main account's own accounts", () => {
  it('answers margin, cross margin, futures, delivery and options balances that follow a transfer', async () => {
    const futures = async () =>
      (await api<{ available: string; currency: string }>(sb, main, 'GET', '/futures/usdt/accounts')).body;
    const before = await futures();
    expect(before.currency).toBe('USDT');
    const moved = await api(sb, main, 'POST', '/wallet/transfers', {
      currency: 'USDT',
      from: 'spot',
      to: 'futures',
      amount: '12.5',
      settle: 'usdt',
    });
    expect(moved.status).toBe(200);
    expect((await futures()).available).toBe(String(Number(before.available) + 12.5));
    const margin = await api<{ currency_pair: string; base: Rec; quote: Rec }[]>(sb, main, 'GET', '/margin/accounts');
    expect(margin.body[0]).toMatchObject({
      currency_pair: expect.stringMatching(/_/),
      base: { currency: expect.any(String) },
    });
    expect((await api<Rec>(sb, main, 'GET', '/margin/cross/accounts')).body).toHaveProperty('balances');
    expect((await api<Rec>(sb, main, 'GET', '/delivery/usdt/accounts')).body).toMatchObject({ currency: 'USDT' });
    expect((await api<Rec>(sb, main, 'GET', '/options/accounts')).body).toMatchObject({ currency: 'USDT' });
    expect((await api<Err>(sb, main, 'GET', '/futures/doge/accounts')).body.label).toBe('INVALID_PARAM_VALUE');
  });
});
