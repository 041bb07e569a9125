/**
 * Handlers of the `transfers` area. Every transfer goes through its domain command
 * (commands/movements.ts: the trusted confirmation, then the journal, which writes a client id before
 * sending and settles lost answers by asking the platform); a transfer whose outcome is not known
 * yet is reported as "checking" with its journal id, never resent.
 */
import type { DeskHandlers } from '../../shared/contract';
import { type SubName, subAccountName, type TransferOutcome, transferEnds } from '../../shared/contract/transfers';
import type { MovementCommands, MovementRequests } from '../commands/movements';
import type { ServiceContext } from '../context';
import { DeskFailure } from '../errors';
import { DUPLICATE_LABELS } from '../movements/engine';
import type { Movement } from '../movements/types';
import { SCREEN } from '../policies/authorize';
import { RULES_FRESH_MS, rulesCacheOf, SUB_ACCOUNTS_KEY } from '../rules/cache';
import { journalRecord, mergeHistory, outcomeOf, platformRecord, subAccountsOf, TRANSFER_KINDS } from './records';

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

/**
 * Sub-accounts' login names, for history rows and the trusted confirmation; the uid alone when the
 * list cannot be read. Names of the last minute serve (rules/cache.ts), and a read already
 * under way — the transfer form's `subAccounts.list` as the screen opens — is shared.
 */
export const subNames = async (ctx: ServiceContext): Promise<SubName> => {
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

/** A transfer's two ends in the review's words, for its domain command's trusted confirmation. */
export const createTransferRoute =
  (ctx: ServiceContext) =>
  async (input: MovementRequests['transfer']): Promise<{ from: string; to: string }> =>
    // Between the main account's own accounts no sub-account is named: nothing to read.
    transferEnds(input, input.kind === 'own' ? (uid) => uid : await subNames(ctx));

export const createTransfersHandlers = (ctx: ServiceContext, commands: MovementCommands): DeskHandlers['transfers'] => {
  return {
    send: async ({ requestKey, ...request }) => {
      const result = await commands.submit('transfer', request, { requestKey, origin: SCREEN });
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
      const name = await subNames(ctx);

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
