/**
 * A money movement in team mode (docs/team.md): what `commands.submit` does while the desk is in a
 * team, after the same precheck as alone —
 *
 *   role (the team's verified role) → the team policy's limits against what the whole firm spent
 *   → the trusted confirmation → signed by the maker's key → journaled in the team database, its
 *   amount reserved in the same transaction that checks the firm-wide limits again under a lock
 *   → waiting for an approver on any desk (AWAITING_APPROVAL), or claimed here and sent at once
 *
 * The same request key is the same movement across desks: a repeat joins what the first call
 * journaled, never a second one.
 */
import { randomUUID } from 'node:crypto';
import { destinationKey } from '../../shared/contract/funding';
import type { Policy } from '../../shared/contract/policies';
import type { TeamMovementRoute } from '../commands/movements';
import { DeskFailure } from '../errors';
import type { AuditLog } from '../journal/types';
import { newClientId } from '../movements/clientId';
import type { Movements } from '../movements/types';
import { canMake } from '../operators/access';
import { type OperatorSource, signedInOperator } from '../operators/operators';
import { type Authorizer, originText, policyMovement } from '../policies/authorize';
import { evaluatePolicy, type PolicyMovement } from '../policies/evaluate';
import { type Limits, movementDestination } from '../policies/limits';
import type { Scheduler } from '../scheduler';
import { DEFAULT_LEASE_MS, type MovementRequest, MovementRequestSchema, parseBody, type SpentMovement } from '../team';
import type { TeamDesk } from './desk';
import { localAttemptKey, type TeamSender } from './sender';

const HOUR_MS = 3_600_000;

export interface TeamRouteDeps {
  readonly desk: TeamDesk;
  readonly operators: OperatorSource;
  readonly authorizer: Authorizer;
  readonly limits: Pick<Limits, 'usdtValue' | 'refuse'>;
  readonly sender: TeamSender;
  /** The local journal: a repeat on this desk joins its movement; solo history counts as known destinations. */
  readonly movements: Movements;
  readonly audit: AuditLog;
  readonly scheduler: Scheduler;
  readonly leaseMs?: number;
}

/** The firm's movements of the last 24 hours as the policy counts them (withdrawals and UID transfers). */
const historyOf = (spent: readonly SpentMovement[]): PolicyMovement[] =>
  spent.flatMap((s) =>
    s.kind === 'withdrawal' || s.kind === 'push'
      ? [
          {
            kind: s.kind,
            currency: s.currency.toUpperCase(),
            amount: s.amount,
            at: s.at,
            usdt: s.usdtValue ?? undefined,
            destination: '',
          },
        ]
      : [],
  );

/** A repeat of a request already in the team journal: what it answers, by the movement's state. */
const joinRefusal = (state: string, message: string | null): DeskFailure | undefined => {
  const refused = (words: string) =>
    new DeskFailure({
      code: 'POLICY',
      message: words,
      advice: 'Nothing was sent. Prepare it again if it is still needed.',
    });
  switch (state) {
    case 'awaiting_approval':
      return new DeskFailure({
        code: 'AWAITING_APPROVAL',
        message: 'It waits for an approver of the team.',
        advice: 'An approver other than you approves or rejects it in Approvals, on any desk. Nothing was sent yet.',
      });
    case 'rejected':
      return refused(`Rejected: ${message ?? ''}`);
    case 'expired':
      return refused('Its approval expired before anyone approved it.');
    case 'blocked':
    case 'failed':
    case 'cancelled':
      return refused(message ?? 'It was not sent.');
    default:
      return undefined;
  }
};

