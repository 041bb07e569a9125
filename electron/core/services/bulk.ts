/**
 * Handlers of the `bulk` area (docs/bulk.md): batches of transfers, UID pushes and withdrawals from
 * CSV / pasted rows / a sweep plan, executed row by row through the SAME handlers a single movement
 * uses (`transfers.send`, `funding.push`, `funding.withdraw`, each journaled under the row's derived
 * request key); bulk sub-account creation, freeze / unfreeze; API-key health and rotation.
 *
 * Policies and approvals: every row passes through the movement handlers, so whatever checks they
 * (or the movement engine) apply, a batch row meets too. The whole batch is also checked against
 * the policy engine before anything is sent (`BulkDeps.approvals.check`, the guard's batchPolicy):
 * rows over a limit are errors of the preview, rows that need an approver are marked; where the
 * policy allows (`approveBatchesAsAWhole`), a started batch waits as ONE item in the Approvals
 * queue and runs only once another operator approves it; cancelling it meanwhile withdraws the item.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { basename } from 'node:path';
import Decimal from 'decimal.js';
import Papa from 'papaparse';
import { contract, type DeskHandlers } from '../../../shared/contract';
import type { BatchPreview, BatchRowInput, BatchSource, KeyHealthRow, RotatedKey } from '../../../shared/contract/bulk';
import { BATCH_MAX_BYTES, BATCH_MAX_ROWS, BATCH_TOO_LARGE_MESSAGE } from '../../../shared/contract/bulk';
import {
  type CurrencyChainInfo,
  destinationKey,
  type SavedAddress,
  type WithdrawRules,
} from '../../../shared/contract/funding';
import { keyExpiry } from '../../../shared/contract/keys';
import type { Approval } from '../../../shared/contract/policies';
import { loginNameProblem } from '../../../shared/contract/subAccounts';
import { TRANSFER_MAX_DECIMALS } from '../../../shared/contract/transfers';
import { toCsv } from '../../../shared/format/csv';
import { formatMoney, parseAmountInput } from '../../../shared/format/money';
import { isoInZone, timeHeader } from '../../../shared/format/time';
import type { CallContext } from '../../../shared/ipc/define';
import { SubAccountPermName } from '../../../shared/platform/api/subAccounts';
import { type ParsedRow, parseBatchText } from '../batches/csv';
import { BATCH_EXAMPLE_CSV, BATCH_EXAMPLE_NAME } from '../batches/example';
import { encryptKeyFile, type KeyFileEntry } from '../batches/keyFile';
import { BatchRunner, type RowExecutor, type RowOutcome } from '../batches/runner';
import { BatchStore, inputOf, rowView, waitsForApproval } from '../batches/store';
import {
  type BatchFacts,
  type BatchPolicyVerdict,
  destinationText,
  sourceKey,
  sourceOf,
  validateBatch,
} from '../batches/validate';
import { DeskFailure, isConvertibleToIpcError } from '../errors';
import { toChain, toRules } from '../funding/records';
import type { Db } from '../journal/db';
import type { Movement } from '../movements/types';
import { PlatformConnection } from '../profiles/connection';
import { readAllPages } from '../subAccounts/pages';
import { type AppDeps, openExportFile } from './app';
import type { ServiceContext } from './context';
import type { BatchApprovalRequest, BatchPolicyRow, Guard } from './guard';
import { assertSafeText } from './textSafety';

/** The shell's trusted confirmation, as the guard uses it (structural: services/guard.ts, policies/confirm.ts). */
export type BatchConfirm<V extends ConfirmLike = ConfirmLike> = (
  view: V,
) => Promise<{ readonly accepted: boolean; readonly typedAmount?: string }>;
interface ConfirmLike {
  readonly typedAmount?: { readonly amount: string; readonly currency: string } | undefined;
}

/** Set while a row of a confirmed batch runs through the movement handlers. */
const batchRowScope = new AsyncLocalStorage<{
  readonly batchId: string;
  readonly requestKey: string;
  /** The batch's approval item, when it waited as one and was approved. */
  readonly approvalId?: string;
}>();

/**
 * For the guard (GuardDeps.batchRow): inside the row with this request key of a batch that was
 * approved as a whole, the id of that approval item. The guard checks the item itself.
 */
export const batchRowApproval = (requestKey: string): string | undefined => {
  const scope = batchRowScope.getStore();
  return scope?.requestKey === requestKey ? scope.approvalId : undefined;
};

/**
 * The guard's confirmation, for the core to pass to createGuard: inside a row of a batch that the
 * operator confirmed as a whole in the trusted window (bulk.start), the row's own confirmation is
 * that one — answered without a window per row, with the amount main itself is about to send. Any
 * other call (the renderer's single movements) shows the window as before. The policy's limits and
 * approval rules still run per row in the guard.
 */
export const batchScopedConfirm = <V extends ConfirmLike>(
  confirm: BatchConfirm<V> | undefined,
): BatchConfirm<V> | undefined =>
  confirm === undefined
    ? undefined
    : (view) =>
        batchRowScope.getStore() !== undefined
          ? Promise.resolve({ accepted: true, ...(view.typedAmount ? { typedAmount: view.typedAmount.amount } : {}) })
          : confirm(view);

export interface BulkDeps {
  readonly db: Db;
  /** The core's handlers (late-bound: bulk is built before them); rows go through transfers / funding. */
  readonly handlers: () => Pick<DeskHandlers, 'transfers' | 'funding'>;
  /** The trusted confirmation of a whole batch at start (absent: none in this build). */
  readonly confirm?: BatchConfirm<BatchConfirmView>;
  readonly app?: AppDeps;
  /**
   * The policy engine for whole batches (the guard, late-bound: core.ts builds it after bulk):
   * the preview's and create's policy check, and a batch's own approval item.
   */
  readonly approvals?: Pick<
    Guard,
    'batchPolicy' | 'requestBatchApproval' | 'batchApproval' | 'withdrawBatchApproval' | 'change'
  >;
  /**
   * THE POLICY HOOK: the whole batch, checked before it is journaled (and on every preview). By
   * default it is the policy engine's check (`approvals.batchPolicy`); a test may give its own.
   * Rows still meet the per-movement checks of the handlers they go through.
   */
  readonly policy?: (
    rows: readonly { row: number; input: BatchRowInput; fee?: string }[],
  ) => BatchPolicyVerdict | Promise<BatchPolicyVerdict>;
  readonly pollMs?: number;
  readonly retryMs?: number;
  readonly log?: (line: string) => void;
}

