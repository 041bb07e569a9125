/**
 * Events carry data (docs/architecture.md, "Events carry data"): main's events hold the contract's
 * typed records — a deposit, withdrawal or UID transfer record, a journaled movement, an order — so
 * the screens put them into the query cache (`setQueryData`) instead of reading again what the
 * event already says. Each function here applies one kind of record to every cached query that
 * shows it, respecting each query's own input (period, currency, pair, sub-account): a record that
 * query would not list is left out, a record it lists is replaced, a new one is added in order.
 * Queries not in the cache are not created: a screen that opens later reads them as usual.
 */
import type { QueryClient } from '@tanstack/react-query';
import Decimal from 'decimal.js';
import type { MovementView } from '../../../shared/contract/activity';
import type { FirmAccount, FirmHolding, FirmView, SpotBalance } from '../../../shared/contract/balances';
import {
  type DepositRecord,
  destinationKey,
  type PushRecord,
  type SavedAddress,
  type WithdrawalLookup,
  type WithdrawalRecord,
  withdrawalFromMovement,
  withdrawalJournalView,
} from '../../../shared/contract/funding';
import type { SubAccountView } from '../../../shared/contract/subAccounts';
import type { Order } from '../../../shared/contract/trade';
import {
  isTransferMovement,
  subAccountName,
  type TransferRecord,
  transferHistoryRow,
  transferSubAccounts,
} from '../../../shared/contract/transfers';
import type { DeskInput } from './desk';

type Range = { readonly from: number; readonly to: number };
const inRange = (range: Range | undefined, seconds: number) =>
  range === undefined || (seconds >= range.from && seconds <= range.to);

/** Replaces the row with the same id, or adds it; newest first by `time`. */
const upsert = <T extends { id: string }>(rows: readonly T[], row: T, time: (r: T) => number): T[] => {
  const at = rows.findIndex((r) => r.id === row.id);
  if (at >= 0) return rows.map((r, i) => (i === at ? row : r));
  return [...rows, row].sort((a, b) => time(b) - time(a));
};

/** Every cached query of `operation` whose input `accepts`, updated with `update` (lists only, never created). */
const updateAll = <I, T>(
  client: QueryClient,
  operation: string,
  accepts: (input: I) => boolean,
  update: (data: T) => T,
): void => {
  for (const query of client.getQueryCache().findAll({ queryKey: [operation] })) {
    const input = query.queryKey[1] as I;
    if (query.state.data === undefined || !accepts(input)) continue;
    client.setQueryData<T>(query.queryKey, (data) => (data === undefined ? data : update(data)));
  }
};

/** A deposit record from `funding.depositChanged`: into every deposit list that shows it. */
export const applyDeposit = (client: QueryClient, record: DepositRecord): void =>
  updateAll<DeskInput<'funding.deposits'>, DepositRecord[]>(
    client,
    'funding.deposits',
    (input) => inRange(input.range, record.time) && (!input.currency || input.currency === record.currency),
    (rows) => upsert(rows, record, (r) => r.time),
  );

/**
 * A withdrawal record from `funding.withdrawalChanged` (or a cancellation's answer): into the
 * followed withdrawal (by client id or platform id) and every withdrawal list that shows it.
 */
export const applyWithdrawal = (client: QueryClient, record: WithdrawalRecord): void => {
  updateAll<DeskInput<'funding.withdrawal'>, WithdrawalLookup>(
    client,
    'funding.withdrawal',
    (input) =>
      'id' in input
        ? input.id === record.id
        : record.withdrawOrderId !== undefined && input.withdrawOrderId === record.withdrawOrderId,
    (lookup) => ({ ...lookup, record }),
  );
  updateAll<DeskInput<'funding.withdrawals'>, WithdrawalRecord[]>(
    client,
    'funding.withdrawals',
    (input) => inRange(input.range, record.time) && (!input.currency || input.currency === record.currency),
    (rows) => upsert(rows, record, (r) => r.time),
  );
};

/** A UID transfer record from `funding.pushChanged`: into every list of its direction that shows it. */
export const applyPush = (client: QueryClient, record: PushRecord): void =>
  updateAll<DeskInput<'funding.pushes'>, PushRecord[]>(
    client,
    'funding.pushes',
    (input) => input.transactionType === record.transactionType && inRange(input.range, record.createTime),
    (rows) => upsert(rows, record, (r) => r.createTime),
  );

