/**
 * Sending the team's movements, exactly once across desks (docs/team.md, "Exactly once across desks").
 *
 * A desk that holds the active profile's key and is its **sender** (team/senders.ts: one desk per
 * account at a time, so one client spends the account's rate limits) claims the profile's movements
 * that are ready — approved, or needing no approval — and those whose holder's lease ran out:
 *
 *   claim (lease + fencing token) → verify the signature chain → journal `sent` (team) → the local
 *   movement engine journals and sends it with the maker's signed client id → the answer, or the
 *   platform's lookup by client id, settles it → written back to the team journal
 *
 * A claim that says `lookUp` (its previous holder journaled `sent` and stopped) is journaled locally
 * as sent with its answer lost, so the engine looks it up before anything else and sends it again,
 * with the same id, only once the platform proves it absent. While the engine follows a movement
 * this desk renews its lease; the answer is written back whenever the team database can take it
 * (kept and retried while it is away: a movement already claimed here finishes either way).
 */
import Decimal from 'decimal.js';

import { DeskFailure } from '../errors';
import type { AuditLog } from '../journal/types';
import type { MovementParams } from '../movements/registry';
import type { Movement, MovementResult, Movements } from '../movements/types';
import { BACKGROUND, type Scheduler, type Service, type Timer } from '../scheduler';
import {
  type Claim,
  DEFAULT_LEASE_MS,
  LeaseLost,
  type MovementRequest,
  type OpenTeam,
  TeamUnavailable,
  verifyMovement,
} from '../team';
import type { TeamDesk } from './desk';

/** What the platform's answer (or its lookup) made of a movement, as the team journal keeps it. */
type Outcome = {
  readonly state: 'done' | 'failed';
  readonly platformId?: string;
  readonly label?: string;
  readonly message?: string;
};

export interface TeamSenderDeps {
  readonly desk: TeamDesk;
  /** The local movement engine (the desk's own journal: it sends and looks up). */
  readonly movements: Movements;
  readonly scheduler: Scheduler;
  readonly audit: AuditLog;
  /** Whether this desk can send for the active profile now (connected, not locked). */
  readonly canSend: () => boolean;
  /** A movement's lease (default 30 s); renewed every third of it while the engine follows it. */
  readonly leaseMs?: number;
  /**
   * Claims processed at once (default 4). Their requests queue in the limiter: POST /withdrawals
   * allows one per 3 s, so four wait at most 12 s, within a request's 15 s timeout; more would be
   * held back unsent (and given back to the queue). More than one keeps sending while another
   * movement's lost answer is being looked up.
   */
  readonly concurrency?: number;
  readonly logError?: (what: string, error: unknown) => void;
}

/** A movement this desk journaled `sent` and still follows: its claim (renewed) until its answer is written back. */
interface Held {
  claim: Claim | undefined;
}

/** The engine's outcome of a local movement once it is final. */
const outcomeOf = (m: Movement): Outcome | undefined =>
  m.state === 'done'
    ? { state: 'done', ...(m.platformId ? { platformId: m.platformId } : {}) }
    : m.state === 'failed'
      ? { state: 'failed', ...(m.label ? { label: m.label } : {}), ...(m.message ? { message: m.message } : {}) }
      : undefined;

/**
 * A local attempt this desk's own rate limiter held back past the request's timeout: it failed
 * without leaving the desk (api/client.ts RATE_LIMIT_WAIT), so the team movement is not failed but
 * given back to be sent again.
 */
export const heldBack = (m: Movement | undefined): boolean => m?.state === 'failed' && m.label === 'RATE_LIMIT_WAIT';

/** What a maker (and a batch row) is told of a movement given back after its attempt was held back. */
export const REQUEUED_MESSAGE = 'Not sent yet: the account’s rate limit is busy. The team sends it shortly, once.';

