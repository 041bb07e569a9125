/**
 * Compatibility: the platform's official SDK (gate-api) and a well-known third-party client (ccxt's
 * `gate`) work against the sandbox unchanged, only the base URL differs. gate-api signs with
 * fractional-second timestamps, ccxt with whole seconds.
 */
import ccxt from 'ccxt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxHandle } from './server';
import { ccxtOn } from './testing/conformance';
import { api, control, mainCreds, startTestSandbox } from './testing/harness';
import { gateApi } from './testing/sdks';

const { ApiClient, SubAccountApi, WalletApi, WithdrawalApi } = gateApi;

let sb: SandboxHandle;

beforeAll(async () => {
  sb = await startTestSandbox({ seed: 21 });
});
afterAll(() => sb.close());

describe('official SDK gate-api', () => {
  const client = () => {
    const c = new ApiClient(sb.baseUrl);
    c.setApiKeySecret(sb.key, sb.secret);
    return c;
  };

  it('reads wallet data and moves funds between own accounts', async () => {
    const wallet = new WalletApi(client());
    const chains = await wallet.listCurrencyChains('USDT');
    expect(chains.body.map((c) => c.chain)).toContain('TON');
    const total = await wallet.getTotalBalance({ currency: 'USDT' });
    expect(Number(total.body.total?.amount)).toBeGreaterThan(0);
    const addr = await wallet.getDepositAddress('BTC');
    expect(addr.body.multichainAddresses?.[0]?.address).toMatch(/^bc1q/);
    const tx = await wallet.transfer({
      currency: 'USDT',
      from: 'spot' as never,
      to: 'futures' as never,
      amount: '5',
      settle: 'usdt',
    });
    expect(tx.body.txId).toEqual(expect.any(Number));
    const deposits = await wallet.listDeposits({ currency: 'BTC' });
    expect(deposits.body[0]?.currency).toBe('BTC');
    const fee = await wallet.getTradeFee({ currencyPair: 'BTC_USDT' });
    expect(fee.body.takerFee).toBe('0.002');
  });

  it('withdraws, cancels and lists sub-accounts', async () => {
    const c = client();
    // (gate-api 7.2's listSavedAddress drops its query string, so the address comes from our own client.)
    const saved = await api<{ name: string; address: string }[]>(
      sb,
      mainCreds(sb),
      'GET',
      '/wallet/saved_address?currency=USDT&chain=TRX',
    );
    const address = saved.body.find((a) => a.name === 'OTC desk (TRC20)')!.address;
    const withdrawal = await new WithdrawalApi(c).withdraw({
      currency: 'USDT',
      chain: 'TRX',
      address,
      amount: '25',
      withdrawOrderId: 'sdk-1',
    });
    expect(withdrawal.body.status).toBe('REQUEST');
    const cancelled = await new WithdrawalApi(c).cancelWithdrawal(withdrawal.body.id!);
    expect(cancelled.response.status).toBe(202);
    const subs = await new SubAccountApi(c).listSubAccounts();
    expect(subs.body.map((s) => s.loginName)).toEqual(['desk_trading', 'desk_ops']);
  });

  it('surfaces the spec label of a failure', async () => {
    const wallet = new WalletApi(client());
    await expect(
      wallet.transfer({ currency: 'USDT', from: 'spot' as never, to: 'options' as never, amount: '99999999' }),
    ).rejects.toMatchObject({
      response: { status: 400, data: { label: 'BALANCE_NOT_ENOUGH' } },
    });
  });
});

describe('ccxt gate', () => {
  const exchange = () => ccxtOn(sb);

  it('calls wallet endpoints through its signed implicit API', async () => {
    const ex = exchange();
    const total = (await ex.privateWalletGetTotalBalance({ currency: 'USDT' })) as { total: { currency: string } };
    expect(total.total.currency).toBe('USDT');
    const deposits = (await ex.privateWalletGetDeposits({ currency: 'ETH', limit: 10 })) as { currency: string }[];
    expect(deposits.map((d) => d.currency)).toEqual(['ETH']);
    const tx = (await ex.privateWalletPostTransfers({
      currency: 'USDT',
      from: 'spot',
      to: 'options',
      amount: '2',
    })) as { tx_id: number };
    expect(tx.tx_id).toEqual(expect.any(Number));
    const subs = (await ex.privateSubAccountsGetSubAccounts()) as { login_name: string }[];
    expect(subs.length).toBe(2);
    const status = (await ex.privateWalletGetWithdrawStatus({ currency: 'BTC' })) as { currency: string }[];
    expect(status[0]?.currency).toBe('BTC');
  });

  it('serves its unified wallet methods (markets loaded from the sandbox)', async () => {
    const ex = exchange();
    await ex.loadMarkets();
    const deposits = await ex.fetchDeposits('BTC');
    expect(deposits[0]).toMatchObject({ currency: 'BTC', status: 'ok', type: 'deposit' });
    const withdrawals = await ex.fetchWithdrawals('USDT');
    expect(withdrawals[0]).toMatchObject({ currency: 'USDT', status: 'ok', type: 'withdrawal' });
    const address = await ex.fetchDepositAddress('USDT', { network: 'TRC20' });
    expect(address.address).toMatch(/^T/);
    const transfer = await ex.transfer('USDT', 1, 'spot', 'swap');
    expect(transfer.id).toMatch(/^\d+$/);
    const fee = await ex.fetchTradingFee('BTC/USDT');
    expect(fee.taker).toBe(0.002);
  });

  it('maps a spec label to its error class', async () => {
    const ex = exchange();
    await control(sb, '/rate_limits', { reset: true });
    await expect(
      ex.privateWalletPostTransfers({ currency: 'USDT', from: 'spot', to: 'options', amount: '99999999' }),
    ).rejects.toBeInstanceOf(ccxt.InsufficientFunds);
  });
});
