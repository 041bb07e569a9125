/**
 * The Approvals queue in team mode (docs/team.md): the team's movements that wait for an approver,
 * and its control changes that wait for a second administrator, as items of the same Approvals
 * screen (ids `ap_tm-…` and `ap_tc-…`, beside this desk's own items). Whatever desk prepared them,
 * every desk lists them; approving one here signs a decision with the approver's own key:
 *
 * - a movement: an approver other than its maker (and not within the cooling-off after its maker
 *   set their role), after the trusted confirmation; the desk that holds the profile's key sends it;
 * - a control change: a team administrator other than its preparer while the team has two or more,
 *   after the trusted confirmation; applying it signs the next link of the control chain.
 *
 * An item is shown only as its maker signed it: a request whose signature does not verify is listed
 * as failed, with why (a row edited in the database), and cannot be approved.
 */
import type { Approval, ApprovalState, ControlChangeRow, ControlKind } from '../../shared/contract/policies';
import { DeskFailure } from '../errors';
import type { AuditLog } from '../journal/types';
import type { Movements } from '../movements/types';
import { canAdminister, canApprove } from '../operators/access';
import { type OperatorSource, signedInOperator } from '../operators/operators';
import { type Authorizer, movementSummary, SCREEN } from '../policies/authorize';
import { changeRows, type MovementFacts } from '../policies/views';
import type { Scheduler } from '../scheduler';
import {
  type ControlChange,
  type ControlState,
  type Decision,
  type ListedMovement,
  type MovementRequest,
  type OpenTeam,
  type PendingChange,
  sha256,
  type TeamChange,
  verifyRequest,
} from '../team';
import type { Emit } from '../types';
import type { TeamDesk } from './desk';
import { localAttemptKey } from './sender';

const MOVEMENT_PREFIX = 'ap_tm-';
const CONTROL_PREFIX = 'ap_tc-';
const HOUR_MS = 3_600_000;

export const teamMovementApprovalId = (movementId: string): string =>
  `${MOVEMENT_PREFIX}${movementId.replace(/^mv_/, '')}`;
const teamControlApprovalId = (changeId: string): string => `${CONTROL_PREFIX}${changeId.replace(/^cc_/, '')}`;

/** How a team control change reads on the Approvals screen: its kind, title and lines. */
export interface ControlDescription {
  readonly kind: ControlKind;
  readonly title: string;
  readonly changes: ControlChangeRow[];
}

export interface TeamApprovalsDeps {
  readonly desk: TeamDesk;
  readonly operators: OperatorSource;
  readonly authorizer: Authorizer;
  readonly movements: Movements;
  readonly audit: AuditLog;
  readonly emit: Emit;
  readonly scheduler: Scheduler;
  /** A control change in words (policies read as before → after: policies/handlers.ts). */
  readonly describe: (change: ControlChange, state: ControlState) => ControlDescription;
  /** An approval counted: the desk that holds the key may send it now. */
  readonly onApproved: () => void;
  /** Shows an OS notification (absent: none). */
  readonly notify?: (title: string, body: string) => void;
}

export interface TeamApprovals {
  owns(id: string): boolean;
  list(state?: ApprovalState): Promise<Approval[]>;
  approve(id: string, reason: string): Promise<Approval>;
  reject(id: string, reason: string): Promise<Approval>;
}

const STATES: Record<string, ApprovalState> = {
  awaiting_approval: 'pending',
  ready: 'approved',
  claimed: 'approved',
  sent: 'approved',
  done: 'sent',
  failed: 'failed',
  blocked: 'failed',
  rejected: 'rejected',
  expired: 'expired',
  cancelled: 'cancelled',
};

/** What the maker confirmed, as the approver's confirmation shows it again. */
const factsOf = (r: MovementRequest): MovementFacts => {
  const p = r.params as Record<string, unknown>;
  if (r.kind === 'withdrawal')
    return {
      kind: 'withdrawal',
      currency: r.currency,
      amount: r.amount,
      chain: String(p.chain ?? ''),
      address: String(p.address ?? ''),
      ...(typeof p.memo === 'string' ? { memo: p.memo } : {}),
    };
  if (r.kind === 'push')
    return { kind: 'push', currency: r.currency, amount: r.amount, receiveUid: Number(p.receive_uid) };
  return { kind: 'transfer', currency: r.currency, amount: r.amount, from: 'the account', to: r.destination };
};

