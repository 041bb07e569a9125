/** POST /sandbox/scale: a large treasury seeded in one transaction, read back through the signed API. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../server';
import { api, type Credentials, controlAnswer, mainCreds, startTestSandbox } from '../testing/harness';

type Rec = Record<string, string>;
type Err = { label: string; message: string };
type ScaleAnswer = { deposits: number; withdrawals: number; sub_accounts: number; from: number; to: number };

const DAY = 86_400;
let sb: SandboxHandle;
let main: Credentials;

beforeAll(async () => {
  sb = await startTestSandbox({ seed: 11 });
  main = mainCreds(sb);
});
afterAll(() => sb.close());

/** Row counts of every table /scale writes: a refused body must leave them all as they were. */
const counts = () =>
  Object.fromEntries(
    ['deposits', 'withdrawals', 'users', 'balances', 'ledger_entries', 'deposit_addresses', 'meta'].map((t) => [
      t,
      (sb.ctx.db.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get() as { n: number }).n,
    ]),
  );

/** Every record of a wallet list over [from, to], in 30-day windows (the spec's limit), 500 a page. */
async function listAll(path: '/wallet/deposits' | '/wallet/withdrawals', from: number, to: number): Promise<Rec[]> {
  const out: Rec[] = [];
  for (let start = from; start <= to; start += 30 * DAY) {
    const end = Math.min(start + 30 * DAY - 1, to);
    for (let offset = 0; ; offset += 500) {
      const page = await api<Rec[]>(sb, main, 'GET', `${path}?from=${start}&to=${end}&limit=500&offset=${offset}`);
      expect(page.status).toBe(200);
      out.push(...page.body);
      if (page.body.length < 500) break;
    }
  }
  return out;
}

