/**
 * Typed functions for every wallet, withdrawal and sub-account operation of the spec, the STP group
 * operations, and the spot operations the order ticket uses. One object per group:
 * `api.wallet.withdrawStatus()`, `api.withdrawals.create(...)`, `api.subAccounts.createKey(...)`,
 * `api.spot.placeOrder(...)`. Answers are validated with the shared zod schemas; requests carry
 * exactly the fields the spec names. Money movements must go through ServiceContext.movements,
 * which journals them first — the raw create/transfer calls here are for that service only.
 */
import { z } from 'zod';
import * as S from '../../shared/platform/api';
import type { ApiClient, QueryParams } from './client';

/** Per-call options: cancellation, and a request id chosen by the caller (the movements journal records it before sending). */
export type Opt = {
  readonly signal?: AbortSignal;
  readonly requestId?: string;
  readonly timeoutMs?: number;
  readonly purpose?: string;
  /** See RequestSpec.keepAnswerMs. */
  readonly keepAnswerMs?: number;
  /** See RequestSpec.reuseAnswerWithinMs. */
  readonly reuseAnswerWithinMs?: number;
  /** See RequestSpec.onSigned (the movements journal records the signed time). */
  readonly onSigned?: (timestampSec: number) => void;
};
const pass = (opt?: Opt) => ({
  ...(opt?.onSigned ? { onSigned: opt.onSigned } : {}),
  ...(opt?.signal ? { signal: opt.signal } : {}),
  ...(opt?.requestId ? { requestId: opt.requestId } : {}),
  ...(opt?.timeoutMs ? { timeoutMs: opt.timeoutMs } : {}),
  ...(opt?.purpose ? { purpose: opt.purpose } : {}),
  ...(opt?.keepAnswerMs ? { keepAnswerMs: opt.keepAnswerMs } : {}),
  ...(opt?.reuseAnswerWithinMs ? { reuseAnswerWithinMs: opt.reuseAnswerWithinMs } : {}),
});

export type TimeRange = {
  /** Unix seconds. */
  readonly from?: number;
  /** Unix seconds. */
  readonly to?: number;
};
export type Paging = {
  readonly limit?: number;
  readonly offset?: number;
};

/**
 * The array schema of an item schema — one per item schema, so two reads of one endpoint carry the
 * same schema and the client may share their answer (api/client.ts, request()).
 */
const arrays = new WeakMap<z.ZodType, z.ZodArray<z.ZodType>>();
const arr = <T extends z.ZodType>(item: T): z.ZodArray<T> => {
  let array = arrays.get(item);
  if (array === undefined) {
    array = z.array(item);
    arrays.set(item, array);
  }
  return array as z.ZodArray<T>;
};

/** An account-book entry of margin, futures or delivery (loosely typed: only what reconciliation reads). */
const LedgerEntry = z.looseObject({
  id: S.idString.optional(),
  time: S.unixSeconds,
  currency: z.string().optional(),
  change: S.decimalString,
  balance: S.decimalString.optional(),
  type: z.string().optional(),
  text: z.string().optional(),
});

