/**
 * Authorizing one money movement, in main, whatever asked for it (docs/approvals.md): a short
 * pipeline every domain command runs (commands/movements.ts) before the movement is journaled —
 *
 *   role → limits and reservation → approval → confirmation
 *
 * - role: the operator at the desk may move money (maker and up);
 * - limits: the profile's policy against the journal (policies/limits.ts); a refusal is POLICY;
 * - approval: the policy's approval rules; a batch row is covered by its batch's approval when the
 *   batch waited as one item and the item lists exactly this row;
 * - confirmation: from a screen, the shell's trusted confirmation shows what main is about to
 *   journal (policies/views.ts) and main checks the typed amount; a batch row was confirmed with its
 *   whole batch (its origin says when and by whom), so no window opens per row — an origin only
 *   main's batch runner builds (the IPC handlers always pass `screen`);
 * - then it either waits in the Approvals queue (AWAITING_APPROVAL, journaled) or takes its place in
 *   the limits (checked again, reserved in the same turn) until the journal has it.
 *
 * The same request key is the same movement from review to settlement: a repeat joins what the first
 * call queued or journaled, never a second item or a second movement.
 */
import Decimal from 'decimal.js';
import { formatMoney } from '../../shared/format/money';
import type { ApprovalQueue } from '../approvals/queue';
import { awaitingApproval, decisionRefusal, type StoredApproval } from '../approvals/queue';
import { DeskFailure } from '../errors';
import type { Movements } from '../movements/types';
import { canMake } from '../operators/access';
import { type OperatorInfo, type OperatorSource, signedInOperator } from '../operators/operators';
import type { ActiveProfile } from '../types';
import { type Confirm, type ConfirmView, requireConfirmation } from './confirm';
import type { Evaluation, PolicyMovement } from './evaluate';
import type { Limits, Release } from './limits';
import type { PolicyStore } from './store';
import { contextRows, type MovementFacts, movementRows, movementTitle, movementVerb } from './views';

const HOUR_MS = 3_600_000;

/**
 * Who asked for a movement, explicitly: a person on a screen, or a row of a batch that a person
 * confirmed as a whole in the trusted window (and, when it waited as one item, another approved).
 */
export type Origin =
  | { readonly kind: 'screen' }
  | {
      readonly kind: 'batch';
      readonly batchId: string;
      readonly batchName: string;
      readonly row: number;
      /** When the batch was confirmed as a whole in the trusted window, and by whom. */
      readonly confirmedAt: number;
      readonly confirmedBy: string;
      /** The batch's own approval item, when it waited as one and was approved. */
      readonly approvalId?: string | undefined;
    };

export const SCREEN: Origin = { kind: 'screen' };

/** The origin in words, as the journal and the audit log keep it. */
export const originText = (o: Origin): string =>
  o.kind === 'screen'
    ? 'screen'
    : `batch row ${o.row} of batch “${o.batchName}” (${o.batchId}), confirmed as a whole at ${new Date(o.confirmedAt).toISOString()} by ${o.confirmedBy}`;

/** A movement as the pipeline sees it. */
export interface Proposal {
  readonly requestKey: string;
  /** What the person reviewed (the confirmation's rows). */
  readonly facts: MovementFacts;
  /**
   * How the policy names its destination (`destinationKey(...)` / `uid:<n>`); absent for transfers
   * between the desk's own accounts, which the policy does not limit.
   */
  readonly destination?: string | undefined;
  /** What an approval item keeps and sends once approved (exactly what is journaled). */
  readonly request: Record<string, unknown>;
  /** "Withdraw 60 USDT to TXYZ… (TRX)": the item's one line. */
  readonly summary: string;
  /** The destination in words for the Approvals screen. */
  readonly destinationText: string;
}

/** What the confirmation of an approval shows of the item approved (a queued item, or a team movement). */
export type ApprovingView = Pick<StoredApproval, 'makerName' | 'reasons' | 'origin'>;

/** The role check and the trusted confirmation of a sensitive change (Authorizer.confirmChange). */
export type ConfirmChange = (view: ConfirmView) => Promise<void>;

export interface AuthorizeDeps {
  /** The shell's trusted confirmation; absent: everything that needs one is refused. */
  readonly confirm?: Confirm | undefined;
  readonly operators: OperatorSource;
  readonly limits: Limits;
  readonly policies: PolicyStore;
  readonly queue: ApprovalQueue;
  readonly movements: Pick<Movements, 'byRequestKey'>;
  readonly activeProfile: () => ActiveProfile | undefined;
  readonly now?: () => number;
}

