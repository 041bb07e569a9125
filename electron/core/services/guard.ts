/**
 * What stands between a handler and a money movement or a sensitive change, in main:
 *
 * - the operator's role (makers move money, approvers approve, admins change policies);
 * - the profile's policy (electron/core/policies/evaluate.ts): limits refuse, approval rules send
 *   the movement to the Approvals queue instead of the platform;
 * - the trusted confirmation (electron/core/policies/confirm.ts): a window the shell owns shows
 *   what main is about to send, built here from the request main will journal, and main checks
 *   the typed amount. The renderer's own review sheet is only the UX.
 *
 * Handlers call `guard.movement(...)` / `guard.transfer(...)` / `guard.change(...)` before they
 * act; see docs/security.md and docs/approvals.md.
 */
import Decimal from 'decimal.js';
import type { BatchState } from '../../../shared/contract/bulk';
import { destinationKey, type ReviewPolicy } from '../../../shared/contract/funding';
import {
  type Approval,
  DEFAULT_POLICY,
  type Policy,
  type PolicyInput,
  type PolicyView,
} from '../../../shared/contract/policies';
import { formatMoney } from '../../../shared/format/money';
import { waitsForApproval } from '../batches/store';
import { DeskFailure } from '../errors';
import type { Movement } from '../movements/types';
import type { ApprovalStore, StoredApproval } from '../policies/approvals';
import { type Confirm, type ConfirmView, requireConfirmation } from '../policies/confirm';
import {
  type Evaluation,
  evaluateBatch,
  evaluatePolicy,
  type PolicyMovement,
  pushDestination,
} from '../policies/evaluate';
import { canAdminister, canApprove, canMake, type OperatorInfo, type OperatorSource } from '../policies/operators';
import type { ServiceContext } from './context';

const REVIEW_POLICY_KEY = 'funding.reviewPolicy';
const POLICY_KEY = (profileId: string) => `policies.${profileId}`;
const HOUR_MS = 3_600_000;

export interface GuardDeps {
  /** The shell's trusted confirmation; absent: everything that needs one is refused. */
  readonly confirm?: Confirm | undefined;
  readonly operators: OperatorSource;
  readonly approvals: ApprovalStore;
  readonly now?: () => number;
  /**
   * Inside a row of a batch (Bulk): the id of the batch's own approval item, when the batch waited
   * as one (`approveBatchesAsAWhole`). The guard accepts it in place of the row's own approval only
   * when that item is approved and lists this request key with the same movement.
   */
  readonly batchRow?: (requestKey: string) => string | undefined;
  /** A batch's approval item was approved, rejected or expired: Bulk runs or cancels the batch. */
  readonly onBatchDecision?: (approval: Approval) => void;
  /**
   * Bulk: where a batch stands (undefined: no such batch). A batch's item is approved only while its
   * batch still waits for it (`approval`, or `ready` left by a core that stopped in between).
   */
  readonly batchState?: (batchId: string) => BatchState | undefined;
}

/** A row of a batch as the policy sees it (withdrawals and pushes; transfers are not limited). */
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

/** What is kept of each row in a batch's approval item (its request). */
interface StoredBatchRow extends BatchPolicyRow {
  readonly requestKey: string;
  readonly reasons: readonly string[];
}

export interface BatchApprovalRequest {
  readonly batchId: string;
  readonly name: string;
  /** Every row the policy governs, with its request key and its reasons (empty: it waits along). */
  readonly rows: readonly StoredBatchRow[];
  /** Rows the policy does not govern (transfers between own accounts): they wait with the batch. */
  readonly otherRows: number;
  readonly totals: readonly { readonly currency: string; readonly amount: string }[];
}

export type ProposedMovement =
  | {
      readonly kind: 'withdrawal';
      readonly requestKey: string;
      readonly request: {
        readonly currency: string;
        readonly chain: string;
        readonly address: string;
        readonly memo?: string;
        readonly amount: string;
      };
      readonly fee?: string | undefined;
    }
  | {
      readonly kind: 'push';
      readonly requestKey: string;
      readonly request: { readonly receiveUid: number; readonly currency: string; readonly amount: string };
    };

interface StoredPolicy {
  readonly policy: Policy;
  readonly updatedAt: number;
  readonly updatedBy: string;
}

/** Releases the movement's place in the limits once it is in the journal (or was refused). */
export type Release = () => void;

