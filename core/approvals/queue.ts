/**
 * The Approvals queue (docs/approvals.md): what waits for a second person — movements the policy
 * holds for an approver, batches waiting as one item, control changes waiting for a second
 * administrator. It knows who may decide (four eyes, the role, the cooling-off after a grant) and
 * records every step (journaled row, audit entry, `approvals.changed` event); what an approved item
 * DOES is its owner's business (commands/ sends a movement, batches/ runs a batch, operators/controls
 * applies a change), each reading the queue, never the other way round.
 *
 * Exactly once: an item leaves `pending` by one conditional UPDATE (store.ts), so two approvers, or an
 * approval racing the expiry, cannot both win.
 */
import Decimal from 'decimal.js';
import type { Approval, ApprovalState, ControlChangeRow, ControlKind } from '../../shared/contract/policies';
import { DeskFailure } from '../errors';
import type { Db } from '../journal/db';
import type { AuditLog } from '../journal/types';
import { canAdminister, canApprove } from '../operators/access';
import { type Grant, type OperatorInfo, type OperatorSource, signedInOperator } from '../operators/operators';
import type { Emit } from '../types';
import { ApprovalStore, type NewApproval, type StoredApproval } from './store';

export type { NewApproval, StoredApproval } from './store';

const HOUR_MS = 3_600_000;
/** Two pending items of the same maker, kind, amount and destination this close in time: possibly one sent twice. */
export const DUPLICATE_WINDOW_MS = HOUR_MS;

export interface ApprovalQueueDeps {
  readonly db: Db;
  readonly audit: AuditLog;
  readonly emit: Emit;
  /** Who is at the desk. */
  readonly operators: OperatorSource;
  /** The last grant over an operator (operators/operators.ts `grantOf`); absent: no grants are known. */
  readonly grantOf?: (operatorId: string) => Grant | undefined;
  /** The policy's cooling-off after a grant, in hours, for an item of this profile ('' : desk-wide). */
  readonly coolingOffHours: (profileId: string) => number;
  readonly now?: () => number;
}

/** What a decided item's owner is told (approved items are acted on by whoever approved them). */
export type DecisionListener = (approval: Approval) => void;

/** The stored request of a control change: what it is, line by line, and what its owner applies. */
export interface ControlRequest {
  readonly control: {
    readonly kind: ControlKind;
    /** The profile it belongs to ('' : the whole desk); the item itself shows in every profile's queue. */
    readonly profileId?: string;
    readonly title: string;
    readonly changes: ControlChangeRow[];
  };
  readonly apply: Record<string, unknown>;
}

/** The rows of a batch item as stored (see batches/approval.ts). */
interface StoredBatchRowView {
  readonly row: number;
  readonly summary: string;
  readonly reasons: readonly string[];
}

/** An item as the renderer sees it: never the stored request (it may hold what only main needs). */
export const publicApproval = (a: StoredApproval): Approval => {
  const { requestKey: _key, request, ...rest } = a;
  if (a.kind === 'batch') {
    return {
      ...rest,
      batch: {
        batchId: String(request.batchId),
        name: String(request.name),
        rows: ((request.rows ?? []) as StoredBatchRowView[]).map((r) => ({
          row: r.row,
          summary: r.summary,
          reasons: [...r.reasons],
        })),
        totals: (request.totals ?? []) as { currency: string; amount: string }[],
      },
    };
  }
  if (a.kind === 'control') {
    const { control } = request as unknown as ControlRequest;
    return { ...rest, control: { kind: control.kind, title: control.title, changes: [...control.changes] } };
  }
  // Where it goes, field by field (the approver's screen names it from the address book).
  const to =
    a.kind === 'push'
      ? { uid: String(request.receiveUid) }
      : {
          chain: String(request.chain),
          address: String(request.address),
          ...(typeof request.memo === 'string' && request.memo !== '' ? { memo: request.memo } : {}),
        };
  return { ...rest, to, ...(request.newDestination === true ? { newDestination: true } : {}) };
};

