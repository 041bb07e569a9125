/**
 * The firm-wide view: every account type of main and of each sub-account valued in one quote, with
 * totals that add up; a source that cannot be read or a currency without a price is said, never
 * counted as zero. The last test reads a real sandbox.
 */
import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, startTestSandbox } from '../../sandbox/testing/harness';
import { PlatformConnection } from '../profiles/connection';
import { buildFirmView, type FirmSources, type PendingFirmSources, readFirmSources } from './firm';

// Fixtures hold only the fields the view reads (the platform's models have many more).
const ok = (value: unknown) => ({ status: 'fulfilled', value }) as PromiseFulfilledResult<never>;
const failed = (message: string): PromiseRejectedResult => ({ status: 'rejected', reason: new Error(message) });

const sources = (over: Partial<FirmSources> = {}): FirmSources => ({
  mainUid: '1',
  tickers: ok([
    { currency_pair: 'BTC_USDT', last: '50000' },
    { currency_pair: 'ETH_USDT', last: '2500' },
  ]),
  spot: ok([
    { currency: 'USDT', available: '1000', locked: '500' },
    { currency: 'BTC', available: '0.5', locked: '0' },
    { currency: 'NOPRICE', available: '7', locked: '0' },
  ]),
  margin: ok([
    {
      currency_pair: 'ETH_USDT',
      base: { currency: 'ETH', available: '2', locked: '0', borrowed: '1', interest: '0' },
      quote: { currency: 'USDT', available: '0', locked: '0', borrowed: '0', interest: '0' },
    },
  ]),
  crossMargin: ok({
    balances: { USDT: { available: '100', freeze: '0', borrowed: '0', interest: '0' } },
  }),
  futures: ok([
    { total: '2000', unrealised_pnl: '-50', currency: 'USDT' },
    { total: '0', currency: 'BTC' },
  ]),
  delivery: ok([{ total: '0', currency: 'USDT' }]),
  options: ok({ total: '300', currency: 'USDT' }),
  subs: ok([
    { user_id: 10, login_name: 'desk_a', remark: 'market making', state: 1 },
    { user_id: 11, login_name: 'desk_b', state: 2 },
  ]),
  subSpot: ok([{ uid: '10', available: { USDT: '250', BTC: '0' } }]),
  subMargin: ok([]),
  subFutures: ok([{ uid: '11', available: { usdt: { total: '400', currency: 'USDT' } } }]),
  subCrossMargin: ok([]),
  ...over,
});

describe('buildFirmView', () => {
  it('values every holding of every account type and the totals add up', async () => {
    const view = await buildFirmView(sources(), 'USDT', 1);
    const main = view.accounts.find((a) => a.role === 'main')!;
    expect(main.holdings.map((h) => [h.account, h.currency, h.amount, h.value])).toEqual([
      ['crossMargin', 'USDT', '100', '100'],
      ['futures', 'USDT', '1950', '1950'],
      ['margin', 'ETH', '1', '2500'],
      ['options', 'USDT', '300', '300'],
      ['spot', 'BTC', '0.5', '25000'],
      ['spot', 'NOPRICE', '7', null],
      ['spot', 'USDT', '1500', '1500'],
    ]);
    expect(main.holdings.find((h) => h.account === 'margin')?.note).toBe('ETH_USDT pair, borrowed 1');
    expect(main.value).toBe('31350');
    const [a, b] = view.accounts.filter((x) => x.role === 'sub');
    expect([a?.label, a?.value, b?.label, b?.frozen, b?.value]).toEqual([
      'desk_a (market making)',
      '250',
      'desk_b',
      true,
      '400',
    ]);
    // The firm total is every account's value; per currency, every account type of every account.
    expect(view.total).toBe('32000');
    expect(view.total).toBe(view.accounts.reduce((s, x) => s.plus(x.value), new Decimal(0)).toFixed());
    expect(view.currencies.find((c) => c.currency === 'USDT')).toEqual({
      currency: 'USDT',
      amount: '4500',
      value: '4500',
    });
    // Not valued at zero: listed as unpriced.
    expect(view.unpriced).toEqual(['NOPRICE']);
    expect(view.currencies.find((c) => c.currency === 'NOPRICE')?.value).toBeNull();
  });

  it('values in BTC through the BTC_USDT price, and USD says it takes 1 USDT = 1 USD', async () => {
    const btc = await buildFirmView(sources(), 'BTC', 1);
    expect(btc.total).toBe('0.64');
    expect(btc.prices.BTC).toBe('1');
    expect((await buildFirmView(sources(), 'USD', 1)).basis).toContain('1 USDT = 1 USD');
  });

  it('values USDT in BTC and a pair that never traded at the mid of its book: nothing held is left out of the total', async () => {
    // The market is quiet: BTC_USDT has no last trade, only a book; USDT holdings are still valued.
    const quiet = sources({
      tickers: ok([
        { currency_pair: 'BTC_USDT', last: '', highest_bid: '49990', lowest_ask: '50010' },
        { currency_pair: 'ETH_USDT', last: '2500' },
      ]),
    });
    const btc = await buildFirmView(quiet, 'BTC', 1);
    expect(btc.unpriced).toEqual(['NOPRICE']);
    expect(btc.total).toBe('0.64');
    const usdt = btc.currencies.find((c) => c.currency === 'USDT');
    expect(usdt?.value).toBe('0.09');
  });

  it('a source that cannot be read is named on the accounts it concerns and the view says it is incomplete', async () => {
    const view = await buildFirmView(
      sources({ subFutures: failed('timeout'), margin: failed('FORBIDDEN') }),
      'USDT',
      1,
    );
    expect(view.incomplete).toBe(true);
    expect(view.accounts[0]?.errors.margin).toContain('FORBIDDEN');
    for (const sub of view.accounts.filter((a) => a.role === 'sub')) expect(sub.errors.futures).toContain('timeout');
    const prices = await buildFirmView(sources({ tickers: failed('no tickers') }), 'USDT', 1);
    // Without tickers nothing is priced but USDT itself (1 USDT is 1 USDT).
    expect(prices.accounts[0]?.errors.prices).toContain('no tickers');
    expect(prices.total).toBe('4500');
    expect(prices.unpriced).toEqual(['BTC', 'ETH', 'NOPRICE']);
  });
});