/**
 * This desk's journal key for a team movement's current attempt: the maker's request key, then
 * `key#2`, `key#3`… after attempts its own rate limiter held back (failed locally, never sent), so
 * the next one is journaled anew rather than joining that failure. Any other attempt is the one the
 * engine follows (and looks up before sending again): never a second key beside it.
 */
export const localAttemptKey = (movements: Pick<Movements, 'byRequestKey'>, requestKey: string): string => {
  let key = requestKey;
  for (let attempt = 2; heldBack(movements.byRequestKey(key)); attempt++) key = `${requestKey}#${attempt}`;
  return key;
};

/** Nothing was sent: `POLICY` for what never will be (it did not verify), `PRECONDITION` for what another desk sends. */
const refused = (message: string, advice: string, code: 'POLICY' | 'PRECONDITION' = 'POLICY'): MovementResult => ({
  state: 'refused',
  failure: new DeskFailure({ code, delivery: 'not_sent', message, advice }),
});

/**
 * Whether a verified request carries fewer approvals than its own policy asks of its signed facts
 * (its USDT value, a UID transfer): a maker's desk cannot lower what needs an approver.
 */
const missingApproval = (request: MovementRequest, policy: unknown): string | undefined => {
  const rules = (policy as { approval?: { aboveUsdt?: string; anyPush?: boolean } } | undefined)?.approval;
  // The policy's approval rules are about money leaving the firm: withdrawals and UID transfers.
  if (
    rules === undefined ||
    request.approvalsRequired > 0 ||
    (request.kind !== 'withdrawal' && request.kind !== 'push')
  )
    return undefined;
  if (rules.anyPush && request.kind === 'push')
    return 'its policy has every UID transfer approved, and it carries no approval';
  if (
    rules.aboveUsdt !== undefined &&
    (request.usdtValue === undefined || new Decimal(request.usdtValue).greaterThan(rules.aboveUsdt))
  )
    return 'its policy has it approved (its USDT value), and it carries no approval';
  return undefined;
};

export class TeamSender implements Service {
  private readonly leaseMs: number;
  private readonly concurrency: number;
  /**
   * Movements this desk journaled `sent` and whose answer is not written back yet, by team id: their
   * leases are renewed from `sent` on (a request may wait in the limiter's queue) until the answer.
   */
  private readonly held = new Map<string, Held>();
  /** The team id of each local movement the engine still follows. */
  private readonly byLocal = new Map<string, string>();
  /** Answers the team database could not take yet, by team movement id. */
  private readonly writeBacks = new Map<string, { outcome: Outcome; token: number | undefined }>();
  private timer: Timer | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private sending: string | undefined;
  private stopped = false;

  constructor(private readonly deps: TeamSenderDeps) {
    this.leaseMs = deps.leaseMs ?? DEFAULT_LEASE_MS;
    this.concurrency = deps.concurrency ?? 4;
  }

  start(): void {
    this.timer = this.deps.scheduler.setInterval(() => this.tick(), Math.max(200, this.leaseMs / 3), BACKGROUND);
    this.deps.desk.onChange((change) => {
      if (change.kind === 'movement.changed' || change.kind === 'approval.prepared') this.poke();
    });
    this.deps.desk.onOpen(() => this.poke());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.timer?.cancel();
    await this.running;
    const team = this.deps.desk.current();
    if (team !== undefined && this.sending !== undefined)
      await team.senders.release(this.sending).catch(() => undefined);
  }

  /** Looks for work now (a change was heard, a profile connected, the app unlocked). */
  poke(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.deps.scheduler.track(
      this.pass().finally(() => {
        this.running = undefined;
      }),
    );
  }

  /**
   * Sends, now, a movement the maker just prepared here already claimed (it needs no approval and
   * this desk holds the key): the maker's call gets the engine's answer, as in solo mode.
   */
  async sendClaimed(claim: Claim): Promise<MovementResult> {
    const team = this.deps.desk.require();
    const result = await this.process(team, claim);
    if (!heldBack(result.movement)) return result;
    // Given back to the team's queue (nothing left): it is sent shortly, not failed.
    return {
      state: 'unknown',
      failure: new DeskFailure({
        code: 'OUTCOME_UNKNOWN',
        delivery: 'not_sent',
        message: REQUEUED_MESSAGE,
        advice: 'Follow it in Activity; do not send it again.',
      }),
    };
  }

