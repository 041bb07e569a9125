/**
 * The batch journal: `batches` and `batch_rows` (created by migration 4 in journal/db.ts). A batch
 * is written whole, in one transaction, before its first row is sent; each row carries the request
 * key of its current attempt (`requestKeyOf`), so the movement it journals through the ordinary
 * handlers can always be found again — after a crash too.
 */
import { createHash, randomUUID } from 'node:crypto';
import type {
  BatchCounts,
  BatchRowInput,
  BatchRowState,
  BatchRowView,
  BatchState,
  BatchSummary,
} from '../../shared/contract/bulk';
import { type Db, statement } from '../journal/db';
import { accountText } from './csv';
import { destinationText, kindText, sourceOf } from './validate';

export type BatchKind = BatchSummary['kind'];

interface BatchDbRow {
  id: string;
  profile_id: string;
  kind: BatchKind;
  name: string;
  state: BatchState;
  created_at: number;
  updated_at: number;
  started_at: number | null;
  finished_at: number | null;
  /** When and by whom the batch was confirmed as a whole in the trusted window (null: not yet). */
  confirmed_at: number | null;
  confirmed_by: string;
}

export interface StoredRow {
  batch_id: string;
  row_no: number;
  input: string;
  attempt: number;
  request_key: string;
  state: BatchRowState;
  movement_id: string | null;
  client_id: string | null;
  platform_id: string | null;
  label: string | null;
  message: string | null;
  updated_at: number;
}

/**
 * The request key of a row's attempt: a UUID (version 5 layout) from SHA-256 of the batch id, the
 * row number and the attempt. The same row and attempt always give the same key, so a row re-run
 * after a crash joins the movement it journaled (UNIQUE key on the intent) instead of sending again;
 * a retry the operator asks for is a new attempt, hence a new movement.
 */
