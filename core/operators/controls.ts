/**
 * The control plane under four eyes (docs/approvals.md, "Control changes"): every change to who may
 * act and how money is guarded — operators, policies and the review threshold, profiles with their
 * keys and endpoints, sub-account creation and freezing, small-balance conversion — is a control
 * change:
 *
 * - the person confirms it in the trusted confirmation, which shows what changes (before → after);
 * - with one administrator it applies at once, and every screen says that four eyes are not in force;
 * - once the desk has two administrators it waits in the Approvals queue (journaled, expiring,
 *   decided once) until ANOTHER administrator approves it — not one the preparer created, promoted
 *   or gave a passphrase to within the policy's cooling-off period (approvals/queue.ts) — and only
 *   then applies, as it was prepared (a change whose "before" moved meanwhile is refused).
 *
 * What each kind does is its owner's (operators/controls.ts builds the kinds); this module
 * decides when and records it.
 */
import { createHash } from 'node:crypto';
import type { Approval, ControlChangeRow, ControlKind, FourEyes } from '../../shared/contract/policies';
import { type ApprovalQueue, awaitingApproval, type ControlRequest, type StoredApproval } from '../approvals/queue';
import { DeskFailure } from '../errors';
import type { AuditLog } from '../journal/types';
import { type Confirm, type ConfirmView, requireConfirmation } from '../policies/confirm';
import { changeRows, contextRows } from '../policies/views';
import type { ActiveProfile } from '../types';
import { type Access, can } from './access';
import { type OperatorInfo, type OperatorSource, signedInOperator } from './operators';

const HOUR_MS = 3_600_000;

/** One control change as its handler prepares it. */
export interface ControlChange {
  readonly kind: ControlKind;
  /** The profile it belongs to; '' for the whole desk (operators). */
  readonly profileId: string;
  /** One line: "Create operator mallory (viewer)". */
  readonly title: string;
  /** What changes, line by line (before → after). */
  readonly changes: readonly ControlChangeRow[];
  /** What the kind's `apply` needs, kept in the journal while it waits: never a secret. */
  readonly apply: Record<string, unknown>;
  /** The button's words when it applies at once ("Create operator"). */
  readonly confirmLabel: string;
  /** A line for the confirmation (what else to know). */
  readonly note?: string;
  /** Extra rows for the confirmation only (e.g. the account a key belongs to). */
  readonly facts?: ConfirmView['rows'];
}

/** What a kind does once it may apply, and how it tells that what it was prepared against moved. */
export interface ControlKindHandler {
  /** Applies the change; `by` is the administrator who prepared it (grants are theirs). */
  apply(request: Record<string, unknown>, by: OperatorInfo): Promise<unknown>;
  /** Why the change can no longer apply as prepared (its "before" changed meanwhile), if it cannot. */
  stale?(request: Record<string, unknown>): string | undefined;
  /** It will never apply (rejected, expired): drop what it kept aside (a key's secret in the keychain). */
  discard?(request: Record<string, unknown>): Promise<void>;
  /** The role that may prepare it (default admin). */
  readonly access?: Access;
  /**
   * It acts on the active profile's account, through that profile's key (a sub-account, its API
   * keys, small balances): it applies only while the profile it was prepared on is the active one —
   * approved while another is active, it would act on the wrong account.
   */
  readonly onActiveProfile?: boolean;
}

/**
 * Team mode (docs/team.md, teamDesk/control.ts): some kinds are the team's while the desk is in one
 * (roles, removals, policies). They are confirmed here as any change, then prepared in the team,
 * signed by the administrator, and applied there (four eyes among the team's administrators).
 */
export interface TeamControlRoute {
  /** Whether this kind is the team's now (the desk is in a team). */
  handles(kind: ControlKind): boolean;
  /** The team's four eyes (undefined: the desk works alone). */
  fourEyes(): FourEyes | undefined;
  /** Prepares it in the team and applies it when the team has one administrator (else AWAITING_APPROVAL). */
  submit(change: ControlChange, who: OperatorInfo): Promise<unknown>;
}

