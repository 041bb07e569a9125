/**
 * The money-movement journal's repository: every SQL statement on `intents` lives here (the
 * schema and its migrations are in db.ts). The movement engine (core/movements/engine.ts)
 * decides; this module only reads and writes rows.
 *
 * Every write goes through `write()`: a write the disk refuses (full, read-only, I/O error) becomes
 * JournalUnwritable and is remembered (`unwritable`) until a write succeeds again, so the engine can
 * refuse new movements while nothing can be recorded before it is sent.
 */
import type { MovementView } from '../../shared/contract/activity';
import { type Db, statement } from './db';
import { JournalUnwritable, journalWriteProblem } from './writeFailure';

type Kind = MovementView['kind'];
type State = MovementView['state'];

/** One row of `intents`, as stored. */
export interface IntentRow {
  id: string;
  profile_id: string;
  kind: Kind;
  state: State;
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
  /** The operator signed in when it was journaled (set by a trigger, operators/operators.ts); '' before operators. */
  operator?: string;
  /** Where it was asked for (MovementOptions.origin); '' before origins were kept. */
  origin?: string;
}

/** A new intent, state `prepared`, nothing sent. */
export interface NewIntent {
  readonly id: string;
  readonly profileId: string;
  readonly kind: Kind;
  readonly clientId: string;
  readonly currency: string;
  readonly amount: string;
  readonly params: string;
  readonly at: number;
  readonly requestKey: string | null;
  readonly earliestPlatformMs: number;
  readonly origin: string;
}

export interface IntentFilter {
  readonly profileId: string;
  readonly kind?: Kind;
  readonly state?: State;
  readonly from?: number;
  readonly to?: number;
  /** -1: no limit. */
  readonly limit?: number;
}

export const OPEN_STATES = "('prepared','sent','unknown')";

/** A row as the contract's Movement (the engine may overlay an unrecorded note on `message`). */
export const toMovement = (r: IntentRow): MovementView => ({
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
  operator: r.operator ?? '',
  ...(r.origin ? { origin: r.origin } : {}),
});

export class IntentRepository {
  /** Why the last write failed, until a write succeeds again. */
  unwritable: string | undefined;

  constructor(
    private readonly db: Db,
    private readonly log?: (message: string) => void,
  ) {}

  /**
   * Runs one write. A write the disk refuses becomes JournalUnwritable (and `unwritable` is set
   * until a write succeeds again); any other error is a bug and is rethrown as it is.
   */
  write<T>(run: () => T): T {
    try {
      const result = run();
      this.unwritable = undefined;
      return result;
    } catch (error) {
      const problem = journalWriteProblem(error);
      if (problem === undefined) throw error;
      this.unwritable = problem;
      this.log?.(`journal write failed: ${problem}`);
      throw new JournalUnwritable(problem, error);
    }
  }

  /** A small write that proves the journal can be written again (a setting, not an intent). */
  probe(now: number): void {
    this.write(() =>
      statement(
        this.db,
        "INSERT INTO settings (key, value) VALUES ('journal.probe', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
      ).run(String(now)),
    );
  }

  get(id: string): IntentRow | undefined {
    return statement<[string], IntentRow>(this.db, 'SELECT * FROM intents WHERE id = ?').get(id);
  }

  byRequestKey(requestKey: string): IntentRow | undefined {
    return statement<[string], IntentRow>(this.db, 'SELECT * FROM intents WHERE request_key = ?').get(requestKey);
  }

  list(filter: IntentFilter): IntentRow[] {
    const clauses = ['profile_id = ?'];
    const args: unknown[] = [filter.profileId];
    if (filter.kind) clauses.push('kind = ?') && args.push(filter.kind);
    if (filter.state) clauses.push('state = ?') && args.push(filter.state);
    if (filter.from !== undefined) clauses.push('created_at >= ?') && args.push(filter.from);
    if (filter.to !== undefined) clauses.push('created_at <= ?') && args.push(filter.to);
    return statement<unknown[], IntentRow>(
      this.db,
      `SELECT * FROM intents WHERE ${clauses.join(' AND ')} ORDER BY created_at DESC, rowid DESC LIMIT ?`,
    ).all(...args, filter.limit ?? 1000);
  }

  /** Unresolved intents of a profile, oldest first. */
  open(profileId: string): IntentRow[] {
    return statement<[string], IntentRow>(
      this.db,
      `SELECT * FROM intents WHERE profile_id = ? AND state IN ${OPEN_STATES} ORDER BY created_at ASC`,
    ).all(profileId);
  }

