/**
 * The movement engine: one state machine, one settler, one scheduler for every kind of movement
 * (withdrawals, UID pushes, transfers, spot orders). What differs per kind — how to send it, how to
 * find it by its client id, how to call it — is its adapter (adapters/<kind>.ts, registry.ts); the
 * rows are read and written by the journal's repository (journal/intents.ts). Order of events:
 *   1. the intent (kind, parameters, its client id) is written to SQLite (synchronous=FULL) —
 *      nothing has been sent;
 *   2. state `sent` with the request id, then the adapter sends it;
 *   3. what the attempt did settles it: done → `done`; refused → `failed` with the label; unknown
 *      (timeout, cut, 5xx) → `unknown`, and the adapter asks the platform by the client id (or, for
 *      kinds without one, lists candidates the engine claims in the lookup window). Found → `done`.
 *      Proven absent → sent again with the SAME id (kinds that allow it), else `failed`. Never
 *      resent while the answer is merely missing.
 * On start, every few seconds while any is open, and on every profile switch, open intents are
 * settled by the same settler.
 *
 * Time: within one process every wait and every "how long ago" (the settle wait, the resend
 * window) is measured on the scheduler's monotonic clock, so neither a step of the computer's
 * clock nor a jump of the platform's moves them; the platform's clock is read only where it is
 * compared with the platform's record times (the lookup window) and to carry an intent's age across
 * a restart (recorded on the intent; the computer's clock may have been stepped meanwhile). What
 * "proven absent" means for each kind is written in docs/core.md.
 *
 * A journal write the disk refuses (full, read-only) never becomes a generic error: nothing new is
 * accepted until the journal can be written again, and a movement caught in the middle is reported
 * as "may still go out / went out, being followed" (OUTCOME_UNKNOWN).
 *
 * Results are values (`execute` → done | unknown | refused); the kind-named methods (`withdraw`, …)
 * unwrap them for callers that prefer a rejection.
 */
import { randomUUID } from 'node:crypto';
import { AMBIGUOUS_RECORD } from '../../shared/contract/activity';
import { DUPLICATE_REQUEST_LABELS } from '../../shared/platform/labels';
import { ApiError } from '../api/apiError';
import { newRequestId } from '../api/client';
import type { PlatformClock } from '../api/clock';
import type { PlatformApi } from '../api/platform';
import { DeskFailure } from '../errors';
import type { Db } from '../journal/db';
import { IntentRepository, type IntentRow, toMovement } from '../journal/intents';
import { JournalUnwritable } from '../journal/writeFailure';
import { BACKGROUND, type Scheduler, type Service, systemScheduler, type Timer } from '../scheduler';
import type { Candidate, Intent, Lookup, LookupWindow, MovementAdapter, SendResult } from './adapter';
import { adapterOf, type MovementParams } from './registry';
import type {
  Movement,
  MovementFilter,
  MovementKind,
  MovementOptions,
  MovementResult,
  MovementState,
  Movements,
} from './types';

export interface MovementEngineOptions {
  readonly db: Db;
  /** The active profile's id, or undefined before one is ready. */
  readonly profileId: () => string | undefined;
  /** The active profile's platform API (throws when not connected). */
  readonly platform: () => PlatformApi;
  readonly onChange: (movement: Movement) => void;
  /**
   * Time: its monotonic clock for every wait and age within this process, its wall clock for what
   * is stored to be shown (`createdAt`), its timers for the background checks (default: the system's).
   */
  readonly scheduler?: Scheduler;
  /**
   * How long after the last send a missing record counts as "never executed" (the request can no
   * longer arrive). Default 20 s.
   */
  readonly settleMs?: number;
  /** Sends per movement before giving up (each after proving the previous did nothing). Default 6. */
  readonly maxAttempts?: number;
  /** A movement older than this that proves never executed is abandoned, not sent (default 10 min). */
  readonly resendWindowMs?: number;
  /** How often open intents are re-checked in the background (default 3 s; 0 = never). */
  readonly backgroundMs?: number;
  readonly log?: (message: string) => void;
}

/**
 * The platform refuses a request whose Timestamp is more than this from its own time
 * (spec: "must be within 60 seconds of server time").
 */
const SIGNATURE_WINDOW_S = 60;
/** Our reading of the platform's clock is good to about this (round trip, whole seconds). */
const CLOCK_MARGIN_S = 5;
/** Journals written before the platform time was recorded: their window is widened this much. */
const LEGACY_DOUBT_S = 15 * 60;

const lookupWindow = (row: IntentRow, clock: PlatformClock): LookupWindow => {
  const recorded = row.earliest_platform_ms !== null;
  const anchorSec = Math.floor(
    (recorded ? (row.earliest_platform_ms as number) : row.created_at + clock.offsetMs) / 1000,
  );
  const tightFromSec = anchorSec - CLOCK_MARGIN_S;
  return {
    anchorSec,
    tightFromSec,
    fromSec: tightFromSec - (recorded ? SIGNATURE_WINDOW_S : LEGACY_DOUBT_S),
    nowSec: Math.floor(clock.now() / 1000),
  };
};