export interface ControlPlaneDeps {
  readonly queue: ApprovalQueue;
  readonly confirm?: Confirm | undefined;
  readonly operators: OperatorSource;
  /** How many administrators the desk has (operators/operators.ts adminCount). */
  readonly administrators: () => number;
  readonly audit: AuditLog;
  readonly activeProfile: () => ActiveProfile | undefined;
  /** How long a change waits for its approver (the active profile's policy), hours. */
  readonly expiresHours: () => number;
  /** The cooling-off after an administrator's grant over an operator (the active profile's policy), hours. */
  readonly coolingOffHours: () => number;
  readonly kinds: Readonly<Record<ControlKind, ControlKindHandler>>;
  readonly now?: () => number;
  readonly logError?: (what: string, error: unknown) => void;
  /** Team mode's route (absent: the desk works alone). */
  readonly team?: TeamControlRoute;
}

export interface ControlPlane {
  /** Whether four eyes hold for control changes now, and why. */
  fourEyes(): FourEyes;
  /**
   * Confirms the change in the trusted window, then applies it (one administrator) or queues it for
   * another administrator (AWAITING_APPROVAL, nothing changed yet). Resolves with what `apply` returned.
   */
  submit<T>(change: ControlChange): Promise<T>;
  /** Another administrator approves a queued change: confirmed in the trusted window, then applied once. */
  approve(a: StoredApproval, reason: string): Promise<Approval>;
  /** After a restart: changes left `approved` but not applied are settled `failed`, with what to check. */
  recover(): void;
}

export const FOUR_EYES_NOTE = 'Another administrator must approve this change in Approvals before it applies.';

