/**
 * Bulk batches (docs/bulk.md): transfers, UID transfers and withdrawals from a CSV, pasted rows or a
 * sweep plan — checked as a whole, journaled whole, confirmed as a whole in the trusted window, then
 * run row by row through the SAME domain command a single movement uses (commands/movements.ts),
 * each row under its own request key and with an explicit origin: `batch row N of batch B, confirmed
 * as a whole at T by O`. The command applies the policy's limits and approval rules to every row;
 * where the policy says so a batch that needs approval waits as ONE item in the Approvals queue and
 * runs only once another operator approves it.
 */
import Decimal from 'decimal.js';
import type { DeskHandlers } from '../../../shared/contract';
import type { BatchPreview, BatchRowInput, BatchSource, BatchSummary } from '../../../shared/contract/bulk';
import type { SavedAddress } from '../../../shared/contract/funding';
import type { Approval } from '../../../shared/contract/policies';
import { type SubName, TRANSFER_MAX_DECIMALS, transferEnds } from '../../../shared/contract/transfers';
import { toCsv } from '../../../shared/format/csv';
import { formatMoney } from '../../../shared/format/money';
import { type DisplayTimeZone, isoInZone, timeHeader } from '../../../shared/format/time';
import type { PlatformApi } from '../api/platform';
import { type ApprovalQueue, publicApproval, type StoredApproval } from '../approvals/queue';
import type { MovementCommands, MovementRequests } from '../commands/movements';
import { DeskFailure, isConvertibleToIpcError } from '../errors';
import type { AuditLog } from '../journal/types';
import type { Movement, Movements } from '../movements/types';
import type { Authorizer, Origin } from '../policies/authorize';
import { type Confirm, requireConfirmation } from '../policies/confirm';
import type { Limits } from '../policies/limits';
import type { PolicyStore } from '../policies/store';
import { type BatchLine, batchLines, contextRows } from '../policies/views';
import type { ActiveProfile, Emit } from '../types';
import { type ParsedRow, parseBatchText } from './csv';
import { BATCH_EXAMPLE_CSV, BATCH_EXAMPLE_NAME } from './example';
import { gatherFacts } from './facts';
import { type CheckedRow, createBatchPolicy } from './policy';
import { BatchRunner, type RowExecutor, type RowOutcome } from './runner';
import { type BatchStore, inputOf, rowView, waitsForApproval } from './store';
import { validateBatch } from './validate';

const HOUR_MS = 3_600_000;

/** The batch operations of the `bulk` area (the sub-account and key ones live in subAccounts/). */
export type BatchHandlers = Pick<
  DeskHandlers['bulk'],
  | 'exampleCsv'
  | 'preview'
  | 'planSweep'
  | 'create'
  | 'start'
  | 'pause'
  | 'resume'
  | 'cancel'
  | 'retryFailed'
  | 'list'
  | 'get'
>;

export interface BatchesDeps {
  readonly store: BatchStore;
  readonly audit: AuditLog;
  readonly emit: Emit;
  readonly platform: () => PlatformApi;
  readonly activeProfile: () => ActiveProfile | undefined;
  readonly onProfileChange: (listener: () => void) => () => void;
  readonly movements: Pick<Movements, 'byRequestKey'>;
  readonly commands: MovementCommands;
  readonly authorizer: Authorizer;
  readonly queue: ApprovalQueue;
  readonly limits: Limits;
  readonly policies: PolicyStore;
  /** The shell's trusted confirmation (absent: no batch can start). */
  readonly confirm?: Confirm | undefined;
  /** The saved addresses of a currency (the withdrawal form's read, with use counts). */
  readonly savedAddresses: (currency: string) => Promise<SavedAddress[]>;
  /** Sub-accounts' names for the confirmation ("desk_ops (UID 10000003)"). */
  readonly subNames: () => Promise<SubName>;
  readonly pollMs?: number;
  readonly retryMs?: number;
  readonly log?: (line: string) => void;
}

