/**
 * Handlers of the `transfers` area. Every transfer goes through `ctx.movements`, which journals a
 * client id before sending and settles lost answers by asking the platform; a transfer whose
 * outcome is not known yet is reported as "checking" with its journal id, never resent.
 */
import type { DeskHandlers } from '../../../shared/contract';
import { subAccountName, type TransferInput, type TransferOutcome } from '../../../shared/contract/transfers';
import { DeskFailure } from '../errors';
import { DUPLICATE_LABELS } from '../movements/engine';
import type { Movement, MovementResult } from '../movements/types';
import {
  journalRecord,
  mergeHistory,
  outcomeOf,
  platformRecord,
  subAccountsOf,
  TRANSFER_KINDS,
} from '../transfers/records';
import type { ServiceContext } from './context';
import type { Guard } from './guard';
import { RULES_FRESH_MS, rulesCacheOf, SUB_ACCOUNTS_KEY } from './rulesCache';

const DEFAULT_WINDOW_S = 7 * 86_400;
const PAGE = 100;
/** 2 000 records per window is far beyond a desk's transfers; guards against endless paging. */
const MAX_PAGES = 20;

/**
 * The journal's outcome; while checking, with the journal's own words when patience alone may not
 * settle it: the platform reports a status that is not success, or says it has the request while
 * its records do not show it (then a person settles it in Activity).
 */
const outcome = (movement: Movement): TransferOutcome => {
  const base = outcomeOf(movement);
  if (base.state !== 'checking' || movement.message === undefined) return base;
  const duplicate = movement.label !== undefined && DUPLICATE_LABELS.has(movement.label);
  if (movement.platformStatus === undefined && !duplicate) return base;
  return { ...base, attention: movement.message, ...(movement.label ? { label: movement.label } : {}) };
};

const NOT_READ =
  'The app does not read this account’s balance; the platform checks the amount when the transfer is sent.';

/** Where a transfer goes from and to, in words for the trusted confirmation. */
const routeOf = (input: TransferInput): { from: string; to: string } => {
  switch (input.kind) {
    case 'own':
      return { from: `Main account, ${input.from}`, to: `Main account, ${input.to}` };
    case 'mainSub':
      return input.direction === 'to'
        ? { from: 'Main account, spot', to: `Sub-account ${input.subUserId} (${input.subAccountType ?? 'spot'})` }
        : { from: `Sub-account ${input.subUserId} (${input.subAccountType ?? 'spot'})`, to: 'Main account, spot' };
    case 'subSub':
      return {
        from: `Sub-account ${input.fromUserId} (${input.fromType})`,
        to: `Sub-account ${input.toUserId} (${input.toType})`,
      };
  }
};

