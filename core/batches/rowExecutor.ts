/**
 * A batch row through its domain command, and what the journals say of it afterwards (the runner's
 * `RowExecutor`). Alone, this desk's journal is the row's whole story. In a team (docs/team.md) the
 * row's request key names a movement of the team journal, and that movement decides: an attempt this
 * desk's own rate limiter held back failed here without leaving the desk, but the team gave the
 * movement back to its queue and sends it later (this desk under `key#2`, or another desk), so such a
 * row is never `failed` until the team's movement is (docs/bulk.md, "Rows in a team"). The same holds
 * for whatever else would show a team row `failed` (an unexpected error, a refusal here while another
 * desk took the movement over): while the team's movement is open, or the team cannot be asked, the
 * row is `checking` and follows it.
 */
import type { MovementCommands } from '../commands/movements';
import { DeskFailure, isConvertibleToIpcError } from '../errors';
import type { Movement, Movements } from '../movements/types';
import type { Origin } from '../policies/authorize';
import type { TeamMovementNow } from '../teamDesk/desk';
import { heldBack, localAttemptKey, REQUEUED_MESSAGE } from '../teamDesk/sender';
import { commandOf } from './rows';
import type { RowExecutor, RowOutcome } from './runner';

/** A final movement of the team journal, as the batch runner needs it. */
export interface TeamSettledMovement {
  readonly id: string;
  readonly state: string;
  readonly clientId: string;
  readonly platformId: string | null;
  readonly label: string | null;
  readonly message: string | null;
}

export interface RowExecutorDeps {
  readonly movements: Pick<Movements, 'byRequestKey'>;
  /** Absent when the desk cannot be in a team. */
  readonly team?: {
    /** Whether the desk is in a team now (its movements go through the team journal). */
    readonly active: () => boolean;
    /** The team journal's movement of a request key now (TeamDesk.movementNow). */
    readonly movementNow: (requestKey: string) => Promise<TeamMovementNow<TeamSettledMovement>>;
  };
  readonly commands: Pick<MovementCommands, 'submit'>;
  /** Who asked for this row (its batch). */
  readonly originOf: (batchId: string, rowNo: number) => Origin;
}

const movementOutcome = (m: Movement): RowOutcome => ({
  state: m.state === 'done' ? 'done' : m.state === 'failed' ? 'failed' : 'checking',
  movementId: m.id,
  ...(m.clientId ? { clientId: m.clientId } : {}),
  ...(m.platformId ? { platformId: m.platformId } : {}),
  ...(m.label ? { label: m.label } : {}),
  ...(m.message ? { message: m.message } : {}),
});

/** A row the team settled, as its final movement in the team journal says. */
const teamOutcome = (m: TeamSettledMovement): RowOutcome => ({
  state: m.state === 'done' ? 'done' : 'failed',
  movementId: m.id,
  clientId: m.clientId,
  ...(m.platformId ? { platformId: m.platformId } : {}),
  ...(m.label ? { label: m.label } : {}),
  message: m.message ?? (m.state === 'done' ? 'Sent by another desk of the team.' : `Not sent: ${m.state}.`),
});

/** The team's movement is not final and this desk has no attempt of it that left: it is followed. */
const REQUEUED: RowOutcome = { state: 'checking', message: REQUEUED_MESSAGE };

/** This desk's attempt failed, but the team's movement is open: another desk may still send it. */
export const FOLLOWING_TEAM_MESSAGE = 'The team is still sending it; this row follows it until it is final.';
/** This desk's attempt failed, and the team cannot be asked whether its movement is open. */
export const TEAM_NOT_ASKED_MESSAGE =
  'The team database cannot be asked now whether the team is sending it; this row follows it once it answers.';
/**
 * Nothing of the row here nor in the team journal, which journals a movement before any desk sends
 * it: it was never sent, and nothing will send it.
 */
export const NEVER_IN_TEAM_MESSAGE = 'Not sent: the team journal has no movement of it.';

/**
 * Nothing was sent and it may work later: not connected, locked, nobody signed in (after a restart
 * the batch goes on once an operator signs in), the journal unwritable, waiting for an approval.
 */
const RETRY_CODES = new Set([
  'PRECONDITION',
  'LOCKED',
  'JOURNAL_UNAVAILABLE',
  'KEYCHAIN',
  'AWAITING_APPROVAL',
  'NOT_ALLOWED',
]);

