/**
 * Control changes in team mode (docs/team.md): who the operators are and their roles, and each
 * profile's policy, are the team's — they exist only as applied links of its control chain, signed by
 * team administrators. While the desk is in a team, a change of a role, a removal or a policy is
 * prepared in the team (signed by the administrator who confirmed it) instead of on this desk, and
 * applied by another team administrator (four eyes), or at once while the team has one.
 *
 * What stays the desk's own: its operators' sign-in (their passphrases), its profiles and API keys
 * (each desk's keychain), sub-accounts and small balances (they go through the platform).
 */

import { ROLE_NAMES } from '../../shared/contract/operators';
import type { FourEyes, Policy, PolicyView } from '../../shared/contract/policies';
import { DeskFailure } from '../errors';
import type { ControlChange as DeskControlChange, TeamControlRoute } from '../operators/controls';
import type { OperatorInfo, Operators } from '../operators/operators';
import type { Scheduler } from '../scheduler';
import type { ControlAction, ControlChange, ControlState } from '../team';
import { keyFingerprint } from '../team';
import type { ControlDescription } from './approvals';
import type { TeamDesk } from './desk';

export interface TeamControlDeps {
  readonly desk: TeamDesk;
  readonly operators: Operators;
  readonly scheduler: Scheduler;
  /** A policy change, line by line (policies/handlers.ts policyChanges). */
  readonly policyRows: (before: Policy, after: Policy) => ControlDescription['changes'];
}

/** The kinds that are the team's while the desk is in one. */
const TEAM_KINDS = new Set<string>(['policies.set', 'operators.changeRole', 'operators.remove']);

/** A policy as signed: plain JSON (no key with an undefined value). */
const signable = (policy: Policy) =>
  JSON.parse(JSON.stringify(policy)) as Extract<ControlAction, { kind: 'policy.set' }>['policy'];

export const createTeamControl = (deps: TeamControlDeps) => {
  const { desk } = deps;

  const fourEyes = (): FourEyes | undefined => {
    if (!desk.configured()) return undefined;
    const state = desk.state();
    const administrators = state?.operators().filter((o) => o.role === 'admin').length ?? 0;
    const inForce = state?.fourEyes ?? true;
    return {
      inForce,
      administrators,
      operatorCoolingOffHours: desk.activePolicy().approval.operatorCoolingOffHours ?? 72,
      reason: inForce
        ? `Four eyes are in force: the team has ${administrators} administrators, so a control change one of them prepares applies only after another approves it in Approvals (on any desk).`
        : 'Four eyes are NOT in force: the team has one administrator, so a change of roles or policies applies as soon as they confirm it. Enrol a second administrator to require another administrator’s approval.',
    };
  };

  /** The team action of a desk's control change. */
  const actionOf = (change: DeskControlChange, state: ControlState): ControlAction => {
    const r = change.apply;
    if (change.kind === 'policies.set') {
      const profile = desk.teamProfile();
      if (profile === undefined)
        throw DeskFailure.precondition('The profile is not connected yet.', 'Wait for the connection, then try again.');
      return {
        kind: 'policy.set',
        profileId: profile,
        version: (state.policy(profile)?.version ?? 0) + 1,
        policy: signable(r.policy as Policy),
      };
    }
    const operatorId = String(r.id);
    if (state.operator(operatorId)?.role === undefined)
      throw DeskFailure.precondition(
        `${String(r.name)} is not enrolled in the team.`,
        'Their role is set when an administrator enrols them (Settings → Team).',
      );
    return change.kind === 'operators.changeRole'
      ? { kind: 'operator.role', operatorId, role: r.role as OperatorInfo['role'] }
      : { kind: 'operator.remove', operatorId };
  };

  /** What the desk's control change answers once applied in the team. */
  const answerOf = (change: DeskControlChange, who: OperatorInfo): unknown => {
    const r = change.apply;
    if (change.kind === 'policies.set')
      return {
        profileId: String(r.profileId),
        policy: r.policy as Policy,
        updatedAt: deps.scheduler.wallNow(),
        updatedBy: who.name,
      } satisfies PolicyView;
    if (change.kind === 'operators.remove') return { removed: true as const };
    const local = deps.operators.get(String(r.id));
    if (local === undefined) throw DeskFailure.precondition('There is no such operator on this desk.');
    return { ...local, role: r.role as OperatorInfo['role'] };
  };

  const route: TeamControlRoute = {
    handles: (kind) => desk.configured() && TEAM_KINDS.has(kind),
    fourEyes,
    submit: async (change, who) => {
      const team = desk.require();
      const signer = desk.requireSigner(who);
      const state = team.state();
      const pending = await team.control.prepare(state.team, signer, actionOf(change, state));
      if (state.fourEyes)
        throw new DeskFailure({
          code: 'AWAITING_APPROVAL',
          message: `Waiting for another team administrator: ${change.title}.`,
          advice: 'Another team administrator approves it in Approvals, on any desk. Nothing was changed yet.',
        });
      await team.control.apply(pending.changeId, signer, { fingerprint: state.fingerprint });
      await desk.applied();
      return answerOf(change, who);
    },
  };

  /** A team control change in words, for the Approvals screen. */
  const describe = (change: ControlChange, state: ControlState): ControlDescription => {
    const a = change.action;
    const name = (id: string) => state.operator(id)?.name ?? id;
    switch (a.kind) {
      case 'operator.enrol':
        return {
          kind: 'operators.create',
          title: `Enrol ${a.operator.name} in the team as ${ROLE_NAMES[a.operator.role]}`,
          changes: [
            { label: 'Team operator', before: '—', after: `${a.operator.name} (${ROLE_NAMES[a.operator.role]})` },
            { label: 'Signing key (compare it with them)', before: '—', after: keyFingerprint(a.operator.publicKey) },
          ],
        };
      case 'operator.role': {
        const before = state.operator(a.operatorId)?.role;
        return {
          kind: 'operators.changeRole',
          title: `Change the team role of ${name(a.operatorId)}`,
          changes: [
            {
              label: `Role of ${name(a.operatorId)}`,
              before: before ? ROLE_NAMES[before] : '—',
              after: ROLE_NAMES[a.role],
            },
          ],
        };
      }
      case 'operator.remove':
        return {
          kind: 'operators.remove',
          title: `Remove ${name(a.operatorId)} from the team`,
          changes: [{ label: 'Team operator', before: name(a.operatorId), after: 'removed (signs nothing any more)' }],
        };
      case 'policy.set': {
        const before = desk.policyOf(a.profileId)?.policy;
        const after = desk.parsePolicy(a.policy);
        return {
          kind: 'policies.set',
          title: `Change the team policy of ${a.profileId} (version ${a.version})`,
          changes:
            before && after
              ? deps.policyRows(before, after)
              : [
                  {
                    label: 'Policy',
                    before: before ? `version ${a.version - 1}` : 'none',
                    after: `version ${a.version}`,
                  },
                ],
        };
      }
      default:
        return { kind: 'operators.create', title: `Team control change: ${a.kind}`, changes: [] };
    }
  };

  return { route, describe, fourEyes };
};