export const createTransfersHandlers = (ctx: ServiceContext, guard: Guard): DeskHandlers['transfers'] => {
  /** The movement engine's call for each route: its kind and the platform body (one place). */
  const execute = (input: TransferInput): Promise<MovementResult> => {
    const options = { requestKey: input.requestKey };
    switch (input.kind) {
      case 'own':
        return ctx.movements.execute(
          'transfer',
          {
            currency: input.currency,
            from: input.from,
            to: input.to,
            amount: input.amount,
            ...(input.currencyPair ? { currency_pair: input.currencyPair } : {}),
            ...(input.settle ? { settle: input.settle } : {}),
          },
          options,
        );
      case 'mainSub':
        return ctx.movements.execute(
          'subAccountTransfer',
          {
            sub_account: String(input.subUserId),
            sub_account_type: input.subAccountType,
            currency: input.currency,
            amount: input.amount,
            direction: input.direction,
          },
          options,
        );
      case 'subSub':
        return ctx.movements.execute(
          'subToSubTransfer',
          {
            currency: input.currency,
            sub_account_from: String(input.fromUserId),
            sub_account_from_type: input.fromType,
            sub_account_to: String(input.toUserId),
            sub_account_to_type: input.toType,
            amount: input.amount,
          },
          options,
        );
    }
  };

  /**
   * Login names for history rows; the uid alone when the list cannot be read. Names of the last
   * minute serve (services/rulesCache.ts), and a read already under way — the transfer form's
   * `subAccounts.list` as the screen opens — is shared.
   */
  const subNames = async (): Promise<(uid: string) => string> => {
    const names = new Map<string, string>();
    try {
      const accounts = await rulesCacheOf(ctx).get(SUB_ACCOUNTS_KEY, RULES_FRESH_MS, () =>
        ctx.platform().subAccounts.list({ type: '0' }),
      );
      for (const account of accounts) names.set(String(account.user_id), account.login_name);
    } catch {
      // Names are a convenience; the uid identifies the account either way.
    }
    return (uid) => subAccountName(uid, names.get(uid));
  };

  return {
    send: async (input) => {
      await guard.transfer({
        requestKey: input.requestKey,
        currency: input.currency,
        amount: input.amount,
        ...routeOf(input),
      });
      const result = await execute(input);
      if (result.state === 'done') return outcome(result.movement);
      // Unknown: the journal holds the intent (under this confirmation's key) and keeps checking.
      if (result.state === 'unknown' && result.movement !== undefined) return outcome(result.movement);
      throw result.failure;
    },

    status: async ({ id }) => {
      const movement = ctx.movements.get(id);
      if (movement === undefined || !(TRANSFER_KINDS as readonly string[]).includes(movement.kind)) {
        throw DeskFailure.precondition('This transfer is not in the journal of the active profile.');
      }
      return outcome(movement);
    },

    available: async ({ owner, account, currency, settle }) => {
      const api = ctx.platform();
      if (owner === 'main') {
        if (account !== 'spot') return { available: null, note: NOT_READ };
        const rows = await api.spot.accounts(currency);
        return { available: rows.find((r) => r.currency === currency)?.available ?? '0' };
      }
      if (account === 'spot') {
        const rows = await api.wallet.subAccountBalances({ sub_uid: String(owner) });
        const row = rows.find((r) => Number(r.uid) === owner);
        return { available: row?.available[currency] ?? '0' };
      }
      if (account === 'futures') {
        const settleCurrency = (settle ?? currency).toLowerCase();
        const rows = await api.wallet.subAccountFuturesBalances({ sub_uid: String(owner), settle: settleCurrency });
        const row = rows.find((r) => Number(r.uid) === owner);
        const futures = row?.available[settleCurrency] ?? row?.available[settleCurrency.toUpperCase()];
        return { available: futures?.available ?? '0' };
      }
      return { available: null, note: NOT_READ };
    },

    history: async ({ from, to, subUserId }) => {
      const end = to ?? Math.floor(Date.now() / 1000);
      const start = from ?? end - DEFAULT_WINDOW_S;
      const api = ctx.platform();
      const name = await subNames();

      const platformRows = [];
      for (let page = 0; page < MAX_PAGES; page += 1) {
        const batch = await api.wallet.subAccountTransfers({
          from: start,
          to: end,
          limit: PAGE,
          offset: page * PAGE,
          ...(subUserId === undefined ? {} : { sub_uid: String(subUserId) }),
        });
        platformRows.push(...batch);
        if (batch.length < PAGE) break;
      }

      // Journal times are milliseconds: the window's last second counts in full.
      const journalRows = TRANSFER_KINDS.flatMap((kind) =>
        ctx.movements.list({ kind, from: start * 1000, to: end * 1000 + 999 }),
      )
        .filter((m) => subUserId === undefined || subAccountsOf(m).includes(String(subUserId)))
        .flatMap((m) => journalRecord(m, name) ?? []);

      return {
        records: mergeHistory(
          platformRows.map((r, i) => platformRecord(r, i, name)),
          journalRows,
        ),
      };
    },
  };
};