export interface Guard {
  /** The operator at the desk (NOT_ALLOWED when nobody is signed in). */
  operator(): OperatorInfo;
  /**
   * A withdrawal or push: role, policy, trusted confirmation. Resolves when it may be sent now
   * (call `release` once `ctx.movements` returned); throws POLICY, CONFIRMATION_DECLINED,
   * NOT_ALLOWED or AWAITING_APPROVAL (journaled in the Approvals queue). A request key already
   * journaled resolves at once: the caller joins that movement.
   */
  movement(proposed: ProposedMovement): Promise<Release>;
  /** A transfer: the trusted confirmation when its amount is above the threshold. */
  transfer(t: {
    readonly requestKey: string;
    readonly currency: string;
    readonly amount: string;
    readonly from: string;
    readonly to: string;
  }): Promise<void>;
  /** Any other sensitive change (API keys, an endpoint): role maker+, then the trusted confirmation. */
  change(view: Omit<ConfirmView, 'rows'> & { readonly rows: ConfirmView['rows'] }): Promise<void>;
  policyView(): PolicyView;
  setPolicy(input: PolicyInput): Promise<PolicyView>;
  listApprovals(state?: Approval['state']): Approval[];
  approve(id: string, reason: string, send: (a: StoredApproval) => Promise<Movement>): Promise<Approval>;
  reject(id: string, reason: string): Approval;
  /** Expires pending approvals whose time is up (the core runs it on a timer). */
  expire(): void;
  /** After a restart: approvals left `approved` without a send are settled (never sent late). */
  recover(): void;
  /**
   * A whole batch against the policy, row after row (each passing row counts toward the limits of
   * the next): per row, what refuses it and why it needs approval; `asWhole`: the policy lets the
   * batch wait as one approval item.
   */
  batchPolicy(rows: readonly BatchPolicyRow[]): Promise<{ rows: Evaluation[]; asWhole: boolean }>;
  /** Journals a batch as ONE pending approval item (the maker confirmed it in the trusted window). */
  requestBatchApproval(request: BatchApprovalRequest): Approval;
  /** The approval item of a batch, if it waited as one. */
  batchApproval(batchId: string): Approval | undefined;
  /**
   * The batch is being cancelled: its item, if still pending, is withdrawn (`cancelled`, by the
   * operator at the desk), so no approver can approve it any more. Returns the item as it is now.
   */
  withdrawBatchApproval(batchId: string): Approval | undefined;
}

/** The request key of a batch's approval item (the approvals table keys items by request key). */
export const batchApprovalKey = (batchId: string): string => `batch:${batchId}`;

const batchRowsOf = (a: StoredApproval): StoredBatchRow[] => (a.request.rows ?? []) as StoredBatchRow[];

const publicApproval = (a: StoredApproval): Approval => {
  const { requestKey: _key, request, ...rest } = a;
  if (a.kind !== 'batch') return rest;
  return {
    ...rest,
    batch: {
      batchId: String(request.batchId),
      name: String(request.name),
      rows: batchRowsOf(a).map((r) => ({ row: r.row, summary: r.summary, reasons: [...r.reasons] })),
      totals: (request.totals ?? []) as { currency: string; amount: string }[],
    },
  };
};

const BATCH_RELEASED = 'Approved: its rows run in Bulk, each checked against the limits as it goes.';

const short = (address: string): string =>
  address.length > 24 ? `${address.slice(0, 12)}…${address.slice(-8)}` : address;