/**
 * How old an intent is, on the monotonic clock from an anchor: from its confirmation when this
 * process journaled it, else from the first time this process looked at it (its age then read on
 * the platform's clock, the only one that spans a restart).
 */
interface AgeAnchor {
  /** Age when anchored, ms. */
  readonly ageMs: number;
  /** Monotonic ms when anchored. */
  readonly at: number;
  /** Whether this process journaled it (else it was left by an earlier run). */
  readonly here: boolean;
  /** Across a restart: its age by this computer's clock then, to tell which clock moved. */
  readonly wallAgeMs?: number;
}

/** Minutes, for a message ("10 min"). */
const minutes = (ms: number): string => `${Math.max(1, Math.round(ms / 60_000))} min`;

/** Labels with which a platform says "you already sent this id": the first one counts. */
export const DUPLICATE_LABELS = DUPLICATE_REQUEST_LABELS;

/** What the settler makes of a lookup: the adapter's answer, or a record a person must judge. */
type Verdict = Exclude<Lookup, { state: 'candidates' }> | { state: 'ambiguous'; message: string };

const intentOf = (row: IntentRow): Intent<unknown> => ({
  id: row.id,
  kind: row.kind,
  clientId: row.client_id,
  currency: row.currency,
  amount: row.amount,
  params: JSON.parse(row.params) as unknown,
});

const describe = (row: IntentRow): string => adapterOf(row.kind).describe(intentOf(row));

export class MovementEngine implements Movements, Service {
  private readonly intents: IntentRepository;
  private readonly scheduler: Scheduler;
  private readonly settleMs: number;
  private readonly maxAttempts: number;
  private readonly resendWindowMs: number;
  private readonly backgroundMs: number;
  /** One driver per intent at a time (a user call and the background loop never race). */
  private readonly driving = new Map<string, Promise<Movement>>();
  private timer: Timer | undefined;
  private closed = false;
  /** Each intent's age on the monotonic clock (see AgeAnchor). */
  private readonly ages = new Map<string, AgeAnchor>();
  /**
   * What happened to a movement whose state the journal could not record (shown instead of the
   * journal's message until a write for it succeeds).
   */
  private readonly unrecorded = new Map<string, string>();
  /** Monotonic ms since which each intent's request may no longer arrive (this process only). */
  private readonly givenUpAt = new Map<string, number>();
  /** The refusal of a movement's last attempt, kept so every caller joined on its request key gets it. */
  private readonly lastErrors = new Map<string, Error>();
  /** The platform's record of a movement settled by its own call (handed to that call, then dropped). */
  private readonly records = new Map<string, unknown>();

  constructor(private readonly options: MovementEngineOptions) {
    this.intents = new IntentRepository(options.db, options.log);
    this.scheduler = options.scheduler ?? systemScheduler();
    this.settleMs = options.settleMs ?? 20_000;
    this.maxAttempts = options.maxAttempts ?? 6;
    this.resendWindowMs = options.resendWindowMs ?? 10 * 60_000;
    this.backgroundMs = options.backgroundMs ?? 3_000;
  }

  /** The background check: every open intent of the active profile, through the one settler. */
  start(): void {
    if (this.closed || this.timer !== undefined || this.backgroundMs <= 0) return;
    this.timer = this.scheduler.setInterval(
      () => {
        if (this.openCount() > 0) void this.reconcile().catch(() => {});
      },
      this.backgroundMs,
      BACKGROUND,
    );
  }

  /** No new round starts (a round under way ends after its current request; `idle()` waits for it). */
  stop(): void {
    this.closed = true;
    this.timer?.cancel();
    this.timer = undefined;
  }

  /** Wall-clock ms: what is stored to be shown (`createdAt`, `sentAt`, `updatedAt`). */
  private now(): number {
    return this.scheduler.wallNow();
  }

  // --- the kinds, as calls that reject (see Movements) ------------------------------------------

  withdraw(request: MovementParams['withdrawal'], options?: MovementOptions): Promise<Movement> {
    return this.execute('withdrawal', request, options).then(unwrap);
  }

  push(request: MovementParams['push'], options?: MovementOptions): Promise<Movement> {
    return this.execute('push', request, options).then(unwrap);
  }

  transfer(request: MovementParams['transfer'], options?: MovementOptions): Promise<Movement> {
    return this.execute('transfer', request, options).then(unwrap);
  }

  subAccountTransfer(request: MovementParams['subAccountTransfer'], options?: MovementOptions): Promise<Movement> {
    return this.execute('subAccountTransfer', request, options).then(unwrap);
  }

  subToSubTransfer(request: MovementParams['subToSubTransfer'], options?: MovementOptions): Promise<Movement> {
    return this.execute('subToSubTransfer', request, options).then(unwrap);
  }

  // --- the one entry point ----------------------------------------------------------------------

