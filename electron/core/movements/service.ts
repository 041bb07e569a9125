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
 */
import { randomBytes, randomUUID } from 'node:crypto';
import Decimal from 'decimal.js';
import type { PushRequest, TransferRequest } from '../../../shared/platform/api/wallet';
import { DUPLICATE_REQUEST_LABELS } from '../../../shared/platform/labels';
import { ApiError } from '../api/apiError';
import { newRequestId } from '../api/client';
import type { PlatformApi } from '../api/platform';
import { DeskFailure } from '../errors';
import type { Db } from '../journal/db';
import type { Movement, MovementFilter, MovementKind, MovementOptions, MovementState, Movements } from './types';

export interface MovementServiceOptions {
  readonly db: Db;
  /** The active profile's id, or undefined before one is ready. */
  readonly profileId: () => string | undefined;
  /** The active profile's platform API (throws when not connected). */
  readonly platform: () => PlatformApi;
  readonly onChange: (movement: Movement) => void;
  readonly now?: () => number;
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

type Lookup = { found: true; platformId: string; status?: string } | { found: false } | { undetermined: string };

/** Labels with which a platform says "you already sent this id": the first one counts. */
export const DUPLICATE_LABELS = DUPLICATE_REQUEST_LABELS;

/**
 * The one status of GET /wallet/order_status the spec documents (its sample): the transfer
 * happened. Any other value (pending, failed, partial, a new code) is not proof of success, so the
 * intent stays "checking" and shows the status instead of claiming it done.
 */
const ORDER_STATUS_SUCCESS = 'SUCCESS';

/**
 * The request key column (added to journals written before it existed) and its UNIQUE index: one
 * intent per confirmation, enforced by SQLite even across processes and restarts.
 */
const migrateRequestKey = (db: Db): void => {
  const columns = db.prepare<[], { name: string }>('PRAGMA table_info(intents)').all();
  if (!columns.some((c) => c.name === 'request_key')) {
    try {
      db.exec('ALTER TABLE intents ADD COLUMN request_key TEXT');
    } catch (error) {
      // Another process opening the same journal may have added it a moment ago.
      if (!/duplicate column/i.test((error as Error).message)) throw error;
    }
  }
  db.exec('CREATE UNIQUE INDEX IF NOT EXISTS intents_request_key ON intents(request_key)');
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class MovementService implements Movements {
  private readonly db: Db;
  private readonly now: () => number;
  private readonly settleMs: number;
  private readonly maxAttempts: number;
  private readonly resendWindowMs: number;
  /** One driver per intent at a time (a user call and the background loop never race). */
  private readonly driving = new Map<string, Promise<Movement>>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: MovementServiceOptions) {
    this.db = options.db;
    migrateRequestKey(this.db);
    this.now = options.now ?? Date.now;
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
    return row ? toMovement(row) : undefined;
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
    return toMovement(this.row(id) as Row);
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
      .map(toMovement);
  }

  get(id: string): Movement | undefined {
    const row = this.row(id);
    return row ? toMovement(row) : undefined;
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
    const earlier = requestKey === null ? undefined : this.joinable(requestKey, profileId, kind, paramsText);
    if (earlier === undefined) this.options.platform(); // throws PRECONDITION before anything is journaled
    let id = earlier?.id ?? randomUUID();
    if (earlier === undefined) {
      const clientId = takesClientId ? newClientId() : '';
      const at = this.now();
      // OR IGNORE: the UNIQUE request key settles a race with another process inserting it first.
      const inserted = this.db
        .prepare(
          `INSERT OR IGNORE INTO intents (id, profile_id, kind, state, client_id, currency, amount, params, attempts, created_at, updated_at, request_key)
           VALUES (?, ?, ?, 'prepared', ?, ?, ?, ?, 0, ?, ?, ?)`,
        )
        .run(id, profileId, kind, clientId, currency, amount, paramsText, at, at, requestKey);
      if (inserted.changes === 0 && requestKey !== null) {
        id = (this.joinable(requestKey, profileId, kind, paramsText) as Row).id;
      } else {
        this.changed(id);
      }
    }
    const movement = await this.drive(id, true);
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
      if (row.state === 'done' || row.state === 'failed') return toMovement(row);
      // Never send or look up an intent through another profile's connection (a switch happened
      // meanwhile): it waits, unresolved, until its profile is active again.
      if (row.profile_id !== this.options.profileId()) {
        if (row.state === 'sent') this.update(id, { state: 'unknown' });
        return toMovement(this.row(id) as Row);
      }

      if (row.state === 'prepared') {
        // Never left (the app stopped before sending): too late to send it now on its own.
        if (this.now() - row.created_at > this.resendWindowMs) this.update(id, NEVER_SENT);
        else await this.send(row);
        continue;
      }

      // sent (a crash or a lost answer) or unknown: ask the platform.
      // `sent` here means the process that sent it died: the request left at the latest then, so
      // the settle time runs from now (sent_at was written before it queued in the limiter).
      if (row.state === 'sent') this.update(id, { state: 'unknown', sent_at: this.now() });
      const found = await this.lookup(row);
      if ('undetermined' in found) {
        this.options.log?.(`movement ${id}: still unknown (${found.undetermined})`);
        if (!interactive) return toMovement(this.row(id) as Row);
        await sleep(300);
        if (round >= 4) return toMovement(this.row(id) as Row);
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
        return toMovement(this.row(id) as Row);
      }
      if (row.attempts >= this.maxAttempts) {
        this.update(id, {
          state: 'failed',
          label: 'NEVER_EXECUTED',
          message: `Not executed after ${row.attempts} attempts; nothing left the account.`,
        });
        continue;
      }
      if (this.now() - row.created_at > this.resendWindowMs) {
        this.update(id, NEVER_SENT);
        continue;
      }
      await this.send(row);
    }
    return toMovement(this.row(id) as Row);
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
    const claimed = this.db
      .prepare(
        `UPDATE intents SET state = 'sent', attempts = ?, request_id = ?, sent_at = ?, updated_at = ?
         WHERE id = ? AND attempts = ? AND state IN ('prepared', 'unknown')`,
      )
      .run(row.attempts + 1, requestId, at, at, row.id, row.attempts);
    if (claimed.changes === 0) return;
    this.changed(row.id);
    const params = JSON.parse(row.params) as Record<string, unknown>;
    const opt = { requestId };
    try {
      let platformId: string;
      let status: string | undefined;
      switch (row.kind) {
        case 'withdrawal': {
          const r = await api.withdrawals.create(
            { ...(params as Parameters<PlatformApi['withdrawals']['create']>[0]), withdraw_order_id: row.client_id },
            opt,
          );
          platformId = r.id;
          status = r.status;
          break;
        }
        case 'push': {
          const r = await api.withdrawals.push(params as unknown as PushRequest, opt);
          platformId = r.id;
          break;
        }
        case 'transfer': {
          const r = await api.wallet.transfer(params as unknown as TransferRequest, opt);
          platformId = r.tx_id;
          break;
        }
        case 'subAccountTransfer': {
          const r = await api.wallet.subAccountTransfer(
            {
              ...(params as Parameters<PlatformApi['wallet']['subAccountTransfer']>[0]),
              client_order_id: row.client_id,
            },
            opt,
          );
          platformId = r.tx_id;
          break;
        }
        case 'subToSubTransfer': {
          const r = await api.wallet.subToSubTransfer(
            params as Parameters<PlatformApi['wallet']['subToSubTransfer']>[0],
            opt,
          );
          platformId = r.tx_id;
          break;
        }
      }
      this.update(row.id, {
        state: 'done',
        platform_id: platformId,
        ...(status ? { platform_status: status } : {}),
        label: null,
        message: null,
      });
    } catch (error) {
      // The request left at the latest now (it may have waited in the limiter or been retried
      // after a 429): a lookup may call it absent only settleMs after this.
      const gaveUpAt = this.now();
      if (!(error instanceof ApiError)) {
        this.update(row.id, { state: 'unknown', sent_at: gaveUpAt, message: (error as Error).message });
        return;
      }
      const isRetry = row.attempts > 0;
      if (error.kind === 'platform' && DUPLICATE_LABELS.has(error.label)) {
        // The platform already has this id: an earlier attempt went through. Look it up. The label
        // stays: from now on "not found" cannot mean "never executed" (see settle).
        this.update(row.id, {
          state: 'unknown',
          sent_at: gaveUpAt,
          label: error.label,
          message: 'The platform says it already has this request; looking it up.',
        });
        return;
      }
      if (error.delivery === 'not-executed' && error.kind === 'platform') {
        // Refused before anything happened (4xx, or 429 after the client's own retries).
        if (error.status === 429 || (isRetry && error.status === 401)) {
          this.update(row.id, { state: 'unknown', sent_at: gaveUpAt, label: error.label, message: error.message });
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
      this.update(row.id, { state: 'unknown', sent_at: gaveUpAt, label: error.label, message: error.message });
    }
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
    // Record times are the platform's: compare in platform time (our clock corrected by the offset).
    // The core reconciles as soon as a profile connects, maybe before the connection check has
    // measured the offset: measure it first, or a skewed clock could hide a record.
    if (api.client.clock.last === undefined) {
      try {
        await api.client.syncClock();
      } catch (error) {
        return { undetermined: `the platform's clock could not be read (${(error as Error).message})` };
      }
    }
    const createdSec = Math.floor((row.created_at + api.client.clock.offsetMs) / 1000);
    const nowSec = Math.floor((this.now() + api.client.clock.offsetMs) / 1000);
    try {
      switch (row.kind) {
        case 'withdrawal': {
          const records = await api.wallet.withdrawals({
            withdraw_order_id: row.client_id,
            currency: row.currency,
            ...recordRange(createdSec - 3600, createdSec, nowSec),
            limit: 100,
          });
          const match = records.find((r) => r.withdraw_order_id === row.client_id);
          // The spec does not say the platform refuses a repeated withdraw_order_id (only
          // client_order_id "prevents duplicate transfers"): absent counts only once settled.
          return match ? { found: true, platformId: match.id, status: match.status } : this.absentOnceSettled(row.id);
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
              return { found: false };
            }
            throw error;
          }
        }
        case 'push':
          return this.matchUnclaimed(row, await this.pushCandidates(api, row, params, createdSec, nowSec));
        case 'transfer':
          return this.matchUnclaimed(row, await this.transferCandidates(api, row, params, createdSec, nowSec));
      }
    } catch (error) {
      return { undetermined: error instanceof Error ? error.message : String(error) };
    }
  }