export const createPlatformApi = (client: ApiClient) => {
  const get = <T extends z.ZodType>(path: string, schema: T, query?: QueryParams, opt?: Opt, auth = true) =>
    client.request({ method: 'GET', path, query, auth, schema, ...pass(opt) });
  const send = <T extends z.ZodType | undefined>(
    method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    schema: T,
    body?: unknown,
    query?: QueryParams,
    opt?: Opt,
    retryThrottled = true,
  ) =>
    client.request({
      method,
      path,
      query,
      body,
      auth: true,
      schema,
      retryThrottled,
      ...pass(opt),
    });
  const seg = encodeURIComponent;

  const withdrawals = {
    /** POST /withdrawals (1 per 3 s). Use movements.withdraw: it journals the withdraw_order_id first. */
    create: (body: S.WithdrawRequest & { withdraw_order_id?: string }, opt?: Opt) =>
      send('POST', '/withdrawals', S.WithdrawalRecord, body, undefined, opt),
    /** POST /withdrawals/push (1 per 10 s). Use movements.push. */
    push: (body: S.PushRequest, opt?: Opt) => send('POST', '/withdrawals/push', S.PushResult, body, undefined, opt),
    /** DELETE /withdrawals/{id}: 202, the outcome shows in the record's status. */
    cancel: (withdrawalId: string, opt?: Opt) =>
      send(
        'DELETE',
        `/withdrawals/${seg(withdrawalId)}`,
        S.WithdrawalRecord.partial({ amount: true, currency: true }),
        undefined,
        undefined,
        opt,
      ),
  };

  const wallet = {
    currencyChains: (currency: string, opt?: Opt) =>
      get('/wallet/currency_chains', arr(S.CurrencyChain), { currency }, opt),
    depositAddress: (currency: string, opt?: Opt) =>
      get('/wallet/deposit_address', S.DepositAddress, { currency }, opt),
    withdrawals: (
      q: TimeRange &
        Paging & { currency?: string; withdraw_id?: string; asset_class?: string; withdraw_order_id?: string } = {},
      opt?: Opt,
    ) => get('/wallet/withdrawals', arr(S.WithdrawalRecord), q, opt),
    deposits: (q: TimeRange & Paging & { currency?: string } = {}, opt?: Opt) =>
      get('/wallet/deposits', arr(S.DepositRecord), q, opt),
    /** POST /wallet/transfers between own accounts. Use movements.transfer. */
    transfer: (body: S.TransferRequest, opt?: Opt) =>
      send('POST', '/wallet/transfers', S.TransactionId, body, undefined, opt),
    /** POST /wallet/sub_account_transfers (main ↔ sub). Use movements.subAccountTransfer. */
    subAccountTransfer: (body: S.SubAccountTransferRequest & { client_order_id?: string }, opt?: Opt) =>
      send('POST', '/wallet/sub_account_transfers', S.TransactionId, body, undefined, opt),
    subAccountTransfers: (q: TimeRange & Paging & { sub_uid?: string } = {}, opt?: Opt) =>
      get('/wallet/sub_account_transfers', arr(S.SubAccountTransferRecord), q, opt),
    /** POST /wallet/sub_account_to_sub_account. Use movements.subToSubTransfer. */
    subToSubTransfer: (body: S.SubToSubTransferRequest, opt?: Opt) =>
      send('POST', '/wallet/sub_account_to_sub_account', S.TransactionId, body, undefined, opt),
    orderStatus: (q: { client_order_id?: string; tx_id?: string }, opt?: Opt) =>
      get('/wallet/order_status', S.TransferOrderStatus, q, opt),
    withdrawStatus: (currency?: string, opt?: Opt) =>
      get('/wallet/withdraw_status', arr(S.WithdrawStatus), { currency }, opt),
    subAccountBalances: (q: { sub_uid?: string; page?: number; limit?: number } = {}, opt?: Opt) =>
      get('/wallet/sub_account_balances', arr(S.SubAccountBalance), q, opt),
    subAccountMarginBalances: (q: { sub_uid?: string } = {}, opt?: Opt) =>
      get('/wallet/sub_account_margin_balances', arr(S.SubAccountMarginBalance), q, opt),
    subAccountFuturesBalances: (q: { sub_uid?: string; settle?: string } = {}, opt?: Opt) =>
      get('/wallet/sub_account_futures_balances', arr(S.SubAccountFuturesBalance), q, opt),
    subAccountCrossMarginBalances: (q: { sub_uid?: string } = {}, opt?: Opt) =>
      get('/wallet/sub_account_cross_margin_balances', arr(S.SubAccountCrossMarginBalance), q, opt),
    savedAddresses: (q: { currency: string; chain?: string; limit?: number; page?: number }, opt?: Opt) =>
      get('/wallet/saved_address', arr(S.SavedAddress), q, opt),
    fee: (q: { currency_pair?: string; settle?: 'BTC' | 'USDT' | 'USD' } = {}, opt?: Opt) =>
      get('/wallet/fee', S.TradeFee, q, opt),
    totalBalance: (currency?: 'BTC' | 'CNY' | 'USD' | 'USDT', opt?: Opt) =>
      get('/wallet/total_balance', S.TotalBalance, { currency }, opt),
    smallBalance: (opt?: Opt) => get('/wallet/small_balance', arr(S.SmallBalance), undefined, opt),
    convertSmallBalance: (body: { currency?: string[]; is_all?: boolean }, opt?: Opt) =>
      send('POST', '/wallet/small_balance', z.unknown(), body, undefined, opt),
    smallBalanceHistory: (q: { currency?: string; page?: number; limit?: number } = {}, opt?: Opt) =>
      get('/wallet/small_balance_history', arr(S.SmallBalanceHistory), q, opt),
    pushRecords: (q: TimeRange & Paging & { id?: number; transaction_type?: 'withdraw' | 'deposit' } = {}, opt?: Opt) =>
      get('/wallet/push', arr(S.UidPushRecord), q, opt),
    lowCapExchangeList: (opt?: Opt) => get('/wallet/getLowCapExchangeList', arr(z.string()), undefined, opt),
  };

  const subAccounts = {
    create: (body: S.CreateSubAccountRequest, opt?: Opt) =>
      send('POST', '/sub_accounts', S.SubAccount, body, undefined, opt),
    list: (q: { type?: '0' | '1' } = {}, opt?: Opt) => get('/sub_accounts', arr(S.SubAccount), q, opt),
    get: (userId: number, opt?: Opt) => get(`/sub_accounts/${userId}`, S.SubAccount, undefined, opt),
    /** The answer holds the new key's secret: hand it to the person once, never store or log it. */
    createKey: (userId: number, body: S.SubAccountKeyRequest, opt?: Opt) =>
      send('POST', `/sub_accounts/${userId}/keys`, S.CreatedSubAccountKey, body, undefined, opt),
    listKeys: (userId: number, opt?: Opt) => get(`/sub_accounts/${userId}/keys`, arr(S.SubAccountKey), undefined, opt),
    getKey: (userId: number, key: string, opt?: Opt) =>
      get(`/sub_accounts/${userId}/keys/${seg(key)}`, S.SubAccountKey, undefined, opt),
    /** Sends the full whitelist: the platform clears it when omitted. */
    updateKey: (userId: number, key: string, body: S.SubAccountKeyRequest, opt?: Opt) =>
      send('PUT', `/sub_accounts/${userId}/keys/${seg(key)}`, undefined, body, undefined, opt),
    deleteKey: (userId: number, key: string, opt?: Opt) =>
      send('DELETE', `/sub_accounts/${userId}/keys/${seg(key)}`, undefined, undefined, undefined, opt),
    lock: (userId: number, opt?: Opt) =>
      send('POST', `/sub_accounts/${userId}/lock`, undefined, undefined, undefined, opt),
    unlock: (userId: number, opt?: Opt) =>
      send('POST', `/sub_accounts/${userId}/unlock`, undefined, undefined, undefined, opt),
    unifiedMode: (opt?: Opt) => get('/sub_accounts/unified_mode', arr(S.SubUserMode), undefined, opt),
  };

  const account = {
    detail: (opt?: Opt) => get('/account/detail', S.AccountDetail, undefined, opt),
    createStpGroup: (name: string, opt?: Opt) =>
      send('POST', '/account/stp_groups', S.StpGroup, { name }, undefined, opt),
    stpGroups: (name?: string, opt?: Opt) => get('/account/stp_groups', arr(S.StpGroup), { name }, opt),
    stpGroupUsers: (stpId: number, opt?: Opt) =>
      get(`/account/stp_groups/${stpId}/users`, arr(S.StpGroupUser), undefined, opt),
    addStpGroupUsers: (stpId: number, userIds: number[], opt?: Opt) =>
      send('POST', `/account/stp_groups/${stpId}/users`, arr(S.StpGroupUser), userIds, undefined, opt),
    removeStpGroupUsers: (stpId: number, userIds: number[], opt?: Opt) =>
      send(
        'DELETE',
        `/account/stp_groups/${stpId}/users`,
        arr(S.StpGroupUser),
        undefined,
        { user_id: userIds.join(',') },
        opt,
      ),
  };

  const spot = {
    time: (opt?: Opt) => get('/spot/time', S.ServerTime, undefined, opt, false),
    currencies: (opt?: Opt) => get('/spot/currencies', arr(S.Currency), undefined, opt, false),
    currency: (currency: string, opt?: Opt) =>
      get(`/spot/currencies/${seg(currency)}`, S.Currency, undefined, opt, false),
    currencyPairs: (opt?: Opt) => get('/spot/currency_pairs', arr(S.CurrencyPair), undefined, opt, false),
    currencyPair: (pair: string, opt?: Opt) =>
      get(`/spot/currency_pairs/${seg(pair)}`, S.CurrencyPair, undefined, opt, false),
    tickers: (q: { currency_pair?: string; timezone?: 'utc0' | 'utc8' | 'all' } = {}, opt?: Opt) =>
      get('/spot/tickers', arr(S.Ticker), q, opt, false),
    orderBook: (q: { currency_pair: string; interval?: string; limit?: number; with_id?: boolean }, opt?: Opt) =>
      get('/spot/order_book', S.OrderBook, q, opt, false),
    trades: (
      q: TimeRange & { currency_pair: string; limit?: number; last_id?: string; reverse?: boolean; page?: number },
      opt?: Opt,
    ) => get('/spot/trades', arr(S.Trade), q, opt, false),
    candlesticks: (
      q: TimeRange & { currency_pair: string; limit?: number; interval?: z.infer<typeof S.CandleInterval> },
      opt?: Opt,
    ) => get('/spot/candlesticks', arr(S.Candle), q, opt, false),
    accounts: (currency?: string, opt?: Opt) => get('/spot/accounts', arr(S.SpotAccount), { currency }, opt),
    /** Never retried after a 429 (see RequestSpec.retryThrottled). */
    placeOrder: (body: S.PlaceOrderRequest, opt?: Opt) =>
      send('POST', '/spot/orders', S.Order, body, undefined, opt, false),
    listOrders: (
      q: TimeRange & {
        currency_pair?: string;
        status: 'open' | 'finished';
        page?: number;
        limit?: number;
        account?: string;
        side?: 'buy' | 'sell';
      },
      opt?: Opt,
    ) => get('/spot/orders', arr(S.Order), q, opt),
    getOrder: (orderId: string, q: { currency_pair: string; account?: string }, opt?: Opt) =>
      get(`/spot/orders/${seg(orderId)}`, S.Order, q, opt),
    amendOrder: (orderId: string, currencyPair: string, body: S.AmendOrderRequest, opt?: Opt) =>
      send('PATCH', `/spot/orders/${seg(orderId)}`, S.Order, body, { currency_pair: currencyPair }, opt, false),
    cancelOrder: (orderId: string, q: { currency_pair: string; account?: string; action_mode?: string }, opt?: Opt) =>
      send('DELETE', `/spot/orders/${seg(orderId)}`, S.Order, undefined, q, opt),
    cancelAllOrders: (
      q: { currency_pair?: string; side?: 'buy' | 'sell'; account?: string; action_mode?: string } = {},
      opt?: Opt,
    ) => send('DELETE', '/spot/orders', arr(S.OrderCancel), undefined, q, opt),
    openOrders: (q: { page?: number; limit?: number; account?: string } = {}, opt?: Opt) =>
      get('/spot/open_orders', arr(S.OpenOrders), q, opt),
    myTrades: (
      q: TimeRange & {
        currency_pair?: string;
        limit?: number;
        page?: number;
        order_id?: string;
        account?: string;
      } = {},
      opt?: Opt,
    ) => get('/spot/my_trades', arr(S.Trade), q, opt),
    fee: (currencyPair?: string, opt?: Opt) => get('/spot/fee', S.SpotFee, { currency_pair: currencyPair }, opt),
    accountBook: (q: TimeRange & { currency?: string; page?: number; limit?: number; type?: string } = {}, opt?: Opt) =>
      get('/spot/account_book', arr(S.AccountBookEntry), q, opt),
    /** POST /spot/price_orders → {id}. Never retried after a 429, like an order placement. */
    placePriceOrder: (body: S.PlacePriceOrderRequest, opt?: Opt) =>
      send('POST', '/spot/price_orders', S.PriceOrderId, body, undefined, opt, false),
    listPriceOrders: (
      q: { status: 'open' | 'finished'; market?: string; account?: string; limit?: number; offset?: number },
      opt?: Opt,
    ) => get('/spot/price_orders', arr(S.PriceTriggeredOrder), q, opt),
    getPriceOrder: (id: string, opt?: Opt) =>
      get(`/spot/price_orders/${seg(id)}`, S.PriceTriggeredOrder, undefined, opt),
    cancelPriceOrder: (id: string, opt?: Opt) =>
      send('DELETE', `/spot/price_orders/${seg(id)}`, S.PriceTriggeredOrder, undefined, undefined, opt),
    cancelAllPriceOrders: (q: { market?: string; account?: string } = {}, opt?: Opt) =>
      send('DELETE', '/spot/price_orders', arr(S.PriceTriggeredOrder), undefined, q, opt),
  };

  /**
   * The account books the spec names for reading POST /wallet/transfers records (margin, futures and
   * delivery side); the movements journal uses them to settle a transfer whose answer was lost.
   */
  const books = {
    margin: (q: TimeRange & { currency?: string; currency_pair?: string; limit?: number; page?: number }, opt?: Opt) =>
      get('/margin/account_book', arr(LedgerEntry), q, opt),
    futures: (settle: string, q: TimeRange & { type?: string; limit?: number; offset?: number }, opt?: Opt) =>
      get(`/futures/${seg(settle)}/account_book`, arr(LedgerEntry), q, opt),
    delivery: (settle: string, q: TimeRange & { type?: string; limit?: number; offset?: number }, opt?: Opt) =>
      get(`/delivery/${seg(settle)}/account_book`, arr(LedgerEntry), q, opt),
  };

  /** The main account's own balances per account type (the firm-wide view reads them). */
  const accounts = {
    margin: (opt?: Opt) => get('/margin/accounts', arr(S.MarginAccount), undefined, opt),
    crossMargin: (opt?: Opt) => get('/margin/cross/accounts', S.CrossMarginAccount, undefined, opt),
    futures: (settle: string, opt?: Opt) => get(`/futures/${seg(settle)}/accounts`, S.FuturesAccount, undefined, opt),
    delivery: (settle: string, opt?: Opt) => get(`/delivery/${seg(settle)}/accounts`, S.FuturesAccount, undefined, opt),
    options: (opt?: Opt) => get('/options/accounts', S.OptionsAccount, undefined, opt),
  };

  return { withdrawals, wallet, subAccounts, account, spot, books, accounts, client };
};

/** The active profile's platform operations. */
export type PlatformApi = ReturnType<typeof createPlatformApi>;