export const createGuard = (ctx: ServiceContext, deps: GuardDeps): Guard => {
  const now = deps.now ?? Date.now;
  const inflight = new Map<string, Promise<Release>>();
  /** Movements past the check and not yet in the journal: they count toward the limits. */
  const reserved = new Set<PolicyMovement>();

  const operator = (): OperatorInfo => {
    const current = deps.operators.current();
    if (current === undefined) {
      throw new DeskFailure({ code: 'NOT_ALLOWED', message: 'Nobody is signed in.', advice: 'Sign in first.' });
    }
    return current;
  };
  const notAllowed = (message: string) => new DeskFailure({ code: 'NOT_ALLOWED', message });

  const profile = () => {
    const active = ctx.activeProfile();
    if (active === undefined) throw DeskFailure.precondition('No profile is connected.', 'Choose a profile first.');
    return active;
  };

  const readPolicy = (profileId: string): StoredPolicy | undefined =>
    ctx.settings.get<StoredPolicy | undefined>(POLICY_KEY(profileId), undefined);
  const policyOf = (profileId: string): Policy => readPolicy(profileId)?.policy ?? DEFAULT_POLICY;

  /** Whether the typed amount is needed: above the review policy's amount, or no amount set (safe default). */
  const typedNeeded = (currency: string, amount: string): boolean => {
    const review = ctx.settings.get<ReviewPolicy>(REVIEW_POLICY_KEY, { typedConfirmAbove: {} });
    const threshold = review.typedConfirmAbove[currency.toUpperCase()];
    return threshold === undefined || new Decimal(amount).greaterThan(threshold);
  };

  /** USDT value of an amount at the platform's last price; undefined when no price can be read. */
  const usdtValue = async (currency: string, amount: string): Promise<string | undefined> => {
    const c = currency.toUpperCase();
    if (c === 'USDT') return new Decimal(amount).toFixed();
    try {
      const [ticker] = await ctx.platform().spot.tickers({ currency_pair: `${c}_USDT` });
      if (ticker === undefined || !ticker.last) return undefined;
      return new Decimal(amount).times(ticker.last).toFixed();
    } catch {
      return undefined;
    }
  };

  const destinationOf = (p: ProposedMovement): string =>
    p.kind === 'withdrawal'
      ? destinationKey(p.request.chain, p.request.address, p.request.memo)
      : pushDestination(p.request.receiveUid);

  const movementDestination = (m: Movement): string =>
    m.kind === 'withdrawal'
      ? destinationKey(
          String(m.params.chain ?? ''),
          String(m.params.address ?? ''),
          m.params.memo as string | undefined,
        )
      : pushDestination(String(m.params.receive_uid ?? ''));

  const recentMovements = (profileId: string, at: number) =>
    (['withdrawal', 'push'] as const)
      .flatMap((kind) => ctx.movements.list({ kind, profileId, from: at - 24 * HOUR_MS - 60_000, limit: 100_000 }))
      .filter((m) => m.state !== 'failed');

  /** USDT prices (per 1 unit) of every currency moved in the last 24 h, read before the check. */
  const pricesFor = async (profileId: string, at: number): Promise<Map<string, string | undefined>> => {
    const prices = new Map<string, string | undefined>();
    for (const m of recentMovements(profileId, at)) {
      const c = m.currency.toUpperCase();
      if (!prices.has(c)) prices.set(c, await usdtValue(c, '1'));
    }
    return prices;
  };

  /**
   * The profile's withdrawals and pushes of the last 24 h (not refused) plus those reserved now.
   * Synchronous on purpose: the caller checks and reserves in the same turn, so no movement can be
   * journaled or released between what was read and what is reserved.
   */
  const historyNow = (profileId: string, at: number, prices: Map<string, string | undefined>): PolicyMovement[] => [
    ...recentMovements(profileId, at).map((m) => {
      const price = prices.get(m.currency.toUpperCase());
      return {
        kind: m.kind as 'withdrawal' | 'push',
        currency: m.currency.toUpperCase(),
        amount: m.amount,
        at: m.createdAt,
        usdt: price === undefined ? undefined : new Decimal(m.amount).times(price).toFixed(),
        destination: movementDestination(m),
      };
    }),
    ...reserved,
  ];

  const knownDestinations = (profileId: string): Set<string> =>
    new Set(
      ctx.movements
        .list({ kind: 'withdrawal', profileId, limit: 100_000 })
        .filter((m) => m.state !== 'failed')
        .map(movementDestination),
    );

  /**
   * Reads the prices, then checks in one synchronous turn (see historyNow); with `reserve`, a
   * movement that passes takes its place in the limits in that same turn (`release` gives it back).
   */
  const evaluate = async (
    profileId: string,
    proposed: PolicyMovement,
    reserve = false,
  ): Promise<Evaluation & { release: Release }> => {
    const prices = await pricesFor(profileId, proposed.at);
    const at = now();
    const movement = { ...proposed, at };
    const result = evaluatePolicy(
      policyOf(profileId),
      movement,
      historyNow(profileId, at, prices),
      knownDestinations(profileId),
      at,
    );
    if (!reserve || result.refusals.length > 0) return { ...result, release: () => {} };
    reserved.add(movement);
    return { ...result, release: () => reserved.delete(movement) };
  };

  const refuse = (profileId: string, what: string, refusals: readonly string[]): DeskFailure => {
    ctx.audit.record({
      action: 'policies.refused',
      profileId,
      params: { what, refusals },
      outcome: 'error',
      label: 'POLICY',
    });
    return new DeskFailure({
      code: 'POLICY',
      message: refusals.join(' '),
      advice: 'Nothing was sent. An admin can change the policy in Settings → Policies.',
    });
  };

  const commonRows = (who: OperatorInfo) => {
    const p = ctx.activeProfile();
    return [
      { label: 'Profile', value: p ? `${p.name} (${p.kind})` : 'none' },
      { label: 'Operator', value: `${who.name} (${who.role})` },
    ];
  };

  const movementView = (
    p: ProposedMovement,
    who: OperatorInfo,
    usdt: string | undefined,
    extra: { approvalReasons?: readonly string[]; approving?: StoredApproval } = {},
  ): ConfirmView => {
    const { currency, amount } = p.request;
    const money = formatMoney(amount, currency);
    const rows: { label: string; value: string }[] = [{ label: 'Amount', value: money }];
    if (usdt !== undefined && currency.toUpperCase() !== 'USDT')
      rows.push({ label: 'Value', value: formatMoney(usdt, 'USDT', { estimate: true }) });
    if (p.kind === 'withdrawal') {
      rows.push({ label: 'Destination', value: p.request.address });
      if (p.request.memo) rows.push({ label: 'Memo / tag', value: p.request.memo });
      rows.push({ label: 'Network', value: p.request.chain });
      if (p.fee !== undefined) rows.push({ label: 'Fee', value: formatMoney(p.fee, currency) });
    } else {
      rows.push({ label: 'To account (UID)', value: String(p.request.receiveUid) });
    }
    if (extra.approving) {
      rows.push({ label: 'Prepared by', value: extra.approving.makerName });
      rows.push({ label: 'Why it needs approval', value: extra.approving.reasons.join(' ') });
    }
    rows.push(...commonRows(who));
    const verb = p.kind === 'withdrawal' ? 'Withdraw' : 'Push';
    const needsApproval = (extra.approvalReasons?.length ?? 0) > 0;
    return {
      action: extra.approving ? 'approve' : p.kind,
      title: extra.approving ? `Approve: ${verb} ${money}` : `${verb} ${money}`,
      rows,
      ...(typedNeeded(currency, amount) ? { typedAmount: { amount, currency } } : {}),
      ...(needsApproval
        ? {
            note: `This needs an approver other than you before it is sent: ${extra.approvalReasons?.join(' ')}`,
          }
        : {}),
      confirmLabel: extra.approving ? 'Approve and send' : needsApproval ? 'Submit for approval' : verb,
    };
  };

  const summaryOf = (p: ProposedMovement): string =>
    p.kind === 'withdrawal'
      ? `Withdraw ${formatMoney(p.request.amount, p.request.currency)} to ${short(p.request.address)} (${p.request.chain})`
      : `Push ${formatMoney(p.request.amount, p.request.currency)} to UID ${p.request.receiveUid}`;

  const awaiting = (a: StoredApproval): DeskFailure =>
    new DeskFailure({
      code: 'AWAITING_APPROVAL',
      message: `Waiting for approval (${a.id}): ${a.reasons.join(' ')}`,
      advice: `An approver other than ${a.makerName} approves or rejects it in Approvals; it expires ${new Date(a.expiresAt).toISOString()}. Nothing was sent yet.`,
    });

  const settledApproval = (a: StoredApproval): DeskFailure | undefined => {
    switch (a.state) {
      case 'pending':
        return awaiting(a);
      case 'rejected':
        return refuseDecision(`Rejected by ${a.decidedBy ?? 'an approver'}: ${a.reason ?? ''}`);
      case 'expired':
        return refuseDecision('Its approval expired before anyone approved it.');
      case 'cancelled':
        return refuseDecision(`It was withdrawn before anyone approved it: ${a.reason ?? ''}`);
      case 'failed':
        return refuseDecision(a.outcome ?? 'It could not be sent.');
      default:
        return undefined; // approved / sent: the journal has (or is getting) it
    }
  };
  const refuseDecision = (message: string) =>
    new DeskFailure({ code: 'POLICY', message, advice: 'Nothing was sent. Prepare it again if it is still needed.' });

  /** The approved batch item that covers this row (same key, kind, currency, amount, destination). */
  const approvedBatchFor = (p: ProposedMovement, profileId: string): StoredApproval | undefined => {
    const id = deps.batchRow?.(p.requestKey);
    if (id === undefined) return undefined;
    const a = deps.approvals.get(id);
    if (a?.kind !== 'batch' || a.profileId !== profileId || (a.state !== 'approved' && a.state !== 'sent')) return;
    const row = batchRowsOf(a).find((r) => r.requestKey === p.requestKey);
    const covers =
      row !== undefined &&
      row.kind === p.kind &&
      row.currency.toUpperCase() === p.request.currency.toUpperCase() &&
      new Decimal(row.amount).equals(p.request.amount) &&
      row.destination === destinationOf(p);
    return covers ? a : undefined;
  };

  const checkMovement = async (p: ProposedMovement): Promise<Release> => {
    const who = operator();
    if (!canMake(who.role)) throw notAllowed(`A ${who.role} cannot move money.`);
    const active = profile();
    const queued = deps.approvals.byRequestKey(p.requestKey);
    if (queued) {
      const problem = settledApproval(queued);
      if (problem) throw problem;
      return () => {};
    }
    // A confirmation already journaled: the caller joins its movement (confirmed the first time).
    if (ctx.movements.byRequestKey(p.requestKey) !== undefined) return () => {};

    const at = now();
    const usdt = await usdtValue(p.request.currency, p.request.amount);
    const proposed: PolicyMovement = {
      kind: p.kind,
      currency: p.request.currency.toUpperCase(),
      amount: p.request.amount,
      at,
      usdt,
      destination: destinationOf(p),
    };
    const first = await evaluate(active.id, proposed);
    if (first.refusals.length > 0) throw refuse(active.id, summaryOf(p), first.refusals);
    // A row of a batch an approver approved as a whole: that approval answers the approval rules
    // (never the limits, checked below as for any movement).
    const batch = first.approvalReasons.length > 0 ? approvedBatchFor(p, active.id) : undefined;
    const approvalReasons = batch ? [] : first.approvalReasons;

    await requireConfirmation(deps.confirm, movementView(p, who, usdt, { approvalReasons }));

    if (approvalReasons.length > 0) {
      const policy = policyOf(active.id);
      const approval = deps.approvals.add({
        profileId: active.id,
        kind: p.kind,
        requestKey: p.requestKey,
        request: { ...p.request },
        currency: proposed.currency,
        amount: p.request.amount,
        usdtValue: usdt,
        destination:
          p.kind === 'withdrawal'
            ? `${p.request.address}${p.request.memo ? ` (memo ${p.request.memo})` : ''} on ${p.request.chain}`
            : `UID ${p.request.receiveUid}`,
        summary: summaryOf(p),
        reasons: first.approvalReasons,
        makerId: who.id,
        makerName: who.name,
        createdAt: now(),
        expiresAt: now() + policy.approval.expiresHours * HOUR_MS,
      });
      ctx.audit.record({
        action: 'approvals.request',
        profileId: active.id,
        params: { id: approval.id, summary: approval.summary, reasons: approval.reasons, maker: who.name },
        outcome: 'ok',
      });
      ctx.emit('approvals.changed', { id: approval.id, state: approval.state });
      throw awaiting(approval);
    }

    // Checked again after the confirmation, with what was reserved meanwhile, and reserved in the
    // same turn: two movements confirmed together cannot both take the last of a limit.
    const again = await evaluate(active.id, proposed, true);
    if (again.refusals.length > 0) throw refuse(active.id, summaryOf(p), again.refusals);
    return again.release;
  };

  /** Each row of a batch, in order, against the policy (each passing row counts for the next). */
  const evaluateRows = async (profileId: string, rows: readonly BatchPolicyRow[]): Promise<Evaluation[]> => {
    const at = now();
    const prices = await pricesFor(profileId, at);
    for (const r of rows) {
      const c = r.currency.toUpperCase();
      if (!prices.has(c)) prices.set(c, await usdtValue(c, '1'));
    }
    const movements: PolicyMovement[] = rows.map((r) => {
      const price = prices.get(r.currency.toUpperCase());
      return {
        kind: r.kind,
        currency: r.currency.toUpperCase(),
        amount: r.amount,
        at,
        usdt: price === undefined ? undefined : new Decimal(r.amount).times(price).toFixed(),
        destination: r.destination,
      };
    });
    return evaluateBatch(
      policyOf(profileId),
      movements,
      historyNow(profileId, at, prices),
      knownDestinations(profileId),
      at,
    );
  };

  const batchView = (a: StoredApproval, who: OperatorInfo): ConfirmView => {
    const rows = batchRowsOf(a);
    const needing = rows.filter((r) => r.reasons.length > 0);
    const totals = (a.request.totals ?? []) as { currency: string; amount: string }[];
    return {
      action: 'approve',
      title: `Approve: ${a.summary}`,
      rows: [
        ...totals.map((t) => ({ label: `Total ${t.currency}`, value: formatMoney(t.amount, t.currency) })),
        { label: 'Rows', value: `${rows.length + Number(a.request.otherRows ?? 0)}` },
        ...needing.slice(0, 20).map((r) => ({ label: `Row ${r.row}`, value: `${r.summary}: ${r.reasons.join(' ')}` })),
        ...(needing.length > 20 ? [{ label: 'More rows', value: `${needing.length - 20} more need approval` }] : []),
        { label: 'Prepared by', value: a.makerName },
        ...commonRows(who),
      ],
      note: 'Its rows then run in Bulk, each still checked against the limits as it goes.',
      confirmLabel: 'Approve and run',
    };
  };

  /** Why a batch's item can no longer be approved (its batch was cancelled, or is gone), if it cannot. */
  const batchNotWaiting = (a: StoredApproval): DeskFailure | undefined => {
    if (!deps.batchState) return undefined;
    const state = deps.batchState(String(a.request.batchId));
    if (waitsForApproval(state)) return undefined;
    return DeskFailure.precondition(
      state === 'cancelled'
        ? `Batch “${String(a.request.name)}” was cancelled in Bulk: it can no longer be approved.`
        : state === undefined
          ? `Batch “${String(a.request.name)}” is no longer in the journal: it can no longer be approved.`
          : `Batch “${String(a.request.name)}” is ${state}, not waiting for approval: it can no longer be approved.`,
      'Nothing was approved or sent. The maker prepares a new batch if it is still needed.',
    );
  };

  const approveBatch = async (
    a: StoredApproval,
    who: OperatorInfo,
    reason: string,
    profileId: string,
  ): Promise<Approval> => {
    const gone = batchNotWaiting(a);
    if (gone) throw gone;
    // An approval overrides the approval rules, never the limits, the allowlist or the window.
    const rows = batchRowsOf(a);
    const verdict = await evaluateRows(profileId, rows);
    const refusals = rows.flatMap((r, i) => (verdict[i]?.refusals ?? []).map((x) => `Row ${r.row}: ${x}`));
    if (refusals.length > 0) throw refuse(profileId, a.summary, refusals);
    await requireConfirmation(deps.confirm, batchView(a, who));
    // The batch may have been cancelled while the approver read the confirmation.
    const cancelled = batchNotWaiting(a);
    if (cancelled) throw cancelled;
    if (!deps.approvals.decide(a.id, 'approved', who.name, reason, now())) {
      throw DeskFailure.precondition('This batch was decided or expired meanwhile.');
    }
    ctx.audit.record({
      action: 'approvals.approve',
      profileId,
      params: { id: a.id, summary: a.summary, maker: a.makerName, approver: who.name, reason },
      outcome: 'ok',
    });
    ctx.emit('approvals.changed', { id: a.id, state: 'approved' });
    deps.onBatchDecision?.(publicApproval(deps.approvals.get(a.id) as StoredApproval));
    deps.approvals.settle(a.id, 'sent', undefined, BATCH_RELEASED);
    ctx.emit('approvals.changed', { id: a.id, state: 'sent' });
    return publicApproval(deps.approvals.get(a.id) as StoredApproval);
  };

  const guard: Guard = {
    operator,

    batchPolicy: async (rows) => {
      const active = profile();
      return {
        rows: rows.length === 0 ? [] : await evaluateRows(active.id, rows),
        asWhole: policyOf(active.id).approval.approveBatchesAsAWhole === true,
      };
    },

    requestBatchApproval: (b) => {
      const who = operator();
      if (!canMake(who.role)) throw notAllowed(`A ${who.role} cannot move money.`);
      const active = profile();
      const policy = policyOf(active.id);
      const needing = b.rows.filter((r) => r.reasons.length > 0);
      const totalsText = b.totals.map((t) => formatMoney(t.amount, t.currency)).join(' + ');
      const single = b.totals.length === 1 ? b.totals[0] : undefined;
      const approval = deps.approvals.add({
        profileId: active.id,
        kind: 'batch',
        requestKey: batchApprovalKey(b.batchId),
        request: { batchId: b.batchId, name: b.name, rows: b.rows, otherRows: b.otherRows, totals: b.totals },
        currency: b.totals.map((t) => t.currency).join(', '),
        amount: single ? single.amount : totalsText,
        destination: `${new Set(b.rows.map((r) => r.destination)).size} destination(s)`,
        summary: `Batch “${b.name}”: ${b.rows.length + b.otherRows} rows, ${totalsText}`,
        reasons: needing.map((r) => `Row ${r.row}: ${r.reasons.join(' ')}`),
        makerId: who.id,
        makerName: who.name,
        createdAt: now(),
        expiresAt: now() + policy.approval.expiresHours * HOUR_MS,
      });
      ctx.audit.record({
        action: 'approvals.request',
        profileId: active.id,
        params: { id: approval.id, summary: approval.summary, reasons: approval.reasons, maker: who.name },
        outcome: 'ok',
      });
      ctx.emit('approvals.changed', { id: approval.id, state: approval.state });
      return publicApproval(approval);
    },

    batchApproval: (batchId) => {
      const a = deps.approvals.byRequestKey(batchApprovalKey(batchId));
      return a ? publicApproval(a) : undefined;
    },

    withdrawBatchApproval: (batchId) => {
      const who = operator();
      const a = deps.approvals.byRequestKey(batchApprovalKey(batchId));
      if (a === undefined) return undefined;
      const why = `The batch was cancelled in Bulk by ${who.name}.`;
      if (deps.approvals.withdraw(a.id, who.name, why, now())) {
        ctx.audit.record({
          action: 'approvals.cancel',
          profileId: a.profileId,
          params: { id: a.id, summary: a.summary, maker: a.makerName, by: who.name, reason: why },
          outcome: 'ok',
        });
        ctx.emit('approvals.changed', { id: a.id, state: 'cancelled' });
      }
      return publicApproval(deps.approvals.get(a.id) as StoredApproval);
    },

    movement: (p) => {
      const running = inflight.get(p.requestKey);
      // A double click waits for the first call's confirmation instead of opening a second one.
      if (running) return running.then(() => () => {});
      const promise = checkMovement(p);
      inflight.set(p.requestKey, promise);
      const clear = () => inflight.delete(p.requestKey);
      promise.then(clear, clear);
      return promise;
    },

    transfer: async (t) => {
      const who = operator();
      if (!canMake(who.role)) throw notAllowed(`A ${who.role} cannot move money.`);
      if (ctx.movements.byRequestKey(t.requestKey) !== undefined) return;
      if (!typedNeeded(t.currency, t.amount)) return;
      await requireConfirmation(deps.confirm, {
        action: 'transfer',
        title: `Transfer ${formatMoney(t.amount, t.currency)}`,
        rows: [
          { label: 'Amount', value: formatMoney(t.amount, t.currency) },
          { label: 'From', value: t.from },
          { label: 'To', value: t.to },
          ...commonRows(who),
        ],
        typedAmount: { amount: t.amount, currency: t.currency },
        confirmLabel: 'Transfer',
      });
    },

    change: async (view) => {
      const who = operator();
      if (!canMake(who.role)) throw notAllowed(`A ${who.role} cannot change this.`);
      await requireConfirmation(deps.confirm, { ...view, rows: [...view.rows, ...commonRows(who)] });
    },

    policyView: () => {
      const active = profile();
      const stored = readPolicy(active.id);
      return {
        profileId: active.id,
        policy: stored?.policy ?? DEFAULT_POLICY,
        ...(stored ? { updatedAt: stored.updatedAt, updatedBy: stored.updatedBy } : {}),
      };
    },

    setPolicy: async (input) => {
      const who = operator();
      if (!canAdminister(who.role)) throw notAllowed('Only an admin changes policies.');
      const active = profile();
      const before = policyOf(active.id);
      const at = now();
      // Semantic checks the schema cannot make; bad input changes nothing.
      const fields: Record<string, string> = {};
      const seen = new Map<string, number>();
      input.allowlist.entries.forEach((e, i) => {
        const key = `${e.currency.toUpperCase()} ${destinationKey(e.chain, e.address, e.memo)}`;
        const first = seen.get(key);
        if (first !== undefined) fields[`allowlist.entries.${i}`] = `The same destination as entry ${first + 1}.`;
        else seen.set(key, i);
      });
      for (const [currency, limits] of Object.entries(input.limits)) {
        if (
          limits.perTransaction !== undefined &&
          limits.rolling24h !== undefined &&
          new Decimal(limits.perTransaction).greaterThan(limits.rolling24h)
        ) {
          fields[`limits.${currency}.perTransaction`] = 'The per-transaction limit is above the 24-hour limit.';
        }
      }
      const u = input.usdtLimits;
      if (
        u.perTransaction !== undefined &&
        u.rolling24h !== undefined &&
        new Decimal(u.perTransaction).greaterThan(u.rolling24h)
      ) {
        fields['usdtLimits.perTransaction'] = 'The per-transaction limit is above the 24-hour limit.';
      }
      if (Object.keys(fields).length > 0) {
        throw new DeskFailure({
          code: 'INVALID_INPUT',
          message: `The policy was not changed: ${Object.values(fields).join(' ')}`,
          fields,
        });
      }
      // Main, not the form, says when a destination was added: an old entry keeps its time.
      const previous = new Map(
        before.allowlist.entries.map((e) => [
          `${e.currency.toUpperCase()} ${destinationKey(e.chain, e.address, e.memo)}`,
          e,
        ]),
      );
      const policy: Policy = {
        ...input,
        limits: Object.fromEntries(Object.entries(input.limits).map(([c, l]) => [c.toUpperCase(), l])),
        allowlist: {
          ...input.allowlist,
          entries: input.allowlist.entries.map((e) => {
            const key = `${e.currency.toUpperCase()} ${destinationKey(e.chain, e.address, e.memo)}`;
            return { ...e, currency: e.currency.toUpperCase(), addedAt: previous.get(key)?.addedAt ?? at };
          }),
        },
      };
      const added = policy.allowlist.entries.filter((e) => e.addedAt === at);
      const removed = before.allowlist.entries.filter(
        (e) => !seen.has(`${e.currency.toUpperCase()} ${destinationKey(e.chain, e.address, e.memo)}`),
      );
      const limitsText = (l: { perTransaction?: string; rolling24h?: string }, unit: string) =>
        [
          l.perTransaction ? `${formatMoney(l.perTransaction, unit)} per transaction` : '',
          l.rolling24h ? `${formatMoney(l.rolling24h, unit)} per 24 h` : '',
        ]
          .filter(Boolean)
          .join(', ') || 'none';
      await requireConfirmation(deps.confirm, {
        action: 'policy',
        title: `Change the policy of ${active.name}`,
        rows: [
          { label: 'USDT value limits', value: limitsText(policy.usdtLimits, 'USDT') },
          ...Object.entries(policy.limits).map(([c, l]) => ({ label: `${c} limits`, value: limitsText(l, c) })),
          {
            label: 'Allowlist',
            value: `${policy.allowlist.required ? 'required' : 'not required'}, ${policy.allowlist.entries.length} address(es), cooling-off ${policy.allowlist.coolingOffHours} h`,
          },
          ...added.map((e) => ({
            label: 'Added address',
            value: `${e.label}: ${e.address} (${e.currency}, ${e.chain})`,
          })),
          ...removed.map((e) => ({ label: 'Removed address', value: `${e.label}: ${e.address}` })),
          {
            label: 'Time window',
            value: policy.timeWindow
              ? `${policy.timeWindow.fromMinute} → ${policy.timeWindow.toMinute} min, UTC offset ${policy.timeWindow.utcOffsetMinutes} min`
              : 'any time',
          },
          {
            label: 'Approval',
            value:
              [
                policy.approval.aboveUsdt ? `above ${formatMoney(policy.approval.aboveUsdt, 'USDT')}` : '',
                policy.approval.newDestination ? 'new destinations' : '',
                policy.approval.anyPush ? 'every UID push' : '',
              ]
                .filter(Boolean)
                .join(', ') || 'never',
          },
          {
            label: 'Bulk batches',
            value: policy.approval.approveBatchesAsAWhole
              ? 'a batch that needs approval waits as one item'
              : 'each row that needs approval waits on its own',
          },
          ...commonRows(who),
        ],
        confirmLabel: 'Change the policy',
      });
      const stored: StoredPolicy = { policy, updatedAt: at, updatedBy: who.name };
      ctx.settings.set(POLICY_KEY(active.id), stored);
      ctx.audit.record({
        action: 'policies.set',
        profileId: active.id,
        params: { by: who.name, before, after: policy },
        outcome: 'ok',
      });
      return { profileId: active.id, policy, updatedAt: at, updatedBy: who.name };
    },

    listApprovals: (state) => {
      guard.expire();
      return deps.approvals.list(profile().id, state).map(publicApproval);
    },

    approve: async (id, reason, send) => {
      const who = operator();
      if (!canApprove(who.role)) throw notAllowed(`A ${who.role} cannot approve movements.`);
      guard.expire();
      const active = profile();
      const a = deps.approvals.get(id);
      if (a === undefined || a.profileId !== active.id)
        throw DeskFailure.precondition('No such approval in this profile.');
      if (a.state !== 'pending') throw DeskFailure.precondition(`This movement is already ${a.state}.`);
      if (a.makerId === who.id) {
        throw notAllowed('An approver other than the maker must approve it (four eyes).');
      }
      if (a.kind === 'batch') return approveBatch(a, who, reason, active.id);
      const p: ProposedMovement =
        a.kind === 'withdrawal'
          ? { kind: 'withdrawal', requestKey: a.requestKey, request: a.request as never }
          : { kind: 'push', requestKey: a.requestKey, request: a.request as never };
      const usdt = await usdtValue(a.currency, a.amount);
      const proposed: PolicyMovement = {
        kind: a.kind,
        currency: a.currency,
        amount: a.amount,
        at: now(),
        usdt,
        destination: destinationOf(p),
      };
      // An approval overrides the approval rules, never the limits, the allowlist or the window.
      const before = await evaluate(active.id, proposed);
      if (before.refusals.length > 0) throw refuse(active.id, a.summary, before.refusals);
      await requireConfirmation(deps.confirm, movementView(p, who, usdt, { approving: a }));
      const again = await evaluate(active.id, proposed, true);
      if (again.refusals.length > 0) throw refuse(active.id, a.summary, again.refusals);
      if (!deps.approvals.decide(id, 'approved', who.name, reason, now())) {
        again.release();
        throw DeskFailure.precondition('This movement was decided or expired meanwhile.');
      }
      ctx.audit.record({
        action: 'approvals.approve',
        profileId: active.id,
        params: { id, summary: a.summary, maker: a.makerName, approver: who.name, reason },
        outcome: 'ok',
      });
      ctx.emit('approvals.changed', { id, state: 'approved' });
      try {
        const movement = await send(a);
        deps.approvals.settle(id, 'sent', movement.id, undefined);
      } catch (error) {
        const journaled = ctx.movements.byRequestKey(a.requestKey);
        if (error instanceof DeskFailure && error.detail.code === 'OUTCOME_UNKNOWN' && journaled) {
          deps.approvals.settle(id, 'sent', journaled.id, error.detail.message);
        } else {
          const message = error instanceof Error ? error.message : String(error);
          deps.approvals.settle(
            id,
            journaled && journaled.state !== 'failed' ? 'sent' : 'failed',
            journaled?.id,
            message,
          );
        }
      } finally {
        again.release();
      }
      const settled = deps.approvals.get(id) as StoredApproval;
      ctx.emit('approvals.changed', { id, state: settled.state });
      return publicApproval(settled);
    },

    reject: (id, reason) => {
      const who = operator();
      guard.expire();
      const active = profile();
      const a = deps.approvals.get(id);
      if (a === undefined || a.profileId !== active.id)
        throw DeskFailure.precondition('No such approval in this profile.');
      if (!canApprove(who.role) && a.makerId !== who.id) throw notAllowed(`A ${who.role} cannot reject movements.`);
      if (!deps.approvals.decide(id, 'rejected', who.name, reason, now())) {
        throw DeskFailure.precondition(`This movement is already ${deps.approvals.get(id)?.state ?? 'decided'}.`);
      }
      ctx.audit.record({
        action: 'approvals.reject',
        profileId: active.id,
        params: { id, summary: a.summary, maker: a.makerName, by: who.name, reason },
        outcome: 'ok',
      });
      ctx.emit('approvals.changed', { id, state: 'rejected' });
      const rejected = publicApproval(deps.approvals.get(id) as StoredApproval);
      if (rejected.kind === 'batch') deps.onBatchDecision?.(rejected);
      return rejected;
    },

    expire: () => {
      for (const a of deps.approvals.expireDue(now())) {
        ctx.audit.record({
          action: 'approvals.expired',
          profileId: a.profileId,
          params: { id: a.id, summary: a.summary },
          outcome: 'ok',
        });
        ctx.emit('approvals.changed', { id: a.id, state: 'expired' });
        if (a.kind === 'batch') deps.onBatchDecision?.(publicApproval(a));
      }
    },

    recover: () => {
      for (const a of deps.approvals.approvedUnsent()) {
        if (a.kind === 'batch') {
          // Its rows are journaled movements of their own: Bulk starts the batch (its approval stands).
          deps.approvals.settle(a.id, 'sent', undefined, BATCH_RELEASED);
          continue;
        }
        const journaled = ctx.movements.byRequestKey(a.requestKey);
        if (journaled) deps.approvals.settle(a.id, 'sent', journaled.id, undefined);
        else
          deps.approvals.settle(
            a.id,
            'failed',
            undefined,
            'The app stopped between the approval and the send; it was not sent. Prepare it again if it is still needed.',
          );
      }
    },
  };
  return guard;
};