export interface Batches {
  readonly handlers: BatchHandlers;
  readonly runner: BatchRunner;
  /** A batch's report as CSV (docs/bulk.md, "Report"). */
  report(id: string, timeZone: DisplayTimeZone): { name: string; content: string; rows: number };
  /** An approver approves a batch's item: limits again, the trusted confirmation, then its rows run. */
  approve(a: StoredApproval, reason: string): Promise<Approval>;
  /** On core start: decided items are followed, running batches go on where they stopped. */
  resume(): void;
  close(): void;
}

/** The request key of a batch's approval item (the approvals table keys items by request key). */
export const batchApprovalKey = (batchId: string): string => `batch:${batchId}`;

const BATCH_RELEASED = 'Approved: its rows run in Bulk, each checked against the limits as it goes.';

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

/** A row as its domain command's request (the same shape a single movement sends). */
export const commandOf = (
  input: BatchRowInput,
):
  | { kind: 'withdrawal'; request: MovementRequests['withdrawal'] }
  | { kind: 'push'; request: MovementRequests['push'] }
  | { kind: 'transfer'; request: MovementRequests['transfer'] } => {
  if (input.type === 'push') {
    return { kind: 'push', request: { receiveUid: input.receiveUid, currency: input.currency, amount: input.amount } };
  }
  if (input.type === 'withdrawal') {
    return {
      kind: 'withdrawal',
      request: {
        currency: input.currency,
        chain: input.chain,
        address: input.address,
        amount: input.amount,
        ...(input.memo ? { memo: input.memo } : {}),
      },
    };
  }
  const { from, to, currency, amount } = input;
  if (from.owner === 'main' && to.owner === 'main') {
    return {
      kind: 'transfer',
      request: {
        kind: 'own',
        currency,
        from: from.account,
        to: to.account,
        amount,
        ...(from.pair || to.pair ? { currencyPair: from.pair ?? to.pair } : {}),
        ...(from.settle || to.settle ? { settle: from.settle ?? to.settle } : {}),
      },
    };
  }
  if (from.owner !== 'main' && to.owner !== 'main') {
    return {
      kind: 'transfer',
      request: {
        kind: 'subSub',
        fromUserId: from.owner,
        fromType: from.account as 'spot' | 'futures' | 'delivery',
        toUserId: to.owner,
        toType: to.account as 'spot' | 'futures' | 'delivery',
        currency,
        amount,
      },
    };
  }
  const sub = from.owner === 'main' ? to : from;
  return {
    kind: 'transfer',
    request: {
      kind: 'mainSub',
      direction: from.owner === 'main' ? 'to' : 'from',
      subUserId: sub.owner as number,
      subAccountType: sub.account as 'spot' | 'futures' | 'delivery' | 'options',
      currency,
      amount,
    },
  };
};