describe('at treasury scale', () => {
  // 300 sub-accounts over three pages of spot balances, each holding amounts a float would not add
  // exactly (0.1 + 0.2), in spot, isolated margin and perpetual futures.
  const SUBS = 300;
  const uids = Array.from({ length: SUBS }, (_, i) => String(1000 + i));
  const LATE = '9999';
  const scale = (): FirmSources =>
    sources({
      subs: ok(uids.map((uid) => ({ user_id: Number(uid), login_name: `desk_${uid}`, state: 1 }))),
      subSpot: ok(uids.map((uid) => ({ uid, available: { USDT: '0.1', BTC: '0.00000002' } }))),
      subMargin: ok(
        uids.map((uid) => ({
          uid,
          available: [
            {
              currency_pair: 'ETH_USDT',
              base: { currency: 'ETH', available: '0.2', locked: '0', borrowed: '0', interest: '0' },
              quote: { currency: 'USDT', available: '0.2', locked: '0.1', borrowed: '0.1', interest: '0' },
            },
          ],
        })),
      ),
      // Listed in another order, with a sub-account created after the list was read.
      subFutures: ok(
        [...uids]
          .reverse()
          .concat(LATE)
          .map((uid) => ({ uid, available: { usdt: { total: '0.3', currency: 'USDT' } } })),
      ),
    });

  it('every sub-account is in the view and the firm total is exactly the sum of every holding', async () => {
    const view = await buildFirmView(scale(), 'USDT', 1);
    // In the platform's list order; the one created since is still there, after them.
    expect(view.accounts.map((a) => a.uid)).toEqual(['1', ...uids, LATE]);
    // Each sub: 0.1 + 0.00000002 × 50000 (0.001) + 0.2 × 2500 (500) + (0.2 + 0.1 − 0.1) + 0.3 = 500.601 USDT.
    for (const sub of view.accounts.slice(1, -1)) expect(sub.value).toBe('500.601');
    expect(view.accounts.at(-1)?.value).toBe('0.3');
    const main = new Decimal(view.accounts[0]!.value);
    expect(view.total).toBe(main.plus(new Decimal('500.601').times(SUBS)).plus('0.3').toFixed());
    const usdt = view.currencies.find((c) => c.currency === 'USDT');
    // Main holds 1,500 spot + 100 cross margin + 1,950 perpetual + 300 options in USDT.
    expect(usdt?.amount).toBe(new Decimal('3850').plus(new Decimal('0.6').times(SUBS)).plus('0.3').toFixed());
  });

  it('the view is the same whichever read comes back first', async () => {
    const settled = scale();
    const inOrder = await buildFirmView(settled, 'BTC', 1);
    // Every source still under way; the sub-account reads answer in the reverse of the order the
    // view takes them (the list of sub-accounts last), each in a turn of its own.
    const answers = new Map<string, () => void>();
    const pending = Object.fromEntries(
      (Object.keys(settled) as (keyof FirmSources)[]).map((name) => [
        name,
        new Promise((resolve) => answers.set(name, () => resolve(settled[name]))),
      ]),
    ) as unknown as PendingFirmSources;
    const view = buildFirmView(pending, 'BTC', 1);
    const subReads = ['subs', 'subSpot', 'subMargin', 'subFutures', 'subCrossMargin'];
    const order = [...[...answers.keys()].filter((name) => !subReads.includes(name)), ...subReads.reverse()];
    for (const name of order) {
      answers.get(name)?.();
      await new Promise((turn) => setImmediate(turn));
    }
    expect(await view).toEqual(inOrder);
  });
});

describe('on the sandbox', () => {
  let sandbox: SandboxHandle;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('a transfer to a sub-account moves value from main to that sub-account; the firm total stays', async () => {
    const conn = new PlatformConnection({
      baseUrl: sandbox.baseUrl,
      credentials: { key: sandbox.key, secret: sandbox.secret },
    });
    try {
      await conn.client.syncClock();
      const read = () => buildFirmView(readFirmSources(conn.api, String(sandbox.userId)), 'USDT', 1);
      const before = await read();
      expect(before.incomplete).toBe(false);
      const types = new Set(before.accounts[0]?.holdings.map((h) => h.account));
      expect([...types].sort()).toEqual(['crossMargin', 'delivery', 'futures', 'margin', 'options', 'spot']);
      const sub = before.accounts.find((a) => a.role === 'sub')!;
      await conn.api.wallet.subAccountTransfer({
        currency: 'USDT',
        sub_account: sub.uid,
        direction: 'to',
        amount: '123',
        sub_account_type: 'spot',
        client_order_id: 'firm-test-1',
      });
      const after = await read();
      expect(new Decimal(after.accounts.find((a) => a.uid === sub.uid)!.value).minus(sub.value).toFixed()).toBe('123');
      expect(new Decimal(before.accounts[0]!.value).minus(after.accounts[0]!.value).toFixed()).toBe('123');
      expect(after.total).toBe(before.total);
    } finally {
      conn.close();
    }
  });
});