export const createTeamApprovals = (deps: TeamApprovalsDeps): TeamApprovals => {
  const nameOf = (state: ControlState, id: string) => state.operator(id)?.name ?? id;

  const movementView = (team: OpenTeam, m: ListedMovement, localProfile: string): Approval => {
    const state = team.state();
    const checked = checkedRequest(team, m);
    const base = {
      id: teamMovementApprovalId(m.id),
      profileId: localProfile,
      makerId: m.makerId,
      makerName: nameOf(state, m.makerId),
      createdAt: m.createdAt,
      ...(m.approvers.length > 0 ? { decidedBy: m.approvers.map((a) => nameOf(state, a)).join(', ') } : {}),
    };
    if (!checked.ok)
      return {
        ...base,
        kind: 'withdrawal',
        state: 'failed',
        currency: '',
        amount: '',
        destination: '',
        summary: 'A team movement that does not verify',
        reasons: [],
        expiresAt: m.expiresAt ?? m.createdAt,
        outcome: `Not shown and never sent: ${checked.problem}.`,
      };
    const r = checked.request;
    // Its current attempt on this desk (Activity's entry), past any its rate limiter held back.
    const local = deps.movements.byRequestKey(localAttemptKey(deps.movements, r.requestKey));
    return {
      ...base,
      kind: r.kind === 'push' ? 'push' : 'withdrawal',
      state: STATES[m.state] ?? 'failed',
      currency: r.currency,
      amount: r.amount,
      ...(r.usdtValue !== undefined ? { usdtValue: r.usdtValue } : {}),
      destination: r.destination,
      summary: movementSummary(factsOf(r)),
      reasons: [...r.reasons],
      expiresAt: r.expiresAt,
      ...(local ? { movementId: local.id } : {}),
      ...(m.message && (m.state === 'failed' || m.state === 'blocked' || m.state === 'rejected')
        ? { outcome: m.message }
        : {}),
      ...(m.state === 'rejected' && m.message ? { reason: m.message } : {}),
      ...(r.origin && r.origin !== 'screen' ? { origin: r.origin } : {}),
    };
  };

  /** The stored request, believed only when its maker's signature verifies. */
  const checkedRequest = (team: OpenTeam, m: ListedMovement) =>
    verifyRequest(team.state(), { body: m.body, signer: m.makerId, signature: m.signature });

  const controlView = (team: OpenTeam, pending: PendingChange): Approval => {
    const state = team.state();
    const described = deps.describe(pending.change, state);
    return {
      id: teamControlApprovalId(pending.changeId),
      profileId: '',
      kind: 'control',
      state: 'pending',
      currency: '',
      amount: '',
      destination: described.title,
      summary: described.title,
      reasons: [
        state.fourEyes
          ? 'A team control change: another team administrator applies it (four eyes).'
          : 'A team control change: the team has one administrator, who applies it.',
      ],
      makerId: pending.change.preparedBy,
      makerName: nameOf(state, pending.change.preparedBy),
      createdAt: pending.change.preparedAt,
      expiresAt: pending.expiresAt,
      control: { kind: described.kind, title: described.title, changes: described.changes },
    };
  };

  const movementOf = async (team: OpenTeam, id: string): Promise<ListedMovement> => {
    const movementId = `mv_${id.slice(MOVEMENT_PREFIX.length)}`;
    const profile = deps.desk.teamProfile();
    const found = profile
      ? (await team.movements.list(profile, { limit: 500 })).find((m) => m.id === movementId)
      : undefined;
    if (found === undefined) throw DeskFailure.precondition('No such approval in this profile.');
    return found;
  };

  const pendingOf = async (team: OpenTeam, id: string): Promise<PendingChange> => {
    const changeId = `cc_${id.slice(CONTROL_PREFIX.length)}`;
    const pending = (await team.control.pending()).find((p) => p.changeId === changeId);
    if (pending === undefined) throw DeskFailure.precondition('This control change is no longer pending.');
    return pending;
  };

  const decide = async (id: string, verdict: 'approve' | 'reject', reason: string): Promise<Approval> => {
    const team = deps.desk.require();
    const who = signedInOperator(deps.operators);
    const state = team.state();
    const m = await movementOf(team, id);
    const checked = checkedRequest(team, m);
    if (!checked.ok) throw DeskFailure.precondition(`It does not verify: ${checked.problem}. It is never sent.`);
    const r = checked.request;
    if (m.state !== 'awaiting_approval')
      throw DeskFailure.precondition(`This item is already ${STATES[m.state] ?? m.state}.`);
    const maker = r.maker === who.id;
    if (verdict === 'approve' || !maker) {
      if (!canApprove(who.role))
        throw new DeskFailure({ code: 'NOT_ALLOWED', message: `A ${who.role} cannot ${verdict} movements.` });
    }
    if (verdict === 'approve') {
      if (maker)
        throw new DeskFailure({
          code: 'NOT_ALLOWED',
          message: 'An approver other than the maker must approve it (four eyes).',
        });
      const me = state.operator(who.id);
      const hours = deps.desk.policyOf(r.profileId)?.policy.approval.operatorCoolingOffHours ?? 72;
      if (me !== undefined && me.setBy === r.maker && deps.scheduler.wallNow() - me.setAt < hours * HOUR_MS)
        throw new DeskFailure({
          code: 'NOT_ALLOWED',
          message: `${nameOf(state, r.maker)} set your team role less than ${hours} h ago: you may not approve what they prepared (one person with two names is not four eyes).`,
          advice: 'Another approver decides it, or it waits until the cooling-off period has passed.',
        });
    }
    const signer = deps.desk.requireSigner(who);
    if (verdict === 'approve')
      await deps.authorizer.confirmMovement(
        {
          requestKey: r.requestKey,
          facts: factsOf(r),
          request: r.params,
          summary: movementSummary(factsOf(r)),
          destinationText: r.destination,
        },
        SCREEN,
        {
          usdt: r.usdtValue,
          approving: {
            makerName: nameOf(state, r.maker),
            reasons: r.reasons,
            ...(r.origin ? { origin: r.origin } : {}),
          },
        },
      );
    const decision: Decision = {
      type: 'decision',
      team: state.team,
      decision: verdict,
      subject: { kind: 'movement', id: m.id, hash: sha256(m.body) },
      operator: who.id,
      controlSeq: state.head.seq,
      reason,
      decidedAt: deps.scheduler.wallNow(),
    };
    const result = await team.movements.decide(signer.sign(decision), decision);
    if (!result.counted) throw DeskFailure.precondition(result.reason);
    const summary = movementSummary(factsOf(r));
    deps.audit.record({
      action: verdict === 'approve' ? 'approvals.approve' : 'approvals.reject',
      params: {
        id,
        summary,
        maker: nameOf(state, r.maker),
        [verdict === 'approve' ? 'approver' : 'by']: who.name,
        reason,
      },
      outcome: 'ok',
    });
    void team.audit
      .append({ action: `movement.${verdict}`, params: { movement: m.id, summary, reason }, outcome: 'ok' }, signer)
      .catch(() => undefined);
    if (verdict === 'approve') deps.onApproved();
    return movementView(team, await movementOf(team, id), deps.authorizer.profile().id);
  };

  const decideControl = async (id: string, verdict: 'approve' | 'reject', reason: string): Promise<Approval> => {
    const team = deps.desk.require();
    const who = signedInOperator(deps.operators);
    if (!canAdminister(who.role))
      throw new DeskFailure({
        code: 'NOT_ALLOWED',
        message: `A ${who.role} cannot decide a control change: a team administrator does.`,
      });
    const pending = await pendingOf(team, id);
    const state = team.state();
    const signer = deps.desk.requireSigner(who);
    const view = controlView(team, pending);
    if (verdict === 'approve') {
      if (state.fourEyes && pending.change.preparedBy === who.id)
        throw new DeskFailure({
          code: 'NOT_ALLOWED',
          message: 'Another administrator than the one who prepared it must approve it (four eyes).',
        });
      await deps.authorizer.confirmChange({
        action: 'approve',
        title: `Approve: ${view.summary}`,
        rows: [...changeRows(view.control?.changes ?? []), { label: 'Prepared by', value: view.makerName }],
        note: 'It applies to the whole team as soon as you approve it.',
        confirmLabel: 'Approve and apply',
      });
      await team.control.apply(pending.changeId, signer, { fingerprint: state.fingerprint });
      await deps.desk.applied();
    } else if (!(await team.control.reject(pending.changeId, signer, state.team, state.head.seq, reason)))
      throw DeskFailure.precondition('This control change is no longer pending.');
    deps.audit.record({
      action: verdict === 'approve' ? 'team.controlApplied' : 'team.controlRejected',
      params: { id, title: view.summary, by: who.name, preparedBy: view.makerName, reason },
      outcome: 'ok',
    });
    return {
      ...view,
      state: verdict === 'approve' ? 'sent' : 'rejected',
      decidedBy: who.name,
      decidedAt: deps.scheduler.wallNow(),
      reason,
    };
  };

  // Changes heard from the team: every desk's Approvals screen refreshes, and whoever may approve
  // a newly prepared movement is told (in the window and by the OS).
  deps.desk.onChange((change: TeamChange) => {
    if (change.kind === 'control.changed') deps.emit('approvals.changed', { id: CONTROL_PREFIX, state: 'changed' });
    if (change.kind !== 'movement.changed' && change.kind !== 'approval.prepared') return;
    deps.emit('approvals.changed', { id: teamMovementApprovalId(change.subject), state: 'changed' });
    if (change.kind === 'approval.prepared') void tellApprover(change.subject);
  });

  const tellApprover = async (movementId: string): Promise<void> => {
    const team = deps.desk.current();
    const who = deps.operators.current();
    if (team === undefined || who === undefined || !canApprove(who.role)) return;
    const evidence = await team.movements.evidence(movementId).catch(() => undefined);
    if (evidence === undefined) return;
    const checked = verifyRequest(team.state(), evidence.request);
    if (!checked.ok || checked.request.maker === who.id) return;
    const summary = movementSummary(factsOf(checked.request));
    const maker = nameOf(team.state(), checked.request.maker);
    deps.emit('app.notice', {
      level: 'info',
      message: `Waiting for your approval: ${summary} (prepared by ${maker}).`,
    });
    deps.notify?.('Waiting for your approval', `${summary}, prepared by ${maker}.`);
  };

  return {
    owns: (id) => id.startsWith(MOVEMENT_PREFIX) || id.startsWith(CONTROL_PREFIX),

    list: async (state) => {
      const team = deps.desk.current();
      const profile = deps.desk.teamProfile();
      if (team === undefined) return [];
      const local = deps.authorizer.profile().id;
      const movements = profile
        ? // Only a movement awaiting approval can be pending: the database leaves the rest out.
          (
            await team.movements.list(profile, {
              limit: 200,
              ...(state === 'pending' ? { states: ['awaiting_approval'] } : {}),
            })
          )
            .filter((m) => m.approvalsRequired > 0 || m.state === 'blocked')
            .map((m) => movementView(team, m, local))
        : [];
      const controls = (await team.control.pending()).map((p) => controlView(team, p));
      const all = [...controls, ...movements];
      return state === undefined ? all : all.filter((a) => a.state === state);
    },

    approve: (id, reason) =>
      id.startsWith(CONTROL_PREFIX) ? decideControl(id, 'approve', reason) : decide(id, 'approve', reason),
    reject: (id, reason) =>
      id.startsWith(CONTROL_PREFIX) ? decideControl(id, 'reject', reason) : decide(id, 'reject', reason),
  };
};
