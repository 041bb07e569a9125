/**
 * The money-movement journal. Order of events for every movement:
 *   1. the intent (kind, parameters, generated withdraw_order_id / client_order_id) is written to
 *      SQLite (synchronous=FULL) — nothing has been sent;
 *   2. state `sent` with the request id, then the request goes out;
 *   3. the answer settles it: accepted → `done`; refused → `failed` with the label;
 *      no answer (timeout, cut, 5xx) → `unknown`, and the platform is asked what happened:
 *      withdrawals by withdraw_order_id (GET /wallet/withdrawals), main↔sub and sub↔sub transfers by
 *      client_order_id (GET /wallet/order_status), pushes by the push records (GET /wallet/push),
 *      own-account transfers by the account book the spec names. Found → `done`. Proven absent →
 *      sent again with the SAME id. Never resent while the answer is merely missing.
 * On start (and every few seconds while any is open) unresolved intents are settled first.
 *
 * Time: every decision that compares times across a restart uses the platform's clock recorded on
 * the intent (the computer's clock may be stepped at any moment); within one process, waits use a
 * monotonic clock. What "proven absent" means for each kind is written in docs/core.md.
 *
 * A journal write the disk refuses (full, read-only) never becomes a generic error: nothing new is
 * accepted until the journal can be written again, and a movement caught in the middle is reported
 * as "may still go out / went out, being followed" (JournalUnwritable → OUTCOME_UNKNOWN).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import Decimal from 'decimal.js';
import { AMBIGUOUS_RECORD } from '../../../shared/contract/activity';
import type { PushRequest, TransferRequest } from '../../../shared/platform/api/wallet';
import { DUPLICATE_REQUEST_LABELS } from '../../../shared/platform/labels';
import { ApiError } from '../api/apiError';
import { newRequestId } from '../api/client';
import type { PlatformApi } from '../api/platform';
import { DeskFailure } from '../errors';
import type { Db } from '../journal/db';
import { JournalUnwritable, journalWriteProblem } from '../journal/writeFailure';
import type { Movement, MovementFilter, MovementKind, MovementOptions, MovementState, Movements } from './types';

export interface MovementServiceOptions {
  readonly db: Db;
  /** The active profile's id, or undefined before one is ready. */
  readonly profileId: () => string | undefined;
  /** The active profile's platform API (throws when not connected). */
  readonly platform: () => PlatformApi;
  readonly onChange: (movement: Movement) => void;
  /** Wall-clock ms (what `createdAt` shows). */
  readonly now?: () => number;
  /**
   * A clock that only moves forward, for waits within this process (default performance.now; a
   * test that injects `now` alone drives both with it).
   */
  readonly monotonicNow?: () => number;
  /**
   * For kinds the platform takes no id for (push, own transfer): how long after the last send a
   * missing record counts as "never executed" (the request can no longer arrive). Default 20 s.
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

interface Row {
  id: string;
  profile_id: string;
  kind: MovementKind;
  state: MovementState;
  client_id: string;
  platform_id: string | null;
  platform_status: string | null;
  currency: string;
  amount: string;
  params: string;
  label: string | null;
  message: string | null;
  request_id: string | null;
  attempts: number;
  created_at: number;
  updated_at: number;
  sent_at: number | null;
  request_key: string | null;
  /**
   * Platform ms before which this movement cannot have executed: the platform's clock when it was
   * journaled, lowered to any earlier Timestamp a request of it was signed with. Null in journals
   * written before it existed.
   */
  earliest_platform_ms: number | null;
  /** Platform ms when its last attempt was given up (or found orphaned after a crash). */
  sent_platform_ms: number | null;
}

