/**
 * Handlers of the `subAccounts` area: list, balances, detail, create, freeze/unfreeze and unified
 * mode, over the active profile's platform API. Writes are audited by the core, per request.
 *
 * Creating and freezing / unfreezing sub-accounts (one or in bulk) are control changes: the trusted
 * confirmation shows which accounts change and how, and with two administrators another approves.
 */
import type { DeskHandlers } from '../../shared/contract';
import type { SubAccountView } from '../../shared/contract/subAccounts';
import { subAccountName } from '../../shared/contract/transfers';
import type { ServiceContext } from '../context';
import { assertSafeText } from '../errors';
import type { ControlChange, ControlKindHandler, ControlPlane } from '../operators/controls';
import { rulesCacheOf, SUB_ACCOUNTS_KEY } from '../rules/cache';
import { createSubAccounts, type NewSubAccount, setFrozen } from './bulk';
import { readAllPages } from './pages';
import { toSubAccountView } from './views';

/**
 * The sub-accounts' control changes. One account (`single`) answers as its operation does — the
 * platform's refusal as an error; several answer per account.
 */
export const subAccountControlKinds = (ctx: ServiceContext) =>
  ({
    'subAccounts.create': {
      onActiveProfile: true,
      apply: async (r) => {
        const api = ctx.platform();
        const rows = r.rows as NewSubAccount[];
        try {
          if (r.single !== true) return await createSubAccounts(api, rows);
          const [one] = rows as [NewSubAccount];
          return await api.subAccounts.create({
            login_name: one.loginName,
            ...(one.remark ? { remark: one.remark } : {}),
            ...(one.email ? { email: one.email } : {}),
          });
        } finally {
          rulesCacheOf(ctx).invalidate(SUB_ACCOUNTS_KEY);
        }
      },
    },
    'subAccounts.setFrozen': {
      onActiveProfile: true,
      apply: async (r) => {
        const api = ctx.platform();
        const userIds = r.userIds as number[];
        try {
          if (r.single !== true) return await setFrozen(api, userIds, r.frozen === true);
          const [userId] = userIds as [number];
          if (r.frozen === true) await api.subAccounts.lock(userId);
          else await api.subAccounts.unlock(userId);
          return toSubAccountView(await api.subAccounts.get(userId));
        } finally {
          rulesCacheOf(ctx).invalidate(SUB_ACCOUNTS_KEY);
        }
      },
    },
  }) satisfies Record<string, ControlKindHandler>;

/** Creating sub-accounts, as a control change: each login name, before → after. */
export const createSubAccountsChange = (
  ctx: ServiceContext,
  rows: readonly NewSubAccount[],
  single: boolean,
): ControlChange => ({
  kind: 'subAccounts.create',
  profileId: ctx.activeProfile()?.id ?? '',
  title: rows.length === 1 ? `Create sub-account ${rows[0]?.loginName}` : `Create ${rows.length} sub-accounts`,
  changes: rows.map((r) => ({
    label: 'New sub-account',
    before: '—',
    after: `${r.loginName}${r.remark ? ` (${r.remark})` : ''}${r.email ? `, ${r.email}` : ''}`,
  })),
  apply: { rows, single },
  confirmLabel: rows.length === 1 ? 'Create sub-account' : 'Create sub-accounts',
});

/**
 * Freezing or unfreezing sub-accounts, as a control change: each account by its name and UID, its
 * state before → after (read now).
 */
export const setFrozenChange = async (
  ctx: ServiceContext,
  userIds: readonly number[],
  frozen: boolean,
  single: boolean,
): Promise<ControlChange> => {
  const ids = [...new Set(userIds)];
  const accounts = new Map(
    (await ctx.platform().subAccounts.list({ type: '0' })).map((a) => [Number(a.user_id), a] as const),
  );
  const state = (locked: boolean) => (locked ? 'frozen' : 'active');
  return {
    kind: 'subAccounts.setFrozen',
    profileId: ctx.activeProfile()?.id ?? '',
    title: `${frozen ? 'Freeze' : 'Unfreeze'} ${ids.length === 1 ? 'a sub-account' : `${ids.length} sub-accounts`}`,
    changes: ids.map((id) => {
      const a = accounts.get(id);
      return {
        label: subAccountName(String(id), a?.login_name),
        before: a ? state(a.state === 2) : 'unknown',
        after: state(frozen),
      };
    }),
    apply: { userIds: ids, frozen, single },
    confirmLabel: frozen ? 'Freeze' : 'Unfreeze',
    ...(frozen ? { note: 'A frozen sub-account cannot trade, transfer or withdraw until it is unfrozen.' } : {}),
  };
};

/** The platform's page size maximum for sub-account balances. */
const BALANCE_PAGE = 100;
/** Enough pages for 5 000 sub-accounts; a guard against a platform that never stops paging. */
const MAX_PAGES = 50;

export const createSubAccountsHandlers = (ctx: ServiceContext, controls: ControlPlane): DeskHandlers['subAccounts'] => {
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
      const row: NewSubAccount = { row: 1, loginName, ...(remark ? { remark } : {}), ...(email ? { email } : {}) };
      const created = await controls.submit<Parameters<typeof toSubAccountView>[0]>(
        createSubAccountsChange(ctx, [row], true),
      );
      return toSubAccountView(created);
    },

    lock: async ({ userId }) => controls.submit<SubAccountView>(await setFrozenChange(ctx, [userId], true, true)),

    unlock: async ({ userId }) => controls.submit<SubAccountView>(await setFrozenChange(ctx, [userId], false, true)),

    unifiedMode: async () => {
      const modes = await ctx.platform().subAccounts.unifiedMode();
      return {
        modes: modes.map((m) => ({ userId: m.user_id, isUnified: m.is_unified ?? m.mode !== 'classic', mode: m.mode })),
      };
    },
  };
};
