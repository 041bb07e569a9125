/**
 * Append-only audit log with an HMAC chain: each entry's hash is an HMAC-SHA256, keyed by a secret
 * kept in the OS keychain (never in the journal), over the previous entry's hash, the entry's own
 * number and its fields. Editing a row — even with a SQLite tool, bypassing the append-only
 * triggers, and recomputing every hash — shows up in verify(): without the key nobody can compute
 * a hash that matches. Truncation (deleting the last entries) leaves a valid chain behind; the
 * head kept in the keychain (count, number and hash of the last entry) catches it, checked at
 * every start (activity/auditTrust.ts).
 *
 * Journals written before this version hold a plain SHA-256 chain (`verifyLegacyChain`);
 * `resignChain` re-keys such a chain once, at the first start after the upgrade, and the log says so.
 */
import { createHash, createHmac } from 'node:crypto';
import { toCsv } from '../../shared/format/csv';
import { redactBody } from '../api/client';
import { type Db, statement } from './db';
import type { AuditEntry, AuditFilter, AuditHead, AuditInput, AuditLog, AuditVerdict } from './types';

/** The "previous hash" of the first entry. */
const GENESIS = '0'.repeat(64);

/**
 * What an entry keeps of a call's parameters: enough to say what was done, never a copy of a huge
 * payload (the log is append-only; every entry would stay forever).
 */
export const AUDIT_PARAMS_MAX = 4_000;
/** Likewise for the action and account fields. */
const AUDIT_FIELD_MAX = 200;

/** The columns of the audit export (`exportCsv`), in order. */
export const AUDIT_CSV_HEADER = [
  'seq',
  'time_utc',
  'profile',
  'action',
  'account',
  'parameters',
  'outcome',
  'label',
  'request_id',
  'operator',
  'hash',
] as const;