export interface BulkService {
  readonly handlers: DeskHandlers['bulk'];
  readonly runner: BatchRunner;
  /** On core start: batches that were running go on where they stopped. */
  resume(): void;
  /** The guard decided a batch's approval item: approved → its rows run; rejected / expired → cancelled. */
  approvalDecided(approval: Approval): void;
  close(): void;
}

/** What the trusted window shows for a whole batch (the shape of policies/confirm.ts ConfirmView). */
export interface BatchConfirmView extends ConfirmLike {
  readonly action: 'withdrawal' | 'push' | 'transfer';
  readonly title: string;
  readonly rows: readonly { readonly label: string; readonly value: string }[];
  readonly note?: string;
  readonly confirmLabel: string;
}

const CALL: CallContext = { operation: 'bulk.row' };
/** New key secrets wait here (memory only) until the operator confirms the rotation; then dropped. */
const ROTATION_TTL_MS = 30 * 60_000;
const DAY_MS = 86_400_000;

const movementOutcome = (m: Movement): RowOutcome => ({
  state: m.state === 'done' ? 'done' : m.state === 'failed' ? 'failed' : 'checking',
  movementId: m.id,
  ...(m.clientId ? { clientId: m.clientId } : {}),
  ...(m.platformId ? { platformId: m.platformId } : {}),
  ...(m.label ? { label: m.label } : {}),
  ...(m.message ? { message: m.message } : {}),
});

/**
 * Nothing was sent and it may work later: not connected, locked, nobody signed in (after a restart
 * the batch goes on once an operator signs in), the journal unwritable, waiting for an approval.
 */
const RETRY_CODES = new Set([
  'PRECONDITION',
  'LOCKED',
  'JOURNAL_UNAVAILABLE',
  'KEYCHAIN',
  'AWAITING_APPROVAL',
  'NOT_ALLOWED',
]);

/** The handler input of a row (the same shape a single transfer, push or withdrawal sends). */
const handlerInput = (input: BatchRowInput, requestKey: string) => {
  if (input.type === 'push') {
    return {
      op: 'push' as const,
      value: { receiveUid: input.receiveUid, currency: input.currency, amount: input.amount, requestKey },
    };
  }
  if (input.type === 'withdrawal') {
    return {
      op: 'withdraw' as const,
      value: {
        currency: input.currency,
        chain: input.chain,
        address: input.address,
        amount: input.amount,
        ...(input.memo ? { memo: input.memo } : {}),
        requestKey,
      },
    };
  }
  const { from, to, currency, amount } = input;
  if (from.owner === 'main' && to.owner === 'main') {
    return {
      op: 'send' as const,
      value: {
        kind: 'own' as const,
        currency,
        from: from.account,
        to: to.account,
        amount,
        requestKey,
        ...(from.pair || to.pair ? { currencyPair: from.pair ?? to.pair } : {}),
        ...(from.settle || to.settle ? { settle: from.settle ?? to.settle } : {}),
      },
    };
  }
  if (from.owner !== 'main' && to.owner !== 'main') {
    return {
      op: 'send' as const,
      value: {
        kind: 'subSub' as const,
        fromUserId: from.owner,
        fromType: from.account,
        toUserId: to.owner,
        toType: to.account,
        currency,
        amount,
        requestKey,
      },
    };
  }
  const sub = from.owner === 'main' ? to : from;
  return {
    op: 'send' as const,
    value: {
      kind: 'mainSub' as const,
      direction: from.owner === 'main' ? ('to' as const) : ('from' as const),
      subUserId: sub.owner as number,
      subAccountType: sub.account,
      currency,
      amount,
      requestKey,
    },
  };
};

