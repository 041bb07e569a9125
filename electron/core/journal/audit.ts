/**
 * Append-only audit log with a hash chain: each entry's hash covers the previous hash and the
 * entry's own fields, so editing or deleting a row (even with a SQLite tool, bypassing the
 * append-only triggers) shows up in verify().
 */
import { createHash } from 'node:crypto';
import { csvField } from '../../../shared/format/csv';
import { redactBody } from '../api/client';
import type { Db } from './db';
import type { AuditEntry, AuditFilter, AuditInput, AuditLog } from './types';

const GENESIS = '0'.repeat(64);

/**
 * What an entry keeps of a call's parameters: enough to say what was done, never a copy of a huge
 * payload (the log is append-only; every entry would stay forever).
 */
export const AUDIT_PARAMS_MAX = 4_000;
/** Likewise for the action and account fields. */
const AUDIT_FIELD_MAX = 200;

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

/**
 * The operator is covered only when there is one, so that entries written before operators existed
 * (operator '') keep their hash; an entry written with an operator and edited to '' breaks the chain.
 */
const hashOf = (prev: string, e: Omit<AuditEntry, 'hash' | 'seq'>): string =>
  createHash('sha256')
    .update(
      JSON.stringify([
        prev,
        e.at,
        e.profileId,
        e.action,
        e.account,
        e.params,
        e.outcome,
        e.label,
        e.requestId,
        ...(e.operator ? [e.operator] : []),
      ]),
    )
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

export const createAuditLog = (
  db: Db,
  activeProfileId: () => string,
  now: () => number = Date.now,
  /** The name of the operator signed in ('' when nobody is). */
  operatorName: () => string = () => '',
): AuditLog => {
  const last = db.prepare<[], { hash: string }>('SELECT hash FROM audit ORDER BY seq DESC LIMIT 1');
  const insert = db.prepare(
    'INSERT INTO audit (at, profile_id, action, account, params, outcome, label, request_id, operator, hash) VALUES (?,?,?,?,?,?,?,?,?,?)',
  );
  const append = db.transaction((fields: Omit<AuditEntry, 'hash' | 'seq'>): AuditEntry => {
    const prev = last.get()?.hash ?? GENESIS;
    const hash = hashOf(prev, fields);
    const info = insert.run(
      fields.at,
      fields.profileId,
      fields.action,
      fields.account,
      fields.params,
      fields.outcome,
      fields.label,
      fields.requestId,
      fields.operator,
      hash,
    );
    return { ...fields, seq: Number(info.lastInsertRowid), hash };
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
    return db
      .prepare<unknown[], Row>(`SELECT * FROM audit ${sql} ORDER BY seq ${order} LIMIT ?`)
      .all(...args, limit)
      .map(toEntry);
  };

  return {
    record: (input: AuditInput) =>
      append({
        at: now(),
        profileId: input.profileId ?? activeProfileId(),
        action: capped(input.action, AUDIT_FIELD_MAX),
        account: capped(input.account ?? '', AUDIT_FIELD_MAX),
        params: redact(input.params),
        outcome: input.outcome,
        label: input.label ?? '',
        requestId: input.requestId ?? '',
        operator: capped(input.operator ?? operatorName(), AUDIT_FIELD_MAX),
      }),
    list: (filter = {}) => select(filter, 'DESC'),
    verify: () => {
      let prev = GENESIS;
      let entries = 0;
      for (const row of db.prepare<[], Row>('SELECT * FROM audit ORDER BY seq ASC').iterate()) {
        const entry = toEntry(row);
        if (hashOf(prev, entry) !== entry.hash) return { ok: false as const, brokenAtSeq: entry.seq };
        prev = entry.hash;
        entries++;
      }
      return { ok: true as const, entries };
    },
    exportCsv: (filter = {}) => {
      const header = [
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
      ];
      const lines = [header.join(',')];
      for (const e of select({ ...filter, limit: filter.limit ?? -1 }, 'ASC')) {
        lines.push(
          [
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
          ]
            .map(csvField)
            .join(','),
        );
      }
      return `${lines.join('\r\n')}\r\n`;
    },
  };
};