  async execute<K extends MovementKind>(
    kind: K,
    params: MovementParams[K],
    options: MovementOptions = {},
  ): Promise<MovementResult> {
    const adapter = adapterOf(kind);
    let id: string;
    try {
      id = await this.journal(adapter, { ...(params as object) }, options);
    } catch (error) {
      // Before anything was journaled: nothing was sent.
      if (error instanceof DeskFailure) return { state: 'refused', failure: error };
      throw error;
    }
    let movement: Movement;
    try {
      movement = await this.drive(id, true);
    } catch (error) {
      const row = this.row(id);
      if (error instanceof JournalUnwritable) {
        if (!adapter.resend && row?.state === 'prepared') {
          // It will not go out later by itself either (see the adapter's `resend`).
          return {
            state: 'refused',
            ...(row ? { movement: this.view(row) } : {}),
            failure: journalUnavailable(error.problem),
          };
        }
        return {
          state: 'unknown',
          ...(row ? { movement: this.view(row) } : {}),
          failure: new DeskFailure({
            code: 'OUTCOME_UNKNOWN',
            delivery: 'unknown',
            message:
              this.unrecorded.get(id) ?? `The ${row ? describe(row) : kind} could not be recorded: ${error.problem}.`,
            advice:
              'Do not enter it again: it is followed in Activity. Free space on the disk that holds the app’s data (or make its folder writable).',
          }),
        };
      }
      if (row === undefined) throw error;
      if (row.state === 'failed' && error instanceof DeskFailure) {
        return { state: 'refused', movement: this.view(row), failure: error };
      }
      if (row.state === 'done' || row.state === 'failed' || row.attempts === 0) throw error;
      movement = this.view(row);
    }
    const record = this.records.get(id);
    this.records.delete(id);
    if (movement.state === 'done') return { state: 'done', movement, ...(record !== undefined ? { record } : {}) };
    if (movement.state === 'failed') return { state: 'refused', movement, failure: this.failureOf(movement) };
    const row = this.row(id) as IntentRow;
    return {
      state: 'unknown',
      movement,
      failure: new DeskFailure({
        code: 'OUTCOME_UNKNOWN',
        delivery: 'unknown',
        message: `The ${describe(row)} was sent but the platform’s answer was lost; the app is checking with the platform (reference ${movement.clientId || movement.id}). It will not be sent twice.`,
        ...(movement.requestId ? { requestId: movement.requestId } : {}),
        advice: 'Wait: its status updates by itself in Activity. Do not send it again.',
      }),
    };
  }

  // --- reading and settling by hand -------------------------------------------------------------

  byRequestKey(requestKey: string): Movement | undefined {
    const row = this.intents.byRequestKey(requestKey);
    return row ? this.view(row) : undefined;
  }

  resolveManually(id: string, outcome: 'done' | 'failed', note: string): Movement {
    const row = this.row(id);
    if (row === undefined || row.profile_id !== this.options.profileId()) {
      throw DeskFailure.precondition('There is no such money movement in this profile.');
    }
    if (row.state === 'sent' && this.driving.has(id)) {
      // Its answer may still arrive and would overwrite the person's verdict.
      throw DeskFailure.precondition(
        'It is still waiting for the platform’s answer.',
        'Wait a few seconds: if the answer is lost it becomes “unknown” and can then be settled by hand.',
      );
    }
    if (row.state !== 'unknown' && row.state !== 'sent') {
      throw DeskFailure.precondition('Only a movement whose outcome is unknown can be settled by hand.');
    }
    this.update(id, {
      state: outcome,
      label: outcome === 'failed' ? 'RESOLVED_BY_HAND' : null,
      message: `Settled by hand: ${note}`,
    });
    return this.view(this.row(id) as IntentRow);
  }

  list(filter: MovementFilter = {}): Movement[] {
    const profileId = filter.profileId ?? this.options.profileId();
    if (profileId === undefined) return [];
    return this.intents.list({ ...filter, profileId }).map((r) => this.view(r));
  }

  get(id: string): Movement | undefined {
    const row = this.row(id);
    return row ? this.view(row) : undefined;
  }

  /** The request key the movement was journaled under (a team import keeps it with the movement). */
  requestKeyOf(id: string): string | undefined {
    return this.row(id)?.request_key ?? undefined;
  }

  /** Unresolved intents of the active profile. */
  openCount(): number {
    const profileId = this.options.profileId();
    return profileId === undefined ? 0 : this.intents.openCount(profileId);
  }

  /** Resolves once no movement is being sent or checked (the app lock waits for this). */
  async idle(): Promise<void> {
    while (this.driving.size > 0) await Promise.allSettled([...this.driving.values()]);
  }

  /** Settles every open intent of the active profile (the scheduler's tick, and on connect). */
  reconcile(): Promise<void> {
    return this.scheduler.track(this.settleOpen());
  }

  private async settleOpen(): Promise<void> {
    const profileId = this.options.profileId();
    if (profileId === undefined || this.closed) return;
    for (const row of this.intents.open(profileId)) {
      if (this.closed) return;
      await this.drive(row.id).catch(() => {});
    }
  }