export interface Authorizer {
  /**
   * The pipeline for a new movement. Resolves when it may be journaled and sent now (call `release`
   * once the journal has it); throws NOT_ALLOWED, POLICY, CONFIRMATION_DECLINED or AWAITING_APPROVAL
   * (queued). A request key already queued or journaled resolves at once: the caller joins it.
   */
  authorize(p: Proposal, origin: Origin): Promise<Release>;
  /**
   * An approver approves a queued withdrawal or push: may they (four eyes, role, cooling-off), the
   * limits again (an approval overrides the approval rules, never the limits), the trusted
   * confirmation, then the item leaves `pending` (exactly once) and takes its place in the limits.
   */
  approve(a: StoredApproval, p: Proposal, reason: string): Promise<Release>;
  /**
   * Any other sensitive change that is not a control change (a bulk key rotation, acknowledging a
   * failed audit check, lifting a lock-out): role maker and up, then the trusted confirmation of
   * `view` (with the profile and the operator). A sub-account's API key created, changed or deleted
   * one at a time is a control change (keys/handlers.ts).
   */
  confirmChange: ConfirmChange;
  /**
   * Team mode (docs/team.md): the trusted confirmation of a movement the team journal will hold — as
   * a maker submits it (`reasons`: why it needs an approver) or as an approver approves it
   * (`approving`). A screen's movement is confirmed in the trusted window; a batch row was confirmed
   * with its batch. The caller checked the role and the limits.
   */
  confirmMovement(
    p: Proposal,
    origin: Origin,
    extra: {
      readonly usdt: string | undefined;
      readonly reasons?: readonly string[];
      readonly approving?: ApprovingView;
    },
  ): Promise<void>;
  /** The operator at the desk (NOT_ALLOWED when nobody is signed in). */
  operator(): OperatorInfo;
  /** The active profile (PRECONDITION when none is connected). */
  profile(): ActiveProfile;
}

