/**
 * The team's movement journal and approval queue in PostgreSQL: exactly once across desks.
 *
 * - **Prepare**: a maker's signed request is journaled under its request key (the same key joins the
 *   same movement, never a second one). The firm-wide limits are checked in the same transaction that
 *   reserves the amount, under an advisory lock per profile, so two desks cannot both take the last of
 *   a limit; the rolling window is measured on the database's clock.
 * - **Decide**: signed approvals and rejections; the movement (or every row of a batch decided as a
 *   whole) becomes `ready` once it has the approvals its request asks for, by one locked update.
 * - **Claim**: a desk that holds the profile's key takes the oldest ready movement with a lease and a
 *   fencing token (`FOR UPDATE SKIP LOCKED`: two desks never take the same one). A movement whose
 *   holder's lease ran out is taken over: if it was already journaled `sent`, the claim says `lookUp`
 *   — the new holder asks the platform by client id before anything else, and never resends blindly.
 * - **Sent** is journaled with the fencing token before the request leaves; a holder whose lease ran
 *   out (another desk may hold it now) is refused (`LeaseLost`) and sends nothing.
 * - **Settle** records what the platform said. That is a fact, not a send, so the desk that sent it
 *   writes it back even after its lease ran out (e.g. when the database returns).
 */

import { DeskFailure } from '../errors';
import { sha256 } from './canonical';
import { recordChange } from './changes';
import { sqlInterval, sqlMs, type TeamDatabase, type TeamSql } from './database';
import { LeaseLost, teamRefused } from './errors';
import type { SignedRecord } from './identity';
import type { Batch, Decision, MovementRequest } from './records';
import type { MovementEvidence } from './verify';

const LIMITS_LOCK = 0x7d_7e_a0_04;
/** Default lease: long enough for one platform request and its answer; renewed while it takes longer. */
export const DEFAULT_LEASE_MS = 30_000;

export type MovementState =
  | 'awaiting_approval'
  | 'ready'
  | 'claimed'
  | 'sent'
  | 'done'
  | 'failed'
  | 'rejected'
  | 'expired'
  | 'cancelled'
  | 'blocked';

/** States that do not count toward a limit: nothing left, and nothing will. */
const NOT_COUNTED: readonly MovementState[] = ['failed', 'rejected', 'expired', 'cancelled', 'blocked'];

/** Whether a movement's state is its last: done, or nothing left and nothing will. */
export const isFinal = (state: MovementState): boolean => state === 'done' || NOT_COUNTED.includes(state);

/** A movement that counts toward the profile's limits (reserved or sent in the last 24 hours). */
export interface SpentMovement {
  readonly kind: string;
  readonly currency: string;
  readonly amount: string;
  readonly usdtValue: string | null;
  /** When it was journaled, on the database's clock (ms). */
  readonly at: number;
}

/**
 * The policy's limits, applied by the caller (the core's policy evaluator) to what the profile has
 * already spent in the window and the new movements: a refusal message, or undefined to reserve.
 */
export type LimitCheck = (
  spent: readonly SpentMovement[],
  adding: readonly MovementRequest[],
  now: number,
) => string | undefined;

export interface StoredMovement {
  readonly id: string;
  readonly profileId: string;
  readonly state: MovementState;
  readonly requestKey: string;
  readonly clientId: string;
  readonly attempts: number;
  readonly platformId: string | null;
  readonly label: string | null;
  readonly message: string | null;
}

/** A movement as listed: its columns, its signed request as stored, its times and who approved it. */
export interface ListedMovement extends StoredMovement {
  readonly body: string;
  readonly makerId: string;
  readonly signature: string;
  readonly approvalsRequired: number;
  readonly createdAt: number;
  readonly expiresAt: number | null;
  readonly updatedAt: number;
  /** Operators whose approval is stored (not yet verified). */
  readonly approvers: readonly string[];
}

/** What a claim tells its holder to do. */
export interface Claim {
  readonly movementId: string;
  readonly token: number;
  /**
   * `send`: nothing of it has left (it was ready, or its previous holder stopped before journaling
   * `sent`); verify it, then `markSent` and send. `lookUp`: a previous holder journaled it `sent` and
   * stopped: ask the platform by its client id first; send again (same client id, `markSent`) only
   * if the platform proves it absent.
   */
  readonly action: 'send' | 'lookUp';
  /** Whether another desk held it before (its lease ran out). */
  readonly takenOver: boolean;
  /**
   * For `lookUp`: when its last attempt was journaled `sent` (the database's clock, ms) and how many
   * attempts there were — the engine's "proven absent" waits its settle time from there.
   */
  readonly sentAt?: number;
  readonly attempts: number;
  readonly evidence: MovementEvidence;
}