  updatePlatformStatus(id: string, status: string): void {
    const row = this.row(id);
    if (row === undefined || row.platform_status === status) return;
    this.update(id, { platform_status: status });
  }

  // --- journaling a new intent ------------------------------------------------------------------

  /** Journals the intent (or finds the one journaled for this request key) and returns its id. */
  private async journal(
    adapter: MovementAdapter<MovementKind, unknown>,
    params: object,
    options: MovementOptions,
  ): Promise<string> {
    const kind = adapter.kind;
    const profileId = this.options.profileId();
    if (profileId === undefined) throw DeskFailure.precondition('No profile is connected.');
    const requestKey = options.requestKey ?? null;
    const paramsText = JSON.stringify(params);
    // A repeat of a confirmation already journaled (double click, re-render, retry, restart)
    // joins that movement: it is never a second one.
    const earlier = requestKey === null ? undefined : this.joinable(requestKey, profileId, kind, paramsText);
    if (earlier !== undefined) return earlier.id;
    const api = this.options.platform(); // throws PRECONDITION before anything is journaled
    this.refuseWhileUnwritable();
    // The platform's time now: lookups of this movement start from it (see IntentRow). Measured
    // first if the connection check has not yet, or this computer's clock stepped since (only then
    // does this wait).
    const earliest = api.client.clock.needsMeasuring() ? await this.measuredPlatformNow(api) : undefined;
    // A call with the same key may have journaled it during that wait.
    const joined = requestKey === null ? undefined : this.joinable(requestKey, profileId, kind, paramsText);
    if (joined !== undefined) return joined.id;
    const id = randomUUID();
    const at = this.now();
    const confirmedAt = this.scheduler.now();
    const { currency, amount } = adapter.money(params);
    const ownId = adapter.clientId(params);
    let inserted: number;
    try {
      inserted = this.intents.insert({
        id,
        profileId,
        kind,
        clientId: options.clientId !== undefined && ownId !== '' ? options.clientId : ownId,
        currency,
        amount,
        params: paramsText,
        at,
        requestKey,
        earliestPlatformMs: earliest ?? api.client.clock.now(),
        origin: options.origin ?? '',
      });
    } catch (error) {
      throw error instanceof JournalUnwritable ? journalUnavailable(error.problem) : error;
    }
    if (inserted === 0 && requestKey !== null) {
      return (this.joinable(requestKey, profileId, kind, paramsText) as IntentRow).id;
    }
    this.ages.set(id, { ageMs: 0, at: confirmedAt, here: true });
    if (options.sentElsewhere) {
      // Its request may have left from another desk just now: "absent" proves nothing until settleMs
      // from here, and it is looked up before anything is sent.
      this.markGivenUp(id);
      this.update(id, { state: 'unknown', attempts: 1, sent_at: at, sent_platform_ms: this.platformNowMs() ?? null });
      return id;
    }
    this.changed(id);
    return id;
  }

  /**
   * The intent journaled earlier for this request key, when it is the same movement. A key reused
   * for something else (another profile, another amount or address) is refused: the screen makes a
   * new key whenever what is confirmed changes, so this is a bug or tampering, never a person.
   */
  private joinable(
    requestKey: string,
    profileId: string,
    kind: MovementKind,
    paramsText: string,
  ): IntentRow | undefined {
    const row = this.intents.byRequestKey(requestKey);
    if (row === undefined) return undefined;
    if (row.profile_id !== profileId) {
      throw DeskFailure.precondition(
        'This confirmation was already used in another profile.',
        'Review the movement again in this profile if you still want it.',
      );
    }
    if (row.kind !== kind || row.params !== paramsText) {
      throw new DeskFailure({
        code: 'INVALID_INPUT',
        delivery: 'not_sent',
        message: 'This confirmation belongs to a different movement; nothing was sent.',
        advice: 'Review the movement again and confirm it.',
      });
    }
    return row;
  }

  /** Measures the platform's clock (nothing is journaled if it cannot be read) and returns its time. */
  private async measuredPlatformNow(api: PlatformApi): Promise<number> {
    try {
      await api.client.syncClock();
    } catch (error) {
      throw DeskFailure.precondition(
        `Nothing was sent: the platform’s clock could not be read (${(error as Error).message}).`,
        'Check the connection and confirm again.',
      );
    }
    return api.client.clock.now();
  }

  /** Refuses a new movement while the journal cannot be written (after trying a write once more). */
  private refuseWhileUnwritable(): void {
    if (this.intents.unwritable === undefined) return;
    try {
      this.intents.probe(this.now());
    } catch (error) {
      throw error instanceof JournalUnwritable ? journalUnavailable(error.problem) : error;
    }
  }

  private failureOf(movement: Movement): Error {
    // Kept (not deleted) so every caller joined on the same request key gets the same error.
    const last = this.lastErrors.get(movement.id);
    if (last) return last;
    return new DeskFailure({
      code: 'PLATFORM',
      delivery: 'not_sent',
      message: movement.message ?? 'The platform refused it.',
      ...(movement.label ? { label: movement.label } : {}),
      ...(movement.requestId ? { requestId: movement.requestId } : {}),
    });
  }

