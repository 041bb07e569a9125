/**
 * The Approvals queue's table: movements that the policy says need an approver other than their
 * maker, batches waiting as one item, and control changes waiting for a second administrator.
 * Each one is journaled (a row of `approvals` in the journal database, written before the maker's
 * call returns), so it survives restarts. It leaves `pending` exactly once — approved, rejected,
 * expired or cancelled (a batch withdrawn in Bulk) — by a conditional UPDATE, so two approvers (or
 * an approval racing the expiry) cannot both win; an approved movement is sent through the movement
 * journal under its own request key, which makes the send itself exactly-once.
 *
 * `profile_id` is '' for a desk-wide item (a change of operators): it shows in every profile's queue.
 */
import { randomUUID } from 'node:crypto';
import type { Approval, ApprovalKind, ApprovalState } from '../../shared/contract/policies';
import { type Db, statement } from '../journal/db';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS approvals (
  id TEXT PRIMARY KEY,
  profile_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  state TEXT NOT NULL,
  request_key TEXT NOT NULL UNIQUE,
  request TEXT NOT NULL,
  currency TEXT NOT NULL,
  amount TEXT NOT NULL,
  usdt TEXT,
  destination TEXT NOT NULL,
  summary TEXT NOT NULL,
  reasons TEXT NOT NULL,
  maker_id TEXT NOT NULL,
  maker_name TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  decided_by TEXT,
  decided_at INTEGER,
  reason TEXT,
  movement_id TEXT,
  outcome TEXT,
  origin TEXT
);
CREATE INDEX IF NOT EXISTS approvals_profile_state ON approvals(profile_id, state);
`;

interface Row {
  id: string;
  profile_id: string;
  kind: ApprovalKind;
  state: ApprovalState;
  request_key: string;
  request: string;
  currency: string;
  amount: string;
  usdt: string | null;
  destination: string;
  summary: string;
  reasons: string;
  maker_id: string;
  maker_name: string;
  created_at: number;
  expires_at: number;
  decided_by: string | null;
  decided_at: number | null;
  reason: string | null;
  movement_id: string | null;
  outcome: string | null;
  origin: string | null;
}

/** A stored approval with the request main will send once it is approved. */
export interface StoredApproval extends Approval {
  readonly requestKey: string;
  /** The movement's parameters, exactly as the maker confirmed them. */
  readonly request: Record<string, unknown>;
}

export interface NewApproval {
  readonly profileId: string;
  readonly kind: ApprovalKind;
  readonly requestKey: string;
  readonly request: Record<string, unknown>;
  readonly currency: string;
  readonly amount: string;
  readonly usdtValue?: string | undefined;
  readonly destination: string;
  readonly summary: string;
  readonly reasons: readonly string[];
  readonly makerId: string;
  readonly makerName: string;
  readonly createdAt: number;
  readonly expiresAt: number;
  /** Where it was prepared (Approval.origin). */
  readonly origin?: string | undefined;
}

const toApproval = (r: Row): StoredApproval => ({
  id: r.id,
  profileId: r.profile_id,
  kind: r.kind,
  state: r.state,
  currency: r.currency,
  amount: r.amount,
  ...(r.usdt !== null ? { usdtValue: r.usdt } : {}),
  destination: r.destination,
  summary: r.summary,
  reasons: JSON.parse(r.reasons) as string[],
  makerId: r.maker_id,
  makerName: r.maker_name,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  ...(r.decided_by !== null ? { decidedBy: r.decided_by } : {}),
  ...(r.decided_at !== null ? { decidedAt: r.decided_at } : {}),
  ...(r.reason !== null ? { reason: r.reason } : {}),
  ...(r.movement_id !== null ? { movementId: r.movement_id } : {}),
  ...(r.outcome !== null ? { outcome: r.outcome } : {}),
  ...(r.origin ? { origin: r.origin } : {}),
  requestKey: r.request_key,
  request: JSON.parse(r.request) as Record<string, unknown>,
});

export class ApprovalStore {
  constructor(private readonly db: Db) {
    db.exec(SCHEMA);
    // A journal whose table predates the origin column gets it (items without one show none).
    const columns = db.prepare<[], { name: string }>('PRAGMA table_info(approvals)').all();
    if (!columns.some((c) => c.name === 'origin')) db.exec('ALTER TABLE approvals ADD COLUMN origin TEXT');
  }

  /** Adds a pending approval; the same request key returns the one already there. */
  add(a: NewApproval): StoredApproval {
    const id = `ap_${randomUUID()}`;
    statement(
      this.db,
      `INSERT OR IGNORE INTO approvals (id, profile_id, kind, state, request_key, request, currency, amount, usdt,
           destination, summary, reasons, maker_id, maker_name, created_at, expires_at, origin)
         VALUES (?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      id,
      a.profileId,
      a.kind,
      a.requestKey,
      JSON.stringify(a.request),
      a.currency,
      a.amount,
      a.usdtValue ?? null,
      a.destination,
      a.summary,
      JSON.stringify(a.reasons),
      a.makerId,
      a.makerName,
      a.createdAt,
      a.expiresAt,
      a.origin ?? null,
    );
    return this.byRequestKey(a.requestKey) as StoredApproval;
  }

  get(id: string): StoredApproval | undefined {
    const row = statement<[string], Row>(this.db, 'SELECT * FROM approvals WHERE id = ?').get(id);
    return row ? toApproval(row) : undefined;
  }

  byRequestKey(requestKey: string): StoredApproval | undefined {
    const row = statement<[string], Row>(this.db, 'SELECT * FROM approvals WHERE request_key = ?').get(requestKey);
    return row ? toApproval(row) : undefined;
  }

  /** This profile's items and the desk-wide ones: pending first (oldest first), then the rest (newest first). */
  list(profileId: string, state?: ApprovalState, limit = 500): StoredApproval[] {
    const rows = statement<[string, string | null, string | null, number], Row>(
      this.db,
      `SELECT * FROM approvals WHERE profile_id IN (?, '') AND (? IS NULL OR state = ?)
         ORDER BY CASE state WHEN 'pending' THEN 0 ELSE 1 END,
                  CASE state WHEN 'pending' THEN created_at ELSE -created_at END
         LIMIT ?`,
    ).all(profileId, state ?? null, state ?? null, limit);
    return rows.map(toApproval);
  }

  /** Marks every pending approval whose time is up as expired; returns those it changed. */
  expireDue(now: number): StoredApproval[] {
    const due = statement<[number], Row>(
      this.db,
      `SELECT * FROM approvals WHERE state = 'pending' AND expires_at <= ?`,
    ).all(now);
    const changed: StoredApproval[] = [];
    for (const row of due) {
      const info = statement(
        this.db,
        `UPDATE approvals SET state = 'expired', decided_at = ? WHERE id = ? AND state = 'pending'`,
      ).run(now, row.id);
      if (info.changes === 1) changed.push(this.get(row.id) as StoredApproval);
    }
    return changed;
  }

  /**
   * Moves a pending approval to `approved` or `rejected`. Returns false when it was no longer
   * pending (decided by someone else, expired): exactly one decision wins.
   */
  decide(id: string, state: 'approved' | 'rejected', by: string, reason: string, now: number): boolean {
    const info = statement(
      this.db,
      `UPDATE approvals SET state = ?, decided_by = ?, decided_at = ?, reason = ?
         WHERE id = ? AND state = 'pending' AND expires_at > ?`,
    ).run(state, by, now, reason, id, now);
    return info.changes === 1;
  }

  /**
   * Withdraws a pending approval (`cancelled`: what it was for was cancelled before anyone decided
   * it). Returns false when it was no longer pending: a decision made first stands.
   */
  withdraw(id: string, by: string, reason: string, now: number): boolean {
    const info = statement(
      this.db,
      `UPDATE approvals SET state = 'cancelled', decided_by = ?, decided_at = ?, reason = ?
         WHERE id = ? AND state = 'pending'`,
    ).run(by, now, reason, id);
    return info.changes === 1;
  }

  /** After the send: `sent` (the journal has the movement) or `failed` with the words why. */
  settle(id: string, state: 'sent' | 'failed', movementId: string | undefined, outcome: string | undefined): void {
    statement(
      this.db,
      `UPDATE approvals SET state = ?, movement_id = COALESCE(?, movement_id), outcome = ? WHERE id = ?`,
    ).run(state, movementId ?? null, outcome ?? null, id);
  }

  /** Approved ones left by a core that stopped between the approval and the send. */
  approvedUnsent(): StoredApproval[] {
    return statement<[], Row>(this.db, `SELECT * FROM approvals WHERE state = 'approved'`).all().map(toApproval);
  }

  /** Pending items of one maker created since `since` (for the "possible duplicate" hint). */
  pendingOf(makerId: string, since: number): StoredApproval[] {
    return statement<[string, number], Row>(
      this.db,
      `SELECT * FROM approvals WHERE maker_id = ? AND state = 'pending' AND created_at >= ? ORDER BY created_at`,
    )
      .all(makerId, since)
      .map(toApproval);
  }
}
