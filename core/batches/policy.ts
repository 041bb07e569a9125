/**
 * A batch against the profile's policy (docs/bulk.md, "Policies, approvals, the trusted
 * confirmation"): every withdrawal and UID transfer row, in order, through the policy engine (each
 * passing row counts toward the limits of the rows after it); transfers between the desk's own
 * accounts are not limited. A row over a limit is an error of the preview; a row that needs an
 * approver is a warning, and where the policy says so the whole batch waits as ONE approval item.
 */
import type { BatchRowInput } from '../../shared/contract/bulk';
import { destinationKey } from '../../shared/contract/funding';
import { formatMoney } from '../../shared/format/money';
import { pushDestination } from '../policies/evaluate';
import type { Limits } from '../policies/limits';
import type { PolicyStore } from '../policies/store';
import type { BatchPolicyVerdict } from './validate';
import { destinationText } from './validate';

/** A row of a batch as the policy sees it (withdrawals and UID transfers). */
export interface BatchPolicyRow {
  readonly row: number;
  readonly kind: 'withdrawal' | 'push';
  readonly currency: string;
  readonly amount: string;
  /** `destinationKey(chain, address, memo)` or `uid:<n>`. */
  readonly destination: string;
  /** "Withdraw 60 USDT to T9y… (TRX)". */
  readonly summary: string;
}

/** A governed row with what the policy said of it. */
export interface CheckedRow extends BatchPolicyRow {
  readonly refusals: readonly string[];
  readonly reasons: readonly string[];
}

export interface BatchPolicyCheck {
  readonly rows: readonly CheckedRow[];
  /** The policy lets a batch whose rows need approval wait as one item. */
  readonly asWhole: boolean;
  /** Rows that need an approver and are not refused. */
  readonly needing: readonly CheckedRow[];
}

/** The rows the policy governs. */
export const policyRows = (rows: readonly { row: number; input: BatchRowInput }[]): BatchPolicyRow[] =>
  rows.flatMap(({ row, input }): BatchPolicyRow[] => {
    if (input.type === 'transfer') return [];
    const destination =
      input.type === 'withdrawal'
        ? destinationKey(input.chain, input.address, input.memo)
        : pushDestination(input.receiveUid);
    return [
      {
        row,
        kind: input.type,
        currency: input.currency,
        amount: input.amount,
        destination,
        summary: `${input.type === 'withdrawal' ? 'Withdraw' : 'UID transfer of'} ${formatMoney(input.amount, input.currency)} to ${destinationText(input)}`,
      },
    ];
  });

export const createBatchPolicy = (deps: { readonly limits: Limits; readonly policies: PolicyStore }) => {
  const check = async (
    profileId: string,
    rows: readonly { row: number; input: BatchRowInput }[],
  ): Promise<BatchPolicyCheck> => {
    const governed = policyRows(rows);
    const verdict = await deps.limits.evaluateRows(profileId, governed);
    const checked = governed.map((r, i) => ({
      ...r,
      refusals: verdict[i]?.refusals ?? [],
      reasons: verdict[i]?.approvalReasons ?? [],
    }));
    return {
      rows: checked,
      asWhole: deps.policies.get(profileId).approval.approveBatchesAsAWhole === true,
      // A row the policy refuses cannot be approved: it is an error, not a row waiting for an approver.
      needing: checked.filter((r) => r.reasons.length > 0 && r.refusals.length === 0),
    };
  };

  /** The preview's verdict: errors and warnings per row, and what the approval of the batch will be. */
  const verdict = async (
    profileId: string,
    rows: readonly { row: number; input: BatchRowInput }[],
  ): Promise<BatchPolicyVerdict> => {
    const result = await check(profileId, rows);
    const rowErrors = new Map<number, string[]>();
    const rowWarnings = new Map<number, string[]>();
    for (const r of result.rows) {
      if (r.refusals.length > 0) rowErrors.set(r.row, [`Policy: ${r.refusals.join(' ')}`]);
      else if (r.reasons.length > 0) rowWarnings.set(r.row, [`Needs an approver: ${r.reasons.join(' ')}`]);
    }
    const n = result.needing.length;
    const rowsWord = `${n} row${n === 1 ? '' : 's'} need${n === 1 ? 's' : ''} an approver`;
    return {
      rowErrors,
      rowWarnings,
      approval: {
        required: n > 0,
        asWhole: result.asWhole,
        rows: result.needing.map((r) => r.row),
        ...(n > 0
          ? {
              reason: result.asWhole
                ? `${rowsWord}: the batch waits as one item in Approvals; nothing is sent before another operator approves it.`
                : `${rowsWord}: each waits on its own in Approvals while the other rows run.`,
            }
          : {}),
      },
    };
  };

  return { check, verdict };
};

export type BatchPolicy = ReturnType<typeof createBatchPolicy>;