const toMovement = (r: Row): Movement => ({
  id: r.id,
  profileId: r.profile_id,
  kind: r.kind,
  state: r.state,
  clientId: r.client_id,
  ...(r.platform_id ? { platformId: r.platform_id } : {}),
  ...(r.platform_status ? { platformStatus: r.platform_status } : {}),
  currency: r.currency,
  amount: r.amount,
  params: JSON.parse(r.params) as Record<string, unknown>,
  ...(r.label ? { label: r.label } : {}),
  ...(r.message ? { message: r.message } : {}),
  ...(r.request_id ? { requestId: r.request_id } : {}),
  attempts: r.attempts,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** Our client ids: "td" + 24 random base-62-ish chars (fits withdraw_order_id's 32 and client_order_id's 64). */
export const newClientId = (): string => {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  const bytes = randomBytes(24);
  let id = 'td';
  for (const b of bytes) id += alphabet[b % alphabet.length];
  return id;
};

type Lookup =
  | { found: true; platformId: string; status?: string }
  | { found: false }
  | { undetermined: string }
  /** A record that may be this movement's cannot be told from another's: a person decides. */
  | { ambiguous: string };

/** A platform record that may be an intent's, for kinds without a client id. */
type Candidate = { id: string; time: number; status?: string };

/**
 * The platform refuses a request whose Timestamp is more than this from its own time
 * (spec: "must be within 60 seconds of server time").
 */
const SIGNATURE_WINDOW_S = 60;
/** Our reading of the platform's clock is good to about this (round trip, whole seconds). */
const CLOCK_MARGIN_S = 5;
/** Journals written before the platform time was recorded: their window is widened this much. */
const LEGACY_DOUBT_S = 15 * 60;

/**
 * Where a movement's record can lie on the platform's clock (seconds): from `tightFromSec` on it
 * is taken for this movement's; between `fromSec` and that it cannot be excluded (a signing clock
 * up to the signature window off, or, for old journals, today's offset instead of the one then).
 */
type LookupWindow = { anchorSec: number; tightFromSec: number; fromSec: number };

const lookupWindow = (row: Row, offsetMsNow: number): LookupWindow => {
  const recorded = row.earliest_platform_ms !== null;
  const anchorSec = Math.floor((recorded ? (row.earliest_platform_ms as number) : row.created_at + offsetMsNow) / 1000);
  const tightFromSec = anchorSec - CLOCK_MARGIN_S;
  return { anchorSec, tightFromSec, fromSec: tightFromSec - (recorded ? SIGNATURE_WINDOW_S : LEGACY_DOUBT_S) };
};

/** Labels with which a platform says "you already sent this id": the first one counts. */
export const DUPLICATE_LABELS = DUPLICATE_REQUEST_LABELS;

/**
 * The one status of GET /wallet/order_status the spec documents (its sample): the transfer
 * happened. Any other value (pending, failed, partial, a new code) is not proof of success, so the
 * intent stays "checking" and shows the status instead of claiming it done.
 */
const ORDER_STATUS_SUCCESS = 'SUCCESS';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class MovementService implements Movements {
  private readonly db: Db;
  private readonly now: () => number;
  private readonly monotonicNow: () => number;
  private readonly settleMs: number;
  private readonly maxAttempts: number;
  private readonly resendWindowMs: number;
  /** One driver per intent at a time (a user call and the background loop never race). */
  private readonly driving = new Map<string, Promise<Movement>>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Why the last journal write failed, until a write succeeds again. */
  private unwritable: string | undefined;
  /**
   * What happened to a movement whose state the journal could not record (shown instead of the
   * journal's message until a write for it succeeds).
   */
  private readonly unrecorded = new Map<string, string>();
  /** Monotonic ms since which each intent's request may no longer arrive (this process only). */
  private readonly givenUpAt = new Map<string, number>();

  constructor(private readonly options: MovementServiceOptions) {
    this.db = options.db;
    this.now = options.now ?? Date.now;
    this.monotonicNow = options.monotonicNow ?? options.now ?? (() => performance.now());
    this.settleMs = options.settleMs ?? 20_000;
    this.maxAttempts = options.maxAttempts ?? 6;
    this.resendWindowMs = options.resendWindowMs ?? 10 * 60_000;
    const every = options.backgroundMs ?? 3_000;
    if (every > 0) {
      this.timer = setInterval(() => {
        if (this.openCount() > 0) void this.reconcile().catch(() => {});
      }, every);
      this.timer.unref();
    }
  }

  close(): void {
    this.closed = true;
    clearInterval(this.timer);
  }

  withdraw(request: Parameters<Movements['withdraw']>[0], options?: MovementOptions): Promise<Movement> {
    return this.start('withdrawal', { ...request }, request.currency, request.amount, true, options);
  }

  push(request: PushRequest, options?: MovementOptions): Promise<Movement> {
    return this.start('push', { ...request }, request.currency, request.amount, false, options);
  }

  transfer(request: TransferRequest, options?: MovementOptions): Promise<Movement> {
    return this.start('transfer', { ...request }, request.currency, request.amount, false, options);
  }

  subAccountTransfer(
    request: Parameters<Movements['subAccountTransfer']>[0],
    options?: MovementOptions,
  ): Promise<Movement> {
    return this.start('subAccountTransfer', { ...request }, request.currency, request.amount, true, options);
  }

  subToSubTransfer(
    request: Parameters<Movements['subToSubTransfer']>[0],
    options?: MovementOptions,
  ): Promise<Movement> {
    // The spec gives this operation no client id and no record listing, so a lost answer can only
    // be settled by a person (resolveManually); it is never sent again automatically.
    return this.start('subToSubTransfer', { ...request }, request.currency, request.amount, false, options);
  }

  byRequestKey(requestKey: string): Movement | undefined {
    const row = this.db.prepare<[string], Row>('SELECT * FROM intents WHERE request_key = ?').get(requestKey);
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
    return this.view(this.row(id) as Row);
  }

  list(filter: MovementFilter = {}): Movement[] {
    const profileId = filter.profileId ?? this.options.profileId();
    if (profileId === undefined) return [];
    const clauses = ['profile_id = ?'];
    const args: unknown[] = [profileId];
    if (filter.kind) clauses.push('kind = ?') && args.push(filter.kind);
    if (filter.state) clauses.push('state = ?') && args.push(filter.state);
    if (filter.from !== undefined) clauses.push('created_at >= ?') && args.push(filter.from);
    if (filter.to !== undefined) clauses.push('created_at <= ?') && args.push(filter.to);
    return this.db
      .prepare<unknown[], Row>(
        `SELECT * FROM intents WHERE ${clauses.join(' AND ')} ORDER BY created_at DESC, rowid DESC LIMIT ?`,
      )
      .all(...args, filter.limit ?? 1000)
      .map((r) => this.view(r));
  }

  get(id: string): Movement | undefined {
    const row = this.row(id);
    return row ? this.view(row) : undefined;
  }

  /** Unresolved intents of the active profile. */
  openCount(): number {
    const profileId = this.options.profileId();
    if (profileId === undefined) return 0;
    return (
      this.db
        .prepare<[string], { n: number }>(
          "SELECT COUNT(*) AS n FROM intents WHERE profile_id = ? AND state IN ('prepared','sent','unknown')",
        )
        .get(profileId)?.n ?? 0
    );
  }

  /** Resolves once no movement is being sent or checked (the app lock waits for this). */
  async idle(): Promise<void> {
    while (this.driving.size > 0) await Promise.allSettled([...this.driving.values()]);
  }

  async reconcile(): Promise<void> {
    const profileId = this.options.profileId();
    if (profileId === undefined || this.closed) return;
    const open = this.db
      .prepare<[string], Row>(
        "SELECT * FROM intents WHERE profile_id = ? AND state IN ('prepared','sent','unknown') ORDER BY created_at ASC",
      )
      .all(profileId);
    for (const row of open) {
      if (this.closed) return;
      await this.drive(row.id).catch(() => {});
    }
  }

  updatePlatformStatus(id: string, status: string): void {
    const row = this.row(id);
    if (row === undefined || row.platform_status === status) return;
    this.update(id, { platform_status: status });
  }

  // ---------------------------------------------------------------------------------------------

  private async start(
    kind: MovementKind,
    params: Record<string, unknown>,
    currency: string,
    amount: string,
    takesClientId: boolean,
    options: MovementOptions = {},
  ): Promise<Movement> {
    const profileId = this.options.profileId();
    if (profileId === undefined) throw DeskFailure.precondition('No profile is connected.');
    const requestKey = options.requestKey ?? null;
    const paramsText = JSON.stringify(params);
    // A repeat of a confirmation already journaled (double click, re-render, retry, restart)
    // joins that movement: it is never a second one.
    let earlier = requestKey === null ? undefined : this.joinable(requestKey, profileId, kind, paramsText);
    let id = earlier?.id ?? randomUUID();
    if (earlier === undefined) {
      const api = this.options.platform(); // throws PRECONDITION before anything is journaled
      this.refuseWhileUnwritable();
      // The platform's time now: lookups of this movement start from it (see Row). Measured first
      // if the connection check has not yet (only then does this wait).
      const earliest = api.client.clock.last === undefined ? await this.measuredPlatformNow(api) : undefined;
      // A call with the same key may have journaled it during that wait.
      if (requestKey !== null) earlier = this.joinable(requestKey, profileId, kind, paramsText);
      if (earlier !== undefined) id = earlier.id;
      else {
        const clientId = takesClientId ? newClientId() : '';
        const at = this.now();
        const platformAt = earliest ?? at + api.client.clock.offsetMs;
        let inserted: number;
        try {
          // OR IGNORE: the UNIQUE request key settles a race with another call inserting it first.
          inserted = this.write(
            () =>
              this.db
                .prepare(
                  `INSERT OR IGNORE INTO intents (id, profile_id, kind, state, client_id, currency, amount, params, attempts, created_at, updated_at, request_key, earliest_platform_ms)
                   VALUES (?, ?, ?, 'prepared', ?, ?, ?, ?, 0, ?, ?, ?, ?)`,
                )
                .run(id, profileId, kind, clientId, currency, amount, paramsText, at, at, requestKey, platformAt)
                .changes,
          );
        } catch (error) {
          throw error instanceof JournalUnwritable ? journalUnavailable(error.problem) : error;
        }
        if (inserted === 0 && requestKey !== null) {
          id = (this.joinable(requestKey, profileId, kind, paramsText) as Row).id;
        } else {
          this.changed(id);
        }
      }
    }
    let movement: Movement;
    try {
      movement = await this.drive(id, true);
    } catch (error) {
      if (!(error instanceof JournalUnwritable)) throw error;
      throw new DeskFailure({
        code: 'OUTCOME_UNKNOWN',
        message: this.unrecorded.get(id) ?? `The ${kindName(kind)} could not be recorded: ${error.problem}.`,
        advice:
          'Do not enter it again: it is followed in Activity. Free space on the disk that holds the app’s data (or make its folder writable).',
      });
    }
    if (movement.state === 'done') return movement;
    if (movement.state === 'failed') throw this.failureOf(movement);
    throw new DeskFailure({
      code: 'OUTCOME_UNKNOWN',
      message: `The ${kindName(kind)} was sent but the platform’s answer was lost; the app is checking with the platform (reference ${movement.clientId || movement.id}). It will not be sent twice.`,
      ...(movement.requestId ? { requestId: movement.requestId } : {}),
      advice: 'Wait: its status updates by itself in Activity. Do not send it again.',
    });
  }

  /**
   * The intent journaled earlier for this request key, when it is the same movement. A key reused
   * for something else (another profile, another amount or address) is refused: the screen makes a
   * new key whenever what is confirmed changes, so this is a bug or tampering, never a person.
   */
  private joinable(requestKey: string, profileId: string, kind: MovementKind, paramsText: string): Row | undefined {
    const row = this.db.prepare<[string], Row>('SELECT * FROM intents WHERE request_key = ?').get(requestKey);
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
    return this.now() + api.client.clock.offsetMs;
  }

  private failureOf(movement: Movement): Error {
    // Kept (not deleted) so every caller joined on the same request key gets the same error.
    const last = this.lastErrors.get(movement.id);
    if (last) return last;
    return new DeskFailure({
      code: 'PLATFORM',
      message: movement.message ?? 'The platform refused it.',
      ...(movement.label ? { label: movement.label } : {}),
      ...(movement.requestId ? { requestId: movement.requestId } : {}),
    });
  }

  private readonly lastErrors = new Map<string, Error>();

  private drive(id: string, interactive = false): Promise<Movement> {
    const running = this.driving.get(id);
    if (running) return running;
    const promise = this.settle(id, interactive).finally(() => this.driving.delete(id));
    this.driving.set(id, promise);
    return promise;
  }

  private async settle(id: string, interactive: boolean): Promise<Movement> {
    for (let round = 0; round < this.maxAttempts * 3 && !this.closed; round++) {
      const row = this.row(id);
      if (row === undefined) throw new Error(`no intent ${id}`);
      if (row.state === 'done' || row.state === 'failed') return this.view(row);
      // Never send or look up an intent through another profile's connection (a switch happened
      // meanwhile): it waits, unresolved, until its profile is active again.
      if (row.profile_id !== this.options.profileId()) {
        if (row.state === 'sent') this.update(id, { state: 'unknown' });
        return this.view(this.row(id) as Row);
      }

      if (row.state === 'prepared') {
        // Never left (the app stopped before sending): too late to send it now on its own.
        if (this.ageMs(row) > this.resendWindowMs) this.update(id, NEVER_SENT);
        else await this.send(row);
        continue;
      }

      // sent (a crash or a lost answer) or unknown: ask the platform.
      // `sent` here means the process that sent it died: the request left at the latest then, so
      // the settle time runs from now (sent_at was written before it queued in the limiter).
      if (row.state === 'sent') {
        this.markGivenUp(id);
        this.update(id, { state: 'unknown', sent_at: this.now(), sent_platform_ms: this.platformNowMs() ?? null });
      }
      const found = await this.lookup(row);
      if ('ambiguous' in found) {
        // A record that may be this one cannot be told apart from someone else's: sending again
        // could double it, claiming it could hide a loss. A person decides (Activity → Needs a person).
        const current = this.row(id);
        if (current?.state === 'unknown' && current.message !== found.ambiguous) {
          this.update(id, { label: AMBIGUOUS_RECORD, message: found.ambiguous });
        }
        return this.view(this.row(id) as Row);
      }
      if ('undetermined' in found) {
        this.options.log?.(`movement ${id}: still unknown (${found.undetermined})`);
        if (!interactive) return this.view(this.row(id) as Row);
        await sleep(300);
        if (round >= 4) return this.view(this.row(id) as Row);
        continue;
      }
      if (found.found) {
        // Claimed atomically: two identical intents settled at once must not take the same record
        // (if another took it meanwhile, the next round looks again).
        this.claim(id, row, found.platformId, found.status);
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
        return this.view(this.row(id) as Row);
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
        this.update(id, NEVER_SENT);
        continue;
      }
      await this.send(row);
    }
    return this.view(this.row(id) as Row);
  }

  /** Puts the intent on the wire once (same client id as every earlier attempt). */
  private async send(row: Row): Promise<void> {
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
    const at = this.now();
    let claimed: boolean;
    try {
      claimed = this.write(
        () =>
          this.db
            .prepare(
              `UPDATE intents SET state = 'sent', attempts = ?, request_id = ?, sent_at = ?, updated_at = ?
               WHERE id = ? AND attempts = ? AND state IN ('prepared', 'unknown')`,
            )
            .run(row.attempts + 1, requestId, at, at, row.id, row.attempts).changes > 0,
      );
    } catch (error) {
      if (error instanceof JournalUnwritable) this.noteUnrecorded(row.id, this.notSentYet(error.problem));
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
      this.write(() =>
        this.db
          .prepare('UPDATE intents SET earliest_platform_ms = MIN(COALESCE(earliest_platform_ms, ?), ?) WHERE id = ?')
          .run(ms, ms, row.id),
      );
    };
    const params = JSON.parse(row.params) as Record<string, unknown>;
    let answer: { platformId: string; status?: string };
    try {
      answer = await sendOne(api, row, params, { requestId, onSigned });
    } catch (error) {
      this.recordFailedAttempt(row, error);
      return;
    }
    try {
      this.update(row.id, {
        state: 'done',
        platform_id: answer.platformId,
        ...(answer.status ? { platform_status: answer.status } : {}),
        label: null,
        message: null,
      });
    } catch (error) {
      if (error instanceof JournalUnwritable) {
        this.markGivenUp(row.id);
        this.noteUnrecorded(
          row.id,
          `The platform accepted it (id ${answer.platformId}), but ${error.problem} and the app could not record that yet. It will not be sent again; it is recorded as soon as the journal can be written.`,
        );
      }
      throw error;
    }
  }

  /** Records what a failed attempt means: refused (failed), or unknown and to be looked up. */
  private recordFailedAttempt(row: Row, error: unknown): void {
    // The request left at the latest now (it may have waited in the limiter or been retried
    // after a 429): a lookup may call it absent only settleMs after this.
    const gaveUpAt = this.now();
    this.markGivenUp(row.id);
    const givenUp = { sent_at: gaveUpAt, sent_platform_ms: this.platformNowMs() ?? null };
    try {
      if (error instanceof JournalUnwritable) {
        // The signed time could not be recorded, so that attempt was not sent; it stays `sent`
        // on disk and is looked up (and proven absent) like any orphan.
        this.noteUnrecorded(row.id, this.notSentYet(error.problem));
        throw error;
      }
      if (!(error instanceof ApiError)) {
        this.update(row.id, { state: 'unknown', ...givenUp, message: (error as Error).message });
        return;
      }
      const isRetry = row.attempts > 0;
      if (error.kind === 'platform' && DUPLICATE_LABELS.has(error.label)) {
        // The platform already has this id: an earlier attempt went through. Look it up. The label
        // stays: from now on "not found" cannot mean "never executed" (see settle).
        this.update(row.id, {
          state: 'unknown',
          ...givenUp,
          label: error.label,
          message: 'The platform says it already has this request; looking it up.',
        });
        return;
      }
      if (error.delivery === 'not-executed' && error.kind === 'platform') {
        // Refused before anything happened (4xx, or 429 after the client's own retries).
        if (error.status === 429 || (isRetry && error.status === 401)) {
          this.update(row.id, { state: 'unknown', ...givenUp, label: error.label, message: error.message });
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
      this.update(row.id, { state: 'unknown', ...givenUp, label: error.label, message: error.message });
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

  private notSentYet(problem: string): string {
    return `Not sent yet: ${problem}, and the app records a movement as sent before sending it. It goes out by itself once the journal can be written again, within ${Math.round(this.resendWindowMs / 60_000)} minutes of being confirmed; after that it is cancelled.`;
  }

  /** Shows what happened to a movement whose state the journal could not record. */
  private noteUnrecorded(id: string, note: string): void {
    this.unrecorded.set(id, note);
    this.changed(id);
  }

  /** From now on a late arrival of this intent's last request becomes unlikely (see absentOnceSettled). */
  private markGivenUp(id: string): void {
    this.givenUpAt.set(id, this.monotonicNow());
  }

  /** How long ago the movement was confirmed: on the platform's clock where both ends are known. */
  private ageMs(row: Row): number {
    const platformNow = this.platformNowMs();
    if (row.earliest_platform_ms !== null && platformNow !== undefined) return platformNow - row.earliest_platform_ms;
    return this.now() - row.created_at;
  }

  /** The platform's time now, when its clock has been measured. */
  private platformNowMs(): number | undefined {
    try {
      const clock = this.options.platform().client.clock;
      return clock.last === undefined ? undefined : this.now() + clock.offsetMs;
    } catch {
      return undefined;
    }
  }

  /**
   * Runs one journal write. A write the disk refuses becomes JournalUnwritable and stops new
   * movements until a write succeeds again.
   */
  private write<T>(run: () => T): T {
    try {
      const result = run();
      this.unwritable = undefined;
      return result;
    } catch (error) {
      const problem = journalWriteProblem(error);
      if (problem === undefined) throw error;
      this.unwritable = problem;
      this.options.log?.(`journal write failed: ${problem}`);
      throw new JournalUnwritable(problem, error);
    }
  }

  /** Refuses a new movement while the journal cannot be written (after trying a write once more). */
  private refuseWhileUnwritable(): void {
    if (this.unwritable === undefined) return;
    try {
      this.write(() =>
        this.db
          .prepare(
            "INSERT INTO settings (key, value) VALUES ('journal.probe', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
          )
          .run(String(this.now())),
      );
    } catch (error) {
      throw error instanceof JournalUnwritable ? journalUnavailable(error.problem) : error;
    }
  }

  private view(row: Row): Movement {
    const movement = toMovement(row);
    const note = this.unrecorded.get(row.id);
    return note === undefined ? movement : { ...movement, message: note };
  }

  /** Asks the platform whether this intent was executed. */
  private async lookup(row: Row): Promise<Lookup> {
    let api: PlatformApi;
    try {
      api = this.options.platform();
    } catch {
      return { undetermined: 'not connected' };
    }
    const params = JSON.parse(row.params) as Record<string, unknown>;
    // Record times are the platform's: compare in platform time. The core reconciles as soon as a
    // profile connects, maybe before the connection check has measured the offset: measure it first.
    if (api.client.clock.last === undefined) {
      try {
        await api.client.syncClock();
      } catch (error) {
        return { undetermined: `the platform's clock could not be read (${(error as Error).message})` };
      }
    }
    const window = lookupWindow(row, api.client.clock.offsetMs);
    const nowSec = Math.floor((this.now() + api.client.clock.offsetMs) / 1000);
    try {
      switch (row.kind) {
        case 'withdrawal': {
          const records = await api.wallet.withdrawals({
            withdraw_order_id: row.client_id,
            currency: row.currency,
            ...recordRange(window.fromSec - 3600, window.anchorSec, nowSec),
            limit: 100,
          });
          const match = records.find((r) => r.withdraw_order_id === row.client_id);
          // The spec does not say the platform refuses a repeated withdraw_order_id (only
          // client_order_id "prevents duplicate transfers"): absent counts only once settled.
          return match ? { found: true, platformId: match.id, status: match.status } : this.absentOnceSettled(row);
        }
        case 'subToSubTransfer':
          return {
            undetermined:
              'the platform offers no lookup for sub-account to sub-account transfers; check both balances and settle it by hand',
          };
        case 'subAccountTransfer': {
          try {
            const status = await api.wallet.orderStatus({ client_order_id: row.client_id });
            if (status.status.toUpperCase() === ORDER_STATUS_SUCCESS) {
              return { found: true, platformId: status.tx_id, status: status.status };
            }
            // Known to the platform but not (yet) a success: neither done nor absent.
            if (row.platform_status !== status.status || row.message === null) {
              this.update(row.id, {
                platform_status: status.status,
                message: `The platform reports this transfer as “${status.status}”, not as done; the app keeps checking.`,
              });
            }
            return { undetermined: `the platform reports status ${status.status}` };
          } catch (error) {
            if (error instanceof ApiError && error.kind === 'platform' && error.status >= 400 && error.status < 500) {
              if (error.status === 401 || error.status === 403 || error.status === 429) {
                return { undetermined: error.label };
              }
              // Not known by its client_order_id. A resend carries the same id, which the platform
              // refuses to execute twice, so absence needs no settle time here.
              return { found: false };
            }
            throw error;
          }
        }
        case 'push':
          return this.matchUnclaimed(row, window, await this.pushCandidates(api, row, params, window, nowSec));
        case 'transfer':
          return this.matchUnclaimed(row, window, await this.transferCandidates(api, row, params, window, nowSec));
      }
    } catch (error) {
      if (error instanceof JournalUnwritable) throw error;
      return { undetermined: error instanceof Error ? error.message : String(error) };
    }
  }

  /**
   * For kinds without a client id: a matching record from after the intent was journaled and not
   * claimed by another intent is this one. A free match from the doubt band just before (where a
   * skewed signing clock could have put this one's record) cannot be told from someone else's
   * identical movement: a person decides. No match at all is absence, once settled.
   */
  private matchUnclaimed(row: Row, window: LookupWindow, candidates: Candidate[]): Lookup {
    // An identical movement still on the wire may own a record that is listed before its answer
    // arrives: claiming it now could mark this one done while it never executed.
    const sibling = this.db
      .prepare<[string, string, string, string, string], { n: number }>(
        "SELECT COUNT(*) AS n FROM intents WHERE profile_id = ? AND kind = ? AND id <> ? AND state = 'sent' AND currency = ? AND amount = ?",
      )
      .get(row.profile_id, row.kind, row.id, row.currency, row.amount);
    if ((sibling?.n ?? 0) > 0) return { undetermined: 'an identical movement is still waiting for its answer' };
    const claimed = new Set(
      this.db
        .prepare<[string, string, string], { platform_id: string }>(
          'SELECT platform_id FROM intents WHERE profile_id = ? AND kind = ? AND id <> ? AND platform_id IS NOT NULL',
        )
        .all(row.profile_id, row.kind, row.id)
        .map((r) => r.platform_id),
    );
    const free = candidates.filter((c) => !claimed.has(c.id));
    const mine = free.find((c) => c.time >= window.tightFromSec);
    if (mine) return { found: true, platformId: mine.id, ...(mine.status ? { status: mine.status } : {}) };
    const doubtful = free.find((c) => c.time >= window.fromSec);
    if (doubtful) {
      return {
        ambiguous: `The platform lists an identical ${kindName(row.kind)} (${doubtful.id}) from just before this one was recorded. The app cannot tell whether it is this one, so it neither sends it again nor calls it done.`,
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
  private absentOnceSettled(row: Row): Lookup {
    let elapsed: number;
    const givenUp = this.givenUpAt.get(row.id);
    const platformNow = this.platformNowMs();
    if (givenUp !== undefined) elapsed = this.monotonicNow() - givenUp;
    else if (row.sent_platform_ms !== null && platformNow !== undefined) elapsed = platformNow - row.sent_platform_ms;
    else elapsed = this.now() - (row.sent_at ?? row.created_at);
    if (elapsed < this.settleMs) return { undetermined: 'waiting for a late arrival' };
    return { found: false };
  }

  /** Marks the intent done with this platform record unless another intent of its kind holds it. */
  private claim(id: string, row: Row, platformId: string, status: string | undefined): boolean {
    const result = this.write(() =>
      this.db
        .prepare(
          `UPDATE intents SET state = 'done', platform_id = ?, platform_status = COALESCE(?, platform_status),
             label = NULL, message = NULL, updated_at = ?
           WHERE id = ? AND NOT EXISTS (
             SELECT 1 FROM intents o WHERE o.profile_id = ? AND o.kind = ? AND o.id <> ? AND o.platform_id = ?)`,
        )
        .run(platformId, status ?? null, this.now(), id, row.profile_id, row.kind, id, platformId),
    );
    if (result.changes > 0) {
      this.unrecorded.delete(id);
      this.changed(id);
    }
    return result.changes > 0;
  }

  private async pushCandidates(
    api: PlatformApi,
    row: Row,
    params: Record<string, unknown>,
    window: LookupWindow,
    nowSec: number,
  ): Promise<Candidate[]> {
    const records = await api.wallet.pushRecords({
      transaction_type: 'withdraw',
      ...recordRange(window.fromSec, window.anchorSec, nowSec),
      limit: 1000,
    });
    const amount = new Decimal(row.amount);
    return records
      .filter(
        (r) =>
          r.receive_uid === Number(params.receive_uid) &&
          r.currency === row.currency &&
          new Decimal(r.amount).equals(amount) &&
          r.create_time >= window.fromSec,
      )
      .sort((a, b) => a.create_time - b.create_time)
      .map((r) => ({ id: r.id, time: r.create_time, status: r.status }));
  }

  private async transferCandidates(
    api: PlatformApi,
    row: Row,
    params: Record<string, unknown>,
    window: LookupWindow,
    nowSec: number,
  ): Promise<Candidate[]> {
    const request = params as unknown as TransferRequest;
    const other = request.from === 'spot' ? request.to : request.from;
    const sign = request.to === other ? 1 : -1; // the other side's book sees +amount when money goes in
    const expected = new Decimal(row.amount).times(sign);
    const range = recordRange(window.fromSec, window.anchorSec, nowSec);
    // Entries without an id are named by time, change and their rank among equal ones, which is
    // the same whatever window an intent queries (a rank within the window would shift).
    const seen = new Map<string, number>();
    const syntheticId = (e: { time: number; change: string }): string => {
      const base = `${e.time}:${e.change}`;
      const rank = seen.get(base) ?? 0;
      seen.set(base, rank + 1);
      return `${base}:${rank}`;
    };
    let entries: { id?: string; time: number; change: string; currency?: string; type?: string }[];
    if (other === 'margin') {
      entries = await api.books.margin({
        ...range,
        currency: row.currency,
        currency_pair: request.currency_pair,
        limit: 1000,
      });
    } else if (other === 'futures' || other === 'delivery') {
      const settle = (request.settle ?? row.currency).toLowerCase();
      const book = other === 'futures' ? api.books.futures : api.books.delivery;
      entries = await book(settle, { ...range, type: 'dnw', limit: 1000 });
    } else {
      throw new Error(`no account book names transfers to/from ${other}; check the balances by hand`);
    }
    return entries
      .filter(
        (e) =>
          (e.currency === undefined || e.currency === row.currency) &&
          new Decimal(e.change).equals(expected) &&
          e.time >= window.fromSec,
      )
      .sort((a, b) => a.time - b.time)
      .map((e) => ({ id: e.id ?? syntheticId(e), time: e.time }));
  }

  private row(id: string): Row | undefined {
    return this.db.prepare<[string], Row>('SELECT * FROM intents WHERE id = ?').get(id);
  }

  private update(id: string, fields: Partial<Omit<Row, 'id'>>): void {
    const entries = Object.entries({ ...fields, updated_at: this.now() });
    this.write(() =>
      this.db
        .prepare(`UPDATE intents SET ${entries.map(([k]) => `${k} = ?`).join(', ')} WHERE id = ?`)
        .run(...entries.map(([, v]) => v), id),
    );
    this.unrecorded.delete(id);
    this.changed(id);
  }

  private changed(id: string): void {
    const row = this.row(id);
    if (row) this.options.onChange(this.view(row));
  }
}

/**
 * from/to of a record lookup around an intent created at `createdSec` (platform time). No `to`
 * while possible: the platform's default is its own now (its clock may run ahead of ours). An
 * intent older than that allows gets an end a day after it: the platform answers at most 30 days.
 */
const recordRange = (from: number, createdSec: number, nowSec: number): { from: number; to?: number } =>
  nowSec - from > 29 * 86_400 ? { from, to: createdSec + 86_400 } : { from };

/** The one request that performs a movement of this kind (with its client id where it takes one). */
const sendOne = async (
  api: PlatformApi,
  row: Row,
  params: Record<string, unknown>,
  opt: { requestId: string; onSigned: (timestampSec: number) => void },
): Promise<{ platformId: string; status?: string }> => {
  switch (row.kind) {
    case 'withdrawal': {
      const r = await api.withdrawals.create(
        { ...(params as Parameters<PlatformApi['withdrawals']['create']>[0]), withdraw_order_id: row.client_id },
        opt,
      );
      return { platformId: r.id, status: r.status };
    }
    case 'push':
      return { platformId: (await api.withdrawals.push(params as unknown as PushRequest, opt)).id };
    case 'transfer':
      return { platformId: (await api.wallet.transfer(params as unknown as TransferRequest, opt)).tx_id };
    case 'subAccountTransfer': {
      const r = await api.wallet.subAccountTransfer(
        { ...(params as Parameters<PlatformApi['wallet']['subAccountTransfer']>[0]), client_order_id: row.client_id },
        opt,
      );
      return { platformId: r.tx_id };
    }
    case 'subToSubTransfer': {
      const r = await api.wallet.subToSubTransfer(
        params as Parameters<PlatformApi['wallet']['subToSubTransfer']>[0],
        opt,
      );
      return { platformId: r.tx_id };
    }
  }
};

/** The answer to a new movement while the journal cannot be written: nothing was sent. */
const journalUnavailable = (problem: string): DeskFailure =>
  new DeskFailure({
    code: 'JOURNAL_UNAVAILABLE',
    message: `Nothing was sent: ${problem}, so the app cannot record a new money movement before sending it.`,
    advice:
      'Free space on the disk that holds the app’s data (or make its folder writable), then confirm again. Movements already under way are still followed.',
  });

const NEVER_SENT = {
  state: 'failed',
  label: 'NEVER_EXECUTED',
  message: 'The app stopped before the platform received it; nothing left the account. Send it again if still wanted.',
} as const;

const kindName = (kind: MovementKind): string =>
  ({
    withdrawal: 'withdrawal',
    push: 'UID transfer',
    transfer: 'transfer',
    subAccountTransfer: 'sub-account transfer',
    subToSubTransfer: 'sub-account to sub-account transfer',
  })[kind];