  openCount(profileId: string): number {
    return (
      statement<[string], { n: number }>(
        this.db,
        `SELECT COUNT(*) AS n FROM intents WHERE profile_id = ? AND state IN ${OPEN_STATES}`,
      ).get(profileId)?.n ?? 0
    );
  }

  /**
   * Journals a new intent in state `prepared`. OR IGNORE: the UNIQUE request key settles a race
   * with another call (or process) inserting it first; 0 means it did.
   */
  insert(intent: NewIntent): number {
    return this.write(
      () =>
        statement(
          this.db,
          `INSERT OR IGNORE INTO intents (id, profile_id, kind, state, client_id, currency, amount, params, attempts, created_at, updated_at, request_key, earliest_platform_ms, origin)
             VALUES (?, ?, ?, 'prepared', ?, ?, ?, ?, 0, ?, ?, ?, ?, ?)`,
        ).run(
          intent.id,
          intent.profileId,
          intent.kind,
          intent.clientId,
          intent.currency,
          intent.amount,
          intent.params,
          intent.at,
          intent.at,
          intent.requestKey,
          intent.earliestPlatformMs,
          intent.origin,
        ).changes,
    );
  }

  update(id: string, fields: Partial<Omit<IntentRow, 'id'>>, at: number): void {
    const entries = Object.entries({ ...fields, updated_at: at });
    this.write(() =>
      statement(this.db, `UPDATE intents SET ${entries.map(([k]) => `${k} = ?`).join(', ')} WHERE id = ?`).run(
        ...entries.map(([, v]) => v),
        id,
      ),
    );
  }

  /**
   * State `sent` with this attempt's request id, only if nobody settled the intent meanwhile (a
   * person by hand, another driver): false means it must not be sent.
   */
  markSent(row: IntentRow, requestId: string, at: number): boolean {
    return this.write(
      () =>
        statement(
          this.db,
          `UPDATE intents SET state = 'sent', attempts = ?, request_id = ?, sent_at = ?, updated_at = ?
             WHERE id = ? AND attempts = ? AND state IN ('prepared', 'unknown')`,
        ).run(row.attempts + 1, requestId, at, at, row.id, row.attempts).changes > 0,
    );
  }

  /** Lowers earliest_platform_ms to a Timestamp a request was signed with. */
  lowerEarliest(id: string, ms: number): void {
    this.write(() =>
      statement(
        this.db,
        'UPDATE intents SET earliest_platform_ms = MIN(COALESCE(earliest_platform_ms, ?), ?) WHERE id = ?',
      ).run(ms, ms, id),
    );
  }

  /**
   * Marks the intent done with this platform record unless another intent of its kind holds it
   * (one record, one intent). False when another took it.
   */
  claim(row: IntentRow, platformId: string, status: string | undefined, at: number): boolean {
    return (
      this.write(() =>
        statement(
          this.db,
          `UPDATE intents SET state = 'done', platform_id = ?, platform_status = COALESCE(?, platform_status),
               label = NULL, message = NULL, updated_at = ?
             WHERE id = ? AND NOT EXISTS (
               SELECT 1 FROM intents o WHERE o.profile_id = ? AND o.kind = ? AND o.id <> ? AND o.platform_id = ?)`,
        ).run(platformId, status ?? null, at, row.id, row.profile_id, row.kind, row.id, platformId),
      ).changes > 0
    );
  }

  /** How many identical movements (same kind, currency, amount) of the profile are still on the wire. */
  identicalInFlight(row: IntentRow): number {
    return (
      statement<[string, string, string, string, string], { n: number }>(
        this.db,
        "SELECT COUNT(*) AS n FROM intents WHERE profile_id = ? AND kind = ? AND id <> ? AND state = 'sent' AND currency = ? AND amount = ?",
      ).get(row.profile_id, row.kind, row.id, row.currency, row.amount)?.n ?? 0
    );
  }

  /** Platform records already claimed by other intents of the same kind and profile. */
  claimedPlatformIds(row: IntentRow): Set<string> {
    return new Set(
      statement<[string, string, string], { platform_id: string }>(
        this.db,
        'SELECT platform_id FROM intents WHERE profile_id = ? AND kind = ? AND id <> ? AND platform_id IS NOT NULL',
      )
        .all(row.profile_id, row.kind, row.id)
        .map((r) => r.platform_id),
    );
  }
}
