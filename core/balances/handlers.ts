import Decimal from 'decimal.js';
import type { DeskHandlers } from '../../shared/contract';
import { formatMoney } from '../../shared/format/money';
import type { ServiceContext } from '../context';
import { DeskFailure } from '../errors';
import type { ControlKindHandler, ControlPlane } from '../operators/controls';
import { buildFirmView, readFirmSources } from './firm';

const isZero = (v: string | undefined) => v === undefined || v === '' || new Decimal(v).isZero();
const sum = (...values: (string | undefined)[]) =>
  values.reduce((acc, v) => (v === undefined || v === '' ? acc : acc.plus(v)), new Decimal(0)).toFixed();

/** The snapshot series of the firm total, beside the main account's own total of the same profile. */
const firmSeries = (profileId: string) => `${profileId}#firm`;

/**
 * Small-balance conversion is a control change (it turns balances into GT at the platform's rate,
 * with no way back): the currencies and amounts before → after, and a second administrator when
 * four eyes are in force. A maker may prepare it.
 */
export const balanceControlKinds = (ctx: ServiceContext) =>
  ({
    'balances.convertSmallBalances': {
      access: 'make',
      onActiveProfile: true,
      apply: async (r) => {
        const currencies = r.currencies as string[];
        await ctx.platform().wallet.convertSmallBalance(r.all === true ? { is_all: true } : { currency: currencies });
        return { converted: currencies };
      },
    },
  }) satisfies Record<string, ControlKindHandler>;

/** Handlers of the `balances` area. */
export const createBalancesHandlers = (ctx: ServiceContext, controls: ControlPlane): DeskHandlers['balances'] => {
  const api = () => ctx.platform();

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
      const view = await buildFirmView(
        readFirmSources(api(), profile?.userId !== undefined ? String(profile.userId) : 'main'),
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

    smallBalances: async () =>
      (await api().wallet.smallBalance()).map((b) => ({
        currency: b.currency,
        available: b.available_balance,
        estimatedBtc: b.estimated_as_btc,
        convertibleToGt: b.convertible_to_gt,
      })),

    convertSmallBalances: async (input) => {
      const before = await api().wallet.smallBalance();
      const all = 'all' in input;
      if (!all) {
        const known = new Set(before.map((b) => b.currency));
        const unknown = input.currencies.filter((c) => !known.has(c));
        if (unknown.length > 0) {
          throw new DeskFailure({
            code: 'INVALID_INPUT',
            message: `Not a small balance any more: ${unknown.join(', ')}. Refresh the list and choose again.`,
            fields: { currencies: unknown.join(', ') },
          });
        }
      }
      const chosen = all ? before : before.filter((b) => input.currencies.includes(b.currency));
      return controls.submit<{ converted: string[] }>({
        kind: 'balances.convertSmallBalances',
        profileId: ctx.activeProfile()?.id ?? '',
        title: `Convert ${all ? 'every small balance' : `${chosen.length} small balance${chosen.length === 1 ? '' : 's'}`} to GT`,
        changes: chosen.map((b) => ({
          label: b.currency,
          before: formatMoney(b.available_balance, b.currency),
          after: `≈ ${formatMoney(b.convertible_to_gt, 'GT')}`,
        })),
        apply: { all, currencies: chosen.map((b) => b.currency) },
        confirmLabel: 'Convert to GT',
        note: 'A conversion cannot be undone.',
      });
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