/**
 * A withdrawal movement from `activity.movementChanged`: the followed withdrawal's journal state,
 * and its record from the movement until the platform's own record arrives.
 */
export const applyWithdrawalMovement = (client: QueryClient, movement: MovementView): void => {
  if (movement.kind !== 'withdrawal' || !movement.clientId) return;
  client.setQueryData<WithdrawalLookup>(['funding.withdrawal', { withdrawOrderId: movement.clientId }], (lookup) => ({
    record: lookup?.record ?? withdrawalFromMovement(movement) ?? null,
    journal: withdrawalJournalView(movement),
  }));
};

/**
 * A transfer movement from `activity.movementChanged`: its history row, built from the movement as
 * main builds it (sub-account names from the cached list), into every history that shows it. A
 * transfer the platform lists too (same client id) keeps the platform's row.
 */
export const applyTransferMovement = (client: QueryClient, movement: MovementView): void => {
  if (!isTransferMovement(movement)) return;
  const accounts = client.getQueryData<{ accounts: SubAccountView[] }>(['subAccounts.list', {}])?.accounts ?? [];
  const names = new Map(accounts.map((a) => [String(a.userId), a.loginName]));
  const row = transferHistoryRow(movement, (uid) => subAccountName(uid, names.get(uid)));
  if (row === undefined) return;
  const subs = transferSubAccounts(movement);
  updateAll<DeskInput<'transfers.history'>, { records: TransferRecord[] }>(
    client,
    'transfers.history',
    (input) => {
      const to = input.to ?? Number.POSITIVE_INFINITY;
      const from = input.from ?? 0;
      return (
        row.time >= from * 1000 &&
        row.time <= to * 1000 + 999 &&
        (input.subUserId === undefined || subs.includes(String(input.subUserId)))
      );
    },
    ({ records }) => {
      const onPlatform = records.some(
        (r) => r.source === 'platform' && row.clientOrderId !== undefined && r.clientOrderId === row.clientOrderId,
      );
      return { records: onPlatform ? records : upsert(records, row, (r) => r.time) };
    },
  );
};

/**
 * Orders as they stand now (`trade.ordersChanged` with `orders`, an order action's answer): open
 * ones replace or join the open orders of their pair, others leave them.
 */
export const applyOrders = (client: QueryClient, orders: readonly Order[]): void => {
  for (const order of orders) {
    updateAll<DeskInput<'trade.openOrders'>, Order[]>(
      client,
      'trade.openOrders',
      (input) => !input.pair || input.pair === order.pair,
      (rows) => {
        const others = rows.filter((o) => o.id !== order.id);
        if (order.status !== 'open') return others;
        const at = rows.findIndex((o) => o.id === order.id);
        return at >= 0 ? rows.map((o) => (o.id === order.id ? order : o)) : [order, ...others];
      },
    );
  }
};

/**
 * A withdrawal this app just sent to (currency, chain, address, memo): the saved address it went to
 * counts one more use ("used before"), as `funding.savedAddresses` would say if read again.
 */
export const countWithdrawalTo = (
  client: QueryClient,
  sent: {
    readonly currency: string;
    readonly chain: string;
    readonly address: string;
    readonly memo?: string | undefined;
  },
): void => {
  const key = destinationKey(sent.chain, sent.address, sent.memo);
  updateAll<DeskInput<'funding.savedAddresses'>, SavedAddress[]>(
    client,
    'funding.savedAddresses',
    (input) => input.currency === sent.currency,
    (rows) =>
      rows.map((a) =>
        destinationKey(a.chain, a.address, a.tag) === key
          ? { ...a, previousWithdrawals: a.previousWithdrawals + 1 }
          : a,
      ),
  );
};

/** Values in the firm-wide view keep this many decimals, as main computes them (core/balances/firm.ts). */
const FIRM_VALUE_DECIMALS = 8;