  // --- the settler ------------------------------------------------------------------------------

  private drive(id: string, interactive = false): Promise<Movement> {
    const running = this.driving.get(id);
    if (running) return running;
    const promise = this.scheduler.track(this.settle(id, interactive).finally(() => this.driving.delete(id)));
    this.driving.set(id, promise);
    return promise;
  }

  /**
   * Brings one intent as far as it can go now. `interactive`: driven by the call that asked for it
   * (it waits a little for a lookup to answer; only it may send a kind that is never sent late).
   */
  private async settle(id: string, interactive: boolean): Promise<Movement> {
    for (let round = 0; round < this.maxAttempts * 3 && !this.closed; round++) {
      const row = this.row(id);
      if (row === undefined) throw new Error(`no intent ${id}`);
      if (row.state === 'done' || row.state === 'failed') return this.view(row);
      const adapter = adapterOf(row.kind);
      // Never send or look up an intent through another profile's connection (a switch happened
      // meanwhile): it waits, unresolved, until its profile is active again.
      if (row.profile_id !== this.options.profileId()) {
        if (row.state === 'sent') this.update(id, { state: 'unknown' });
        return this.view(this.row(id) as IntentRow);
      }

      if (row.state === 'prepared') {
        // Never left (the app stopped, or the journal could not record it as sent). Too late to
        // send it now on its own; and a kind never sent late goes only with its own call.
        const ownCall = interactive && row.attempts === 0;
        const tooLate = this.ageMs(row) > this.resendWindowMs;
        if (tooLate || (!adapter.resend && !ownCall)) this.update(id, this.neverSent(row, tooLate));
        else await this.send(row, adapter, interactive);
        continue;
      }

      // sent (a crash or a lost answer) or unknown: ask the platform.
      // `sent` here means the process that sent it died: the request left at the latest then, so
      // the settle time runs from now (sent_at was written before it queued in the limiter).
      if (row.state === 'sent') {
        this.markGivenUp(id);
        this.update(id, { state: 'unknown', sent_at: this.now(), sent_platform_ms: this.platformNowMs() ?? null });
      }
      const verdict = await this.lookup(row, adapter);
      if (verdict.state === 'ambiguous') {
        // A record that may be this one cannot be told apart from someone else's: sending again
        // could double it, claiming it could hide a loss. A person decides (Activity → Needs a person).
        const current = this.row(id);
        if (current?.state === 'unknown' && current.message !== verdict.message) {
          this.update(id, { label: AMBIGUOUS_RECORD, message: verdict.message });
        }
        return this.view(this.row(id) as IntentRow);
      }
      if (verdict.state === 'unknown') {
        if (verdict.platformStatus !== undefined) {
          // Known to the platform, but not as done: shown while the app keeps checking.
          const current = this.row(id);
          if (current && (current.platform_status !== verdict.platformStatus || current.message === null)) {
            this.update(id, {
              platform_status: verdict.platformStatus,
              ...(verdict.message ? { message: verdict.message } : {}),
            });
          }
        }
        this.options.log?.(`movement ${id}: still unknown (${verdict.reason})`);
        if (!interactive) return this.view(this.row(id) as IntentRow);
        await this.scheduler.sleep(300);
        if (round >= 4) return this.view(this.row(id) as IntentRow);
        continue;
      }
      if (verdict.state === 'found') {
        // Claimed atomically: two identical intents settled at once must not take the same record
        // (if another took it meanwhile, the next round looks again).
        if (this.claim(row, verdict.platformId, verdict.status) && interactive && verdict.record !== undefined) {
          this.records.set(id, verdict.record);
        }
        continue;
      }
      // Proven absent: never executed. (Unless a person settled it by hand during the lookup.)
      const current = this.row(id);
      if (current?.state !== 'unknown') continue;
      if (current.label !== null && DUPLICATE_LABELS.has(current.label)) {
        // The platform said it HAS this id, yet its records do not show it: absence proves
        // nothing. Never resend, never call it failed: keep checking and ask a person.
        const message =
          'The platform said it already has this request, but its records do not show it yet. Check the platform’s records and settle it by hand if it does not appear.';
        if (current.message !== message) this.update(id, { message });
        return this.view(this.row(id) as IntentRow);
      }
      if (!adapter.resend) {
        this.update(id, {
          state: 'failed',
          label: 'NEVER_EXECUTED',
          message: `The platform has no such ${describe(row)}: it was not executed, and the app does not send it again.`,
        });
        continue;
      }
      if (row.attempts >= this.maxAttempts) {
        this.update(id, {
          state: 'failed',
          label: 'NEVER_EXECUTED',
          message: `Not executed after ${row.attempts} attempts; nothing left the account.`,
        });
        continue;
      }
      if (this.ageMs(row) > this.resendWindowMs) {
        this.update(id, this.tooLateToResend(row));
        continue;
      }
      await this.send(row, adapter, interactive);
    }
    return this.view(this.row(id) as IntentRow);
  }

