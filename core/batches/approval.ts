/**
 * A batch that waits as ONE item in the Approvals queue (`approval.approveBatchesAsAWhole`,
 * docs/approvals.md "Batches approved as a whole"): its item (keyed `batch:<id>`, every governed row
 * with its request key and reasons, the totals), the approver's decision (every row against the
 * limits again, the trusted confirmation listing every destination and asking for each currency's
 * total typed), and what a decision does to the batch: approved → it runs; rejected, expired or
 * withdrawn → it is cancelled, nothing sent.
 */
import type { Approval } from '../../shared/contract/policies';
import { formatMoney } from '../../shared/format/money';
import { type ApprovalQueue, publicApproval, type StoredApproval } from '../approvals/queue';
import { DeskFailure } from '../errors';
import type { AuditLog } from '../journal/types';
import type { Authorizer } from '../policies/authorize';
import { type Confirm, requireConfirmation } from '../policies/confirm';
import type { Limits } from '../policies/limits';
import type { PolicyStore } from '../policies/store';
import { type BatchLine, batchLines, contextRows } from '../policies/views';
import type { ActiveProfile } from '../types';
import type { CheckedRow } from './policy';
import { totalsOf } from './rows';
import type { BatchRunner } from './runner';
import { type BatchStore, inputOf, waitsForApproval } from './store';

const HOUR_MS = 3_600_000;

/** The request key of a batch's approval item (the approvals table keys items by request key). */
export const batchApprovalKey = (batchId: string): string => `batch:${batchId}`;

const BATCH_RELEASED = 'Approved: its rows run in Bulk, each checked against the limits as it goes.';

export interface BatchApprovalDeps {
  readonly store: BatchStore;
  readonly runner: BatchRunner;
  readonly queue: ApprovalQueue;
  readonly authorizer: Authorizer;
  readonly limits: Limits;
  readonly policies: PolicyStore;
  readonly audit: AuditLog;
  readonly confirm?: Confirm | undefined;
  readonly activeProfile: () => ActiveProfile | undefined;
  /** Every row as the confirmation lists it. */
  readonly lines: (inputs: readonly { row: number; input: ReturnType<typeof inputOf> }[]) => Promise<BatchLine[]>;
}

export const createBatchApproval = (deps: BatchApprovalDeps) => {
  const requestApproval = (id: string, name: string, checked: readonly CheckedRow[]): Approval => {
    const who = deps.authorizer.operator();
    const rows = deps.store.rows(id);
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
    const state = deps.store.batch(batchId)?.state;
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
    if (!waitsForApproval(deps.store.batch(batchId)?.state)) return;
    deps.audit.record({ action: 'bulk.approved', params: { id: batchId, approval: approvalId }, outcome: 'ok' });
    deps.runner.start(batchId);
  };

  /** A batch's item was decided: approved → its rows run; rejected / expired / withdrawn → nothing is sent. */
  const approvalDecided = (a: Approval): void => {
    const batchId = a.batch?.batchId;
    const b = batchId ? deps.store.batch(batchId) : undefined;
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
    const pending = deps.store.rowsIn(batchId, ['pending']);
    deps.runner.cancel(batchId);
    for (const r of pending) deps.store.updateRow(batchId, r.row_no, { message: `${why} Nothing was sent.` });
    deps.audit.record({ action: 'bulk.cancel', params: { id: batchId, approval: a.id, why }, outcome: 'ok' });
  };
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
    const inputs = deps.store.rows(batchId).map((r) => ({ row: r.row_no, input: inputOf(r) }));
    const needing = rows.filter((r) => r.reasons.length > 0);
    const totals = totalsOf(inputs);
    await requireConfirmation(deps.confirm, {
      action: 'approve',
      title: `Approve a batch of ${inputs.length} row${inputs.length === 1 ? '' : 's'}`,
      rows: [
        { label: 'Batch name', value: `“${String(a.request.name)}”` },
        ...batchLines(await deps.lines(inputs)),
        ...totals.map((t) => ({ label: `Total ${t.currency}`, value: formatMoney(t.amount, t.currency) })),
        ...needing.map((r) => ({ label: `Row ${r.row} needs approval`, value: r.reasons.join(' ') })),
        { label: 'Prepared by', value: a.makerName },
        ...contextRows(deps.activeProfile(), who),
      ],
      note: 'Its rows then run in Bulk, each still checked against the limits as it goes.',
      confirmLabel: 'Approve and run',
      // The approver types each currency's total, as the maker did.
      typedAmounts: totals,
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
    for (const b of deps.store.awaitingApproval()) {
      const item = deps.queue.byRequestKey(batchApprovalKey(b.id));
      if (item && item.state !== 'pending') approvalDecided(publicApproval(item));
    }
  };

  deps.queue.onDecided((a) => {
    if (a.kind === 'batch') approvalDecided(a);
  });

  return {
    /** Journals the batch as one pending item (its maker confirmed it in the trusted window). */
    request: requestApproval,
    approve,
    /** After a restart: batches whose item was decided meanwhile follow it. */
    follow: followApprovals,
  };
};