const capped = (text: string, max: number): string =>
  text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more characters not kept]`;

const redact = (params: unknown): string =>
  params === undefined
    ? ''
    : capped(redactBody(typeof params === 'string' ? safeParse(params) : params) ?? '', AUDIT_PARAMS_MAX);

const safeParse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

type Row = Omit<AuditEntry, 'profileId' | 'requestId'> & { profile_id: string; request_id: string };
type Fields = Omit<AuditEntry, 'hash'>;

/** The fields every hash covers, in order (after the previous hash). */
const covered = (e: Fields) => [e.at, e.profileId, e.action, e.account, e.params, e.outcome, e.label, e.requestId];

/** The entry's hash: HMAC-SHA256 under the chain key over the previous hash, its number and every field. */
const hmacOf = (key: Buffer, prev: string, e: Fields): string =>
  createHmac('sha256', key)
    .update(JSON.stringify([prev, e.seq, ...covered(e), e.operator]))
    .digest('hex');

/**
 * The chain written before the HMAC chain (plain SHA-256, kept only to check a journal once before
 * it is re-keyed). The operator was covered only when there was one.
 */
const legacyHashOf = (prev: string, e: Fields): string =>
  createHash('sha256')
    .update(JSON.stringify([prev, ...covered(e), ...(e.operator ? [e.operator] : [])]))
    .digest('hex');

const toEntry = (r: Row): AuditEntry => ({
  seq: r.seq,
  at: r.at,
  profileId: r.profile_id,
  action: r.action,
  account: r.account,
  params: r.params,
  outcome: r.outcome,
  label: r.label,
  requestId: r.request_id,
  operator: r.operator ?? '',
  hash: r.hash,
});

const allRows = (db: Db): IterableIterator<Row> =>
  db.prepare<[], Row>('SELECT * FROM audit ORDER BY seq ASC').iterate();

/** Walks the chain with `hashOf`; the first entry whose hash does not match, or the head. */
const walk = (db: Db, hashOf: (prev: string, e: Fields) => string): AuditVerdict => {
  let prev = GENESIS;
  let count = 0;
  let seq = 0;
  for (const row of allRows(db)) {
    const entry = toEntry(row);
    if (hashOf(prev, entry) !== entry.hash) return { ok: false, brokenAtSeq: entry.seq };
    prev = entry.hash;
    seq = entry.seq;
    count++;
  }
  return { ok: true, entries: count, head: { count, seq, hash: prev } };
};

/** Checks the chain under `key` (what `AuditLog.verify` does, for a key not yet in use). */
export const verifyChain = (db: Db, key: Buffer): AuditVerdict => walk(db, (prev, e) => hmacOf(key, prev, e));

/** Whether the journal holds a plain SHA-256 chain from before the HMAC chain, and whether it is intact. */
export const verifyLegacyChain = (db: Db): AuditVerdict => walk(db, legacyHashOf);

/**
 * Re-keys the chain: every entry's hash is computed again under `key`, over the entries as they
 * stand. Used once to migrate a journal from before the HMAC chain, and when an administrator
 * acknowledges a failed check (the failure and the acknowledgement are entries of the log itself).
 * The append-only trigger is lifted for this transaction only.
 */
export const resignChain = (db: Db, key: Buffer): AuditHead =>
  db
    .transaction((): AuditHead => {
      const rows = statement<[], Row>(db, 'SELECT * FROM audit ORDER BY seq ASC').all();
      db.exec('DROP TRIGGER IF EXISTS audit_append_only_update');
      const update = statement(db, 'UPDATE audit SET hash = ? WHERE seq = ?');
      let prev = GENESIS;
      for (const row of rows) {
        prev = hmacOf(key, prev, toEntry(row));
        update.run(prev, row.seq);
      }
      db.exec(`CREATE TRIGGER audit_append_only_update BEFORE UPDATE ON audit
        BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END`);
      return { count: rows.length, seq: rows.at(-1)?.seq ?? 0, hash: prev };
    })
    .immediate();

export interface AuditLogOptions {
  /** The HMAC key of the chain (from the OS keychain: activity/auditTrust.ts). */
  readonly key: Buffer;
  /** The profile an entry belongs to unless it says. */
  readonly activeProfileId: () => string;
  readonly now?: () => number;
  /** The name of the operator signed in ('' when nobody is). */
  readonly operatorName?: () => string;
  /** Called after every entry with the new head (the keychain keeps it). */
  readonly onAppend?: (head: AuditHead) => void;
}

export const createAuditLog = (db: Db, options: AuditLogOptions): AuditLog => {
  const { key } = options;
  const now = options.now ?? Date.now;
  const operatorName = options.operatorName ?? (() => '');
  const last = statement<[], { seq: number; hash: string }>(
    db,
    'SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1',
  );
  const count = statement<[], { n: number }>(db, 'SELECT COUNT(*) AS n FROM audit');
  const insert = statement(
    db,
    'INSERT INTO audit (seq, at, profile_id, action, account, params, outcome, label, request_id, operator, hash) VALUES (?,?,?,?,?,?,?,?,?,?,?)',
  );
  const append = db.transaction((fields: Omit<Fields, 'seq'>): { entry: AuditEntry; head: AuditHead } => {
    const previous = last.get();
    const entry: Fields = { ...fields, seq: (previous?.seq ?? 0) + 1 };
    const hash = hmacOf(key, previous?.hash ?? GENESIS, entry);
    insert.run(
      entry.seq,
      entry.at,
      entry.profileId,
      entry.action,
      entry.account,
      entry.params,
      entry.outcome,
      entry.label,
      entry.requestId,
      entry.operator,
      hash,
    );
    return { entry: { ...entry, hash }, head: { count: count.get()?.n ?? 0, seq: entry.seq, hash } };
  });

  const where = (filter: AuditFilter): { sql: string; args: unknown[] } => {
    const clauses: string[] = [];
    const args: unknown[] = [];
    if (filter.profileId) clauses.push('profile_id = ?') && args.push(filter.profileId);
    if (filter.action) clauses.push('action = ?') && args.push(filter.action);
    if (filter.outcome) clauses.push('outcome = ?') && args.push(filter.outcome);
    if (filter.from !== undefined) clauses.push('at >= ?') && args.push(filter.from);
    if (filter.to !== undefined) clauses.push('at <= ?') && args.push(filter.to);
    if (filter.beforeSeq !== undefined) clauses.push('seq < ?') && args.push(filter.beforeSeq);
    if (filter.text) {
      const like = `%${filter.text.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
      clauses.push(
        "(action LIKE ? ESCAPE '\\' OR account LIKE ? ESCAPE '\\' OR params LIKE ? ESCAPE '\\' OR label LIKE ? ESCAPE '\\' OR request_id LIKE ? ESCAPE '\\' OR operator LIKE ? ESCAPE '\\')",
      );
      args.push(like, like, like, like, like, like);
    }
    return { sql: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', args };
  };

  const select = (filter: AuditFilter, order: 'ASC' | 'DESC'): AuditEntry[] => {
    const { sql, args } = where(filter);
    const limit = filter.limit ?? (order === 'DESC' ? 500 : -1);
    return statement<unknown[], Row>(db, `SELECT * FROM audit ${sql} ORDER BY seq ${order} LIMIT ?`)
      .all(...args, limit)
      .map(toEntry);
  };

  return {
    record: (input: AuditInput) => {
      const { entry, head } = append({
        at: now(),
        profileId: input.profileId ?? options.activeProfileId(),
        action: capped(input.action, AUDIT_FIELD_MAX),
        account: capped(input.account ?? '', AUDIT_FIELD_MAX),
        params: redact(input.params),
        outcome: input.outcome,
        label: input.label ?? '',
        requestId: input.requestId ?? '',
        operator: capped(input.operator ?? operatorName(), AUDIT_FIELD_MAX),
      });
      options.onAppend?.(head);
      return entry;
    },
    list: (filter = {}) => select(filter, 'DESC'),
    verify: () => verifyChain(db, key),
    exportCsv: (filter = {}) =>
      toCsv(
        AUDIT_CSV_HEADER,
        select({ ...filter, limit: filter.limit ?? -1 }, 'ASC').map((e) => [
          String(e.seq),
          new Date(e.at).toISOString(),
          e.profileId,
          e.action,
          e.account,
          e.params,
          e.outcome,
          e.label,
          e.requestId,
          e.operator,
          e.hash,
        ]),
      ),
  };
};