  /** Puts the intent on the wire once (same client id as every earlier attempt). */
  private async send(
    row: IntentRow,
    adapter: MovementAdapter<MovementKind, unknown>,
    interactive: boolean,
  ): Promise<void> {
    const requestId = newRequestId();
    let api: PlatformApi;
    try {
      api = this.options.platform();
    } catch (error) {
      // Not connected: nothing left. A first attempt fails for good (the person may send it again
      // once connected); a later one stays unknown until the platform can be asked.
      if (row.attempts === 0) {
        this.update(row.id, {
          state: 'failed',
          label: 'NOT_CONNECTED',
          message: 'Not sent: the app was not connected.',
        });
      } else {
        this.update(row.id, { state: 'unknown' });
      }
      throw error;
    }
    // On disk before the request leaves: a crash from here on is settled by asking the platform.
    // Only if nobody settled it meanwhile (a person by hand, while this driver was looking it up).
    let claimed: boolean;
    try {
      claimed = this.intents.markSent(row, requestId, this.now());
    } catch (error) {
      if (error instanceof JournalUnwritable) this.noteUnrecorded(row.id, this.notSentYet(row, adapter, error.problem));
      throw error;
    }
    if (!claimed) return;
    this.unrecorded.delete(row.id);
    this.changed(row.id);
    // The earliest Timestamp any attempt was signed with (the client re-signs after REQUEST_EXPIRED).
    let earliest = row.earliest_platform_ms;
    const onSigned = (timestampSec: number) => {
      const ms = timestampSec * 1000;
      if (earliest !== null && ms >= earliest) return;
      earliest = ms;
      // Throws when the journal cannot be written: that attempt is then not sent.
      this.intents.lowerEarliest(row.id, ms);
    };
    let result: SendResult;
    try {
      result = await adapter.send(api, intentOf(row), { requestId, onSigned });
    } catch (error) {
      // The adapters answer with values; what is thrown is the journal's (or a bug).
      this.recordFailedAttempt(row, adapter, error);
      return;
    }
    if (result.state !== 'done') {
      this.recordFailedAttempt(row, adapter, result.error);
      return;
    }
    try {
      this.update(row.id, {
        state: 'done',
        platform_id: result.platformId,
        ...(result.status ? { platform_status: result.status } : {}),
        label: null,
        message: null,
      });
      if (interactive && result.record !== undefined) this.records.set(row.id, result.record);
    } catch (error) {
      if (error instanceof JournalUnwritable) {
        this.markGivenUp(row.id);
        this.noteUnrecorded(
          row.id,
          `The platform accepted it (id ${result.platformId}), but ${error.problem} and the app could not record that yet. It will not be sent again; it is recorded as soon as the journal can be written.`,
        );
      }
      throw error;
    }
  }

  /** Records what a failed attempt means: refused (failed), or unknown and to be looked up. */
  private recordFailedAttempt(row: IntentRow, adapter: MovementAdapter<MovementKind, unknown>, error: unknown): void {
    // The request left at the latest now (it may have waited in the limiter or been retried
    // after a 429): a lookup may call it absent only settleMs after this.
    const gaveUpAt = this.now();
    this.markGivenUp(row.id);
    const givenUp = { sent_at: gaveUpAt, sent_platform_ms: this.platformNowMs() ?? null };
    try {
      if (error instanceof JournalUnwritable) {
        // The signed time could not be recorded, so that attempt was not sent; it stays `sent`
        // on disk and is looked up (and proven absent) like any orphan.
        this.noteUnrecorded(row.id, this.notSentYet(row, adapter, error.problem));
        throw error;
      }
      if (!(error instanceof ApiError)) {
        this.update(row.id, { state: 'unknown', ...givenUp, message: (error as Error).message });
        return;
      }
      const answered = { ...givenUp, ...(error.requestId ? { request_id: error.requestId } : {}) };
      const isRetry = row.attempts > 0;
      if (error.kind === 'platform' && DUPLICATE_LABELS.has(error.label)) {
        // The platform already has this id: an earlier attempt went through. Look it up. The label
        // stays: from now on "not found" cannot mean "never executed" (see settle).
        this.update(row.id, {
          state: 'unknown',
          ...answered,
          label: error.label,
          message: 'The platform says it already has this request; looking it up.',
        });
        return;
      }
      if (error.delivery === 'not-executed' && error.kind === 'platform') {
        // Refused before anything happened (4xx, or 429 after the client's own retries). A 429 is
        // waited out and the movement resent with the same id, except for kinds never sent late.
        if ((error.status === 429 && adapter.resend) || (isRetry && error.status === 401)) {
          this.update(row.id, { state: 'unknown', ...answered, label: error.label, message: error.message });
          return;
        }
        this.lastErrors.set(row.id, error);
        this.update(row.id, { state: 'failed', label: error.label, message: error.message });
        return;
      }
      if (error.delivery === 'not-executed' && !isRetry) {
        // Could not connect at all on the first attempt: nothing was sent.
        this.lastErrors.set(row.id, error);
        this.update(row.id, { state: 'failed', label: error.label, message: error.message });
        return;
      }
      this.update(row.id, { state: 'unknown', ...answered, label: error.label, message: error.message });
    } catch (writeError) {
      if (writeError instanceof JournalUnwritable && writeError !== error) {
        this.noteUnrecorded(
          row.id,
          `It was sent, but ${writeError.problem} and the app could not record the platform’s answer. It is being followed and will not be sent twice.`,
        );
      }
      throw writeError;
    }
  }