  /** For kinds without a client id: a matching record not yet claimed by another intent, else absent once settled. */
  private matchUnclaimed(row: Row, candidates: { id: string; status?: string }[]): Lookup {
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
    const free = candidates.find((c) => !claimed.has(c.id));
    if (free) return { found: true, platformId: free.id, ...(free.status ? { status: free.status } : {}) };
    return this.absentOnceSettled(row.id);
  }

  /**
   * The request might still be on its way (a slow proxy, a server still working): only after
   * settleMs since the last send can "not there" mean "never executed".
   */
  private absentOnceSettled(id: string): Lookup {
    const row = this.row(id);
    const sentAt = row?.sent_at ?? row?.created_at ?? 0;
    if (this.now() - sentAt < this.settleMs) return { undetermined: 'waiting for a late arrival' };
    return { found: false };
  }

  /** Marks the intent done with this platform record unless another intent of its kind holds it. */
  private claim(id: string, row: Row, platformId: string, status: string | undefined): boolean {
    const result = this.db
      .prepare(
        `UPDATE intents SET state = 'done', platform_id = ?, platform_status = COALESCE(?, platform_status),
           label = NULL, message = NULL, updated_at = ?
         WHERE id = ? AND NOT EXISTS (
           SELECT 1 FROM intents o WHERE o.profile_id = ? AND o.kind = ? AND o.id <> ? AND o.platform_id = ?)`,
      )
      .run(platformId, status ?? null, this.now(), id, row.profile_id, row.kind, id, platformId);
    if (result.changes > 0) this.changed(id);
    return result.changes > 0;
  }