const sameMovement = (a: StoredApproval, b: StoredApproval): boolean => {
  if (a.kind !== b.kind || a.currency !== b.currency || a.destination !== b.destination) return false;
  if (a.kind === 'control') return a.summary === b.summary;
  try {
    return new Decimal(a.amount).equals(b.amount);
  } catch {
    return a.amount === b.amount;
  }
};

export class ApprovalQueue {
  private readonly store: ApprovalStore;
  private readonly now: () => number;
  private readonly listeners = new Set<DecisionListener>();

  constructor(private readonly deps: ApprovalQueueDeps) {
    this.store = new ApprovalStore(deps.db);
    this.now = deps.now ?? Date.now;
  }

  /**
   * Journals a pending item (the maker confirmed it in the trusted window). The same request key
   * returns the item already there: a second click, a retry or a restart joins it, never a new one.
   */
  request(item: Omit<NewApproval, 'makerId' | 'makerName' | 'createdAt'>, maker: OperatorInfo): StoredApproval {
    const existing = this.store.byRequestKey(item.requestKey);
    if (existing) return existing;
    const stored = this.store.add({ ...item, makerId: maker.id, makerName: maker.name, createdAt: this.now() });
    this.deps.audit.record({
      action: 'approvals.request',
      ...profileOf(stored),
      params: {
        id: stored.id,
        summary: stored.summary,
        reasons: stored.reasons,
        maker: maker.name,
        ...(stored.origin ? { origin: stored.origin } : {}),
      },
      outcome: 'ok',
    });
    this.changed(stored);
    return stored;
  }

  get(id: string): StoredApproval | undefined {
    return this.store.get(id);
  }

  byRequestKey(requestKey: string): StoredApproval | undefined {
    return this.store.byRequestKey(requestKey);
  }

  /** A profile's items and the desk-wide ones (pending first), each pending one with its possible duplicate. */
  list(profileId: string, state?: ApprovalState): Approval[] {
    this.expire();
    const items = this.store.list(profileId, state);
    const since = this.now() - 2 * DUPLICATE_WINDOW_MS;
    const twins = new Map<string, StoredApproval[]>();
    return items.map((a) => {
      const view = publicApproval(a);
      if (a.state !== 'pending') return view;
      if (!twins.has(a.makerId)) twins.set(a.makerId, this.store.pendingOf(a.makerId, since));
      const twin = twins
        .get(a.makerId)
        ?.find(
          (b) => b.id !== a.id && Math.abs(b.createdAt - a.createdAt) <= DUPLICATE_WINDOW_MS && sameMovement(a, b),
        );
      return twin ? { ...view, possibleDuplicateOf: twin.id } : view;
    });
  }

  /** An item of the active profile (or desk-wide), or PRECONDITION. */
  item(id: string, profileId: string): StoredApproval {
    const a = this.store.get(id);
    if (a === undefined || (a.profileId !== profileId && a.profileId !== '')) {
      throw DeskFailure.precondition('No such approval in this profile.');
    }
    return a;
  }