export const createBulkService = (ctx: ServiceContext, deps: BulkDeps): BulkService => {
  const store = new BatchStore(deps.db);
  const api = () => ctx.platform();
  const profileId = (): string => {
    const p = ctx.activeProfile();
    if (!p) throw DeskFailure.precondition('No profile is connected.', 'Choose a profile first.');
    return p.id;
  };

  // --- execution: one row through the ordinary movement handlers ---------------------------------
  const transfersOf = () => deps.handlers().transfers;
  const fundingOf = () => deps.handlers().funding;
  const executor: RowExecutor = {
    lookup: (key) => {
      const m = ctx.movements.byRequestKey(key);
      return m ? movementOutcome(m) : undefined;
    },
    execute: (input, requestKey, batchId) => {
      const approval = deps.approvals?.batchApproval(batchId);
      const approvalId =
        approval && (approval.state === 'approved' || approval.state === 'sent') ? approval.id : undefined;
      return batchRowScope.run({ batchId, requestKey, ...(approvalId ? { approvalId } : {}) }, () =>
        executeRow(input, requestKey),
      );
    },
  };
  async function executeRow(input: BatchRowInput, requestKey: string): Promise<RowOutcome> {
    const call = handlerInput(input, requestKey);
    try {
      if (call.op === 'send') {
        const parsed = contract.transfers.send.input.parse(call.value);
        const out = await transfersOf().send(parsed, CALL);
        const m = ctx.movements.byRequestKey(requestKey);
        if (m) return movementOutcome(m);
        return {
          state: out.state === 'done' ? 'done' : out.state === 'failed' ? 'failed' : 'checking',
          movementId: out.id,
          ...(out.label ? { label: out.label } : {}),
          ...(out.message ? { message: out.message } : {}),
        };
      }
      if (call.op === 'push') {
        const out = await fundingOf().push(contract.funding.push.input.parse(call.value), CALL);
        const m = ctx.movements.byRequestKey(requestKey);
        if (m) return movementOutcome(m);
        return {
          state: out.outcome === 'accepted' ? 'done' : 'checking',
          movementId: out.intentId,
          ...(out.id ? { platformId: out.id } : {}),
        };
      }
      const out = await fundingOf().withdraw(contract.funding.withdraw.input.parse(call.value), CALL);
      const m = ctx.movements.byRequestKey(requestKey);
      const platformId = out.record?.id;
      if (m) return { ...movementOutcome(m), ...(platformId && !m.platformId ? { platformId } : {}) };
      return { state: out.outcome === 'accepted' ? 'done' : 'checking', clientId: out.withdrawOrderId };
    } catch (error) {
      const journaled = ctx.movements.byRequestKey(requestKey);
      const detail =
        error instanceof DeskFailure ? error.detail : isConvertibleToIpcError(error) ? error.toIpcError() : undefined;
      if (journaled && journaled.state !== 'failed') return movementOutcome(journaled);
      if (detail === undefined) {
        const message =
          error instanceof Error && error.name === 'ZodError'
            ? 'The row does not fit the operation’s rules.'
            : 'Unexpected error.';
        return journaled ? movementOutcome(journaled) : { state: 'failed', message };
      }
      if (detail.code === 'OUTCOME_UNKNOWN' || detail.delivery === 'unknown') {
        return journaled ? movementOutcome(journaled) : { state: 'checking', message: detail.message };
      }
      if (!journaled && RETRY_CODES.has(detail.code)) return { state: 'retry', message: detail.message };
      return {
        ...(journaled ? movementOutcome(journaled) : {}),
        state: 'failed',
        ...(detail.label ? { label: detail.label } : {}),
        message: detail.message,
      };
    }
  }

  const runner = new BatchRunner({
    store,
    executor,
    activeProfile: () => ctx.activeProfile()?.id,
    onChange: (s) => ctx.emit('bulk.batchChanged', { id: s.id, state: s.state, counts: s.counts }),
    ...(deps.pollMs ? { pollMs: deps.pollMs } : {}),
    ...(deps.retryMs ? { retryMs: deps.retryMs } : {}),
    ...(deps.log ? { log: deps.log } : {}),
  });
  ctx.onProfileChange(() => runner.wake());

  // --- checking: the facts a batch is checked against --------------------------------------------
  const subAccountFacts = async () => {
    const list = await api().subAccounts.list({ type: '0' });
    return new Map(list.map((s) => [Number(s.user_id), { loginName: s.login_name, frozen: s.state === 2 }]));
  };

  const gatherFacts = async (inputs: readonly BatchRowInput[]): Promise<BatchFacts> => {
    const withdrawCurrencies = [...new Set(inputs.filter((i) => i.type === 'withdrawal').map((i) => i.currency))];
    const sources = new Map<string, { ref: ReturnType<typeof sourceOf>; currency: string }>();
    for (const i of inputs) sources.set(sourceKey(sourceOf(i), i.currency), { ref: sourceOf(i), currency: i.currency });
    const subSpot = new Set<number>();
    const subFutures = new Set<number>();
    let mainSpot = false;
    for (const { ref } of sources.values()) {
      if (ref.owner === 'main' && ref.account === 'spot') mainSpot = true;
      else if (ref.owner !== 'main' && ref.account === 'spot') subSpot.add(ref.owner);
      else if (ref.owner !== 'main' && ref.account === 'futures') subFutures.add(ref.owner);
    }
    const [currencies, subAccounts, spot, subBalances] = await Promise.all([
      api()
        .spot.currencies()
        .then((list) => new Set(list.map((c) => c.currency)))
        .catch(() => undefined),
      subAccountFacts(),
      mainSpot ? api().spot.accounts() : Promise.resolve([]),
      subSpot.size === 0
        ? Promise.resolve([])
        : subSpot.size <= 5
          ? Promise.all([...subSpot].map((uid) => api().wallet.subAccountBalances({ sub_uid: String(uid) }))).then(
              (r) => r.flat(),
            )
          : readAllPages({
              read: (page) => api().wallet.subAccountBalances({ page, limit: 100 }),
              pageSize: 100,
              maxPages: 50,
            }),
    ]);
    const futures = await Promise.all(
      [...subFutures].map((uid) =>
        api()
          .wallet.subAccountFuturesBalances({ sub_uid: String(uid) })
          .catch(() => []),
      ),
    );
    const chains = new Map<string, CurrencyChainInfo[]>();
    const rules = new Map<string, WithdrawRules>();
    const saved = new Map<string, SavedAddress[]>();
    for (const currency of withdrawCurrencies) {
      const [c, r, s] = await Promise.all([
        api().wallet.currencyChains(currency),
        api().wallet.withdrawStatus(currency),
        fundingOf().savedAddresses({ currency }, CALL),
      ]);
      chains.set(currency, c.map(toChain));
      const rule = r.map(toRules).find((x) => x.currency === currency);
      if (rule) rules.set(currency, rule);
      saved.set(currency, s);
    }
    const available = new Map<string, string | null>();
    for (const [key, { ref, currency }] of sources) {
      if (ref.owner === 'main') {
        available.set(
          key,
          ref.account === 'spot' ? (spot.find((a) => a.currency === currency)?.available ?? '0') : null,
        );
      } else if (ref.account === 'spot') {
        const row = subBalances.find((b) => Number(b.uid) === ref.owner);
        available.set(key, row ? (row.available[currency] ?? '0') : subAccounts.has(ref.owner) ? '0' : null);
      } else if (ref.account === 'futures') {
        const rows = futures.flat().filter((b) => Number(b.uid) === ref.owner);
        const settle = currency.toLowerCase();
        const acc = rows[0]?.available[settle] ?? rows[0]?.available[currency];
        available.set(key, rows.length ? (acc?.available ?? '0') : null);
      } else available.set(key, null);
    }
    const mainUserId = ctx.activeProfile()?.userId;
    return {
      ...(currencies ? { currencies } : {}),
      ...(mainUserId !== undefined ? { mainUserId } : {}),
      subAccounts,
      chains,
      rules,
      saved,
      available,
    };
  };

  const parseSource = (source: BatchSource): { rows: ParsedRow[]; fileProblems: BatchPreview['fileProblems'] } => {
    if (source.source === 'csv') return parseBatchText(source.text);
    return {
      rows: source.rows.map((input, i) => ({ row: i + 1, raw: {}, input, errors: [], warnings: [] })),
      fileProblems: [],
    };
  };

  const preview = async (source: BatchSource): Promise<BatchPreview> => {
    const parsed = parseSource(source);
    if (parsed.fileProblems.length > 0) {
      return {
        rows: [],
        fileProblems: parsed.fileProblems,
        totals: [],
        errorCount: parsed.fileProblems.length,
        warningCount: 0,
      };
    }
    const facts = await gatherFacts(parsed.rows.flatMap((r) => (r.input ? [r.input] : [])));
    const policy = deps.policy ?? (deps.approvals ? policyVerdict : undefined);
    const verdict = policy
      ? await policy(parsed.rows.flatMap((r) => (r.input ? [{ row: r.row, input: r.input }] : [])))
      : undefined;
    return validateBatch(parsed.rows, facts, verdict ? () => verdict : undefined);
  };

  // --- the policy engine over a whole batch --------------------------------------------------------
  /** The rows the policy governs (withdrawals and pushes; transfers between own accounts are not limited). */
  const policyRows = (rows: readonly { row: number; input: BatchRowInput }[]): BatchPolicyRow[] =>
    rows.flatMap(({ row, input }): BatchPolicyRow[] => {
      if (input.type === 'withdrawal') {
        return [
          {
            row,
            kind: 'withdrawal' as const,
            currency: input.currency,
            amount: input.amount,
            destination: destinationKey(input.chain, input.address, input.memo),
            summary: `Withdraw ${formatMoney(input.amount, input.currency)} to ${destinationText(input)}`,
          },
        ];
      }
      if (input.type === 'push') {
        return [
          {
            row,
            kind: 'push' as const,
            currency: input.currency,
            amount: input.amount,
            destination: `uid:${input.receiveUid}`,
            summary: `Push ${formatMoney(input.amount, input.currency)} to UID ${input.receiveUid}`,
          },
        ];
      }
      return [];
    });

  /** Per row: what the policy refuses and who must approve; whether the batch may wait as one. */
  const policyCheck = async (rows: readonly { row: number; input: BatchRowInput }[]) => {
    const governed = policyRows(rows);
    const result = deps.approvals ? await deps.approvals.batchPolicy(governed) : { rows: [], asWhole: false };
    const checked = governed.map((r, i) => ({
      ...r,
      refusals: result.rows[i]?.refusals ?? [],
      reasons: result.rows[i]?.approvalReasons ?? [],
    }));
    // A row the policy refuses cannot be approved: it is an error, not a row waiting for an approver.
    const needing = checked.filter((r) => r.reasons.length > 0 && r.refusals.length === 0);
    return { rows: checked, asWhole: result.asWhole, needing };
  };

  async function policyVerdict(
    rows: readonly { row: number; input: BatchRowInput; fee?: string }[],
  ): Promise<BatchPolicyVerdict> {
    const check = await policyCheck(rows);
    const rowErrors = new Map<number, string[]>();
    const rowWarnings = new Map<number, string[]>();
    for (const r of check.rows) {
      if (r.refusals.length > 0) rowErrors.set(r.row, [`Policy: ${r.refusals.join(' ')}`]);
      else if (r.reasons.length > 0) rowWarnings.set(r.row, [`Needs an approver: ${r.reasons.join(' ')}`]);
    }
    const n = check.needing.length;
    return {
      rowErrors,
      rowWarnings,
      approval: {
        required: n > 0,
        asWhole: check.asWhole,
        rows: check.needing.map((r) => r.row),
        ...(n > 0
          ? {
              reason: check.asWhole
                ? `${n} row${n === 1 ? '' : 's'} need${n === 1 ? 's' : ''} an approver: the batch waits as one item in Approvals; nothing is sent before another operator approves it.`
                : `${n} row${n === 1 ? '' : 's'} need${n === 1 ? 's' : ''} an approver: each waits on its own in Approvals while the other rows run.`,
            }
          : {}),
      },
    };
  }

  // --- sweep and top-up ----------------------------------------------------------------------------
  const planSweep: DeskHandlers['bulk']['planSweep'] = async (input) => {
    const rows: BatchRowInput[] = [];
    const uids = [...new Set(input.subUserIds)];
    const threshold = new Decimal(input.threshold ?? '0');
    const spotRows = input.accountTypes.includes('spot')
      ? (await Promise.all(uids.map((uid) => api().wallet.subAccountBalances({ sub_uid: String(uid) })))).flat()
      : [];
    const futuresRows = input.accountTypes.includes('futures')
      ? (
          await Promise.all(
            uids.map((uid) =>
              api()
                .wallet.subAccountFuturesBalances({ sub_uid: String(uid) })
                .catch(() => []),
            ),
          )
        ).flat()
      : [];
    const cap = (v: string) => new Decimal(v).toDecimalPlaces(TRANSFER_MAX_DECIMALS, Decimal.ROUND_DOWN);
    for (const uid of uids) {
      for (const type of input.accountTypes) {
        const balances: [string, string][] =
          type === 'spot'
            ? Object.entries(spotRows.find((r) => Number(r.uid) === uid)?.available ?? {})
            : Object.entries(futuresRows.find((r) => Number(r.uid) === uid)?.available ?? {}).map(([settle, a]) => [
                settle.toUpperCase(),
                a.available ?? '0',
              ]);
        if (input.mode === 'sweep') {
          for (const [currency, amount] of balances) {
            if (input.currency && currency !== input.currency) continue;
            const value = cap(amount);
            if (value.lte(0) || value.lte(threshold)) continue;
            rows.push({
              type: 'transfer',
              currency,
              amount: value.toFixed(),
              from: { owner: uid, account: type },
              to: { owner: 'main', account: 'spot' },
              reference: `sweep ${type}`,
            });
          }
        } else {
          const currency = input.currency as string;
          const have = new Decimal(balances.find(([c]) => c === currency)?.[1] ?? '0');
          const need = cap(new Decimal(input.target as string).minus(have).toFixed());
          if (need.lte(0)) continue;
          rows.push({
            type: 'transfer',
            currency,
            amount: need.toFixed(),
            from: { owner: 'main', account: 'spot' },
            to: { owner: uid, account: type },
            reference: `top-up to ${input.target}`,
          });
        }
      }
    }
    if (rows.length === 0) {
      return {
        rows: [],
        fileProblems: [
          {
            message:
              input.mode === 'sweep'
                ? 'Nothing to collect: no selected account holds more than the threshold.'
                : 'Nothing to top up: every selected account already holds the target.',
          },
        ],
        totals: [],
        errorCount: 0,
        warningCount: 0,
      };
    }
    return preview({ source: 'rows', rows });
  };

  // --- keys ----------------------------------------------------------------------------------------
  const rotations = new Map<string, { secret: string; until: number }>();
  const rotationKey = (userId: number, key: string) => `${profileId()}:${userId}:${key}`;
  const forgetExpired = () => {
    const now = Date.now();
    for (const [k, v] of rotations) if (v.until < now) rotations.delete(k);
  };

  /** A signed read with the given key: does the platform accept it from this computer? */
  const testKey = async (key: string, secret: string): Promise<{ ok: boolean; message?: string }> => {
    const profile = ctx.activeProfile();
    if (!profile) return { ok: false, message: 'No profile is connected.' };
    const conn = new PlatformConnection({ baseUrl: profile.baseUrl, credentials: { key, secret } });
    try {
      await conn.client.syncClock();
      await conn.api.wallet.fee({});
      return { ok: true };
    } catch (error) {
      const label = isConvertibleToIpcError(error) ? error.toIpcError().label : undefined;
      return {
        ok: false,
        message:
          `The new key was refused${label ? ` (${label})` : ''}: ${error instanceof Error ? error.message : ''}`.trim(),
      };
    } finally {
      conn.close();
    }
  };

  const handlers: DeskHandlers['bulk'] = {
    exampleCsv: async () => ({ name: BATCH_EXAMPLE_NAME, content: BATCH_EXAMPLE_CSV }),

    preview: async (source) => preview(source),

    planSweep,

    create: async ({ name, kind, batch }) => {
      assertSafeText({ name: [name, 'name'] });
      const profile = profileId();
      const checked = await preview(batch);
      if (checked.fileProblems.length > 0 || checked.errorCount > 0 || checked.rows.some((r) => !r.input)) {
        return { created: false as const, preview: checked };
      }
      const id = store.create({
        profileId: profile,
        kind,
        name,
        rows: checked.rows.map((r) => ({ row: r.row, input: r.input as BatchRowInput })),
      });
      ctx.audit.record({
        action: 'bulk.create',
        params: { id, name, kind, rows: checked.rows.length },
        outcome: 'ok',
      });
      return { created: true as const, batch: runner.summary(id) as NonNullable<ReturnType<BatchRunner['summary']>> };
    },

    start: async ({ id }) => {
      const b = store.batch(id);
      if (!b || b.profile_id !== profileId())
        throw DeskFailure.precondition('This batch is not in the journal of the active profile.');
      if (b.state !== 'ready')
        throw DeskFailure.precondition(`This batch is ${b.state}; only a ready batch can be started.`);
      const rows = store.rows(id);
      const check = await policyCheck(rows.map((r) => ({ row: r.row_no, input: inputOf(r) })));
      const refused = check.rows.filter((r) => r.refusals.length > 0);
      if (refused.length > 0) {
        throw new DeskFailure({
          code: 'POLICY',
          message: refused.map((r) => `Row ${r.row}: ${r.refusals.join(' ')}`).join(' '),
          advice: 'Nothing was sent. Remove or change those rows (a new batch), or ask an admin about the policy.',
        });
      }
      const asWhole = deps.approvals !== undefined && check.asWhole && check.needing.length > 0;
      await confirmBatch(id, b.name, asWhole ? check.needing.length : 0);
      if (asWhole && deps.approvals) {
        const keys = new Map(rows.map((r) => [r.row_no, r.request_key]));
        const totals = new Map<string, Decimal>();
        for (const r of rows) {
          const i = inputOf(r);
          totals.set(i.currency, (totals.get(i.currency) ?? new Decimal(0)).plus(i.amount));
        }
        const request: BatchApprovalRequest = {
          batchId: id,
          name: b.name,
          rows: check.rows.map(({ refusals: _r, ...r }) => ({ ...r, requestKey: keys.get(r.row) as string })),
          otherRows: rows.length - check.rows.length,
          totals: [...totals].map(([currency, total]) => ({ currency, amount: total.toFixed() })),
        };
        // The item first (idempotent by the batch's key), then the batch's state: a crash between
        // the two leaves a ready batch whose item is found again.
        const approval = deps.approvals.requestBatchApproval(request);
        runner.awaitApproval(id);
        ctx.audit.record({ action: 'bulk.start', params: { id, approval: approval.id }, outcome: 'ok' });
        return summaryOf(id);
      }
      ctx.audit.record({ action: 'bulk.start', params: { id }, outcome: 'ok' });
      runner.start(id);
      return runner.summary(id) as NonNullable<ReturnType<BatchRunner['summary']>>;
    },
    pause: async ({ id }) => {
      runner.pause(id);
      ctx.audit.record({ action: 'bulk.pause', params: { id }, outcome: 'ok' });
      return summaryOf(id);
    },
    resume: async ({ id }) => {
      const b = store.batch(id);
      if (b?.state !== 'paused') throw DeskFailure.precondition('Only a paused batch can be resumed.');
      runner.start(id);
      ctx.audit.record({ action: 'bulk.resume', params: { id }, outcome: 'ok' });
      return summaryOf(id);
    },
    cancel: async ({ id }) => {
      const b = summaryOf(id);
      // Waiting as one item in Approvals: the item is withdrawn first, so that no approver can
      // approve what was cancelled; its withdrawal then cancels the batch (as a rejection would).
      // A core that stops in between finds the withdrawn item on start (followApprovals).
      const item = waitsForApproval(b.state) ? deps.approvals?.withdrawBatchApproval(id) : undefined;
      if (item?.state === 'cancelled') {
        approvalDecided(item);
        return summaryOf(id);
      }
      runner.cancel(id);
      ctx.audit.record({ action: 'bulk.cancel', params: { id }, outcome: 'ok' });
      return summaryOf(id);
    },
    retryFailed: async ({ id }) => {
      runner.retryFailed(id);
      ctx.audit.record({ action: 'bulk.retryFailed', params: { id }, outcome: 'ok' });
      return summaryOf(id);
    },
    list: async () => ({
      batches: store
        .list(profileId())
        .map((b) => runner.summary(b.id) as NonNullable<ReturnType<BatchRunner['summary']>>),
    }),
    get: async ({ id }) => ({ batch: summaryOf(id), rows: store.rows(id).map(rowView) }),

    exportReport: async ({ id, timeZone }) => {
      const batch = summaryOf(id);
      const rows = store.rows(id).map(rowView);
      const header = [
        'row',
        'type',
        'currency',
        'amount',
        'from',
        'to',
        'reference',
        'client_id',
        'status',
        'platform_id',
        'label',
        'message',
        timeHeader('time', timeZone),
      ];
      const content = toCsv(
        header,
        rows.map((r) => [
          String(r.row),
          r.kind,
          r.currency,
          r.amount,
          r.from,
          r.to,
          r.reference ?? '',
          r.clientId ?? r.movementId ?? '',
          r.state,
          r.platformId ?? '',
          r.label ?? '',
          r.message ?? '',
          isoInZone(r.updatedAt, timeZone),
        ]),
      );
      const target = await openExportFile(
        deps.app ?? {},
        `batch-${batch.name.replace(/[^\w.-]+/g, '_').slice(0, 40)}-${id}.csv`,
      );
      if (!target) return { cancelled: true as const };
      try {
        await target.file.writeFile(content, 'utf8');
      } finally {
        await target.file.close();
      }
      ctx.audit.record({ action: 'bulk.exportReport', params: { id, name: basename(target.path) }, outcome: 'ok' });
      return { path: target.path, rows: rows.length };
    },

    createSubAccounts: async ({ text }) => {
      if (new TextEncoder().encode(text).length > BATCH_MAX_BYTES) {
        return { results: [], fileProblems: [{ message: BATCH_TOO_LARGE_MESSAGE }] };
      }
      const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), {
        header: true,
        skipEmptyLines: 'greedy',
        delimitersToGuess: [',', ';', '\t'],
        transformHeader: (h) => h.trim().toLowerCase(),
      });
      const fields = parsed.meta.fields ?? [];
      if (!fields.includes('login_name')) {
        return {
          results: [],
          fileProblems: [{ row: 1, message: 'Missing column login_name (columns: login_name, remark, email).' }],
        };
      }
      if (parsed.data.length > BATCH_MAX_ROWS)
        return { results: [], fileProblems: [{ message: BATCH_TOO_LARGE_MESSAGE }] };
      const results = [];
      const seen = new Set<string>();
      for (const [i, r] of parsed.data.entries()) {
        const loginName = (r.login_name ?? '').trim();
        const problem =
          loginNameProblem(loginName) ??
          (seen.has(loginName) ? 'This login name appears twice in the file.' : undefined);
        seen.add(loginName);
        if (problem) {
          results.push({ row: i + 2, loginName, state: 'invalid' as const, message: problem });
          continue;
        }
        try {
          const remark = (r.remark ?? '').trim();
          const email = (r.email ?? '').trim();
          const created = await api().subAccounts.create({
            login_name: loginName,
            ...(remark ? { remark } : {}),
            ...(email ? { email } : {}),
          });
          results.push({ row: i + 2, loginName, state: 'created' as const, userId: Number(created.user_id) });
        } catch (error) {
          const detail = isConvertibleToIpcError(error) ? error.toIpcError() : undefined;
          results.push({
            row: i + 2,
            loginName,
            state: 'failed' as const,
            message: `${detail?.label ? `${detail.label}: ` : ''}${error instanceof Error ? error.message : 'failed'}`,
          });
        }
      }
      return { results, fileProblems: [] };
    },

    setFrozen: async ({ userIds, frozen }) => {
      const results = [];
      for (const userId of [...new Set(userIds)]) {
        try {
          if (frozen) await api().subAccounts.lock(userId);
          else await api().subAccounts.unlock(userId);
          results.push({ userId, ok: true });
        } catch (error) {
          results.push({ userId, ok: false, message: error instanceof Error ? error.message : 'failed' });
        }
      }
      return { results };
    },

    keyHealth: async ({ userIds, unusedDays }) => {
      const subs = await subAccountFacts();
      const now = Date.now();
      const rows: KeyHealthRow[] = [];
      for (const userId of userIds ?? [...subs.keys()]) {
        const keys = await api().subAccounts.listKeys(userId);
        for (const k of keys) {
          const created = k.created_at === undefined ? undefined : Math.floor(k.created_at);
          const last = k.last_access === undefined || k.last_access <= 0 ? undefined : Math.floor(k.last_access);
          const expiry = keyExpiry(k.ip_whitelist, created, now);
          const issues: KeyHealthRow['issues'] = [];
          if (!expiry.ipBound) issues.push('noIpWhitelist');
          if (expiry.level === 'warning') issues.push('nearExpiry');
          if (expiry.level === 'expired') issues.push('expired');
          const since = last ?? created;
          if (since !== undefined && now - since * 1000 > unusedDays * DAY_MS) issues.push('unused');
          rows.push({
            userId,
            loginName: subs.get(userId)?.loginName ?? String(userId),
            key: k.key,
            ...(k.name ? { name: k.name } : {}),
            ipWhitelist: k.ip_whitelist,
            ...(created !== undefined ? { createdAt: created * 1000 } : {}),
            ...(last !== undefined ? { lastAccess: last * 1000 } : {}),
            ...(expiry.daysLeft !== undefined ? { expiresInDays: expiry.daysLeft } : {}),
            issues,
          });
        }
      }
      ctx.settings.set('bulk.keyHealthCheckedAt', now);
      return { keys: rows, checkedAt: now };
    },

    rotateKeys: async ({ targets, deliver }) => {
      forgetExpired();
      // Creating keys is an API-key change: the operator confirms the whole rotation in the
      // trusted window (as for one key), or nothing is created.
      await sensitiveChange({
        action: 'keyCreate',
        title: `Rotate ${targets.length} API key${targets.length === 1 ? '' : 's'}: create a replacement for each`,
        rows: [
          {
            label: 'Keys',
            value: targets.map((t) => `sub-account ${t.userId}: ${t.key.slice(0, 4)}…${t.key.slice(-4)}`).join('; '),
          },
          { label: 'New keys', value: 'the same permissions, IP whitelist and mode as the key they replace' },
          {
            label: 'Secrets',
            value: deliver.to === 'file' ? 'written to an encrypted file you choose' : 'shown once on screen',
          },
          { label: 'Old keys', value: 'kept until you confirm the new ones work' },
        ],
        confirmLabel: 'Create the new keys',
      });
      const out: RotatedKey[] = [];
      const fileEntries: KeyFileEntry[] = [];
      for (const { userId, key } of targets) {
        try {
          const old = await api().subAccounts.getKey(userId, key);
          const created = await api().subAccounts.createKey(userId, {
            ...(old.mode === 1 || old.mode === 2 ? { mode: old.mode } : {}),
            name: `${(old.name ?? 'key').slice(0, 40)} (rotated)`,
            // The same permissions (names the platform lists for keys; any other is not a key permission).
            perms: old.perms.flatMap((perm) => {
              const name = SubAccountPermName.safeParse(perm.name);
              return name.success ? [{ name: name.data, read_only: perm.read_only }] : [];
            }),
            ip_whitelist: old.ip_whitelist,
          });
          rotations.set(rotationKey(userId, created.key), {
            secret: created.secret,
            until: Date.now() + ROTATION_TTL_MS,
          });
          const test = await testKey(created.key, created.secret);
          out.push({
            userId,
            oldKey: key,
            newKey: created.key,
            ...(deliver.to === 'screen' ? { secret: created.secret } : {}),
            state: test.ok ? 'verified' : 'created',
            ...(test.message ? { message: test.message } : {}),
          });
          fileEntries.push({
            userId,
            key: created.key,
            secret: created.secret,
            replaces: key,
            ipWhitelist: old.ip_whitelist,
            createdAt: new Date().toISOString(),
          });
        } catch (error) {
          out.push({
            userId,
            oldKey: key,
            state: 'failed',
            message: error instanceof Error ? error.message : 'failed',
          });
        }
      }
      let file: string | undefined;
      if (deliver.to === 'file' && fileEntries.length > 0) {
        const encrypted = encryptKeyFile(fileEntries, deliver.passphrase);
        const target = await openExportFile(
          deps.app ?? {},
          `sub-account-keys-${new Date().toISOString().slice(0, 10)}.tdkeys.json`,
        );
        if (!target)
          throw DeskFailure.precondition(
            'No file was chosen: the new keys exist but their secrets were not saved. Delete them and rotate again.',
          );
        try {
          await target.file.writeFile(`${JSON.stringify(encrypted, null, 2)}\n`, 'utf8');
        } finally {
          await target.file.close();
        }
        file = target.path;
      }
      ctx.audit.record({
        action: 'bulk.rotateKeys',
        params: {
          keys: out.map((k) => ({ userId: k.userId, oldKey: k.oldKey, newKey: k.newKey, state: k.state })),
          delivered: deliver.to,
        },
        outcome: 'ok',
      });
      return { keys: out, ...(file ? { file } : {}) };
    },

    confirmRotation: async ({ pairs }) => {
      forgetExpired();
      await sensitiveChange({
        action: 'keyDelete',
        title: `Delete ${pairs.length} old API key${pairs.length === 1 ? '' : 's'} replaced by rotation`,
        rows: [
          {
            label: 'Keys to delete',
            value: pairs
              .map((p) => `sub-account ${p.userId}: ${p.oldKey.slice(0, 4)}…${p.oldKey.slice(-4)}`)
              .join('; '),
          },
          { label: 'Condition', value: 'each only after its new key passes a signed test again' },
        ],
        confirmLabel: 'Delete the old keys',
      });
      const out: RotatedKey[] = [];
      for (const { userId, oldKey, newKey } of pairs) {
        const held = rotations.get(rotationKey(userId, newKey));
        if (!held) {
          out.push({
            userId,
            oldKey,
            newKey,
            state: 'failed',
            message:
              'The new key’s test is no longer possible (the app forgets new secrets after 30 minutes or a restart); the old key was kept. Delete it by hand once the new one works.',
          });
          continue;
        }
        const test = await testKey(newKey, held.secret);
        if (!test.ok) {
          out.push({
            userId,
            oldKey,
            newKey,
            state: 'failed',
            message: `${test.message ?? 'The new key does not work'}; the old key was kept.`,
          });
          continue;
        }
        try {
          await api().subAccounts.deleteKey(userId, oldKey);
          rotations.delete(rotationKey(userId, newKey));
          out.push({ userId, oldKey, newKey, state: 'replaced' });
        } catch (error) {
          out.push({
            userId,
            oldKey,
            newKey,
            state: 'failed',
            message: error instanceof Error ? error.message : 'failed',
          });
        }
      }
      return { keys: out };
    },
  };

  /** An API-key change of the bulk area: the guard's role check and trusted confirmation, or refused. */
  async function sensitiveChange(view: Parameters<Guard['change']>[0]): Promise<void> {
    if (!deps.approvals)
      throw DeskFailure.precondition('API keys cannot be changed here without the trusted confirmation.');
    await deps.approvals.change(view);
  }

  /**
   * One trusted confirmation for the whole batch: what it moves, per source and currency;
   * `awaitingApproval` rows needing an approver make it a "Submit for approval".
   */
  async function confirmBatch(id: string, name: string, awaitingApproval = 0): Promise<void> {
    if (deps.confirm === undefined) return;
    const inputs = store.rows(id).map((r) => JSON.parse(r.input) as BatchRowInput);
    const totals = new Map<string, Decimal>();
    for (const i of inputs) totals.set(i.currency, (totals.get(i.currency) ?? new Decimal(0)).plus(i.amount));
    const count = (t: BatchRowInput['type']) => inputs.filter((i) => i.type === t).length;
    const [withdrawals, pushes, transfers] = [count('withdrawal'), count('push'), count('transfer')];
    const single = totals.size === 1 ? [...totals.entries()][0] : undefined;
    const view: BatchConfirmView = {
      action: withdrawals > 0 ? 'withdrawal' : pushes > 0 ? 'push' : 'transfer',
      title: `Run batch “${name}”: ${inputs.length} rows`,
      rows: [
        { label: 'Rows', value: `${transfers} transfers, ${pushes} UID pushes, ${withdrawals} withdrawals` },
        ...[...totals.entries()].map(([currency, total]) => ({
          label: `Total ${currency}`,
          value: formatMoney(total, currency),
        })),
        { label: 'Profile', value: ctx.activeProfile()?.name ?? '' },
      ],
      note:
        awaitingApproval > 0
          ? `${awaitingApproval} row(s) need an approver: the whole batch waits as one item in Approvals and nothing is sent before an operator other than you approves it. Then each row is sent once, at the platform’s rate limits, checked against the limits.`
          : 'Each row is sent once, at the platform’s rate limits; the policy’s limits and approvals apply to every row.',
      confirmLabel: awaitingApproval > 0 ? 'Submit for approval' : 'Run batch',
      ...(single ? { typedAmount: { amount: single[1].toFixed(), currency: single[0] } } : {}),
    };
    const answer = await deps.confirm(view);
    const typedOk =
      view.typedAmount === undefined ||
      (answer.typedAmount !== undefined &&
        (() => {
          const typed = parseAmountInput(answer.typedAmount);
          return typed.ok && new Decimal(typed.value).equals(view.typedAmount.amount);
        })());
    if (!answer.accepted || !typedOk) {
      ctx.audit.record({ action: 'bulk.start', params: { id }, outcome: 'error', label: 'NOT_CONFIRMED' });
      throw DeskFailure.precondition(
        answer.accepted
          ? 'The typed total does not match the batch; nothing was sent.'
          : 'The batch was not confirmed; nothing was sent.',
        'Start it again and confirm it in the Treasury Desk confirmation window.',
      );
    }
  }

  function summaryOf(id: string) {
    const s = runner.summary(id);
    if (!s || s.profileId !== profileId())
      throw DeskFailure.precondition('This batch is not in the journal of the active profile.');
    return s;
  }

  /** A batch's approval item was decided: approved → its rows run; rejected / expired / withdrawn → nothing is sent. */
  const approvalDecided = (a: Approval): void => {
    const batchId = a.batch?.batchId;
    const b = batchId ? store.batch(batchId) : undefined;
    if (!batchId || !b || !waitsForApproval(b.state)) return;
    if (a.state === 'approved' || a.state === 'sent') {
      ctx.audit.record({ action: 'bulk.approved', params: { id: batchId, approval: a.id }, outcome: 'ok' });
      runner.start(batchId);
      return;
    }
    if (a.state === 'pending') return;
    const why =
      a.state === 'rejected'
        ? `Rejected by ${a.decidedBy ?? 'an approver'}: ${a.reason ?? ''}`
        : a.state === 'expired'
          ? 'Its approval expired before anyone approved it.'
          : a.state === 'cancelled'
            ? (a.reason ?? 'The batch was cancelled before anyone approved it.')
            : (a.outcome ?? 'Its approval failed.');
    const pending = store.rowsIn(batchId, ['pending']);
    runner.cancel(batchId);
    for (const r of pending) store.updateRow(batchId, r.row_no, { message: `${why} Nothing was sent.` });
    ctx.audit.record({ action: 'bulk.cancel', params: { id: batchId, approval: a.id, why }, outcome: 'ok' });
  };

  /** After a restart: batches whose approval item was decided meanwhile (or just before) follow it. */
  const followApprovals = () => {
    for (const b of store.awaitingApproval()) {
      const a = deps.approvals?.batchApproval(b.id);
      if (a && a.state !== 'pending') approvalDecided(a);
    }
  };

  return {
    handlers,
    runner,
    approvalDecided,
    resume: () => {
      followApprovals();
      runner.resumeAll();
    },
    close: () => {
      rotations.clear();
      runner.close();
    },
  };
};
