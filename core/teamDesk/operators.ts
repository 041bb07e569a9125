/**
 * Who is at the desk, in team mode: the operator signs in on this desk as always (their name and
 * passphrase, checked here), but what they may do is the team's — their role as the team's verified
 * control chain has it. An operator of this desk not enrolled in the team (yet) only reads.
 */
import type { OperatorSource } from '../operators/operators';
import type { TeamDesk } from './desk';

export const teamAwareOperators = (desk: TeamDesk, local: OperatorSource): OperatorSource => ({
  current: () => {
    const who = local.current();
    if (who === undefined || !desk.configured()) return who;
    return { ...who, role: desk.roleOf(who.id) ?? 'viewer' };
  },
});