export const createRowExecutor = (deps: RowExecutorDeps): RowExecutor => {
  /**
   * This desk's attempt of a row that tells the row's state: its journal's movement of the key, or in
   * a team, when its limiter held that one back, the attempt after it (`key#2`…) if there is one.
   * `requeued`: the team gave the movement back to its queue; the row waits for the team's answer.
   */
  const ownAttempt = (requestKey: string): { movement?: Movement; requeued: boolean } => {
    const first = deps.movements.byRequestKey(requestKey);
    if (first === undefined || !heldBack(first) || !deps.team?.active())
      return first ? { movement: first, requeued: false } : { requeued: false };
    const later = deps.movements.byRequestKey(localAttemptKey(deps.movements, requestKey));
    return later ? { movement: later, requeued: false } : { requeued: true };
  };

  /**
   * A row this desk would show `failed`, in a team: the team's movement decides while it is open or
   * cannot be asked (another desk may be sending it; an operator seeing `failed` would send it again),
   * and shows `done` if another desk sent it. Undefined: the failure stands (alone, the team's
   * movement final-failed, or never in the team journal).
   */
  const teamOverFailure = async (requestKey: string): Promise<RowOutcome | undefined> => {
    if (!deps.team?.active()) return undefined;
    const team = await deps.team.movementNow(requestKey);
    if (team.state === 'open') return { state: 'checking', message: FOLLOWING_TEAM_MESSAGE };
    if (team.state === 'unknown') return { state: 'checking', message: TEAM_NOT_ASKED_MESSAGE };
    return team.state === 'final' && team.movement.state === 'done' ? teamOutcome(team.movement) : undefined;
  };

  /** A failed outcome, unless the team's movement says otherwise (teamOverFailure). */
  const unlessTeamOpen = async (outcome: RowOutcome, requestKey: string): Promise<RowOutcome> =>
    outcome.state === 'failed' ? ((await teamOverFailure(requestKey)) ?? outcome) : outcome;

  const lookup = async (requestKey: string, followed: boolean): Promise<RowOutcome | undefined> => {
    const own = ownAttempt(requestKey);
    if (own.movement) return unlessTeamOpen(movementOutcome(own.movement), requestKey);
    const team = await deps.team?.movementNow(requestKey);
    if (team?.state === 'final') return teamOutcome(team.movement);
    if (own.requeued) return REQUEUED;
    // A row followed while the team could not be asked (teamOverFailure) is settled here once it answers.
    return followed && team?.state === 'absent' && deps.team?.active()
      ? { state: 'failed', message: NEVER_IN_TEAM_MESSAGE }
      : undefined;
  };

  /** A row's call failed: what the journals say of it, or why nothing was sent (and whether to retry). */
  const rowFailure = async (error: unknown, requestKey: string): Promise<RowOutcome> => {
    const own = ownAttempt(requestKey);
    // Given back to the team's queue: whatever this call met, the team's movement decides.
    if (own.requeued) return (await lookup(requestKey, false)) ?? REQUEUED;
    return unlessTeamOpen(localFailure(error, own.movement), requestKey);
  };

  /** What this desk alone knows of a failed call: its journaled attempt, or why nothing was sent. */
  const localFailure = (error: unknown, journaled: Movement | undefined): RowOutcome => {
    const detail =
      error instanceof DeskFailure ? error.detail : isConvertibleToIpcError(error) ? error.toIpcError() : undefined;
    if (journaled && journaled.state !== 'failed') return movementOutcome(journaled);
    if (detail === undefined) {
      const message =
        error instanceof Error && error.name === 'ZodError'
          ? 'The row does not fit the operation’s rules.'
          : 'Unexpected error.';
      return journaled ? movementOutcome(journaled) : { state: 'failed', message };
    }
    if (detail.code === 'OUTCOME_UNKNOWN' || detail.delivery === 'unknown') {
      return journaled ? movementOutcome(journaled) : { state: 'checking', message: detail.message };
    }
    if (!journaled && RETRY_CODES.has(detail.code)) return { state: 'retry', message: detail.message };
    return {
      ...(journaled ? movementOutcome(journaled) : {}),
      state: 'failed',
      ...(detail.label ? { label: detail.label } : {}),
      message: detail.message,
    };
  };

  return {
    lookup,
    execute: async (input, requestKey, batchId, rowNo) => {
      const { kind, request } = commandOf(input);
      try {
        const result = await deps.commands.submit(kind, request as never, {
          requestKey,
          origin: deps.originOf(batchId, rowNo),
        });
        if (result.state === 'done') return movementOutcome(result.movement);
        if (result.movement !== undefined && !(heldBack(result.movement) && deps.team?.active()))
          return unlessTeamOpen(movementOutcome(result.movement), requestKey);
        if (result.state === 'refused') throw result.failure;
        return { state: 'checking', message: result.failure.message };
      } catch (error) {
        return rowFailure(error, requestKey);
      }
    },
  };
};
