import type { DeskHandlers } from '../../shared/contract';
import type { BatchPreview, BatchRowInput, BatchSource, BatchSummary } from '../../shared/contract/bulk';
import type { SavedAddress } from '../../shared/contract/funding';
import type { Approval } from '../../shared/contract/policies';
import type { SubName } from '../../shared/contract/transfers';
import { toCsv } from '../../shared/format/csv';
import { formatMoney } from '../../shared/format/money';
import { type DisplayTimeZone, isoInZone, timeHeader } from '../../shared/format/time';
import type { PlatformApi } from '../api/platform';
import type { ApprovalQueue, StoredApproval } from '../approvals/queue';
import type { MovementCommands } from '../commands/movements';
import { assertSafeText, DeskFailure } from '../errors';
import type { AuditLog } from '../journal/types';
import type { Movements } from '../movements/types';
import type { Authorizer, Origin } from '../policies/authorize';
import { type Confirm, requireConfirmation } from '../policies/confirm';
import type { Limits } from '../policies/limits';
import type { PolicyStore } from '../policies/store';
import { type BatchLine, batchLines, contextRows } from '../policies/views';
import type { Scheduler } from '../scheduler';
import type { ActiveProfile, Emit } from '../types';
import { batchApprovalKey, createBatchApproval } from './approval';
import { type ParsedRow, parseBatchText } from './csv';
import { BATCH_EXAMPLE_CSV, BATCH_EXAMPLE_NAME } from './example';
import { gatherFacts } from './facts';
import { createBatchPolicy } from './policy';
import { createRowExecutor, type RowExecutorDeps } from './rowExecutor';
import { confirmationLines, namesSubAccounts, totalsOf } from './rows';
import { BatchRunner } from './runner';
import { type BatchStore, inputOf, rowView, waitsForApproval } from './store';
import { sweepRows } from './sweep';
import { validateBatch } from './validate';

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
  /** In a team: whether the desk is in one now, and the team journal's final movement of a request key. */
  readonly team?: RowExecutorDeps['team'];
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
  /** The core's time: the runner's waits, retries and polls. */
  readonly scheduler: Scheduler;
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

  const executor = createRowExecutor({ ...deps, originOf });

  const runner = new BatchRunner({
    store,
    executor,
    activeProfile: () => deps.activeProfile()?.id,
    onChange: (s) => deps.emit('bulk.batchChanged', { id: s.id, state: s.state, counts: s.counts }),
    scheduler: deps.scheduler,
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
  const linesOf = async (inputs: readonly { row: number; input: BatchRowInput }[]): Promise<BatchLine[]> =>
    confirmationLines(inputs, namesSubAccounts(inputs) ? await deps.subNames() : (uid) => `Sub-account ${uid}`);

  /**
   * One trusted confirmation for the whole batch: every destination with its amount, the total per
   * currency (each typed by the person), the batch's name as a labelled row (free text
   * from the window: never the title). `needing` rows make it a "Submit for approval".
   */
  const confirmBatch = async (id: string, name: string, needing: number): Promise<void> => {
    const inputs = store.rows(id).map((r) => ({ row: r.row_no, input: inputOf(r) }));
    const totals = totalsOf(inputs);
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
        typedAmounts: totals,
      });
    } catch (error) {
      deps.audit.record({ action: 'bulk.start', params: { id }, outcome: 'error', label: 'NOT_CONFIRMED' });
      throw error;
    }
    store.confirmed(id, who.name);
  };

  // --- a batch waiting as one approval item --------------------------------------------------------
  const approval = createBatchApproval({ ...deps, runner, lines: linesOf });

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
        const item = approval.request(id, b.name, check.rows);
        runner.awaitApproval(id);
        deps.audit.record({ action: 'bulk.start', params: { id, approval: item.id }, outcome: 'ok' });
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
    approve: approval.approve,
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
      approval.follow();
      runner.resumeAll();
    },
    close: () => runner.close(),
  };
};