  private async pushCandidates(
    api: PlatformApi,
    row: Row,
    params: Record<string, unknown>,
    createdSec: number,
    nowSec: number,
  ): Promise<{ id: string; status?: string }[]> {
    const records = await api.wallet.pushRecords({
      transaction_type: 'withdraw',
      ...recordRange(createdSec - 5, createdSec, nowSec),
      limit: 1000,
    });
    const amount = new Decimal(row.amount);
    return records
      .filter(
        (r) =>
          r.receive_uid === Number(params.receive_uid) &&
          r.currency === row.currency &&
          new Decimal(r.amount).equals(amount) &&
          r.create_time >= createdSec - 5,
      )
      .sort((a, b) => a.create_time - b.create_time)
      .map((r) => ({ id: r.id, status: r.status }));
  }

  private async transferCandidates(
    api: PlatformApi,
    row: Row,
    params: Record<string, unknown>,
    createdSec: number,
    nowSec: number,
  ): Promise<{ id: string; status?: string }[]> {
    const request = params as unknown as TransferRequest;
    const other = request.from === 'spot' ? request.to : request.from;
    const sign = request.to === other ? 1 : -1; // the other side's book sees +amount when money goes in
    const expected = new Decimal(row.amount).times(sign);
    const range = recordRange(createdSec - 5, createdSec, nowSec);
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
          e.time >= createdSec - 5,
      )
      .sort((a, b) => a.time - b.time)
      .map((e) => ({ id: e.id ?? syntheticId(e) }));
  }

  private row(id: string): Row | undefined {
    return this.db.prepare<[string], Row>('SELECT * FROM intents WHERE id = ?').get(id);
  }

  private update(id: string, fields: Partial<Omit<Row, 'id'>>): void {
    const entries = Object.entries({ ...fields, updated_at: this.now() });
    this.db
      .prepare(`UPDATE intents SET ${entries.map(([k]) => `${k} = ?`).join(', ')} WHERE id = ?`)
      .run(...entries.map(([, v]) => v), id);
    this.changed(id);
  }

  private changed(id: string): void {
    const row = this.row(id);
    if (row) this.options.onChange(toMovement(row));
  }
}

/**
 * from/to of a record lookup around an intent created at `createdSec` (platform time). No `to`
 * while possible: the platform's default is its own now (its clock may run ahead of ours). An
 * intent older than that allows gets an end a day after it: the platform answers at most 30 days.
 */
const recordRange = (from: number, createdSec: number, nowSec: number): { from: number; to?: number } =>
  nowSec - from > 29 * 86_400 ? { from, to: createdSec + 86_400 } : { from };

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