export const createBatches = (deps: BatchesDeps): Batches => {
  const { store } = deps;
  const policy = createBatchPolicy(deps);
  const profileId = (): string => deps.authorizer.profile().id;

  // --- execution: one row through its domain command -------------------------------------------
  /** Who asked for this row: its batch, confirmed as a whole (and approved as one, when it waited). */
  const originOf = (batchId: string, rowNo: number): Origin => {
    const b = store.batch(batchId);
    const item = deps.queue.byRequestKey(batchApprovalKey(batchId));
    return {
      kind: 'batch',
      batchId,
      batchName: b?.name ?? batchId,
      row: rowNo,
      confirmedAt: b?.confirmed_at ?? b?.started_at ?? 0,
      confirmedBy: b?.confirmed_by || item?.makerName || 'an operator',
      ...(item && (item.state === 'approved' || item.state === 'sent') ? { approvalId: item.id } : {}),
    };
  };

  const executor: RowExecutor = {
    lookup: (key) => {
      const m = deps.movements.byRequestKey(key);
      return m ? movementOutcome(m) : undefined;
    },
    execute: async (input, requestKey, batchId, rowNo) => {
      const { kind, request } = commandOf(input);
      try {
        const result = await deps.commands.submit(kind, request as never, {
          requestKey,
          origin: originOf(batchId, rowNo),
        });
        if (result.state === 'done') return movementOutcome(result.movement);
        if (result.movement !== undefined) return movementOutcome(result.movement);
        if (result.state === 'refused') throw result.failure;
        return { state: 'checking', message: result.failure.message };
      } catch (error) {
        return rowFailure(error, requestKey);
      }
    },
  };

  /** A row's call failed: what the journal says of it, or why nothing was sent (and whether to retry). */
  const rowFailure = (error: unknown, requestKey: string): RowOutcome => {
    const journaled = deps.movements.byRequestKey(requestKey);
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
  };

  const runner = new BatchRunner({
    store,
    executor,
    activeProfile: () => deps.activeProfile()?.id,
    onChange: (s) => deps.emit('bulk.batchChanged', { id: s.id, state: s.state, counts: s.counts }),
    ...(deps.pollMs ? { pollMs: deps.pollMs } : {}),
    ...(deps.retryMs ? { retryMs: deps.retryMs } : {}),
    ...(deps.log ? { log: deps.log } : {}),
  });
  deps.onProfileChange(() => runner.wake());

  // --- checking ----------------------------------------------------------------------------------
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
    const inputs = parsed.rows.flatMap((r) => (r.input ? [{ row: r.row, input: r.input }] : []));
    const facts = await gatherFacts(
      deps,
      inputs.map((r) => r.input),
    );
    const verdict = await policy.verdict(profileId(), inputs);
    return validateBatch(parsed.rows, facts, () => verdict);
  };

  const summaryOf = (id: string): BatchSummary => {
    const s = runner.summary(id);
    if (!s || s.profileId !== profileId())
      throw DeskFailure.precondition('This batch is not in the journal of the active profile.');
    return s;
  };

  // --- the trusted confirmation of a whole batch -------------------------------------------------
  /** Every row as its confirmation lists it: what, where to, how much. */
  const linesOf = async (inputs: readonly { row: number; input: BatchRowInput }[]): Promise<BatchLine[]> => {
    const names = inputs.some((r) => r.input.type === 'transfer') ? await deps.subNames() : undefined;
    return inputs.map(({ row, input }) => {
      const command = commandOf(input);
      const base = { row, currency: input.currency, amount: input.amount };
      if (command.kind === 'withdrawal') {
        const r = command.request;
        return {
          ...base,
          what: 'Withdrawal',
          destination: `${r.address}${r.memo ? ` memo ${r.memo}` : ''} (${r.chain})`,
        };
      }
      if (command.kind === 'push')
        return { ...base, what: 'UID transfer', destination: `UID ${command.request.receiveUid}` };
      const ends = transferEnds(command.request, names ?? ((uid) => `Sub-account ${uid}`));
      return { ...base, what: 'Transfer', destination: `${ends.to} (from ${ends.from})` };
    });
  };

  const totalsOf = (inputs: readonly { input: BatchRowInput }[]) => {
    const totals = new Map<string, Decimal>();
    for (const { input } of inputs)
      totals.set(input.currency, (totals.get(input.currency) ?? new Decimal(0)).plus(input.amount));
    return [...totals].map(([currency, total]) => ({ currency, amount: total.toFixed() }));
  };

  /**
   * One trusted confirmation for the whole batch: every destination with its amount, the total per
   * currency (typed when the batch has one currency), the batch's name as a labelled row (free text
   * from the window: never the title). `needing` rows make it a "Submit for approval".
   */
  const confirmBatch = async (id: string, name: string, needing: number): Promise<void> => {
    const inputs = store.rows(id).map((r) => ({ row: r.row_no, input: inputOf(r) }));
    const totals = totalsOf(inputs);
    const single = totals.length === 1 ? totals[0] : undefined;
    const who = deps.authorizer.operator();
    try {
      await requireConfirmation(deps.confirm, {
        action: 'batch',
        title: `Run a batch of ${inputs.length} row${inputs.length === 1 ? '' : 's'}`,
        rows: [
          { label: 'Batch name', value: `“${name}”` },
          ...batchLines(await linesOf(inputs)),
          ...totals.map((t) => ({ label: `Total ${t.currency}`, value: formatMoney(t.amount, t.currency) })),
          ...contextRows(deps.activeProfile(), who),
        ],
        note:
          needing > 0
            ? `${needing} row(s) need an approver: the whole batch waits as one item in Approvals and nothing is sent before an operator other than you approves it. Then each row is sent once, at the platform’s rate limits, checked against the limits.`
            : 'Each row is sent once, at the platform’s rate limits; the policy’s limits and approvals apply to every row.',
        confirmLabel: needing > 0 ? 'Submit for approval' : 'Run batch',
        ...(single ? { typedAmount: single } : {}),
      });
    } catch (error) {
      deps.audit.record({ action: 'bulk.start', params: { id }, outcome: 'error', label: 'NOT_CONFIRMED' });
      throw error;
    }
    store.confirmed(id, who.name);
  };

  // --- a batch waiting as one approval item --------------------------------------------------------
  const requestApproval = (id: string, name: string, checked: readonly CheckedRow[]): Approval => {
    const who = deps.authorizer.operator();
    const rows = store.rows(id);
    const keys = new Map(rows.map((r) => [r.row_no, r.request_key]));
    const totals = totalsOf(rows.map((r) => ({ input: inputOf(r) })));
    const totalsText = totals.map((t) => formatMoney(t.amount, t.currency)).join(' + ');
    const single = totals.length === 1 ? totals[0] : undefined;
    const needing = checked.filter((r) => r.reasons.length > 0);
    const active = deps.authorizer.profile();
    const stored = checked.map(({ refusals: _r, ...r }) => ({ ...r, requestKey: keys.get(r.row) as string }));
    const item = deps.queue.request(
      {
        profileId: active.id,
        kind: 'batch',
        requestKey: batchApprovalKey(id),
        request: { batchId: id, name, rows: stored, otherRows: rows.length - checked.length, totals },
        currency: totals.map((t) => t.currency).join(', '),
        amount: single ? single.amount : totalsText,
        destination: `${new Set(checked.map((r) => r.destination)).size} destination(s)`,
        summary: `Batch of ${rows.length} row${rows.length === 1 ? '' : 's'}, ${totalsText}`,
        reasons: needing.map((r) => `Row ${r.row}: ${r.reasons.join(' ')}`),
        expiresAt: Date.now() + deps.policies.get(active.id).approval.expiresHours * HOUR_MS,
      },
      who,
    );
    return publicApproval(item);
  };

  /** Why a batch's item can no longer be approved (its batch was cancelled, or is gone), if it cannot. */
  const batchNotWaiting = (a: StoredApproval): DeskFailure | undefined => {
    const batchId = String(a.request.batchId);
    const state = store.batch(batchId)?.state;
    if (waitsForApproval(state)) return undefined;
    const name = String(a.request.name);
    return DeskFailure.precondition(
      state === 'cancelled'
        ? `Batch “${name}” was cancelled in Bulk: it can no longer be approved.`
        : state === undefined
          ? `Batch “${name}” is no longer in the journal: it can no longer be approved.`
          : `Batch “${name}” is ${state}, not waiting for approval: it can no longer be approved.`,
      'Nothing was approved or sent. The maker prepares a new batch if it is still needed.',
    );
  };

  /** The batch's item was approved: its rows run (each still checked against the limits). */
  const runApproved = (batchId: string, approvalId: string): void => {
    if (!waitsForApproval(store.batch(batchId)?.state)) return;
    deps.audit.record({ action: 'bulk.approved', params: { id: batchId, approval: approvalId }, outcome: 'ok' });
    runner.start(batchId);
  };

  /** A batch's item was decided: approved → its rows run; rejected / expired / withdrawn → nothing is sent. */
  const approvalDecided = (a: Approval): void => {
    const batchId = a.batch?.batchId;
    const b = batchId ? store.batch(batchId) : undefined;
    if (!batchId || !b || !waitsForApproval(b.state)) return;
    if (a.state === 'approved' || a.state === 'sent') {
      runApproved(batchId, a.id);
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
    deps.audit.record({ action: 'bulk.cancel', params: { id: batchId, approval: a.id, why }, outcome: 'ok' });
  };
  deps.queue.onDecided((a) => {
    if (a.kind === 'batch') approvalDecided(a);
  });

  const approve = async (a: StoredApproval, reason: string): Promise<Approval> => {
    const gone = batchNotWaiting(a);
    if (gone) throw gone;
    const who = deps.queue.approver(a);
    const active = deps.authorizer.profile();
    // An approval overrides the approval rules, never the limits, the allowlist or the window.
    const rows = (a.request.rows ?? []) as CheckedRow[];
    const verdict = await deps.limits.evaluateRows(active.id, rows);
    const refusals = rows.flatMap((r, i) => (verdict[i]?.refusals ?? []).map((x) => `Row ${r.row}: ${x}`));
    if (refusals.length > 0) throw deps.limits.refuse(active.id, a.summary, refusals);
    const batchId = String(a.request.batchId);
    const inputs = store.rows(batchId).map((r) => ({ row: r.row_no, input: inputOf(r) }));
    const needing = rows.filter((r) => r.reasons.length > 0);
    await requireConfirmation(deps.confirm, {
      action: 'approve',
      title: `Approve a batch of ${inputs.length} row${inputs.length === 1 ? '' : 's'}`,
      rows: [
        { label: 'Batch name', value: `“${String(a.request.name)}”` },
        ...batchLines(await linesOf(inputs)),
        ...totalsOf(inputs).map((t) => ({ label: `Total ${t.currency}`, value: formatMoney(t.amount, t.currency) })),
        ...needing.map((r) => ({ label: `Row ${r.row} needs approval`, value: r.reasons.join(' ') })),
        { label: 'Prepared by', value: a.makerName },
        ...contextRows(deps.activeProfile(), who),
      ],
      note: 'Its rows then run in Bulk, each still checked against the limits as it goes.',
      confirmLabel: 'Approve and run',
    });
    // The batch may have been cancelled while the approver read the confirmation.
    const cancelled = batchNotWaiting(a);
    if (cancelled) throw cancelled;
    if (!deps.queue.approve(a, who, reason)) {
      throw DeskFailure.precondition('This batch was decided or expired meanwhile.');
    }
    runApproved(batchId, a.id);
    return deps.queue.settle(a.id, 'sent', undefined, BATCH_RELEASED);
  };

  /** After a restart: batches whose item was decided meanwhile (or just before) follow it. */
  const followApprovals = () => {
    for (const a of deps.queue.approvedUnsent('batch')) {
      // Its rows are journaled movements of their own: the batch starts (its approval stands).
      deps.queue.settle(a.id, 'sent', undefined, BATCH_RELEASED);
    }
    for (const b of store.awaitingApproval()) {
      const item = deps.queue.byRequestKey(batchApprovalKey(b.id));
      if (item && item.state !== 'pending') approvalDecided(publicApproval(item));
    }
  };

  // --- sweep and top-up --------------------------------------------------------------------------
  const planSweep: DeskHandlers['bulk']['planSweep'] = async (input) => {
    const rows = await sweepRows(deps.platform(), input);
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

  const handlers: BatchHandlers = {
    exampleCsv: async () => ({ name: BATCH_EXAMPLE_NAME, content: BATCH_EXAMPLE_CSV }),

    preview: async (source) => preview(source),

    planSweep,

    create: async ({ name, kind, batch }) => {
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
      deps.audit.record({
        action: 'bulk.create',
        params: { id, name, kind, rows: checked.rows.length },
        outcome: 'ok',
      });
      return { created: true as const, batch: summaryOf(id) };
    },

    start: async ({ id }) => {
      const b = store.batch(id);
      if (!b || b.profile_id !== profileId())
        throw DeskFailure.precondition('This batch is not in the journal of the active profile.');
      if (b.state !== 'ready')
        throw DeskFailure.precondition(`This batch is ${b.state}; only a ready batch can be started.`);
      const rows = store.rows(id);
      const check = await policy.check(
        b.profile_id,
        rows.map((r) => ({ row: r.row_no, input: inputOf(r) })),
      );
      const refused = check.rows.filter((r) => r.refusals.length > 0);
      if (refused.length > 0) {
        throw new DeskFailure({
          code: 'POLICY',
          message: refused.map((r) => `Row ${r.row}: ${r.refusals.join(' ')}`).join(' '),
          advice: 'Nothing was sent. Remove or change those rows (a new batch), or ask an admin about the policy.',
        });
      }
      const asWhole = check.asWhole && check.needing.length > 0;
      await confirmBatch(id, b.name, asWhole ? check.needing.length : 0);
      if (asWhole) {
        // The item first (idempotent by the batch's key), then the batch's state: a crash between
        // the two leaves a ready batch whose item is found again.
        const approval = requestApproval(id, b.name, check.rows);
        runner.awaitApproval(id);
        deps.audit.record({ action: 'bulk.start', params: { id, approval: approval.id }, outcome: 'ok' });
        return summaryOf(id);
      }
      deps.audit.record({ action: 'bulk.start', params: { id }, outcome: 'ok' });
      runner.start(id);
      return summaryOf(id);
    },
    pause: async ({ id }) => {
      runner.pause(id);
      deps.audit.record({ action: 'bulk.pause', params: { id }, outcome: 'ok' });
      return summaryOf(id);
    },
    resume: async ({ id }) => {
      const b = store.batch(id);
      if (b?.state !== 'paused') throw DeskFailure.precondition('Only a paused batch can be resumed.');
      runner.start(id);
      deps.audit.record({ action: 'bulk.resume', params: { id }, outcome: 'ok' });
      return summaryOf(id);
    },
    cancel: async ({ id }) => {
      const b = summaryOf(id);
      // Waiting as one item in Approvals: the item is withdrawn first, so that no approver can
      // approve what was cancelled; its withdrawal then cancels the batch (as a rejection would).
      // A core that stops in between finds the withdrawn item on start (followApprovals).
      const item = waitsForApproval(b.state) ? deps.queue.byRequestKey(batchApprovalKey(id)) : undefined;
      if (item) {
        const withdrawn = deps.queue.withdraw(
          item,
          `The batch was cancelled in Bulk by ${deps.authorizer.operator().name}.`,
        );
        if (withdrawn.state === 'cancelled') return summaryOf(id);
      }
      runner.cancel(id);
      deps.audit.record({ action: 'bulk.cancel', params: { id }, outcome: 'ok' });
      return summaryOf(id);
    },
    retryFailed: async ({ id }) => {
      runner.retryFailed(id);
      deps.audit.record({ action: 'bulk.retryFailed', params: { id }, outcome: 'ok' });
      return summaryOf(id);
    },
    list: async () => ({ batches: store.list(profileId()).map((b) => summaryOf(b.id)) }),
    get: async ({ id }) => ({ batch: summaryOf(id), rows: store.rows(id).map(rowView) }),
  };

  return {
    handlers,
    runner,
    approve,
    report: (id, timeZone) => {
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
      return {
        name: `batch-${batch.name.replace(/[^\w.-]+/g, '_').slice(0, 40)}-${id}.csv`,
        content,
        rows: rows.length,
      };
    },
    resume: () => {
      followApprovals();
      runner.resumeAll();
    },
    close: () => runner.close(),
  };
};

/** The rows of a sweep (sub-accounts → main spot) or a top-up (main spot → sub-accounts). */
const sweepRows = async (
  api: PlatformApi,
  input: Parameters<DeskHandlers['bulk']['planSweep']>[0],
): Promise<BatchRowInput[]> => {
  const rows: BatchRowInput[] = [];
  const uids = [...new Set(input.subUserIds)];
  const threshold = new Decimal(input.threshold ?? '0');
  const spotRows = input.accountTypes.includes('spot')
    ? (await Promise.all(uids.map((uid) => api.wallet.subAccountBalances({ sub_uid: String(uid) })))).flat()
    : [];
  const futuresRows = input.accountTypes.includes('futures')
    ? (
        await Promise.all(
          uids.map((uid) => api.wallet.subAccountFuturesBalances({ sub_uid: String(uid) }).catch(() => [])),
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
  return rows;
};