export const createTeamRoute = (deps: TeamRouteDeps): TeamMovementRoute => {
  const leaseMs = deps.leaseMs ?? DEFAULT_LEASE_MS;

  /** Destinations the profile already sent to, firm-wide (and this desk's history from before the team). */
  const knownDestinations = async (teamProfile: string, localProfile: string): Promise<Set<string>> => {
    const team = deps.desk.require();
    const known = new Set(
      deps.movements
        .list({ kind: 'withdrawal', profileId: localProfile, limit: 100_000 })
        .filter((m) => m.state !== 'failed')
        .map(movementDestination),
    );
    for (const body of await team.movements.sentBodies(teamProfile, 'withdrawal')) {
      const params = parseBody(MovementRequestSchema, body)?.params;
      if (params)
        known.add(
          destinationKey(String(params.chain ?? ''), String(params.address ?? ''), params.memo as string | undefined),
        );
    }
    return known;
  };

  return {
    active: () => deps.desk.configured(),

    submit: async ({ proposal: p, call, origin }) => {
      const team = deps.desk.require();
      const who = signedInOperator(deps.operators);
      if (!canMake(who.role))
        throw new DeskFailure({ code: 'NOT_ALLOWED', message: `A ${who.role} cannot move money.` });
      const local = deps.authorizer.profile();
      const teamProfile = deps.desk.teamProfile();
      if (teamProfile === undefined)
        throw DeskFailure.precondition('The profile is not connected yet.', 'Wait for the connection, then try again.');

      // The same request key is the same movement, whichever desk journaled it.
      const earlier = await team.movements.byRequestKey(p.requestKey);
      if (earlier !== undefined) {
        const refusal = joinRefusal(earlier.state, earlier.message);
        if (refusal) throw refusal;
        const request = parseBody(MovementRequestSchema, earlier.body);
        // This desk's attempt of it is joined; one its rate limiter held back (failed here, never
        // sent) is not: the team gave the movement back to its queue, and whoever claims it sends it.
        const attemptKey = localAttemptKey(deps.movements, p.requestKey);
        if (request !== undefined && deps.movements.byRequestKey(attemptKey) !== undefined)
          return deps.movements.execute(request.kind as typeof call.kind, request.params as never, {
            requestKey: attemptKey,
            clientId: request.clientId,
          });
        // Journaled by a call whose answer was lost (the database went away as it committed): this
        // desk sends it now if nobody holds it.
        const claim =
          earlier.state === 'ready' ? await team.movements.claim([earlier.profileId], leaseMs, earlier.id) : undefined;
        if (claim !== undefined) return deps.sender.sendClaimed(claim);
        throw new DeskFailure({
          code: 'OUTCOME_UNKNOWN',
          delivery: 'unknown',
          message: 'It is being sent by another desk of the team.',
          advice: 'Follow it in Approvals; do not send it again.',
        });
      }

      const policy = deps.desk.policyOf(teamProfile);
      if (policy === undefined)
        throw DeskFailure.precondition(
          `${local.name} has no team policy yet: nothing is sent until an administrator sets one.`,
          'An administrator sets the policy in Settings → Policies.',
        );
      const signer = deps.desk.requireSigner(who);
      const usdt =
        p.facts.kind === 'transfer' ? undefined : await deps.limits.usdtValue(p.facts.currency, p.facts.amount);
      const proposed = policyMovement(p, usdt);
      const known = proposed ? await knownDestinations(teamProfile, local.id) : new Set<string>();
      const check = (rules: Policy, spent: readonly SpentMovement[], now: number) =>
        proposed
          ? evaluatePolicy(rules, { ...proposed, at: now }, historyOf(spent), known, now)
          : { refusals: [], approvalReasons: [] };

      // Refused early (before the confirmation) on what the firm spent so far; checked again, locked, below.
      const before = await team.movements.spent(teamProfile);
      const first = check(policy.policy, before.spent, before.now);
      if (first.refusals.length > 0) throw deps.limits.refuse(local.id, p.summary, first.refusals);
      const reasons = first.approvalReasons;
      await deps.authorizer.confirmMovement(p, origin, { usdt, reasons });

      const state = team.state();
      const now = deps.scheduler.wallNow();
      const id = randomUUID();
      const request: MovementRequest = {
        type: 'movement.request',
        team: state.team,
        movementId: `mv_${id}`,
        requestKey: p.requestKey,
        clientId: newClientId(),
        profileId: teamProfile,
        kind: call.kind,
        currency: p.facts.currency.toUpperCase(),
        amount: p.facts.amount,
        ...(usdt !== undefined ? { usdtValue: usdt } : {}),
        destination: p.destinationText,
        // Through JSON once: no key with an undefined value is signed.
        params: JSON.parse(JSON.stringify(call.body)) as MovementRequest['params'],
        policy: { version: policy.version, hash: policy.hash },
        approvalsRequired: reasons.length > 0 ? 1 : 0,
        reasons: [...reasons],
        origin: originText(origin),
        controlSeq: state.head.seq,
        maker: who.id,
        preparedAt: now,
        expiresAt: now + policy.policy.approval.expiresHours * HOUR_MS,
      };
      let prepared: Awaited<ReturnType<typeof team.movements.prepare>>;
      try {
        prepared = await team.movements.prepare(signer.sign(request), request, {
          checkLimits: (spent, _adding, at) => {
            const refusals = check(policy.policy, spent, at).refusals;
            return refusals.length > 0 ? refusals.join(' ') : undefined;
          },
          ...(reasons.length === 0 ? { claimLeaseMs: leaseMs } : {}),
        });
      } catch (error) {
        if (error instanceof DeskFailure && error.detail.code === 'POLICY')
          throw deps.limits.refuse(local.id, p.summary, [error.message]);
        throw error;
      }
      deps.audit.record({
        action: 'team.prepare',
        profileId: local.id,
        params: { movement: request.movementId, requestKey: p.requestKey, summary: p.summary, reasons: [...reasons] },
        outcome: 'ok',
      });
      void team.audit
        .append(
          { action: 'movement.prepare', params: { movement: request.movementId, summary: p.summary }, outcome: 'ok' },
          signer,
        )
        .catch(() => undefined);
      if (reasons.length > 0)
        throw new DeskFailure({
          code: 'AWAITING_APPROVAL',
          message: `Waiting for approval: ${reasons.join(' ')}`,
          advice: `An approver other than ${who.name} approves or rejects it in Approvals, on any desk of the team; it expires ${new Date(request.expiresAt).toISOString()}. Nothing was sent yet.`,
        });
      if (prepared.claim === undefined)
        throw new DeskFailure({
          code: 'OUTCOME_UNKNOWN',
          delivery: 'unknown',
          message: 'It is being sent by another desk of the team.',
          advice: 'Follow it in Approvals; do not send it again.',
        });
      return deps.sender.sendClaimed(prepared.claim);
    },
  };
};