  /** The local engine settled a movement: its answer goes back to the team journal. */
  localChanged(movement: Movement): void {
    const teamId = this.byLocal.get(movement.id);
    const outcome = outcomeOf(movement);
    if (teamId === undefined || outcome === undefined) return;
    this.byLocal.delete(movement.id);
    void this.deps.scheduler.track(this.finish(teamId, outcome));
  }

  /** Renews the leases of what the engine follows, retries the answers kept back, looks for work. */
  private tick(): void {
    const team = this.deps.desk.current();
    if (team === undefined || team.db.health().state !== 'connected') return;
    void this.deps.scheduler.track(this.maintain(team));
    this.poke();
  }

  private async maintain(team: OpenTeam): Promise<void> {
    for (const held of this.held.values()) {
      const claim = held.claim;
      if (claim === undefined) continue;
      try {
        await team.movements.renew(claim, this.leaseMs);
      } catch (error) {
        // Another desk may hold it now (it looks it up first); the answer is still written back here.
        if (error instanceof LeaseLost) held.claim = undefined;
        else if (!(error instanceof TeamUnavailable)) this.deps.logError?.('team.renew', error);
        if (error instanceof TeamUnavailable) return;
      }
    }
    for (const [id, kept] of [...this.writeBacks]) {
      this.writeBacks.delete(id);
      await this.writeBack(id, kept.outcome, kept.token);
    }
  }

  private async pass(): Promise<void> {
    do {
      this.again = false;
      const team = this.deps.desk.current();
      const profile = this.deps.desk.teamProfile();
      if (team === undefined || team.db.health().state !== 'connected') return;
      try {
        if (profile === undefined || !this.deps.canSend()) {
          // Locked, signed out or not connected: another desk that holds the key takes over at once.
          if (this.sending !== undefined) await team.senders.release(this.sending);
          this.sending = undefined;
          return;
        }
        if (!(await team.senders.acquire(profile, this.leaseMs))) return;
        this.sending = profile;
        await Promise.all(
          Array.from({ length: this.concurrency }, async () => {
            for (;;) {
              if (this.stopped || !this.deps.canSend()) return;
              const claim = await team.movements.claim([profile], this.leaseMs);
              if (claim === undefined) return;
              const result = await this.process(team, claim);
              // The limiter is saturated (a 429 pause, slow answers): try again at the next tick.
              if (heldBack(result.movement)) return;
            }
          }),
        );
      } catch (error) {
        if (!(error instanceof TeamUnavailable)) this.deps.logError?.('team.send', error);
        return;
      }
    } while (this.again && !this.stopped);
  }