/**
 * The firm-wide view with the main account's spot holdings replaced by `spot` (as `balances.spot`
 * answers), valued at the view's own prices, and every total that includes them recomputed: the
 * main account's value, the totals per currency, the firm total, the unpriced currencies and
 * whether the view is complete. Every other account stays the same object. The view itself when
 * nothing changed; undefined when it cannot be patched exactly: a currency the view did not hold
 * anywhere, so it has no price for it (the view must be read again to value it).
 * Prices in the view are rounded to 12 decimals; for a BTC quote a value may differ from main's in
 * its last (8th) decimal.
 */
export const withMainSpot = (view: FirmView, spot: readonly SpotBalance[]): FirmView | undefined => {
  const main = view.accounts.find((a) => a.role === 'main');
  if (main === undefined) return undefined;
  const spotHoldings: FirmHolding[] = [];
  for (const balance of spot) {
    const amount = new Decimal(balance.total);
    if (amount.isZero()) continue;
    const price = view.prices[balance.currency];
    if (price === undefined && !view.unpriced.includes(balance.currency)) return undefined;
    spotHoldings.push({
      account: 'spot',
      currency: balance.currency,
      amount: amount.toFixed(),
      value: price === undefined ? null : amount.mul(price).toDecimalPlaces(FIRM_VALUE_DECIMALS).toFixed(),
    });
  }
  const before = main.holdings.filter((h) => h.account === 'spot');
  const same =
    main.errors.spot === undefined &&
    before.length === spotHoldings.length &&
    spotHoldings.every((h) => before.some((b) => b.currency === h.currency && new Decimal(b.amount).eq(h.amount)));
  if (same) return view;

  const holdings = [...main.holdings.filter((h) => h.account !== 'spot'), ...spotHoldings].sort(
    (a, b) => a.account.localeCompare(b.account) || a.currency.localeCompare(b.currency),
  );
  const errors = { ...main.errors };
  delete errors.spot;
  const patched: FirmAccount = {
    ...main,
    holdings,
    value: holdings.reduce((sum, h) => (h.value === null ? sum : sum.plus(h.value)), new Decimal(0)).toFixed(),
    errors,
  };
  const accounts = view.accounts.map((a) => (a === main ? patched : a));

  const byCurrency = new Map<string, { amount: Decimal; value: Decimal | null }>();
  for (const account of accounts) {
    for (const h of account.holdings) {
      const entry = byCurrency.get(h.currency) ?? { amount: new Decimal(0), value: new Decimal(0) };
      entry.amount = entry.amount.plus(h.amount);
      entry.value = entry.value === null || h.value === null ? null : entry.value.plus(h.value);
      byCurrency.set(h.currency, entry);
    }
  }
  return {
    ...view,
    accounts,
    prices: Object.fromEntries(Object.entries(view.prices).filter(([currency]) => byCurrency.has(currency))),
    currencies: [...byCurrency.entries()]
      .map(([currency, e]) => ({
        currency,
        amount: e.amount.toFixed(),
        value: e.value === null ? null : e.value.toFixed(),
      }))
      .sort((a, b) => a.currency.localeCompare(b.currency)),
    total: accounts.reduce((sum, a) => sum.plus(a.value), new Decimal(0)).toFixed(),
    unpriced: [...byCurrency.entries()]
      .filter(([, e]) => e.value === null)
      .map(([currency]) => currency)
      .sort(),
    incomplete: accounts.some((a) => Object.keys(a.errors).length > 0),
  };
};

/**
 * The main account's spot balances, just read (`balances.spot`), into every cached firm-wide view
 * (`balances.firm`, one per quote): a deposit, withdrawal or UID transfer moves only that account's
 * spot balance, so the rest of the view (every sub-account, every other account type: 14 platform
 * requests) is not read again. A view that cannot be patched exactly (a currency it has no price
 * for, see withMainSpot) is marked stale instead, that view alone.
 */
export const applyMainSpot = (client: QueryClient, spot: readonly SpotBalance[]): void => {
  for (const query of client.getQueryCache().findAll({ queryKey: ['balances.firm'] })) {
    const view = query.state.data as FirmView | undefined;
    if (view === undefined) continue;
    const patched = withMainSpot(view, spot);
    if (patched === undefined) void client.invalidateQueries({ queryKey: query.queryKey, exact: true });
    else if (patched !== view) client.setQueryData<FirmView>(query.queryKey, patched);
  }
};