export type DecisionResult =
  | { readonly counted: true; readonly state: MovementState }
  | { readonly counted: false; readonly state: MovementState | 'unknown'; readonly reason: string };

interface MovementRow {
  id: string;
  profile_id: string;
  kind: string;
  request_key: string;
  client_id: string;
  currency: string;
  amount: string;
  usdt_value: string | null;
  batch_id: string | null;
  approvals_required: number;
  body: string;
  body_hash: string;
  maker_id: string;
  signature: string;
  state: MovementState;
  attempts: number;
  platform_id: string | null;
  label: string | null;
  message: string | null;
}

const toStored = (r: MovementRow): StoredMovement => ({
  id: r.id,
  profileId: r.profile_id,
  state: r.state,
  requestKey: r.request_key,
  clientId: r.client_id,
  attempts: r.attempts,
  platformId: r.platform_id,
  label: r.label,
  message: r.message,
});

/** What a profile spent in the 24 hours before now (the database's clock), for the limits. */
const readSpent = async (sql: TeamSql, profileId: string): Promise<SpentMovement[]> => {
  const rows = await sql.query<{
    kind: string;
    currency: string;
    amount: string;
    usdt_value: string | null;
    at: string;
  }>(
    `SELECT kind, currency, amount, usdt_value, ${sqlMs('created_at')} AS at FROM movements
      WHERE profile_id = $1 AND created_at > now() - interval '24 hours' AND NOT (state = ANY($2))`,
    [profileId, NOT_COUNTED],
  );
  return rows.map((r) => ({
    kind: r.kind,
    currency: r.currency,
    amount: r.amount,
    usdtValue: r.usdt_value,
    at: Number(r.at),
  }));
};

/** The columns a desk compares with the signed body (verify.ts). */
const columnsOf = (row: MovementRow): MovementEvidence['columns'] => ({
  id: row.id,
  profileId: row.profile_id,
  kind: row.kind,
  requestKey: row.request_key,
  clientId: row.client_id,
  currency: row.currency,
  amount: row.amount,
  usdtValue: row.usdt_value,
  approvalsRequired: row.approvals_required,
  batchId: row.batch_id,
});

/** A movement with what the Approvals screen shows beside it: its times and the approvers stored. */
const LISTED_SELECT = `SELECT m.*, ${sqlMs('m.created_at')} AS created_ms, ${sqlMs('m.expires_at')} AS expires_ms,
              ${sqlMs('m.updated_at')} AS updated_ms,
              ARRAY(SELECT d.operator_id FROM decisions d WHERE d.decision = 'approve'
                      AND ((d.subject_kind = 'movement' AND d.subject_id = m.id)
                        OR (d.subject_kind = 'batch' AND d.subject_id = m.batch_id))) AS approvers
         FROM movements m`;

type ListedRow = MovementRow & {
  created_ms: string;
  expires_ms: string | null;
  updated_ms: string;
  approvers: string[];
};

const toListed = (r: ListedRow): ListedMovement => ({
  ...toStored(r),
  body: r.body,
  makerId: r.maker_id,
  signature: r.signature,
  approvalsRequired: r.approvals_required,
  createdAt: Number(r.created_ms),
  expiresAt: r.expires_ms === null ? null : Number(r.expires_ms),
  updatedAt: Number(r.updated_ms),
  approvers: r.approvers,
});

export class TeamMovements {
  constructor(
    private readonly db: TeamDatabase,
    /** This desk's id (lease holder, `sent_by`). */
    private readonly deskId: string,
  ) {}

  /**
   * Journals a maker's signed request (and reserves its amount) unless the limits refuse it (POLICY,
   * nothing journaled). The same request key returns the movement already there (`joined`); the same
   * key with another request is refused.
   */
  async prepare(
    record: SignedRecord,
    request: MovementRequest,
    options: {
      readonly checkLimits: LimitCheck;
      /**
       * This desk sends it at once (it holds the profile's key and needs no approval): it is journaled
       * already claimed by this desk, with a lease this long, so no other desk takes it meanwhile.
       */
      readonly claimLeaseMs?: number;
    },
  ): Promise<{ readonly movement: StoredMovement; readonly joined: boolean; readonly claim?: Claim }> {
    const [result] = await this.journal([{ record, request }], undefined, options);
    return result!;
  }