  /** One claim: verify, journal `sent`, send (or look up) through the local engine, follow it. */
  private async process(team: OpenTeam, claim: Claim): Promise<MovementResult> {
    const state = team.state();
    const profile = this.deps.desk.policyOf(claim.evidence.columns.profileId);
    const coolingOffHours = profile?.policy.approval.operatorCoolingOffHours;
    const verdict = verifyMovement(state, claim.evidence, {
      now: this.deps.scheduler.wallNow(),
      ignoreExpiry: claim.action === 'lookUp',
      ...(coolingOffHours !== undefined ? { coolingOffMs: coolingOffHours * 3_600_000 } : {}),
    });
    const problem = verdict.ok ? missingApproval(verdict.request, verdict.policy.policy) : verdict.problem;
    const tampered = verdict.ok ? problem !== undefined : verdict.cause === 'tampered';
    if (problem !== undefined) {
      this.deps.audit.record({
        action: 'team.movementRefused',
        params: { movement: claim.movementId, problem },
        outcome: 'error',
        label: tampered ? 'TAMPERED' : 'POLICY',
      });
      if (claim.action === 'lookUp') {
        // Journaled sent by another desk: it may have executed, so it is not settled as failed; it
        // waits for a person (its lease runs out again) and every desk shows why.
        this.deps.logError?.('team.lookUp', new Error(`movement ${claim.movementId} does not verify: ${problem}`));
        return refused(`Not sent again: ${problem}.`, 'An administrator checks the team database.');
      }
      if (tampered) {
        await team.movements.block(claim, problem);
        void this.deps.desk.refresh();
        return refused(
          `Not sent: ${problem}. Every desk of the team shows this.`,
          'An administrator checks the team database (docs/team.md, "Recovery").',
        );
      }
      await team.movements.settle(
        claim.movementId,
        { state: 'failed', label: 'NOT_SENT', message: problem },
        claim.token,
      );
      return refused(`Not sent: ${problem}.`, 'Prepare it again if it is still needed.');
    }
    const request = (verdict as { request: MovementRequest }).request;
    if (claim.action === 'send') {
      try {
        await team.movements.markSent(claim);
      } catch (error) {
        if (error instanceof LeaseLost)
          return refused(error.message, 'Another desk of the team sends it; follow it in Approvals.', 'PRECONDITION');
        throw error;
      }
    }
    this.held.set(claim.movementId, { claim });
    const requestKey = localAttemptKey(this.deps.movements, request.requestKey);
    const elsewhere = claim.action === 'lookUp' && this.deps.movements.byRequestKey(requestKey) === undefined;
    const kind = request.kind as keyof MovementParams;
    let result: MovementResult;
    try {
      result = await this.deps.movements.execute(kind, request.params as never, {
        requestKey,
        clientId: request.clientId,
        origin: `team movement ${request.movementId}, prepared by ${state.operator(request.maker)?.name ?? request.maker}`,
        ...(elsewhere ? { sentElsewhere: true } : {}),
      });
    } catch (error) {
      // Its lease lapses: the next holder (this desk or another) looks it up before anything else.
      this.held.delete(claim.movementId);
      throw error;
    }
    const outcome = result.movement ? outcomeOf(result.movement) : undefined;
    if (heldBack(result.movement)) {
      this.held.delete(claim.movementId);
      await team.movements.requeue(claim).catch((error) => {
        // Another desk took it over (it looks it up first), or the database is away: its lease lapses.
        if (!(error instanceof LeaseLost) && !(error instanceof TeamUnavailable)) throw error;
      });
    } else if (outcome !== undefined) await this.finish(claim.movementId, outcome);
    else if (result.state === 'refused') {
      // Stopped before anything was journaled here (not connected, the local journal unwritable):
      // nothing left this desk, and it is settled as not sent (the maker prepares it again).
      await this.finish(claim.movementId, { state: 'failed', label: 'NOT_SENT', message: result.failure.message });
    } else {
      const local = result.movement ?? this.deps.movements.byRequestKey(requestKey);
      if (local !== undefined) {
        this.byLocal.set(local.id, claim.movementId);
        // It may have settled between the engine's answer and now.
        const now = this.deps.movements.get(local.id);
        if (now !== undefined) this.localChanged(now);
      }
    }
    return result;
  }

  /** The answer of a movement held here: written back (or kept until the database takes it); the lease lapses. */
  private async finish(teamId: string, outcome: Outcome): Promise<void> {
    const token = this.held.get(teamId)?.claim?.token;
    this.held.delete(teamId);
    await this.writeBack(teamId, outcome, token);
  }

  private async writeBack(teamId: string, outcome: Outcome, token: number | undefined): Promise<void> {
    const team = this.deps.desk.current();
    try {
      if (team === undefined) throw new TeamUnavailable('not open');
      await team.movements.settle(teamId, outcome, token);
    } catch (error) {
      if (error instanceof TeamUnavailable) this.writeBacks.set(teamId, { outcome, token });
      else this.deps.logError?.('team.writeBack', error);
    }
  }
}