export const requestKeyOf = (batchId: string, row: number, attempt: number): string => {
  const hash = createHash('sha256').update(`treasury-desk/batch-row/${batchId}/${row}/${attempt}`).digest();
  hash[6] = ((hash[6] ?? 0) & 0x0f) | 0x50;
  hash[8] = ((hash[8] ?? 0) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
};

export const OPEN_ROW_STATES: readonly BatchRowState[] = ['pending', 'sending', 'checking'];

export class BatchStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  create(input: {
    profileId: string;
    kind: BatchKind;
    name: string;
    rows: readonly { row: number; input: BatchRowInput }[];
  }): string {
    const id = `b${randomUUID().replace(/-/g, '').slice(0, 20)}`;
    const at = this.now();
    const insertRow = statement(
      this.db,
      `INSERT INTO batch_rows (batch_id, row_no, input, attempt, request_key, state, updated_at)
       VALUES (?, ?, ?, 0, ?, 'pending', ?)`,
    );
    this.db.transaction(() => {
      statement(
        this.db,
        `INSERT INTO batches (id, profile_id, kind, name, state, created_at, updated_at) VALUES (?, ?, ?, ?, 'ready', ?, ?)`,
      ).run(id, input.profileId, input.kind, input.name, at, at);
      for (const r of input.rows) insertRow.run(id, r.row, JSON.stringify(r.input), requestKeyOf(id, r.row, 0), at);
    })();
    return id;
  }

  batch(id: string): BatchDbRow | undefined {
    return statement<[string], BatchDbRow>(this.db, 'SELECT * FROM batches WHERE id = ?').get(id);
  }

  list(profileId: string, limit = 100): BatchDbRow[] {
    return statement<[string, number], BatchDbRow>(
      this.db,
      'SELECT * FROM batches WHERE profile_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?',
    ).all(profileId, limit);
  }

  /** Batches that were running (or paused) when the core stopped. */
  unfinished(): BatchDbRow[] {
    return statement<[], BatchDbRow>(
      this.db,
      "SELECT * FROM batches WHERE state IN ('running', 'paused', 'cancelled') ORDER BY created_at",
    ).all();
  }

  /** Batches waiting as one item in the Approvals queue. */
  awaitingApproval(): BatchDbRow[] {
    return statement<[], BatchDbRow>(
      this.db,
      "SELECT * FROM batches WHERE state = 'approval' ORDER BY created_at",
    ).all();
  }

  /** The operator confirmed the whole batch in the trusted window: its rows go out under that confirmation. */
  confirmed(id: string, by: string): void {
    const at = this.now();
    statement(this.db, 'UPDATE batches SET confirmed_at = ?, confirmed_by = ?, updated_at = ? WHERE id = ?').run(
      at,
      by,
      at,
      id,
    );
  }

  setState(id: string, state: BatchState): void {
    const at = this.now();
    statement(
      this.db,
      `UPDATE batches SET state = ?, updated_at = ?,
           started_at = CASE WHEN ? = 'running' AND started_at IS NULL THEN ? ELSE started_at END,
           finished_at = CASE WHEN ? IN ('finished') THEN ? ELSE finished_at END
         WHERE id = ?`,
    ).run(state, at, state, at, state, at, id);
  }

  /** A cancelled batch whose last row has settled. */
  ended(id: string): void {
    const at = this.now();
    statement(this.db, 'UPDATE batches SET finished_at = ?, updated_at = ? WHERE id = ? AND finished_at IS NULL').run(
      at,
      at,
      id,
    );
  }

  rows(batchId: string): StoredRow[] {
    return statement<[string], StoredRow>(this.db, 'SELECT * FROM batch_rows WHERE batch_id = ? ORDER BY row_no').all(
      batchId,
    );
  }

  rowsIn(batchId: string, states: readonly BatchRowState[]): StoredRow[] {
    return statement<[string], StoredRow>(
      this.db,
      `SELECT * FROM batch_rows WHERE batch_id = ? AND state IN (${states.map((s) => `'${s}'`).join(',')}) ORDER BY row_no`,
    ).all(batchId);
  }

  row(batchId: string, rowNo: number): StoredRow | undefined {
    return statement<[string, number], StoredRow>(
      this.db,
      'SELECT * FROM batch_rows WHERE batch_id = ? AND row_no = ?',
    ).get(batchId, rowNo);
  }

  updateRow(
    batchId: string,
    rowNo: number,
    fields: Partial<Pick<StoredRow, 'state' | 'movement_id' | 'client_id' | 'platform_id' | 'label' | 'message'>>,
  ): void {
    const entries = Object.entries(fields);
    if (entries.length === 0) return;
    const sets = entries.map(([k]) => `${k} = ?`).join(', ');
    statement(this.db, `UPDATE batch_rows SET ${sets}, updated_at = ? WHERE batch_id = ? AND row_no = ?`).run(
      ...entries.map(([, v]) => v ?? null),
      this.now(),
      batchId,
      rowNo,
    );
  }

  /** Cancels the rows not sent yet (pending); returns how many. */
  cancelPending(batchId: string): number {
    return statement(
      this.db,
      "UPDATE batch_rows SET state = 'cancelled', updated_at = ? WHERE batch_id = ? AND state = 'pending'",
    ).run(this.now(), batchId).changes;
  }

  /** Failed rows become pending again as a new attempt (a new request key, hence a new movement). */
  retryFailed(batchId: string): number {
    const failed = this.rowsIn(batchId, ['failed']);
    const update = statement(
      this.db,
      `UPDATE batch_rows SET state = 'pending', attempt = ?, request_key = ?, movement_id = NULL, client_id = NULL,
         platform_id = NULL, label = NULL, message = NULL, updated_at = ? WHERE batch_id = ? AND row_no = ?`,
    );
    this.db.transaction(() => {
      for (const r of failed) {
        const attempt = r.attempt + 1;
        update.run(attempt, requestKeyOf(batchId, r.row_no, attempt), this.now(), batchId, r.row_no);
      }
    })();
    return failed.length;
  }

  counts(batchId: string): BatchCounts {
    const counts: BatchCounts = { total: 0, pending: 0, sending: 0, checking: 0, done: 0, failed: 0, cancelled: 0 };
    for (const r of statement<[string], { state: BatchRowState; n: number }>(
      this.db,
      'SELECT state, COUNT(*) AS n FROM batch_rows WHERE batch_id = ? GROUP BY state',
    ).all(batchId)) {
      counts[r.state] = r.n;
      counts.total += r.n;
    }
    return counts;
  }

  summary(id: string, note?: string): BatchSummary | undefined {
    const b = this.batch(id);
    if (!b) return undefined;
    return {
      id: b.id,
      profileId: b.profile_id,
      name: b.name,
      kind: b.kind,
      state: b.state,
      createdAt: b.created_at,
      ...(b.started_at !== null ? { startedAt: b.started_at } : {}),
      ...(b.finished_at !== null ? { finishedAt: b.finished_at } : {}),
      counts: this.counts(id),
      ...(note ? { note } : {}),
    };
  }
}

/**
 * Whether a batch still waits for its approval item: `approval`, or `ready` left by a core that
 * stopped between journaling the item and the batch's state. Only then may the item start or
 * cancel it.
 */
export const waitsForApproval = (state: BatchState | undefined): boolean => state === 'approval' || state === 'ready';

export const inputOf = (row: StoredRow): BatchRowInput => JSON.parse(row.input) as BatchRowInput;

export const rowView = (r: StoredRow): BatchRowView => {
  const input = inputOf(r);
  return {
    row: r.row_no,
    kind: kindText(input),
    currency: input.currency,
    amount: input.amount,
    from: accountText(sourceOf(input)),
    to: destinationText(input),
    ...(input.reference ? { reference: input.reference } : {}),
    state: r.state,
    attempt: r.attempt,
    ...(r.movement_id ? { movementId: r.movement_id } : {}),
    ...(r.client_id ? { clientId: r.client_id } : {}),
    ...(r.platform_id ? { platformId: r.platform_id } : {}),
    ...(r.label ? { label: r.label } : {}),
    ...(r.message ? { message: r.message } : {}),
    updatedAt: r.updated_at,
  };
};