  /**
   * The operator at the desk if they may approve this pending item, else NOT_ALLOWED / PRECONDITION
   * with the reason: an approver or administrator (an administrator for a control change) other
   * than its maker, and not within the cooling-off after its maker created them, changed their role
   * or reset their passphrase.
   */
  approver(a: StoredApproval): OperatorInfo {
    const who = this.operator();
    const control = a.kind === 'control';
    if (control ? !canAdminister(who.role) : !canApprove(who.role)) {
      throw notAllowed(
        control
          ? `A ${who.role} cannot approve a control change: another administrator does.`
          : `A ${who.role} cannot approve movements.`,
      );
    }
    this.expire();
    const now = this.store.get(a.id) ?? a;
    if (now.state !== 'pending') throw DeskFailure.precondition(`This item is already ${now.state}.`);
    if (a.makerId === who.id) {
      throw notAllowed(
        control
          ? 'Another administrator than the one who prepared it must approve it (four eyes).'
          : 'An approver other than the maker must approve it (four eyes).',
      );
    }
    const grant = this.deps.grantOf?.(who.id);
    const hours = this.deps.coolingOffHours(a.profileId);
    if (grant && grant.byId === a.makerId && this.now() - grant.at < hours * HOUR_MS) {
      const until = new Date(grant.at + hours * HOUR_MS).toISOString();
      throw notAllowed(
        `${grant.byName} gave you your role or passphrase less than ${hours} h ago: until ${until} you may not approve what ${grant.byName} prepared (one person with two names is not four eyes).`,
        'Another approver decides it, or it waits until the cooling-off period has passed.',
      );
    }
    // Whoever chose this operator's passphrase can sign in as them until they choose their own.
    if (grant?.passphraseSetBy?.id === a.makerId) {
      throw notAllowed(
        `${grant.passphraseSetBy.name} chose your passphrase: until you choose your own you may not approve what ${grant.passphraseSetBy.name} prepared (whoever knows your passphrase could be you).`,
        'Change your passphrase in Settings → Operators, then approve it.',
      );
    }
    return who;
  }

  /** Approves a pending item (approver() first): false when it was decided or expired meanwhile. */
  approve(a: StoredApproval, who: OperatorInfo, reason: string): boolean {
    if (!this.store.decide(a.id, 'approved', who.name, reason, this.now())) return false;
    this.deps.audit.record({
      action: 'approvals.approve',
      ...profileOf(a),
      params: { id: a.id, summary: a.summary, maker: a.makerName, approver: who.name, reason },
      outcome: 'ok',
    });
    this.changed(this.store.get(a.id) as StoredApproval);
    return true;
  }

  /** After an approved item was acted on: `sent` (done, or applied) or `failed` with the words why. */
  settle(id: string, state: 'sent' | 'failed', movementId: string | undefined, outcome: string | undefined): Approval {
    this.store.settle(id, state, movementId, outcome);
    const settled = this.store.get(id) as StoredApproval;
    this.deps.emit('approvals.changed', { id, state: settled.state });
    return publicApproval(settled);
  }

  /** Rejects a pending item with a reason: an approver (an administrator for a control change) or its maker. */
  reject(id: string, profileId: string, reason: string): Approval {
    const who = this.operator();
    this.expire();
    const a = this.item(id, profileId);
    const may = a.kind === 'control' ? canAdminister(who.role) : canApprove(who.role);
    if (!may && a.makerId !== who.id) throw notAllowed(`A ${who.role} cannot reject this.`);
    if (!this.store.decide(id, 'rejected', who.name, reason, this.now())) {
      throw DeskFailure.precondition(`This item is already ${this.store.get(id)?.state ?? 'decided'}.`);
    }
    this.deps.audit.record({
      action: 'approvals.reject',
      ...profileOf(a),
      params: { id, summary: a.summary, maker: a.makerName, by: who.name, reason },
      outcome: 'ok',
    });
    return this.decided(this.store.get(id) as StoredApproval);
  }

  /** Retracts a pending item by its maker, with a reason: it becomes `cancelled`, never sent or applied. */
  retract(id: string, profileId: string, reason: string): Approval {
    const who = this.operator();
    this.expire();
    const a = this.item(id, profileId);
    if (a.makerId !== who.id) throw notAllowed(`Only ${a.makerName}, who prepared it, can retract it.`);
    if (!this.store.withdraw(id, who.name, reason, this.now())) {
      throw DeskFailure.precondition(`This item is already ${this.store.get(id)?.state ?? 'decided'}.`);
    }
    this.deps.audit.record({
      action: 'approvals.retract',
      ...profileOf(a),
      params: { id, summary: a.summary, maker: a.makerName, reason },
      outcome: 'ok',
    });
    return this.decided(this.store.get(id) as StoredApproval);
  }