export const createControlPlane = (deps: ControlPlaneDeps): ControlPlane => {
  const now = deps.now ?? Date.now;

  const operator = (): OperatorInfo => signedInOperator(deps.operators);

  /** What the screens show: the team's four eyes while the desk is in a team, else this desk's. */
  const fourEyes = (): FourEyes => deps.team?.fourEyes() ?? deskFourEyes();

  /** This desk's own: its administrators decide its own control changes (profiles, keys, its operators). */
  const deskFourEyes = (): FourEyes => {
    const administrators = deps.administrators();
    const inForce = administrators >= 2;
    return {
      inForce,
      administrators,
      operatorCoolingOffHours: deps.coolingOffHours(),
      reason: inForce
        ? `Four eyes are in force: this desk has ${administrators} administrators, so a control change one of them prepares applies only after another approves it in Approvals.`
        : `Four eyes are NOT in force: this desk has ${administrators === 1 ? 'one administrator' : 'no administrator'}, so a change of operators, policies, profiles, keys or sub-accounts applies as soon as ${administrators === 1 ? 'they confirm' : 'it is confirmed'} it. Add a second administrator to require another administrator's approval.`,
    };
  };

  const view = (
    change: Pick<ControlChange, 'title' | 'changes' | 'facts' | 'note' | 'confirmLabel'>,
    who: OperatorInfo,
    extra: { readonly queued: boolean; readonly approving?: StoredApproval },
  ): ConfirmView => ({
    action: extra.approving ? 'approve' : 'control',
    title: extra.approving ? `Approve: ${change.title}` : change.title,
    rows: [
      ...changeRows(change.changes),
      ...(change.facts ?? []),
      ...(extra.approving ? [{ label: 'Prepared by', value: extra.approving.makerName }] : []),
      ...contextRows(deps.activeProfile(), who),
    ],
    note: extra.approving
      ? 'It applies as soon as you approve it.'
      : [change.note, extra.queued ? FOUR_EYES_NOTE : fourEyes().reason].filter(Boolean).join(' '),
    confirmLabel: extra.approving ? 'Approve and apply' : extra.queued ? 'Submit for approval' : change.confirmLabel,
  });

  /** The same change prepared again by the same administrator joins the one already waiting. */
  const keyOf = (change: ControlChange, who: OperatorInfo): string => {
    const digest = createHash('sha256')
      .update(JSON.stringify([who.id, change.kind, change.profileId, change.apply]))
      .digest('hex')
      .slice(0, 32);
    const key = `control:${digest}`;
    const earlier = deps.queue.byRequestKey(key);
    return earlier === undefined || earlier.state === 'pending' ? key : `${key}:${now()}`;
  };

  const kindOf = (kind: ControlKind): ControlKindHandler => deps.kinds[kind];

  /** Applies a change and records it; `approver` when another administrator approved it. */
  const apply = async (
    kind: ControlKind,
    request: Record<string, unknown>,
    by: OperatorInfo,
    record: { readonly profileId: string; readonly changes: readonly ControlChangeRow[]; readonly approver?: string },
  ): Promise<unknown> => {
    const result = await kindOf(kind).apply(request, by);
    deps.audit.record({
      action: kind,
      ...(record.profileId ? { profileId: record.profileId } : {}),
      params: {
        changes: record.changes,
        by: by.name,
        ...(record.approver ? { approvedBy: record.approver } : {}),
      },
      outcome: 'ok',
    });
    return result;
  };

  deps.queue.onDecided((a) => {
    if (a.kind !== 'control' || a.state === 'approved' || a.state === 'sent') return;
    const stored = deps.queue.get(a.id);
    const request = stored?.request as unknown as ControlRequest | undefined;
    if (!request) return;
    kindOf(request.control.kind)
      .discard?.(request.apply)
      .catch((error) => deps.logError?.('controls.discard', error));
  });

  return {
    fourEyes,

    submit: async <T>(change: ControlChange): Promise<T> => {
      const who = operator();
      const access = kindOf(change.kind).access ?? 'admin';
      if (!can(who.role, access)) {
        throw new DeskFailure({
          code: 'NOT_ALLOWED',
          message: `A ${who.role} cannot change this: an administrator does.`,
        });
      }
      const teamKind = deps.team?.handles(change.kind) === true;
      const queued = (teamKind ? fourEyes() : deskFourEyes()).inForce;
      if (deps.team && teamKind) {
        await requireConfirmation(deps.confirm, view(change, who, { queued }));
        const result = await deps.team.submit(change, who);
        deps.audit.record({
          action: change.kind,
          ...(change.profileId ? { profileId: change.profileId } : {}),
          params: { changes: change.changes, by: who.name, team: true },
          outcome: 'ok',
        });
        return result as T;
      }
      const requestKey = queued ? keyOf(change, who) : undefined;
      const waiting = requestKey ? deps.queue.byRequestKey(requestKey) : undefined;
      if (waiting) throw awaitingApproval(waiting);
      try {
        await requireConfirmation(deps.confirm, view(change, who, { queued }));
      } catch (error) {
        await kindOf(change.kind).discard?.(change.apply);
        throw error;
      }
      if (requestKey) {
        const request: ControlRequest = {
          control: {
            kind: change.kind,
            profileId: change.profileId,
            title: change.title,
            changes: [...change.changes],
          },
          apply: change.apply,
        };
        const item = deps.queue.request(
          {
            // Desk-wide: another administrator sees it whichever profile is active (a key or a policy
            // of one profile is still a control of the desk).
            profileId: '',
            kind: 'control',
            requestKey,
            request: request as unknown as Record<string, unknown>,
            currency: '',
            amount: '',
            destination: change.title,
            summary: change.title,
            reasons: ['A control change: another administrator approves it (four eyes).'],
            expiresAt: now() + deps.expiresHours() * HOUR_MS,
          },
          who,
        );
        throw awaitingApproval(item);
      }
      return (await apply(change.kind, change.apply, who, change)) as T;
    },

    approve: async (a, reason) => {
      const who = deps.queue.approver(a);
      const { control, apply: request } = a.request as unknown as ControlRequest;
      const kind = kindOf(control.kind);
      if (kind.onActiveProfile && deps.activeProfile()?.id !== control.profileId) {
        throw DeskFailure.precondition(
          'This change acts on the account of the profile it was prepared on, which is not the active profile; nothing was changed.',
          'Switch to that profile, then approve it.',
        );
      }
      const stale = kind.stale?.(request);
      if (stale) {
        throw DeskFailure.precondition(
          `${stale} It was prepared against what was there before; nothing was changed.`,
          'Reject it; the administrator prepares it again if it is still needed.',
        );
      }
      await requireConfirmation(
        deps.confirm,
        view({ title: control.title, changes: control.changes, confirmLabel: '' }, who, {
          queued: false,
          approving: a,
        }),
      );
      if (!deps.queue.approve(a, who, reason)) {
        throw DeskFailure.precondition('This change was decided or expired meanwhile.');
      }
      const maker: OperatorInfo = { id: a.makerId, name: a.makerName, role: 'admin' };
      try {
        await apply(control.kind, request, maker, {
          profileId: a.profileId,
          changes: control.changes,
          approver: who.name,
        });
        return deps.queue.settle(a.id, 'sent', undefined, 'Approved and applied.');
      } catch (error) {
        return deps.queue.settle(a.id, 'failed', undefined, error instanceof Error ? error.message : String(error));
      }
    },

    recover: () => {
      for (const a of deps.queue.approvedUnsent('control')) {
        deps.queue.settle(
          a.id,
          'failed',
          undefined,
          'The app stopped while applying this change: check whether it took effect, and prepare it again if it did not.',
        );
      }
    },
  };
};
