import Decimal from 'decimal.js';
import type { DeskHandlers } from '../../../shared/contract';
import type { CellAmount, ConsolidatedRow } from '../../../shared/contract/balances';
import type { PlatformApi } from '../api/platform';
import { describeFailure } from '../balances/failures';
import { buildFirmView, readFirmSources } from '../balances/firm';
import { DeskFailure } from '../errors';
import { readAllPages } from '../subAccounts/pages';
import type { ServiceContext } from './context';

const isZero = (v: string | undefined) => v === undefined || v === '' || new Decimal(v).isZero();
const sum = (...values: (string | undefined)[]) =>
  values.reduce((acc, v) => (v === undefined || v === '' ? acc : acc.plus(v)), new Decimal(0)).toFixed();
const byCurrency = (a: CellAmount, b: CellAmount) => a.currency.localeCompare(b.currency);

/** The snapshot series of the firm total, beside the main account's own total of the same profile. */
const firmSeries = (profileId: string) => `${profileId}#firm`;

/** Sub-accounts per page of GET /wallet/sub_account_balances (the spec's maximum). */
const SUB_BALANCE_PAGE = 100;

/** Handlers of the `balances` area. */
export const createBalancesHandlers = (ctx: ServiceContext): DeskHandlers['balances'] => {
  const api = () => ctx.platform();

  /** Every page of sub-account spot balances (the only paged one of the four). */
  const allSubSpotBalances = () =>
    readAllPages({
      read: (page) => api().wallet.subAccountBalances({ page, limit: SUB_BALANCE_PAGE }),
      pageSize: SUB_BALANCE_PAGE,
      maxPages: 50,
    });

  /** The main account's row: spot per currency, the other account types as their value from the total. */
  const mainRowOf = (
    spot: PromiseSettledResult<Awaited<ReturnType<PlatformApi['spot']['accounts']>>>,
    total: PromiseSettledResult<Awaited<ReturnType<PlatformApi['wallet']['totalBalance']>>>,
  ): ConsolidatedRow => {
    const profile = ctx.activeProfile();
    const errors: Record<string, string> = {};
    const value = (account: string): CellAmount[] => {
      if (total.status === 'rejected') {
        errors[account] = describeFailure(total.reason);
        return [];
      }
      const v = total.value.details[account];
      return v && !isZero(v.amount) ? [{ currency: v.currency, amount: v.amount, note: 'value of the account' }] : [];
    };
    const row: ConsolidatedRow = {
      uid: profile?.userId !== undefined ? String(profile.userId) : 'main',
      label: 'Main account',
      role: 'main',
      cells: {
        spot:
          spot.status === 'fulfilled'
            ? spot.value
                .map((a) => ({ currency: a.currency, amount: sum(a.available, a.locked) }))
                .filter((c) => !isZero(c.amount))
                .sort(byCurrency)
            : [],
        isolatedMargin: value('margin'),
        perpetual: value('futures'),
        crossMargin: value('cross_margin'),
      },
    };
    if (spot.status === 'rejected') errors.spot = describeFailure(spot.reason);
    return Object.keys(errors).length > 0 ? { ...row, errors } : row;
  };

  return {
    total: async ({ currency }) => {
      const answer = await api().wallet.totalBalance(currency);
      const details = Object.entries(answer.details).map(([account, v]) => ({
        account,
        amount: v.amount,
        currency: v.currency,
        ...(v.unrealised_pnl ? { unrealisedPnl: v.unrealised_pnl } : {}),
        ...(v.borrowed ? { borrowed: v.borrowed } : {}),
      }));
      // Every read of the total is also a point of the "total over time" chart.
      ctx.snapshots.add({
        currency: answer.total.currency || currency,
        total: answer.total.amount,
        byAccount: Object.fromEntries(details.map((d) => [d.account, d.amount])),
      });
      return {
        total: {
          amount: answer.total.amount,
          currency: answer.total.currency || currency,
          ...(answer.total.unrealised_pnl ? { unrealisedPnl: answer.total.unrealised_pnl } : {}),
          ...(answer.total.borrowed ? { borrowed: answer.total.borrowed } : {}),
        },
        details,
        fetchedAt: Math.floor(Date.now() / 1000),
      };
    },

    spot: async () => {
      const accounts = await api().spot.accounts();
      return accounts
        .map((a) => ({
          currency: a.currency,
          available: a.available,
          locked: a.locked,
          total: sum(a.available, a.locked),
        }))
        .sort((a, b) => {
          const zeroA = isZero(a.total);
          const zeroB = isZero(b.total);
          return zeroA === zeroB ? a.currency.localeCompare(b.currency) : zeroA ? 1 : -1;
        });
    },

    firm: async ({ quote }) => {
      const profile = ctx.activeProfile();
      const view = buildFirmView(
        await readFirmSources(api(), profile?.userId !== undefined ? String(profile.userId) : 'main'),
        quote,
        Math.floor(Date.now() / 1000),
      );
      // A complete read is a point of the firm total over time (its own series: `<profile>#firm`).
      if (profile !== undefined && !view.incomplete && view.unpriced.length === 0) {
        ctx.snapshots.add({
          profileId: firmSeries(profile.id),
          currency: quote,
          total: view.total,
          byAccount: Object.fromEntries(view.accounts.map((a) => [a.uid, a.value])),
        });
      }
      return view;
    },
    firmHistory: async ({ quote, since }) => {
      const profile = ctx.activeProfile();
      if (profile === undefined) return [];
      return ctx.snapshots
        .list({ profileId: firmSeries(profile.id), ...(since !== undefined ? { from: since * 1000 } : {}) })
        .filter((s) => s.currency === quote)
        .map((s) => ({ time: Math.floor(s.at / 1000), amount: s.total, currency: s.currency }));
    },
    totalHistory: async ({ currency, since }) =>
      ctx.snapshots
        .list(since !== undefined ? { from: since * 1000 } : {})
        .filter((s) => s.currency === currency)
        .map((s) => ({ time: Math.floor(s.at / 1000), amount: s.total, currency: s.currency })),

    mainAccount: async () => {
      const [spot, total] = await Promise.allSettled([api().spot.accounts(), api().wallet.totalBalance('USDT')]);
      return mainRowOf(spot, total);
    },

    consolidated: async () => {
      const [spot, total, subs, subSpot, subMargin, subFutures, subCross] = await Promise.allSettled([
        api().spot.accounts(),
        api().wallet.totalBalance('USDT'),
        api().subAccounts.list({ type: '0' }),
        allSubSpotBalances(),
        api().wallet.subAccountMarginBalances(),
        api().wallet.subAccountFuturesBalances(),
        api().wallet.subAccountCrossMarginBalances(),
      ]);

      const mainRow = mainRowOf(spot, total);

      // Sub-accounts: one row each, in the order the platform lists them.
      const rows = new Map<string, ConsolidatedRow & { errors: Record<string, string> }>();
      const rowOf = (uid: string) => {
        let row = rows.get(uid);
        if (!row) {
          row = {
            uid,
            label: `Sub-account ${uid}`,
            role: 'sub',
            cells: { spot: [], isolatedMargin: [], perpetual: [], crossMargin: [] },
            errors: {},
          };
          rows.set(uid, row);
        }
        return row;
      };
      if (subs.status === 'fulfilled') {
        for (const s of subs.value) {
          const row = rowOf(String(s.user_id));
          row.label = s.remark ? `${s.login_name} (${s.remark})` : s.login_name;
          row.frozen = s.state === 2;
        }
      }
      if (subSpot.status === 'fulfilled') {
        for (const item of subSpot.value) {
          rowOf(item.uid).cells.spot = Object.entries(item.available)
            .filter(([, amount]) => !isZero(amount))
            .map(([currency, amount]) => ({ currency, amount }))
            .sort(byCurrency);
        }
      }
      if (subMargin.status === 'fulfilled') {
        for (const item of subMargin.value) {
          rowOf(item.uid).cells.isolatedMargin = item.available.flatMap((m) =>
            [m.base, m.quote]
              .filter((side) => !isZero(side.available) || !isZero(side.locked) || !isZero(side.borrowed))
              .map((side) => ({
                currency: side.currency,
                amount: sum(side.available, side.locked),
                note: `${m.currency_pair}${isZero(side.borrowed) ? '' : `, borrowed ${side.borrowed}`}`,
              })),
          );
        }
      }
      if (subFutures.status === 'fulfilled') {
        for (const item of subFutures.value) {
          rowOf(item.uid).cells.perpetual = Object.entries(item.available)
            .map(([settle, account]) => ({
              currency: (account.currency ?? settle).toUpperCase(),
              amount: account.total ?? account.available ?? '0',
              ...(account.unrealised_pnl && !isZero(account.unrealised_pnl)
                ? { note: `unrealised PnL ${account.unrealised_pnl}` }
                : {}),
            }))
            .filter((c) => !isZero(c.amount))
            .sort(byCurrency);
        }
      }
      if (subCross.status === 'fulfilled') {
        for (const item of subCross.value) {
          rowOf(item.uid).cells.crossMargin = Object.entries(item.available.balances)
            .map(([currency, b]) => ({
              currency,
              amount: sum(b.available, b.freeze),
              ...(isZero(b.borrowed) ? {} : { note: `borrowed ${b.borrowed}` }),
            }))
            .filter((c) => !isZero(c.amount))
            .sort(byCurrency);
        }
      }
      // A source that failed is reported on every sub row: a gap must never read as zero.
      const failures: [keyof ConsolidatedRow['cells'], PromiseSettledResult<unknown>][] = [
        ['spot', subSpot],
        ['isolatedMargin', subMargin],
        ['perpetual', subFutures],
        ['crossMargin', subCross],
      ];
      for (const row of rows.values()) {
        for (const [kind, result] of failures) {
          if (result.status === 'rejected') row.errors[kind] = describeFailure(result.reason);
        }
      }
      if (subs.status === 'rejected' && rows.size === 0) {
        (mainRow as { errors?: Record<string, string> }).errors = {
          ...mainRow.errors,
          subAccounts: describeFailure(subs.reason),
        };
      }
      const subRows = [...rows.values()].map(({ errors, ...row }) =>
        Object.keys(errors).length > 0 ? { ...row, errors } : row,
      );
      return [mainRow, ...subRows];
    },

    smallBalances: async () =>
      (await api().wallet.smallBalance()).map((b) => ({
        currency: b.currency,
        available: b.available_balance,
        estimatedBtc: b.estimated_as_btc,
        convertibleToGt: b.convertible_to_gt,
      })),

    convertSmallBalances: async (input) => {
      const before = await api().wallet.smallBalance();
      if ('all' in input) {
        await api().wallet.convertSmallBalance({ is_all: true });
        return { converted: before.map((b) => b.currency) };
      }
      const known = new Set(before.map((b) => b.currency));
      const unknown = input.currencies.filter((c) => !known.has(c));
      if (unknown.length > 0) {
        throw new DeskFailure({
          code: 'INVALID_INPUT',
          message: `Not a small balance any more: ${unknown.join(', ')}. Refresh the list and choose again.`,
          fields: { currencies: unknown.join(', ') },
        });
      }
      await api().wallet.convertSmallBalance({ currency: input.currencies });
      return { converted: input.currencies };
    },

    smallBalanceHistory: async ({ currency }) =>
      (await api().wallet.smallBalanceHistory({ ...(currency ? { currency } : {}), limit: 100 })).map((h) => ({
        id: h.id,
        currency: h.currency,
        amount: h.amount,
        gtAmount: h.gt_amount,
        createTime: Math.trunc(h.create_time),
      })),
  };
};