  private notSentYet(row: IntentRow, adapter: MovementAdapter<MovementKind, unknown>, problem: string): string {
    if (!adapter.resend) {
      return `Not sent: ${problem}, and the app records ${article(describe(row))} as sent before sending it. It will not be sent later; place it again once the journal can be written.`;
    }
    return `Not sent yet: ${problem}, and the app records a movement as sent before sending it. It goes out by itself once the journal can be written again, within ${Math.round(this.resendWindowMs / 60_000)} minutes of being confirmed; after that it is cancelled.`;
  }

  /** Shows what happened to a movement whose state the journal could not record. */
  private noteUnrecorded(id: string, note: string): void {
    this.unrecorded.set(id, note);
    this.changed(id);
  }

  /** From now on a late arrival of this intent's last request becomes unlikely (see absentOnceSettled). */
  private markGivenUp(id: string): void {
    this.givenUpAt.set(id, this.scheduler.now());
  }

  /**
   * How long ago the movement was confirmed, on the monotonic clock (see AgeAnchor): a step of the
   * computer's clock or a jump of the platform's during this run changes nothing. Only an intent
   * left by an earlier run is aged once on the platform's clock (recorded on it), when first seen.
   */
  private ageMs(row: IntentRow): number {
    let anchor = this.ages.get(row.id);
    if (anchor === undefined) {
      const platformNow = this.platformNowMs();
      const wallAgeMs = this.now() - row.created_at;
      const ageMs =
        row.earliest_platform_ms !== null && platformNow !== undefined
          ? platformNow - row.earliest_platform_ms
          : wallAgeMs;
      anchor = { ageMs, at: this.scheduler.now(), here: false, wallAgeMs };
      this.ages.set(row.id, anchor);
    }
    return anchor.ageMs + (this.scheduler.now() - anchor.at);
  }

  /**
   * Across a restart, when the platform's clock and this computer's disagree by more than a minute
   * about an intent's age: which says so, for the message (one of the two clocks moved meanwhile).
   */
  private clocksDisagree(row: IntentRow): string {
    const anchor = this.ages.get(row.id);
    if (anchor === undefined || anchor.here || anchor.wallAgeMs === undefined) return '';
    if (Math.abs(anchor.ageMs - anchor.wallAgeMs) < 60_000) return '';
    return ` (by this computer's clock ${minutes(Math.max(0, anchor.wallAgeMs))} ago: one of the two clocks moved meanwhile)`;
  }

  /** Why a movement that never left is not sent now, in what actually happened. */
  private neverSent(row: IntentRow, tooLate: boolean): Partial<IntentRow> & { state: MovementState } {
    const here = this.ages.get(row.id)?.here === true;
    const what = here
      ? 'Not sent: the app could not record it as sent (its journal could not be written)'
      : 'The app stopped before sending it';
    const why = !tooLate
      ? `, and ${article(describe(row))} is never sent later by itself`
      : here
        ? ` within ${minutes(this.resendWindowMs)} of its confirmation, and it is not sent this late`
        : `, and it was confirmed ${minutes(this.ageMs(row))} ago by the platform's clock${this.clocksDisagree(row)}: too late to send it now`;
    return {
      state: 'failed',
      label: 'NEVER_EXECUTED',
      message: `${what}${why}. Nothing left the account. Send it again if still wanted.`,
    };
  }

  /** Why a movement the platform proved it never received is not sent again now. */
  private tooLateToResend(row: IntentRow): Partial<IntentRow> & { state: MovementState } {
    const here = this.ages.get(row.id)?.here === true;
    const when = here
      ? `${minutes(this.ageMs(row))} ago`
      : `${minutes(this.ageMs(row))} ago by the platform's clock${this.clocksDisagree(row)}`;
    return {
      state: 'failed',
      label: 'NEVER_EXECUTED',
      message: `The platform never received it, and it was confirmed ${when}: too late to send it again, so it was not. Nothing left the account. Send it again if still wanted.`,
    };
  }

  /** The platform's time now, when its clock has been measured. */
  private platformNowMs(): number | undefined {
    try {
      return this.options.platform().client.clock.measuredNow();
    } catch {
      return undefined;
    }
  }

  private view(row: IntentRow): Movement {
    const movement = toMovement(row);
    const note = this.unrecorded.get(row.id);
    return note === undefined ? movement : { ...movement, message: note };
  }

  // --- finding it on the platform ---------------------------------------------------------------

