/**
 * The funding and balances operations through the real core (dispatcher, API client, movements
 * journal) against a real in-process sandbox over HTTP, using the sandbox's seeded main account
 * (saved addresses, deposit history, sub-accounts, small balances).
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { control as controlPlane } from '../../sandbox/testing/harness';
import type { FirmView, SmallBalance, TotalPoint } from '../../shared/contract/balances';
import type {
  DepositRecord,
  SavedAddress,
  WithdrawalLookup,
  WithdrawalRecord,
  WithdrawResult,
} from '../../shared/contract/funding';
import { withSandboxCore } from '../testing/core';

const DAY = 86_400;
const desk = withSandboxCore({ sandbox: { seed: 11 } });
const { call, value } = desk;
const control = (path: string, body: unknown) => controlPlane<Record<string, unknown>>(desk.sandbox, path, body);
const sandboxWithdrawals = () =>
  (desk.sandbox.ctx.db.prepare('SELECT COUNT(*) AS n FROM withdrawals').get() as { n: number }).n;
const now = () => Math.floor(Date.now() / 1000);

describe('funding against the sandbox', () => {
  it('reads rules, networks, deposit addresses and saved addresses with their use count', async () => {
    const [usdt] = await value<{ currency: string; minAmount: string; feeFixedOnChains: Record<string, string> }[]>(
      'funding.withdrawRules',
      { currency: 'USDT' },
    );
    expect(usdt).toMatchObject({ currency: 'USDT', minAmount: '10' });
    expect(usdt?.feeFixedOnChains.TRX).toBe('1');

    const chains = await value<{ chain: string; usesMemo: boolean; withdrawDisabled: boolean; decimals?: number }[]>(
      'funding.chains',
      { currency: 'USDT' },
    );
    expect(chains.find((c) => c.chain === 'TON')).toMatchObject({ usesMemo: true });
    expect(chains.find((c) => c.chain === 'SOL')).toMatchObject({ withdrawDisabled: true });
    expect(chains.find((c) => c.chain === 'TRX')?.decimals).toBe(6);

    const address = await value<{ chains: { chain: string; memo?: string; minConfirmations?: number }[] }>(
      'funding.depositAddress',
      { currency: 'USDT' },
    );
    expect(address.chains.find((c) => c.chain === 'TON')?.memo).toBeTruthy();
    expect(address.chains.find((c) => c.chain === 'TRX')).toMatchObject({ minConfirmations: 20 });

    const saved = await value<SavedAddress[]>('funding.savedAddresses', { currency: 'USDT', chain: 'TRX' });
    expect(saved.find((a) => a.name === 'OTC desk (TRC20)')).toMatchObject({ verified: true, previousWithdrawals: 1 });
    expect(saved.find((a) => a.name === 'New supplier (unverified)')).toMatchObject({
      verified: false,
      previousWithdrawals: 0,
    });
  });

  it('stops a too-large amount, a missing memo and a suspended network in main: nothing is sent', async () => {
    const before = sandboxWithdrawals();
    const [otc] = (await value<SavedAddress[]>('funding.savedAddresses', { currency: 'USDT', chain: 'TRX' })).filter(
      (a) => a.name === 'OTC desk (TRC20)',
    );
    const tooMuch = await call('funding.withdraw', {
      requestKey: randomUUID(),
      currency: 'USDT',
      chain: 'TRX',
      address: otc!.address,
      amount: '300000',
    });
    expect(tooMuch).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', fields: { amount: expect.stringContaining('Not enough') } },
    });
    const noMemo = await call('funding.withdraw', {
      requestKey: randomUUID(),
      currency: 'USDT',
      chain: 'TON',
      address: 'UQabc',
      amount: '20',
    });
    expect(noMemo).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', fields: { memo: expect.any(String) } } });
    const suspended = await call('funding.withdraw', {
      requestKey: randomUUID(),
      currency: 'USDT',
      chain: 'SOL',
      address: 'So1abc',
      amount: '20',
    });
    expect(suspended).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', fields: { chain: expect.any(String) } },
    });
    const badFormat = await call('funding.withdraw', {
      requestKey: randomUUID(),
      currency: 'USDT',
      chain: 'TRX',
      address: otc!.address,
      amount: '1e3',
    });
    expect(badFormat).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(sandboxWithdrawals()).toBe(before);
  });

  it('sends a withdrawal through the journal, follows it to DONE, and cancels another', async () => {
    const [otc] = (await value<SavedAddress[]>('funding.savedAddresses', { currency: 'USDT', chain: 'TRX' })).filter(
      (a) => a.name === 'OTC desk (TRC20)',
    );
    const sent = await value<WithdrawResult>('funding.withdraw', {
      requestKey: randomUUID(),
      currency: 'USDT',
      chain: 'TRX',
      address: otc!.address,
      amount: '100',
    });
    expect(sent).toMatchObject({ outcome: 'accepted', record: { status: 'REQUEST', amount: '100', fee: '1' } });
    expect(sent.withdrawOrderId).toMatch(/^[0-9A-Za-z_.-]{1,32}$/);

    await control('/advance', { seconds: 60 });
    const followed = await value<WithdrawalLookup>('funding.withdrawal', { withdrawOrderId: sent.withdrawOrderId });
    expect(followed.record).toMatchObject({ status: 'DONE', withdrawOrderId: sent.withdrawOrderId });
    expect(followed.record?.txid).toBeTruthy();
    expect(followed.journal?.state).toBe('done');

    const second = await value<WithdrawResult>('funding.withdraw', {
      requestKey: randomUUID(),
      currency: 'USDT',
      chain: 'TRX',
      address: otc!.address,
      amount: '50',
    });
    const cancelled = await value<WithdrawalRecord>('funding.cancelWithdrawal', { id: second.record!.id });
    expect(cancelled.status).toMatch(/^CANCEL/);
    await control('/advance', { seconds: 10 });
    const after = await value<WithdrawalLookup>('funding.withdrawal', { id: second.record!.id });
    expect(after.record?.status).toBe('CANCEL');

    const history = await value<WithdrawalRecord[]>('funding.withdrawals', {
      range: { from: now() - 60 * DAY, to: now() + 3600 },
    });
    expect(history.map((r) => r.status)).toEqual(expect.arrayContaining(['DONE', 'CANCEL']));
    const saved = await value<SavedAddress[]>('funding.savedAddresses', { currency: 'USDT', chain: 'TRX' });
    expect(saved.find((a) => a.address === otc!.address)?.previousWithdrawals).toBe(2);
  });

  it('counts uses per destination (chain, address, memo): a memo never sent to is a first time', async () => {
    // One exchange deposit address, a memo per customer.
    const shared = `UQ${'5'.repeat(46)}`;
    const seed = (name: string, tag: string) =>
      control('/saved_addresses', {
        user_id: desk.sandbox.userId,
        currency: 'USDT',
        chain: 'TON',
        address: shared,
        name,
        tag,
      });
    await seed('Exchange D (desk A)', 'memo-A');
    await seed('Exchange D (desk B)', 'memo-B');
    const uses = async () =>
      Object.fromEntries(
        (await value<SavedAddress[]>('funding.savedAddresses', { currency: 'USDT', chain: 'TON' }))
          .filter((a) => a.address === shared)
          .map((a) => [a.tag, a.previousWithdrawals]),
      );
    expect(await uses()).toEqual({ 'memo-A': 0, 'memo-B': 0 });

    const sent = await value<WithdrawResult>('funding.withdraw', {
      requestKey: randomUUID(),
      currency: 'USDT',
      chain: 'TON',
      address: shared,
      memo: 'memo-A',
      amount: '20',
    });
    expect(sent.outcome).toBe('accepted');
    expect(await uses()).toEqual({ 'memo-A': 1, 'memo-B': 0 });

    // Past the platform's 30-day window only the journal remembers it: still counted by memo.
    desk.sandbox.ctx.db
      .prepare('UPDATE withdrawals SET timestamp = ? WHERE withdraw_order_id = ?')
      .run(Date.now() - 40 * DAY * 1000, sent.withdrawOrderId);
    expect(await uses()).toEqual({ 'memo-A': 1, 'memo-B': 0 });
  });

  it('a withdrawal whose answer is lost is never sent twice and can still be followed', async () => {
    const [otc] = (await value<SavedAddress[]>('funding.savedAddresses', { currency: 'USDT', chain: 'TRX' })).filter(
      (a) => a.name === 'OTC desk (TRC20)',
    );
    await control('/advance', { seconds: 61 }); // one withdrawal per address per minute
    const before = sandboxWithdrawals();
    // The platform executes it, then the connection is cut before the answer arrives.
    await control('/faults', { rules: [{ method: 'POST', path: '/withdrawals', kind: 'drop_after', times: 1 }] });
    const sent = await value<WithdrawResult>('funding.withdraw', {
      requestKey: randomUUID(),
      currency: 'USDT',
      chain: 'TRX',
      address: otc!.address,
      amount: '12',
    });
    expect(['accepted', 'unknown']).toContain(sent.outcome);
    expect(sent.withdrawOrderId).toBeTruthy();
    const followed = await value<WithdrawalLookup>('funding.withdrawal', { withdrawOrderId: sent.withdrawOrderId });
    expect(followed.record).toMatchObject({ amount: '12', withdrawOrderId: sent.withdrawOrderId });
    expect(sandboxWithdrawals()).toBe(before + 1);
  });

  it('the same request key sent twice at once (a double click) makes exactly one withdrawal', async () => {
    const [otc] = (await value<SavedAddress[]>('funding.savedAddresses', { currency: 'USDT', chain: 'TRX' })).filter(
      (a) => a.name === 'OTC desk (TRC20)',
    );
    await control('/advance', { seconds: 61 }); // one withdrawal per address per minute
    const before = sandboxWithdrawals();
    const input = { requestKey: randomUUID(), currency: 'USDT', chain: 'TRX', address: otc!.address, amount: '13' };
    const [first, second] = await Promise.all([
      value<WithdrawResult>('funding.withdraw', input),
      value<WithdrawResult>('funding.withdraw', input),
    ]);
    expect(first.outcome).toBe('accepted');
    expect(second).toMatchObject({ outcome: 'accepted', withdrawOrderId: first.withdrawOrderId });
    // A retry long after (a renderer retry, a re-render) still joins it.
    const third = await value<WithdrawResult>('funding.withdraw', input);
    expect(third.withdrawOrderId).toBe(first.withdrawOrderId);
    expect(sandboxWithdrawals()).toBe(before + 1);
    // The key of one confirmation cannot be spent on a different withdrawal.
    const changed = await call('funding.withdraw', { ...input, amount: '14' });
    expect(changed).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    // Without a key nothing is sent.
    const { requestKey: _, ...keyless } = input;
    expect(await call('funding.withdraw', keyless)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(sandboxWithdrawals()).toBe(before + 1);
  });

  it('the same request key while the first call’s answer is being lost joins it: one withdrawal', async () => {
    const [otc] = (await value<SavedAddress[]>('funding.savedAddresses', { currency: 'USDT', chain: 'TRX' })).filter(
      (a) => a.name === 'OTC desk (TRC20)',
    );
    await control('/advance', { seconds: 61 });
    const before = sandboxWithdrawals();
    await control('/faults', { rules: [{ method: 'POST', path: '/withdrawals', kind: 'drop_after', times: 1 }] });
    const input = { requestKey: randomUUID(), currency: 'USDT', chain: 'TRX', address: otc!.address, amount: '11' };
    const first = value<WithdrawResult>('funding.withdraw', input);
    // The second call arrives while the first is on the wire (its precheck reads run first).
    const second = value<WithdrawResult>('funding.withdraw', input);
    const results = await Promise.all([first, second]);
    expect(results[1].withdrawOrderId).toBe(results[0].withdrawOrderId);
    const followed = await value<WithdrawalLookup>('funding.withdrawal', {
      withdrawOrderId: results[0].withdrawOrderId,
    });
    expect(followed.record).toMatchObject({ amount: '11' });
    expect(sandboxWithdrawals()).toBe(before + 1);
  });

  it('switching profile right after a withdrawal sends no write probe and meets no 429', async () => {
    const [otc] = (await value<SavedAddress[]>('funding.savedAddresses', { currency: 'USDT', chain: 'TRX' })).filter(
      (a) => a.name === 'OTC desk (TRC20)',
    );
    await control('/advance', { seconds: 61 });
    const probesBefore = desk.core.ctx.audit.list({ text: 'permission probe' }).length;
    await value<WithdrawResult>('funding.withdraw', {
      requestKey: randomUUID(),
      currency: 'USDT',
      chain: 'TRX',
      address: otc!.address,
      amount: '10',
    });
    const active = await value<{ id: string }>('profiles.active', {});
    const status = await value<{ state: string; lastError?: { label?: string } }>('profiles.switch', { id: active.id });
    expect(status.state).toBe('connected');
    expect(status.lastError).toBeUndefined();
    const check = await value<{ ok: boolean; permissions: Record<string, string> }>('profiles.connectionCheck', {});
    expect(check.ok).toBe(true);
    expect(check.permissions.withdrawal).toBe('read');
    expect(desk.core.ctx.audit.list({ text: 'permission probe' })).toHaveLength(probesBefore);
  });

  it('reads deposit history over more than 30 days and follows an injected deposit', async () => {
    const injected = await control('/deposits', {
      user_id: desk.sandbox.userId,
      currency: 'USDT',
      chain: 'TRX',
      amount: '77',
    });
    const range = { from: now() - 65 * DAY, to: now() + 3600 };
    const deposits = await value<DepositRecord[]>('funding.deposits', { range });
    expect(deposits.length).toBeGreaterThanOrEqual(4);
    expect(deposits.find((d) => d.id === injected.id)).toMatchObject({ amount: '77', status: 'PEND', chain: 'TRX' });
    await control('/advance', { seconds: 60 });
    const later = await value<DepositRecord[]>('funding.deposits', { range, currency: 'USDT' });
    expect(later.find((d) => d.id === injected.id)?.status).toBe('DONE');
    expect(later.every((d) => d.currency === 'USDT')).toBe(true);
  });

  it('pushes to another main account and keeps the review policy', async () => {
    const other = await control('/users', {});
    const pushed = await value<{ outcome: string; id?: string }>('funding.push', {
      requestKey: randomUUID(),
      receiveUid: other.user_id,
      currency: 'USDT',
      amount: '5',
    });
    expect(pushed).toMatchObject({ outcome: 'accepted', id: expect.any(String) });
    const sent = await value<{ id: string; status: string }[]>('funding.pushes', {
      transactionType: 'withdraw',
      range: { from: now() - DAY, to: now() + 3600 },
    });
    expect(sent.find((p) => p.id === pushed.id)?.status).toBeTruthy();

    expect(await value('funding.reviewPolicy', {})).toEqual({ typedConfirmAbove: {} });
    await value('funding.setReviewPolicy', { typedConfirmAbove: { usdt: '1000' } });
    expect(await value('funding.reviewPolicy', {})).toEqual({ typedConfirmAbove: { USDT: '1000' } });
    const bad = await call('funding.setReviewPolicy', { typedConfirmAbove: { USDT: '-1' } });
    expect(bad).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });
});

describe('balances against the sandbox', () => {
  it('reads the total by account type and keeps snapshots for the chart', async () => {
    const total = await value<{ total: { amount: string; currency: string }; details: { account: string }[] }>(
      'balances.total',
      { currency: 'USDT' },
    );
    expect(total.total.currency).toBe('USDT');
    expect(total.details.map((d) => d.account)).toEqual(expect.arrayContaining(['spot', 'futures', 'margin']));
    const points = await value<TotalPoint[]>('balances.totalHistory', { currency: 'USDT' });
    expect(points.at(-1)).toMatchObject({ amount: total.total.amount, currency: 'USDT' });
  });

  it('lists spot balances with exact totals, non-zero first', async () => {
    const spot = await value<{ currency: string; available: string; locked: string; total: string }[]>(
      'balances.spot',
      {},
    );
    expect(spot.find((b) => b.currency === 'BTC')?.total).toBe('2.5');
    expect(spot[0]?.total).not.toBe('0');
  });

  it('shows main and every sub-account in the firm-wide view', async () => {
    const view = await value<FirmView>('balances.firm', { quote: 'USDT' });
    expect(view.accounts[0]).toMatchObject({ role: 'main', label: 'Main account' });
    const trading = view.accounts.find((a) => a.label.startsWith('desk_trading'));
    expect(trading?.holdings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ account: 'spot', currency: 'USDT', amount: '10000' }),
        expect.objectContaining({ account: 'futures', currency: 'USDT', amount: '2500' }),
        expect.objectContaining({ account: 'margin' }),
      ]),
    );
    expect(view.accounts.find((a) => a.label.startsWith('desk_ops'))?.holdings).toEqual(
      expect.arrayContaining([expect.objectContaining({ account: 'spot', currency: 'ETH', amount: '1.5' })]),
    );
  });

  it('converts a chosen small balance and lists the conversion', async () => {
    const small = await value<SmallBalance[]>('balances.smallBalances', {});
    expect(small.length).toBeGreaterThan(0);
    const refused = await call('balances.convertSmallBalances', { currencies: ['BTC'] });
    expect(refused).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    const first = small[0]!.currency;
    expect(await value('balances.convertSmallBalances', { currencies: [first] })).toEqual({ converted: [first] });
    const history = await value<{ currency: string }[]>('balances.smallBalanceHistory', {});
    expect(history.map((h) => h.currency)).toContain(first);
  });
});