describe('POST /sandbox/scale', () => {
  it('seeds deposits, withdrawals and sub-accounts the signed API lists like organic ones', async () => {
    const health = await controlAnswer<{ now: number }>(sb, 'GET', '/health');
    const to = Math.floor(health.body.now / 1000);
    const from = Math.floor((health.body.now - 100 * DAY * 1000) / 1000);
    // The seed's own history lies in the same range: count it first.
    const depositsBefore = await listAll('/wallet/deposits', from, to);
    const withdrawalsBefore = await listAll('/wallet/withdrawals', from, to);
    const subsBefore = (await api<Rec[]>(sb, main, 'GET', '/sub_accounts')).body;
    expect(subsBefore.map((s) => s.login_name)).toEqual(['desk_trading', 'desk_ops']);

    const seeded = await controlAnswer<ScaleAnswer>(sb, 'POST', '/scale', {
      deposits: 3000,
      withdrawals: 2000,
      sub_accounts: 250,
      days: 100,
    });
    expect(seeded.status).toBe(200);
    expect(seeded.body).toEqual({ deposits: 3000, withdrawals: 2000, sub_accounts: 250, from, to });

    const deposits = await listAll('/wallet/deposits', from, to);
    const known = new Set(depositsBefore.map((d) => d.id));
    const newDeposits = deposits.filter((d) => !known.has(d.id));
    expect(deposits.length).toBe(depositsBefore.length + 3000);
    expect(newDeposits.length).toBe(3000);
    expect(new Set(deposits.map((d) => d.id)).size).toBe(deposits.length);
    expect(new Set(newDeposits.map((d) => d.amount)).size).toBe(3000);
    expect(new Set(newDeposits.map((d) => d.txid)).size).toBe(3000);
    const address = await api<{ multichain_addresses: { chain: string; address: string }[] }>(
      sb,
      main,
      'GET',
      '/wallet/deposit_address?currency=USDT',
    );
    const erc20 = address.body.multichain_addresses.find((a) => a.chain === 'ETH')!.address;
    // Thousands of records: the ones that are not as expected are listed, and the list must be
    // empty (five expects a record were most of the test's CPU).
    const odd = (records: Rec[], fine: (r: Rec) => boolean) => records.filter((r) => !fine(r));
    expect(
      odd(
        newDeposits,
        (d) =>
          d.status === 'DONE' &&
          d.currency === 'USDT' &&
          d.chain === 'ETH' &&
          d.address === erc20 &&
          d.memo === '' &&
          /^0x[0-9a-f]{64}$/.test(String(d.txid)) &&
          Number(d.timestamp) >= from &&
          Number(d.timestamp) <= to,
      ),
    ).toEqual([]);
    // Spread evenly: about 30 a day, so each full 30-day window holds about 900.
    const firstWindow = newDeposits.filter((d) => Number(d.timestamp) < from + 30 * DAY).length;
    expect(firstWindow).toBeGreaterThanOrEqual(895);
    expect(firstWindow).toBeLessThanOrEqual(905);

    const withdrawals = await listAll('/wallet/withdrawals', from, to);
    const knownW = new Set(withdrawalsBefore.map((w) => w.id));
    const newWithdrawals = withdrawals.filter((w) => !knownW.has(w.id));
    expect(withdrawals.length).toBe(withdrawalsBefore.length + 2000);
    expect(newWithdrawals.length).toBe(2000);
    expect(new Set(withdrawals.map((w) => w.id)).size).toBe(withdrawals.length);
    expect(
      odd(
        newWithdrawals,
        (w) =>
          w.status === 'DONE' &&
          w.currency === 'USDT' &&
          w.chain === 'ETH' &&
          w.fee === '5' &&
          w.type === 'withdraw' &&
          /^0x[0-9a-f]{64}$/.test(String(w.txid)) &&
          /^0x[0-9a-f]{40}$/.test(String(w.address)) &&
          Number(w.timestamp2) >= Number(w.timestamp) &&
          Number(w.timestamp2) <= to,
      ),
    ).toEqual([]);

    const subs = (await api<Rec[]>(sb, main, 'GET', '/sub_accounts')).body;
    expect(subs.length).toBe(2 + 250);
    const scaleSubs = subs.filter((s) => String(s.login_name).startsWith('scale_sub_'));
    expect(scaleSubs.map((s) => s.login_name)).toEqual(
      Array.from({ length: 250 }, (_, i) => `scale_sub_${String(i + 1).padStart(5, '0')}`),
    );

    const balances: { uid: string; available: Rec }[] = [];
    for (let page = 1; ; page += 1) {
      const answer = await api<{ uid: string; available: Rec }[]>(
        sb,
        main,
        'GET',
        `/wallet/sub_account_balances?limit=100&page=${page}`,
      );
      expect(answer.status).toBe(200);
      balances.push(...answer.body);
      if (answer.body.length < 100) break;
    }
    expect(balances.map((b) => b.uid)).toEqual(subs.map((s) => String(s.user_id)));
    const byUid = new Map(balances.map((b) => [b.uid, b.available]));
    scaleSubs.forEach((s, i) => {
      expect(byUid.get(String(s.user_id))).toEqual({ USDT: String(10 + i + 1) });
    });

    // Organic records keep working after the seeded ones (ids continue, nothing collides).
    const organic = await controlAnswer<Rec>(sb, 'POST', '/deposits', {
      user_id: sb.userId,
      currency: 'USDT',
      chain: 'TRX',
      amount: '25',
    });
    expect(organic.status).toBe(200);
    expect(known.has(organic.body.id!) || newDeposits.some((d) => d.id === organic.body.id)).toBe(false);
  });

  it('refuses bad bodies with {label, message} and changes nothing', async () => {
    const before = counts();
    const bad: [unknown, string, RegExp][] = [
      [{ deposits: -1 }, 'INVALID_PARAM_VALUE', /deposits must be at least 0/],
      [{ withdrawals: 200_001 }, 'INVALID_PARAM_VALUE', /withdrawals must be at most 200000/],
      [{ sub_accounts: 1.5 }, 'INVALID_PARAM_VALUE', /sub_accounts must be an integer/],
      [{ deposits: 10, days: 0 }, 'INVALID_PARAM_VALUE', /days must be at least 1/],
      [{ deposits: 10, days: 3651 }, 'INVALID_PARAM_VALUE', /days must be at most 3650/],
      [{ deposits: 10, currency: 'NOPE' }, 'INVALID_CURRENCY', /Unknown currency: NOPE/],
      [{ deposits: 10, chain: 'BTC' }, 'INVALID_PARAM_VALUE', /Chain BTC is not available for USDT/],
      [{ withdrawals: 10, chain: 'SOL' }, 'INVALID_PARAM_VALUE', /Withdrawals of USDT on SOL are suspended/],
      [{ withdrawals: 10, currency: 'DUST' }, 'INVALID_CURRENCY', /not supported for API withdrawal/],
      [{ deposits: 10, user_id: 999 }, 'INVALID_PARAM_VALUE', /user 999 does not exist/],
      [{ sub_accounts: 1, user_id: 10_000_002 }, 'INVALID_PARAM_VALUE', /sub-accounts belong to main accounts/],
      [[1, 2], 'INVALID_REQUEST_BODY', /JSON object/],
    ];
    for (const [body, label, message] of bad) {
      const answer = await controlAnswer<Err>(sb, 'POST', '/scale', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.label, JSON.stringify(body)).toBe(label);
      expect(answer.body.message, JSON.stringify(body)).toMatch(message);
    }
    expect(counts()).toEqual(before);
  });

  it('continues login names and defaults the chain (memo chains carry the memo)', async () => {
    const user = await controlAnswer<{ user_id: number; key: string; secret: string }>(sb, 'POST', '/users', {});
    const creds = { key: user.body.key, secret: user.body.secret };
    const seeded = await controlAnswer<ScaleAnswer>(sb, 'POST', '/scale', {
      user_id: user.body.user_id,
      deposits: 5,
      withdrawals: 5,
      sub_accounts: 2,
      days: 1,
      currency: 'XRP',
    });
    expect(seeded.body).toMatchObject({ deposits: 5, withdrawals: 5, sub_accounts: 2 });
    const deposits = (await api<Rec[]>(sb, creds, 'GET', '/wallet/deposits')).body;
    expect(deposits.length).toBe(5);
    for (const d of deposits) {
      expect(d).toMatchObject({ chain: 'XRP', memo: String(100_000_000 + user.body.user_id), status: 'DONE' });
    }
    const withdrawals = (await api<Rec[]>(sb, creds, 'GET', '/wallet/withdrawals')).body;
    expect(withdrawals.length).toBe(5);
    for (const w of withdrawals) {
      expect(w).toMatchObject({
        chain: 'XRP',
        address: expect.stringMatching(/^r/),
        memo: expect.stringMatching(/^7/),
      });
      expect(w).toMatchObject({ fee: '0.25', status: 'DONE' });
    }
    const subs = (await api<Rec[]>(sb, creds, 'GET', '/sub_accounts')).body;
    expect(subs.map((s) => s.login_name)).toEqual(['scale_sub_00251', 'scale_sub_00252']);
  });
});