  /** Asks the platform, through the intent's adapter, whether it was executed. */
  private async lookup(row: IntentRow, adapter: MovementAdapter<MovementKind, unknown>): Promise<Verdict> {
    let api: PlatformApi;
    try {
      api = this.options.platform();
    } catch {
      return { state: 'unknown', reason: 'not connected' };
    }
    // Record times are the platform's: compare in platform time. The core reconciles as soon as a
    // profile connects, maybe before the connection check has measured the offset, and the
    // computer's clock may have stepped since: measure it first then.
    if (api.client.clock.needsMeasuring()) {
      try {
        await api.client.syncClock();
      } catch (error) {
        return { state: 'unknown', reason: `the platform's clock could not be read (${(error as Error).message})` };
      }
    }
    const window = lookupWindow(row, api.client.clock);
    let answer: Lookup;
    try {
      answer = await adapter.findByClientId(api, intentOf(row), window);
    } catch (error) {
      if (error instanceof JournalUnwritable) throw error;
      return { state: 'unknown', reason: error instanceof Error ? error.message : String(error) };
    }
    if (answer.state === 'candidates') return this.matchUnclaimed(row, window, answer.candidates);
    if (answer.state === 'absent') return adapter.absentIsFinal ? answer : this.absentOnceSettled(row);
    return answer;
  }

  /**
   * For kinds without a client id: a matching record from after the intent was journaled and not
   * claimed by another intent is this one. A free match from the doubt band just before (where a
   * skewed signing clock could have put this one's record) cannot be told from someone else's
   * identical movement: a person decides. No match at all is absence, once settled.
   */
  private matchUnclaimed(row: IntentRow, window: LookupWindow, candidates: readonly Candidate[]): Verdict {
    // An identical movement still on the wire may own a record that is listed before its answer
    // arrives: claiming it now could mark this one done while it never executed.
    if (this.intents.identicalInFlight(row) > 0) {
      return { state: 'unknown', reason: 'an identical movement is still waiting for its answer' };
    }
    const claimed = this.intents.claimedPlatformIds(row);
    const free = candidates.filter((c) => !claimed.has(c.id));
    const mine = free.find((c) => c.time >= window.tightFromSec);
    if (mine) return { state: 'found', platformId: mine.id, ...(mine.status ? { status: mine.status } : {}) };
    const doubtful = free.find((c) => c.time >= window.fromSec);
    if (doubtful) {
      return {
        state: 'ambiguous',
        message: `The platform lists an identical ${describe(row)} (${doubtful.id}) from just before this one was recorded. The app cannot tell whether it is this one, so it neither sends it again nor calls it done.`,
      };
    }
    return this.absentOnceSettled(row);
  }

  /**
   * The request might still be on its way (a slow proxy, a server still working): only after
   * settleMs since the last attempt was given up can "not there" mean "never executed". Measured
   * on a monotonic clock in this process, else on the platform's clock (a step of the computer's
   * clock across a restart must not shorten the wait).
   */
  private absentOnceSettled(row: IntentRow): Verdict {
    let elapsed: number;
    const givenUp = this.givenUpAt.get(row.id);
    const platformNow = this.platformNowMs();
    if (givenUp !== undefined) elapsed = this.scheduler.now() - givenUp;
    else if (row.sent_platform_ms !== null && platformNow !== undefined) elapsed = platformNow - row.sent_platform_ms;
    else elapsed = this.now() - (row.sent_at ?? row.created_at);
    if (elapsed < this.settleMs) return { state: 'unknown', reason: 'waiting for a late arrival' };
    return { state: 'absent' };
  }

  /** Marks the intent done with this platform record unless another intent of its kind holds it. */
  private claim(row: IntentRow, platformId: string, status: string | undefined): boolean {
    const claimed = this.intents.claim(row, platformId, status, this.now());
    if (claimed) {
      this.unrecorded.delete(row.id);
      this.changed(row.id);
    }
    return claimed;
  }

  // --- rows -------------------------------------------------------------------------------------

  private row(id: string): IntentRow | undefined {
    return this.intents.get(id);
  }

  private update(id: string, fields: Partial<Omit<IntentRow, 'id'>>): void {
    this.intents.update(id, fields, this.now());
    this.unrecorded.delete(id);
    this.changed(id);
  }

  private changed(id: string): void {
    const row = this.row(id);
    if (row) this.options.onChange(this.view(row));
  }
}

/** A result as a call that rejects: the movement when done, else its failure. */
const unwrap = (result: MovementResult): Movement => {
  if (result.state === 'done') return result.movement;
  throw result.failure;
};

/** The answer to a new movement while the journal cannot be written: nothing was sent. */
const journalUnavailable = (problem: string): DeskFailure =>
  new DeskFailure({
    code: 'JOURNAL_UNAVAILABLE',
    delivery: 'not_sent',
    message: `Nothing was sent: ${problem}, so the app cannot record a new money movement before sending it.`,
    advice:
      'Free space on the disk that holds the app’s data (or make its folder writable), then confirm again. Movements already under way are still followed.',
  });

const article = (noun: string): string => (/^[aeiou]/i.test(noun) ? `an ${noun}` : `a ${noun}`);
