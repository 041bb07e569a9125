/**
 * Handlers of the `team` area (docs/team.md): whether this desk is in a team and how it stands
 * (the frame's banner, Settings → Team), creating, joining and leaving a team (control changes of
 * this desk), and enrolling its operators (their keys made here, prepared by a team administrator).
 */
import type { DeskHandlers } from '../../shared/contract';
import type { TeamStatus } from '../../shared/contract/team';
import type { ServiceContext } from '../context';
import { DeskFailure } from '../errors';
import type { ControlPlane } from '../operators/controls';
import { type OperatorSource, signedInOperator } from '../operators/operators';
import type { TeamDesk } from './desk';
import type { TeamJoining } from './joining';

export interface TeamHandlersDeps {
  readonly desk: TeamDesk;
  readonly joining: TeamJoining;
  readonly controls: ControlPlane;
  readonly operators: OperatorSource;
}

export const createTeamHandlers = (ctx: ServiceContext, deps: TeamHandlersDeps): DeskHandlers['team'] => {
  const who = () => signedInOperator(deps.operators);
  /** A control change that applied answers the status it made; one that waits throws AWAITING_APPROVAL. */
  const statusNow = (): TeamStatus => deps.desk.status(deps.operators.current());
  return {
    status: async () => statusNow(),
    create: async (input) => {
      await deps.joining.create(deps.controls, who(), input);
      ctx.audit.record({ action: 'team.create', params: { name: input.name }, outcome: 'ok' });
      return statusNow();
    },
    join: async (input) => {
      await deps.joining.join(deps.controls, who(), input);
      ctx.audit.record({
        action: 'team.join',
        params: { fingerprint: input.fingerprint, role: input.role },
        outcome: 'ok',
      });
      return statusNow();
    },
    importJournal: async () => {
      await deps.joining.importJournal(deps.controls, who());
      ctx.audit.record({ action: 'team.importJournal', params: {}, outcome: 'ok' });
      return statusNow();
    },
    leave: async () => {
      await deps.joining.leave(deps.controls, who());
      return statusNow();
    },
    requestEnrolment: async (input) => {
      const status = await deps.joining.requestEnrolment(who(), input);
      ctx.audit.record({ action: 'team.requestEnrolment', params: { role: input.role }, outcome: 'ok' });
      return status;
    },
    auditChain: async ({ limit }) => {
      // Read even while the control chain fails to verify: the chain is shown with what failed.
      const team = deps.desk.current();
      if (team === undefined) throw DeskFailure.precondition('This desk is not in a team.');
      const state = team.state();
      const { verdict, entries } = await team.audit.chain(state);
      const deskId = team.settings().deskId;
      return {
        ok: verdict.ok,
        ...(verdict.ok ? {} : { problem: verdict.problem }),
        count: verdict.ok ? verdict.entries : entries.length,
        entries: entries
          .slice(-limit)
          .reverse()
          .map(({ entry, signed, verified }) => {
            const operatorName = entry.operator === undefined ? undefined : state.operator(entry.operator)?.name;
            return {
              seq: entry.seq,
              at: entry.at,
              desk: entry.desk,
              thisDesk: entry.desk === deskId,
              ...(entry.operator !== undefined ? { operator: entry.operator } : {}),
              ...(operatorName !== undefined ? { operatorName } : {}),
              action: entry.action,
              params: JSON.stringify(entry.params),
              outcome: entry.outcome,
              signed,
              verified,
            };
          }),
      };
    },
    prepareEnrolment: async ({ operatorId }) => {
      const status = await deps.joining.prepareEnrolment(who(), operatorId);
      ctx.audit.record({ action: 'team.prepareEnrolment', params: { operatorId }, outcome: 'ok' });
      return status;
    },
  };
};