  /**
   * Journals a batch (its signed record) and its rows in one transaction, the limits checked over all
   * of them at once: the whole batch is reserved, or nothing.
   */
  async prepareBatch(
    batch: { readonly record: SignedRecord; readonly batch: Batch },
    rows: readonly { readonly record: SignedRecord; readonly request: MovementRequest }[],
    options: { readonly checkLimits: LimitCheck },
  ): Promise<{ readonly movement: StoredMovement; readonly joined: boolean }[]> {
    return this.journal(rows, batch, options);
  }

  private journal(
    rows: readonly { readonly record: SignedRecord; readonly request: MovementRequest }[],
    batch: { readonly record: SignedRecord; readonly batch: Batch } | undefined,
    options: { readonly checkLimits: LimitCheck; readonly claimLeaseMs?: number },
  ): Promise<{ movement: StoredMovement; joined: boolean; claim?: Claim }[]> {
    const profiles = new Set(rows.map((r) => r.request.profileId));
    if (profiles.size !== 1) throw teamRefused('A batch moves money of one profile.', 'Split it by profile.');
    const profileId = rows[0]!.request.profileId;
    return this.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LIMITS_LOCK, profileId]);
      const results: ({ movement: StoredMovement; joined: boolean; claim?: Claim } | undefined)[] = [];
      const adding: MovementRequest[] = [];
      for (const row of rows) {
        const [existing] = await tx.query<MovementRow>('SELECT * FROM movements WHERE request_key = $1', [
          row.request.requestKey,
        ]);
        if (existing !== undefined && existing.body_hash !== sha256(row.record.body))
          throw teamRefused(
            'Another movement already uses this request key.',
            'Review the movement again: it is a new request, not a repeat.',
          );
        results.push(existing === undefined ? undefined : { movement: toStored(existing), joined: true });
        if (existing === undefined) adding.push(row.request);
      }
      if (adding.length === 0) return results.map((r) => r!);

      // Checked against the controls the team has now, not those the desk last heard of: a desk
      // that has not yet caught up with a new policy (a lower limit, a role taken away) must not
      // send under the old one. A change applied after this point applies to what comes after.
      const [head] = await tx.query<{ seq: string }>('SELECT max(seq) AS seq FROM control_chain');
      if (adding.some((request) => request.controlSeq < Number(head!.seq)))
        throw new DeskFailure({
          code: 'POLICY',
          message:
            "The team's controls changed while this was being confirmed (a policy, a limit or a role): nothing was sent.",
          advice: 'Review it again: it is checked against the controls as they are now.',
        });
      const [clock] = await tx.query<{ now: string }>(`SELECT ${sqlMs('now()')} AS now`);
      const spent = await readSpent(tx, profileId);
      const refusal = options.checkLimits(spent, adding, Number(clock!.now));
      if (refusal !== undefined) throw new DeskFailure({ code: 'POLICY', message: refusal });

      if (batch !== undefined)
        await tx.query(
          `INSERT INTO batches (id, profile_id, name, body, body_hash, maker_id, signature) VALUES ($1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT (id) DO NOTHING`,
          [
            batch.batch.batchId,
            profileId,
            batch.batch.name,
            batch.record.body,
            sha256(batch.record.body),
            batch.record.signer,
            batch.record.signature,
          ],
        );
      for (const [index, row] of rows.entries()) {
        if (results[index] !== undefined) continue;
        const r = row.request;
        const claimNow = options.claimLeaseMs !== undefined && r.approvalsRequired === 0;
        const [inserted] = await tx.query<MovementRow & { lease_token: string | null }>(
          `INSERT INTO movements (id, profile_id, kind, request_key, client_id, currency, amount, usdt_value, batch_id, row_no,
             approvals_required, body, body_hash, maker_id, signature, state, expires_at,
             lease_holder, lease_token, lease_expires_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, to_timestamp($17::double precision / 1000),
             $18, CASE WHEN $18::text IS NULL THEN NULL ELSE nextval('fencing_tokens') END,
             CASE WHEN $18::text IS NULL THEN NULL ELSE now() + ${sqlInterval('$19')} END)
           RETURNING *`,
          [
            r.movementId,
            r.profileId,
            r.kind,
            r.requestKey,
            r.clientId,
            r.currency,
            r.amount,
            r.usdtValue ?? null,
            r.batch?.id ?? null,
            r.batch?.row ?? null,
            r.approvalsRequired,
            row.record.body,
            sha256(row.record.body),
            row.record.signer,
            row.record.signature,
            r.approvalsRequired > 0 ? 'awaiting_approval' : claimNow ? 'claimed' : 'ready',
            r.expiresAt,
            claimNow ? this.deskId : null,
            options.claimLeaseMs ?? 0,
          ],
        );
        const claim: Claim | undefined = claimNow
          ? {
              movementId: r.movementId,
              token: Number(inserted!.lease_token),
              action: 'send',
              takenOver: false,
              attempts: 0,
              evidence: {
                request: row.record,
                columns: columnsOf(inserted!),
                decisions: [],
              },
            }
          : undefined;
        results[index] = { movement: toStored(inserted!), joined: false, ...(claim ? { claim } : {}) };
        await recordChange(tx, r.approvalsRequired > 0 ? 'approval.prepared' : 'movement.changed', r.movementId);
      }
      return results.map((r) => r!);
    });
  }

  /**
   * Records a signed approval or rejection of a movement or a whole batch. It counts only while what
   * it decides still waits (not expired, not decided); the same operator deciding twice counts once.
   * Movements that now have their approvals become `ready`; a rejection rejects what it decides.
   */
  async decide(record: SignedRecord, decision: Decision): Promise<DecisionResult> {
    const { kind, id } = decision.subject;
    if (kind === 'control') throw new TypeError('control changes are decided by TeamControl');
    return this.db.transaction(async (tx) => {
      // Lock what is decided (the movement, or every row of the batch) against expiry and other decisions.
      const waiting = await tx.query<{ id: string; state: MovementState; live: boolean }>(
        `SELECT id, state, expires_at > now() AS live FROM movements WHERE ${kind === 'movement' ? 'id' : 'batch_id'} = $1
          ORDER BY id FOR UPDATE`,
        [id],
      );
      if (waiting.length === 0) return { counted: false, state: 'unknown', reason: 'There is no such movement.' };
      const open = waiting.filter((m) => m.state === 'awaiting_approval' && m.live);
      if (open.length === 0)
        return { counted: false, state: waiting[0]!.state, reason: 'It no longer waits for a decision.' };
      const inserted = await tx.query(
        `INSERT INTO decisions (subject_kind, subject_id, operator_id, decision, body, signature)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING 1`,
        [kind, id, record.signer, decision.decision, record.body, record.signature],
      );
      if (inserted.length === 0)
        return { counted: false, state: open[0]!.state, reason: 'You have already decided it.' };
      const ids = open.map((m) => m.id);
      if (decision.decision === 'reject') {
        await tx.query(`UPDATE movements SET state = 'rejected', message = $2, updated_at = now() WHERE id = ANY($1)`, [
          ids,
          decision.reason,
        ]);
      } else {
        await tx.query(
          `UPDATE movements m SET state = 'ready', updated_at = now()
            WHERE m.id = ANY($1) AND m.approvals_required <= (
              SELECT count(DISTINCT d.operator_id) FROM decisions d
               WHERE d.decision = 'approve' AND d.operator_id <> m.maker_id
                 AND ((d.subject_kind = 'movement' AND d.subject_id = m.id)
                   OR (d.subject_kind = 'batch' AND d.subject_id = m.batch_id)))`,
          [ids],
        );
      }
      for (const movementId of ids) await recordChange(tx, 'movement.changed', movementId);
      const [after] = await tx.query<{ state: MovementState }>('SELECT state FROM movements WHERE id = $1', [ids[0]]);
      return { counted: true, state: after!.state };
    });
  }

  /** Marks every movement whose approval time is up as expired; returns their ids. */
  async expireDue(): Promise<string[]> {
    return this.db.transaction(async (tx) => {
      const rows = await tx.query<{ id: string }>(
        `UPDATE movements SET state = 'expired', updated_at = now()
          WHERE state = 'awaiting_approval' AND expires_at <= now() RETURNING id`,
      );
      for (const row of rows) await recordChange(tx, 'movement.changed', row.id);
      return rows.map((r) => r.id);
    });
  }

  /**
   * Movements of a profile for the Approvals screen and the activity (newest first), with their
   * signed request as stored: the caller verifies before it believes a word of it.
   */
  async list(
    profileId: string,
    options: { readonly states?: readonly MovementState[]; readonly limit?: number } = {},
  ): Promise<ListedMovement[]> {
    const rows = await this.db.query<ListedRow>(
      `${LISTED_SELECT} WHERE m.profile_id = $1 AND ($2::text[] IS NULL OR m.state = ANY($2))
        ORDER BY m.created_at DESC, m.id LIMIT $3`,
      [profileId, options.states ?? null, options.limit ?? 500],
    );
    return rows.map(toListed);
  }

  /** One movement of a profile as `list` gives it (a change heard, a decision): one row read, not the list. */
  async listed(profileId: string, movementId: string): Promise<ListedMovement | undefined> {
    const [row] = await this.db.query<ListedRow>(`${LISTED_SELECT} WHERE m.id = $1 AND m.profile_id = $2`, [
      movementId,
      profileId,
    ]);
    return row === undefined ? undefined : toListed(row);
  }

  /**
   * What the profile spent in the last 24 hours and the database's time now: read before a movement
   * is confirmed, to refuse early what the limits would refuse (`prepare` checks again, locked).
   */
  async spent(profileId: string): Promise<{ readonly spent: SpentMovement[]; readonly now: number }> {
    const [clock] = await this.db.query<{ now: string }>(`SELECT ${sqlMs('now()')} AS now`);
    return { spent: await readSpent(this.db, profileId), now: Number(clock!.now) };
  }

  /** Movements a desk refused to send because they did not verify (newest first): every desk's alert. */
  async blocked(limit = 20): Promise<{ readonly id: string; readonly message: string; readonly at: number }[]> {
    const rows = await this.db.query<{ id: string; message: string | null; at: string }>(
      `SELECT id, message, ${sqlMs('updated_at')} AS at FROM movements WHERE state = 'blocked' ORDER BY updated_at DESC LIMIT $1`,
      [limit],
    );
    return rows.map((r) => ({ id: r.id, message: r.message ?? 'it did not verify', at: Number(r.at) }));
  }

  /** The bodies of a profile's movements that went out (done), for "a destination never sent to". */
  async sentBodies(profileId: string, kind: string): Promise<string[]> {
    const rows = await this.db.query<{ body: string }>(
      `SELECT body FROM movements WHERE profile_id = $1 AND kind = $2 AND state = 'done'`,
      [profileId, kind],
    );
    return rows.map((r) => r.body);
  }

  /** The movement journaled under a request key (a repeat of a confirmation joins it), with its signed request. */
  async byRequestKey(requestKey: string): Promise<(StoredMovement & { readonly body: string }) | undefined> {
    const [row] = await this.db.query<MovementRow>('SELECT * FROM movements WHERE request_key = $1', [requestKey]);
    return row === undefined ? undefined : { ...toStored(row), body: row.body };
  }

  async get(movementId: string): Promise<StoredMovement | undefined> {
    const [row] = await this.db.query<MovementRow>('SELECT * FROM movements WHERE id = $1', [movementId]);
    return row === undefined ? undefined : toStored(row);
  }

  /** Everything a desk verifies a movement with (verify.ts). */
  async evidence(movementId: string, sql: TeamSql = this.db): Promise<MovementEvidence | undefined> {
    const [row] = await sql.query<MovementRow>('SELECT * FROM movements WHERE id = $1', [movementId]);
    if (row === undefined) return undefined;
    const decisionsOf = async (kind: string, id: string) =>
      (
        await sql.query<{ body: string; operator_id: string; signature: string }>(
          'SELECT body, operator_id, signature FROM decisions WHERE subject_kind = $1 AND subject_id = $2 ORDER BY decided_at',
          [kind, id],
        )
      ).map((d) => ({ body: d.body, signer: d.operator_id, signature: d.signature }));
    let batch: MovementEvidence['batch'];
    if (row.batch_id !== null) {
      const [b] = await sql.query<{ body: string; maker_id: string; signature: string }>(
        'SELECT body, maker_id, signature FROM batches WHERE id = $1',
        [row.batch_id],
      );
      if (b !== undefined)
        batch = {
          record: { body: b.body, signer: b.maker_id, signature: b.signature },
          decisions: await decisionsOf('batch', row.batch_id),
        };
    }
    return {
      request: { body: row.body, signer: row.maker_id, signature: row.signature },
      columns: columnsOf(row),
      decisions: await decisionsOf('movement', row.id),
      ...(batch !== undefined ? { batch } : {}),
    };
  }

  /**
   * Claims the oldest movement this desk can send (its profile's key is on this desk): a ready one, or
   * one whose holder's lease ran out. Undefined when there is none. Never blocks on a movement another
   * desk is claiming at the same moment (SKIP LOCKED).
   */
  async claim(
    profileIds: readonly string[],
    leaseMs: number = DEFAULT_LEASE_MS,
    /** Only this movement (the maker's own call sends what it just prepared). */
    only?: string,
  ): Promise<Claim | undefined> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.query<{
        id: string;
        state: MovementState;
        lease_holder: string | null;
        attempts: number;
        sent_at: string | null;
      }>(
        `SELECT id, state, lease_holder, attempts, ${sqlMs('sent_at')} AS sent_at FROM movements
          WHERE profile_id = ANY($1) AND ($2::text IS NULL OR id = $2)
            AND (state = 'ready' OR (state IN ('claimed', 'sent') AND lease_expires_at < now()))
          ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
        [profileIds, only ?? null],
      );
      if (row === undefined) return undefined;
      // The row is locked, so this holds; the condition again is a second guard, not the first.
      const [claimed] = await tx.query<{ token: string }>(
        `UPDATE movements SET state = CASE WHEN state = 'ready' THEN 'claimed' ELSE state END,
             lease_holder = $2, lease_token = nextval('fencing_tokens'), lease_expires_at = now() + ${sqlInterval('$3')},
             updated_at = now()
          WHERE id = $1 AND (state = 'ready' OR lease_expires_at < now()) RETURNING lease_token AS token`,
        [row.id, this.deskId, leaseMs],
      );
      if (claimed === undefined) return undefined;
      await recordChange(tx, 'movement.changed', row.id);
      return {
        movementId: row.id,
        token: Number(claimed!.token),
        action: row.state === 'sent' ? 'lookUp' : 'send',
        takenOver: row.lease_holder !== null,
        ...(row.sent_at !== null ? { sentAt: Number(row.sent_at) } : {}),
        attempts: row.attempts,
        evidence: (await this.evidence(row.id, tx))!,
      };
    });
  }

  /**
   * Called once when this desk's core starts: the leases this desk's previous run held (it was killed
   * or crashed mid-claim) run out now instead of after their full time, so they are claimed again at
   * once with a new fencing token — one journaled `sent` is looked up first, as any take-over. Only
   * leases taken before this call (tokens below one drawn now): what this run claims keeps its lease.
   * Safe because one process at a time runs a desk (its local journal is locked to it), so no run of
   * this desk can be mid-send on them; another desk's leases are untouched. Returns their ids.
   */
  async expireOwnLeases(): Promise<string[]> {
    return this.db.transaction(async (tx) => {
      const [watermark] = await tx.query<{ token: string }>(`SELECT nextval('fencing_tokens') AS token`);
      const rows = await tx.query<{ id: string }>(
        `UPDATE movements SET lease_expires_at = now() - interval '1 millisecond', updated_at = now()
          WHERE lease_holder = $1 AND lease_token < $2 AND state IN ('claimed', 'sent') AND lease_expires_at >= now()
          RETURNING id`,
        [this.deskId, watermark!.token],
      );
      for (const row of rows) await recordChange(tx, 'movement.changed', row.id);
      return rows.map((row) => row.id);
    });
  }

  /**
   * Journals `sent` with the claim's fencing token: call it before the request leaves. Throws
   * LeaseLost (send nothing) when this desk's lease ran out or another desk holds the movement now.
   */
  async markSent(claim: Claim): Promise<void> {
    await this.db.transaction(async (tx) => {
      const rows = await tx.query(
        `UPDATE movements SET state = 'sent', sent_token = $2, sent_by = $3, sent_at = now(), attempts = attempts + 1,
             updated_at = now()
          WHERE id = $1 AND lease_token = $2 AND lease_holder = $3 AND lease_expires_at > now() AND state IN ('claimed', 'sent')
          RETURNING 1`,
        [claim.movementId, claim.token, this.deskId],
      );
      if (rows.length === 0) throw new LeaseLost(claim.movementId);
      await recordChange(tx, 'movement.changed', claim.movementId);
    });
  }

  /** Extends the lease while a request or a look-up takes longer; LeaseLost when it already ran out. */
  async renew(claim: Claim, leaseMs: number = DEFAULT_LEASE_MS): Promise<void> {
    const rows = await this.db.query(
      `UPDATE movements SET lease_expires_at = now() + ${sqlInterval('$4')}
        WHERE id = $1 AND lease_token = $2 AND lease_holder = $3 AND lease_expires_at > now() RETURNING 1`,
      [claim.movementId, claim.token, this.deskId, leaseMs],
    );
    if (rows.length === 0) throw new LeaseLost(claim.movementId);
  }

  /**
   * Records the platform's answer: `done` (it executed; its platform id) or `failed` (it certainly did
   * not and will not). For a movement journaled `sent` this is a fact from the platform and is written
   * whoever holds the lease; for one only claimed (refused before sending) it needs the claim's token.
   * A movement already settled stays as it is. Returns the movement as it stands.
   */
  async settle(
    movementId: string,
    outcome: {
      readonly state: 'done' | 'failed';
      readonly platformId?: string;
      readonly label?: string;
      readonly message?: string;
    },
    token?: number,
  ): Promise<StoredMovement> {
    return this.db.transaction(async (tx) => {
      const rows = await tx.query<MovementRow>(
        `UPDATE movements SET state = $2, platform_id = coalesce($3, platform_id), label = $4, message = $5,
             lease_holder = NULL, lease_token = NULL, lease_expires_at = NULL, updated_at = now()
          WHERE id = $1 AND (state = 'sent' OR (state = 'claimed' AND lease_token = $6)) RETURNING *`,
        [
          movementId,
          outcome.state,
          outcome.platformId ?? null,
          outcome.label ?? null,
          outcome.message ?? null,
          token ?? null,
        ],
      );
      if (rows.length > 0) await recordChange(tx, 'movement.changed', movementId);
      const [row] =
        rows.length > 0 ? rows : await tx.query<MovementRow>('SELECT * FROM movements WHERE id = $1', [movementId]);
      if (row === undefined) throw teamRefused('There is no such movement in the team journal.', 'Refresh the list.');
      return toStored(row);
    });
  }

  /**
   * Refuses a claimed movement whose signature chain does not verify: `blocked`, never sent, with the
   * problem every desk shows. Needs the claim's token (only the holder decides about it).
   */
  async block(claim: Claim, problem: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const rows = await tx.query(
        `UPDATE movements SET state = 'blocked', message = $3, lease_holder = NULL, lease_token = NULL, lease_expires_at = NULL,
             updated_at = now()
          WHERE id = $1 AND lease_token = $2 AND state = 'claimed' RETURNING 1`,
        [claim.movementId, claim.token, problem],
      );
      if (rows.length === 0) throw new LeaseLost(claim.movementId);
      await recordChange(tx, 'movement.changed', claim.movementId);
    });
  }

  /**
   * Gives back a movement journaled `sent` whose request never left this desk (its own rate limiter
   * held it past the request's timeout: certainly not sent): `ready` again, claimed and sent later by
   * this desk or another with the same client id. Only the holder, with its token; LeaseLost otherwise
   * (another desk took it over and looks it up first).
   */
  async requeue(claim: Claim): Promise<void> {
    await this.db.transaction(async (tx) => {
      const rows = await tx.query(
        `UPDATE movements SET state = 'ready', lease_holder = NULL, lease_token = NULL, lease_expires_at = NULL, updated_at = now()
          WHERE id = $1 AND lease_token = $2 AND lease_holder = $3 AND state = 'sent' RETURNING 1`,
        [claim.movementId, claim.token, this.deskId],
      );
      if (rows.length === 0) throw new LeaseLost(claim.movementId);
      await recordChange(tx, 'movement.changed', claim.movementId);
    });
  }

  /** Gives a claimed, unsent movement back (the desk is stopping); another desk may claim it at once. */
  async release(claim: Claim): Promise<void> {
    await this.db.transaction(async (tx) => {
      const rows = await tx.query(
        `UPDATE movements SET state = 'ready', lease_holder = NULL, lease_token = NULL, lease_expires_at = NULL, updated_at = now()
          WHERE id = $1 AND lease_token = $2 AND state = 'claimed' RETURNING 1`,
        [claim.movementId, claim.token],
      );
      if (rows.length > 0) await recordChange(tx, 'movement.changed', claim.movementId);
    });
  }
}