export const createAuthorizer = (deps: AuthorizeDeps): Authorizer => {
  const now = deps.now ?? Date.now;
  /** A double click waits for the first call's confirmation instead of opening a second one. */
  const inflight = new Map<string, Promise<Release>>();

  const operator = (): OperatorInfo => signedInOperator(deps.operators);
  const profile = (): ActiveProfile => {
    const active = deps.activeProfile();
    if (active === undefined) throw DeskFailure.precondition('No profile is connected.', 'Choose a profile first.');
    return active;
  };

  const view = (
    p: Proposal,
    who: OperatorInfo,
    usdt: string | undefined,
    extra: { readonly reasons?: readonly string[]; readonly approving?: ApprovingView } = {},
  ): ConfirmView => {
    const { facts } = p;
    const active = deps.activeProfile();
    const needsApproval = (extra.reasons?.length ?? 0) > 0;
    const approving = extra.approving;
    const title = movementTitle(facts);
    const typed = active === undefined || deps.policies.typedNeeded(active.id, facts.currency, facts.amount);
    return {
      action: approving ? 'approve' : facts.kind,
      title: approving ? `Approve: ${title}` : title,
      rows: [
        ...movementRows(facts, usdt),
        ...(approving
          ? [
              { label: 'Prepared by', value: approving.makerName },
              { label: 'Why it needs approval', value: approving.reasons.join(' ') },
              ...(approving.origin && approving.origin !== 'screen'
                ? [{ label: 'Prepared in', value: approving.origin }]
                : []),
            ]
          : []),
        ...contextRows(active, who),
      ],
      ...(typed ? { typedAmounts: [{ amount: facts.amount, currency: facts.currency }] } : {}),
      ...(needsApproval
        ? { note: `This needs an approver other than you before it is sent: ${extra.reasons?.join(' ')}` }
        : {}),
      confirmLabel: approving ? 'Approve and send' : needsApproval ? 'Submit for approval' : movementVerb(facts),
    };
  };

  /** The approved batch item that covers this row (same key, kind, currency, amount and destination). */
  const coveredByBatch = (p: Proposal, origin: Origin, profileId: string): boolean => {
    if (origin.kind !== 'batch' || origin.approvalId === undefined) return false;
    const a = deps.queue.get(origin.approvalId);
    if (a?.kind !== 'batch' || a.profileId !== profileId || (a.state !== 'approved' && a.state !== 'sent'))
      return false;
    const rows = (a.request.rows ?? []) as {
      requestKey: string;
      kind: string;
      currency: string;
      amount: string;
      destination: string;
    }[];
    const row = rows.find((r) => r.requestKey === p.requestKey);
    return (
      row !== undefined &&
      row.kind === p.facts.kind &&
      row.currency.toUpperCase() === p.facts.currency.toUpperCase() &&
      new Decimal(row.amount).equals(p.facts.amount) &&
      row.destination === p.destination
    );
  };

  const run = async (p: Proposal, origin: Origin): Promise<Release> => {
    // 1. Role.
    const who = operator();
    if (!canMake(who.role)) throw notAllowed(`A ${who.role} cannot move money.`);
    const active = profile();
    // The same request key is the same movement: join what it queued or journaled.
    const queued = deps.queue.byRequestKey(p.requestKey);
    if (queued) {
      const refusal = decisionRefusal(queued);
      if (refusal) throw refusal;
      return () => {};
    }
    if (deps.movements.byRequestKey(p.requestKey) !== undefined) return () => {};

    // 2. Limits (checked again and reserved after the confirmation).
    const usdt =
      p.facts.kind === 'transfer' ? undefined : await deps.limits.usdtValue(p.facts.currency, p.facts.amount);
    const proposed = policyMovement(p, usdt);
    let first: Evaluation = { refusals: [], approvalReasons: [] };
    if (proposed) {
      first = await deps.limits.evaluate(active.id, proposed);
      if (first.refusals.length > 0) throw deps.limits.refuse(active.id, p.summary, first.refusals);
    }

    // 3. Approval: the rules, unless the row's batch was approved as a whole and lists this row.
    const reasons =
      first.approvalReasons.length > 0 && !coveredByBatch(p, origin, active.id) ? first.approvalReasons : [];

    // 4. Confirmation: in the trusted window, unless the whole batch was confirmed there.
    if (origin.kind === 'screen') await requireConfirmation(deps.confirm, view(p, who, usdt, { reasons }));

    if (reasons.length > 0) {
      const item = deps.queue.request(
        {
          profileId: active.id,
          kind: p.facts.kind === 'push' ? 'push' : 'withdrawal',
          requestKey: p.requestKey,
          request: { ...p.request, facts: p.facts, ...(first.newDestination ? { newDestination: true } : {}) },
          currency: p.facts.currency.toUpperCase(),
          amount: p.facts.amount,
          usdtValue: usdt,
          destination: p.destinationText,
          summary: p.summary,
          reasons,
          expiresAt: now() + deps.policies.get(active.id).approval.expiresHours * HOUR_MS,
          origin: originText(origin),
        },
        who,
      );
      throw awaitingApproval(item);
    }

    if (!proposed) return () => {};
    // Checked again with what was reserved meanwhile, and reserved in the same turn: two movements
    // confirmed together cannot both take the last of a limit.
    const again = await deps.limits.evaluate(active.id, proposed, true);
    if (again.refusals.length > 0) throw deps.limits.refuse(active.id, p.summary, again.refusals);
    return again.release;
  };

  return {
    operator,
    profile,

    confirmMovement: async (p, origin, { usdt, reasons, approving }) => {
      if (origin.kind !== 'screen' && approving === undefined) return;
      const who = operator();
      await requireConfirmation(
        deps.confirm,
        view(p, who, usdt, { ...(reasons ? { reasons } : {}), ...(approving ? { approving } : {}) }),
      );
    },

    confirmChange: async (change) => {
      const who = operator();
      if (!canMake(who.role)) throw notAllowed(`A ${who.role} cannot change this.`);
      await requireConfirmation(deps.confirm, {
        ...change,
        rows: [...change.rows, ...contextRows(deps.activeProfile(), who)],
      });
    },

    authorize: (p, origin) => {
      const running = inflight.get(p.requestKey);
      if (running) return running.then(() => () => {});
      const promise = run(p, origin);
      inflight.set(p.requestKey, promise);
      const clear = () => inflight.delete(p.requestKey);
      promise.then(clear, clear);
      return promise;
    },

    approve: async (a, p, reason) => {
      const who = deps.queue.approver(a);
      const active = profile();
      const usdt = await deps.limits.usdtValue(a.currency, a.amount);
      const proposed = policyMovement(p, usdt);
      // An approval overrides the approval rules, never the limits, the allowlist or the window.
      if (proposed) {
        const before = await deps.limits.evaluate(active.id, proposed);
        if (before.refusals.length > 0) throw deps.limits.refuse(active.id, a.summary, before.refusals);
      }
      await requireConfirmation(deps.confirm, view(p, who, usdt, { approving: a }));
      const again = proposed ? await deps.limits.evaluate(active.id, proposed, true) : undefined;
      if (again && again.refusals.length > 0) throw deps.limits.refuse(active.id, a.summary, again.refusals);
      const release = again?.release ?? (() => {});
      if (!deps.queue.approve(a, who, reason)) {
        release();
        throw DeskFailure.precondition('This movement was decided or expired meanwhile.');
      }
      return release;
    },
  };
};

const notAllowed = (message: string) => new DeskFailure({ code: 'NOT_ALLOWED', message });

/** The policy's view of a proposal, or undefined for a transfer between own accounts (no policy limits it). */
export const policyMovement = (p: Proposal, usdt: string | undefined): Omit<PolicyMovement, 'at'> | undefined =>
  p.destination === undefined || p.facts.kind === 'transfer'
    ? undefined
    : {
        kind: p.facts.kind,
        currency: p.facts.currency.toUpperCase(),
        amount: p.facts.amount,
        usdt,
        destination: p.destination,
      };

/** "Withdraw 60 USDT to TXYZ1234…abcd (TRX)": an approval item's one line. */
export const movementSummary = (facts: MovementFacts): string => {
  const money = formatMoney(facts.amount, facts.currency);
  if (facts.kind === 'withdrawal') return `Withdraw ${money} to ${short(facts.address)} (${facts.chain})`;
  if (facts.kind === 'push') return `UID transfer of ${money} to UID ${facts.receiveUid}`;
  return `Transfer ${money} from ${facts.from} to ${facts.to}`;
};

const short = (address: string): string =>
  address.length > 24 ? `${address.slice(0, 12)}…${address.slice(-8)}` : address;
