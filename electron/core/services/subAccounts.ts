/**
 * Handlers of the `subAccounts` area: list, balances, detail, create, freeze/unfreeze and unified
 * mode, over the active profile's platform API. Writes are audited by the core, per request.
 */
import type { DeskHandlers } from '../../../shared/contract';
import { readAllPages } from '../subAccounts/pages';
import { toSubAccountView } from '../subAccounts/views';
import type { ServiceContext } from './context';
import { rulesCacheOf, SUB_ACCOUNTS_KEY } from './rulesCache';
import { assertSafeText } from './textSafety';

/** The platform's page size maximum for sub-account balances. */
const BALANCE_PAGE = 100;
/** Enough pages for 5 000 sub-accounts; a guard against a platform that never stops paging. */
const MAX_PAGES = 50;

export const createSubAccountsHandlers = (ctx: ServiceContext): DeskHandlers['subAccounts'] => {
  const spotBalances = async (userId?: number) => {
    const api = ctx.platform();
    const items = await readAllPages({
      read: (page) =>
        api.wallet.subAccountBalances({
          ...(userId === undefined ? {} : { sub_uid: String(userId) }),
          page,
          limit: BALANCE_PAGE,
        }),
      pageSize: BALANCE_PAGE,
      maxPages: MAX_PAGES,
    });
    return items.map((item) => ({ userId: Number(item.uid), spot: { ...item.available } }));
  };

  const view = async (userId: number) => toSubAccountView(await ctx.platform().subAccounts.get(userId));

  return {
    list: async () => {
      // type 0: every type (regular and cross-margin); the platform's default would hide cross-margin ones.
      // Always read, but a read already under way (the history's names) is shared, and kept for them.
      const accounts = await rulesCacheOf(ctx).get(SUB_ACCOUNTS_KEY, 0, () =>
        ctx.platform().subAccounts.list({ type: '0' }),
      );
      return { accounts: accounts.map(toSubAccountView).sort((a, b) => a.loginName.localeCompare(b.loginName)) };
    },

    balances: async ({ userId }) => ({ balances: await spotBalances(userId) }),

    get: async ({ userId }) => {
      const api = ctx.platform();
      const [account, spot, futures, margin, cross, modes] = await Promise.all([
        view(userId),
        spotBalances(userId),
        api.wallet.subAccountFuturesBalances({ sub_uid: String(userId) }),
        api.wallet.subAccountMarginBalances({ sub_uid: String(userId) }),
        api.wallet.subAccountCrossMarginBalances({ sub_uid: String(userId) }),
        // The mode is informative; a failure here must not hide balances.
        api.subAccounts.unifiedMode().catch(() => undefined),
      ]);
      const mine = <T extends { uid: string }>(rows: readonly T[]) => rows.filter((row) => Number(row.uid) === userId);
      const mode = modes?.find((m) => m.user_id === userId);
      return {
        account,
        spot: spot.find((row) => row.userId === userId)?.spot ?? {},
        futures: futures
          .filter((row) => Number(row.uid) === userId)
          .flatMap((row) =>
            Object.entries(row.available).map(([settle, acc]) => ({
              settle,
              available: acc.available ?? '0',
              ...(acc.total !== undefined ? { total: acc.total } : {}),
              ...(acc.unrealised_pnl !== undefined ? { unrealisedPnl: acc.unrealised_pnl } : {}),
            })),
          ),
        margin: mine(margin).flatMap((row) =>
          row.available.flatMap((m) =>
            [m.base, m.quote]
              .filter((side) => [side.available, side.locked, side.borrowed].some((v) => v !== '' && Number(v) !== 0))
              .map((side) => ({
                pair: m.currency_pair,
                currency: side.currency,
                available: side.available,
                locked: side.locked,
                borrowed: side.borrowed,
              })),
          ),
        ),
        crossMargin: mine(cross).flatMap((row) =>
          Object.entries(row.available.balances ?? {})
            .filter(([, b]) => [b.available, b.freeze, b.borrowed].some((v) => Number(v) !== 0))
            .map(([currency, b]) => ({ currency, available: b.available, locked: b.freeze, borrowed: b.borrowed })),
        ),
        ...(mode
          ? { unified: { userId, isUnified: mode.is_unified ?? mode.mode !== 'classic', mode: mode.mode } }
          : {}),
      };
    },

    create: async ({ loginName, remark, email }) => {
      assertSafeText({ loginName: [loginName, 'name'], remark: [remark, 'text'] });
      const params = { login_name: loginName, ...(remark ? { remark } : {}), ...(email ? { email } : {}) };
      const created = await ctx.platform().subAccounts.create(params);
      rulesCacheOf(ctx).invalidate(SUB_ACCOUNTS_KEY);
      return toSubAccountView(created);
    },

    lock: async ({ userId }) => {
      await ctx.platform().subAccounts.lock(userId);
      return view(userId);
    },

    unlock: async ({ userId }) => {
      await ctx.platform().subAccounts.unlock(userId);
      return view(userId);
    },

    unifiedMode: async () => {
      const modes = await ctx.platform().subAccounts.unifiedMode();
      return {
        modes: modes.map((m) => ({ userId: m.user_id, isUnified: m.is_unified ?? m.mode !== 'classic', mode: m.mode })),
      };
    },
  };
};