  /**
   * Withdraws a pending item because what it was for was cancelled (a batch cancelled in Bulk): it
   * becomes `cancelled`, so no approver can approve it any more. Returns the item as it is now.
   */
  withdraw(a: StoredApproval, why: string): Approval {
    const who = this.operator();
    if (this.store.withdraw(a.id, who.name, why, this.now())) {
      this.deps.audit.record({
        action: 'approvals.cancel',
        ...profileOf(a),
        params: { id: a.id, summary: a.summary, maker: a.makerName, by: who.name, reason: why },
        outcome: 'ok',
      });
      return this.decided(this.store.get(a.id) as StoredApproval);
    }
    return publicApproval(this.store.get(a.id) as StoredApproval);
  }

  /** Expires pending items whose time is up (on a timer, and before every list and decision). */
  expire(): void {
    for (const a of this.store.expireDue(this.now())) {
      this.deps.audit.record({
        action: 'approvals.expired',
        ...profileOf(a),
        params: { id: a.id, summary: a.summary },
        outcome: 'ok',
      });
      this.decided(a);
    }
  }

  /** Items left `approved` by a core that stopped before their owner settled them (see each owner's recover). */
  approvedUnsent(kind: Approval['kind']): StoredApproval[] {
    return this.store.approvedUnsent().filter((a) => a.kind === kind);
  }

  /** Told of every item rejected, expired or withdrawn (its owner cancels what waited for it). */
  onDecided(listener: DecisionListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private decided(a: StoredApproval): Approval {
    this.changed(a);
    const view = publicApproval(a);
    for (const listener of this.listeners) listener(view);
    return view;
  }

  private changed(a: StoredApproval): void {
    this.deps.emit('approvals.changed', { id: a.id, state: a.state });
  }

  private operator(): OperatorInfo {
    return signedInOperator(this.deps.operators);
  }
}

/** The audit entry's profile: the item's, or (a desk-wide item) the active one, as for any other entry. */
const profileOf = (a: StoredApproval): { profileId?: string } => (a.profileId ? { profileId: a.profileId } : {});

const notAllowed = (message: string, advice?: string): DeskFailure =>
  new DeskFailure({ code: 'NOT_ALLOWED', message, ...(advice ? { advice } : {}) });

/** The refusal a maker's repeat gets while its item waits (nothing was sent yet). */
export const awaitingApproval = (a: StoredApproval): DeskFailure =>
  new DeskFailure({
    code: 'AWAITING_APPROVAL',
    message: `Waiting for approval (${a.id}): ${a.reasons.join(' ')}`,
    advice: `${a.kind === 'control' ? 'Another administrator' : `An approver other than ${a.makerName}`} approves or rejects it in Approvals; it expires ${new Date(a.expiresAt).toISOString()}. ${a.kind === 'control' ? 'Nothing was changed yet.' : 'Nothing was sent yet.'}`,
    // For the screen to say it in one sentence with the expiry in the person's time zone.
    approval: { id: a.id, expiresAt: a.expiresAt, reasons: a.reasons },
  });

/**
 * What a repeat of an item's request answers once it was decided: still pending → AWAITING_APPROVAL;
 * rejected, expired, withdrawn or failed → POLICY (nothing sent); approved / sent → undefined (the
 * caller joins what the approval did).
 */
export const decisionRefusal = (a: StoredApproval): DeskFailure | undefined => {
  const refused = (message: string) =>
    new DeskFailure({ code: 'POLICY', message, advice: 'Nothing was sent. Prepare it again if it is still needed.' });
  switch (a.state) {
    case 'pending':
      return awaitingApproval(a);
    case 'rejected':
      return refused(`Rejected by ${a.decidedBy ?? 'an approver'}: ${a.reason ?? ''}`);
    case 'expired':
      return refused('Its approval expired before anyone approved it.');
    case 'cancelled':
      return refused(`It was withdrawn before anyone approved it: ${a.reason ?? ''}`);
    case 'failed':
      return refused(a.outcome ?? 'It could not be sent.');
    default:
      return undefined;
  }
};
