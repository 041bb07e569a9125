import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AUDIT_PARAMS_MAX, createAuditLog, resignChain, verifyChain, verifyLegacyChain } from './audit';
import { openJournalDb } from './db';

const key = randomBytes(32);
const open = () => {
  const db = openJournalDb(':memory:');
  return { db, audit: createAuditLog(db, { key, activeProfileId: () => 'p1' }) };
};

/** What someone with a SQLite tool can do: lift the append-only guard. */
const unguard = (db: ReturnType<typeof openJournalDb>) => {
  db.exec('DROP TRIGGER audit_append_only_update');
  db.exec('DROP TRIGGER audit_append_only_delete');
};

type Row = Record<string, string | number>;
/** The chain as it was before this version: plain SHA-256 anyone can recompute. */
const plainHash = (prev: string, r: Row) =>
  createHash('sha256')
    .update(
      JSON.stringify([
        prev,
        r.at,
        r.profile_id,
        r.action,
        r.account,
        r.params,
        r.outcome,
        r.label,
        r.request_id,
        ...(r.operator ? [r.operator] : []),
      ]),
    )
    .digest('hex');
const rechainPlain = (db: ReturnType<typeof openJournalDb>) => {
  let prev = '0'.repeat(64);
  for (const row of db.prepare<[], Row>('SELECT * FROM audit ORDER BY seq').all()) {
    prev = plainHash(prev, row);
    db.prepare('UPDATE audit SET hash = ? WHERE seq = ?').run(prev, row.seq);
  }
};

describe('audit log', () => {
  it('redacts secrets and shows any edit made behind its back', () => {
    const { db, audit } = open();
    audit.record({ action: 'POST /sub_accounts', params: { login_name: 'ops', password: 'hunter2' }, outcome: 'ok' });
    audit.record({ action: 'POST /withdrawals', params: { amount: '1' }, outcome: 'unknown' });
    expect(JSON.stringify(audit.list())).not.toContain('hunter2');
    expect(audit.verify()).toMatchObject({ ok: true, entries: 2 });
    expect(() => db.prepare("UPDATE audit SET action = 'x' WHERE seq = 2").run()).toThrow(/append-only/);
    unguard(db);
    db.prepare('UPDATE audit SET params = ? WHERE seq = 2').run(JSON.stringify({ amount: '100' }));
    expect(audit.verify()).toEqual({ ok: false, brokenAtSeq: 2 });
  });

  it('a rewrite with every hash recomputed (as the plain SHA-256 chain allowed) does not pass: the key is not in the file', () => {
    const { db, audit } = open();
    audit.record({ action: 'approvals.approve', params: { id: 'ap_1' }, outcome: 'ok', operator: 'Bob' });
    audit.record({ action: 'POST /withdrawals', params: { amount: '60' }, outcome: 'ok', operator: 'Bob' });
    unguard(db);
    db.prepare("UPDATE audit SET operator = 'Alice' WHERE seq = 1").run();
    rechainPlain(db);
    expect(audit.verify()).toEqual({ ok: false, brokenAtSeq: 1 });
    // Under another key the chain does not pass either.
    expect(verifyChain(db, randomBytes(32))).toEqual({ ok: false, brokenAtSeq: 1 });
  });

  it('every hash depends on the secret key: nobody without it can write a chain that passes', () => {
    const { db, audit } = open();
    audit.record({ action: 'a', outcome: 'ok' });
    expect(audit.verify()).toMatchObject({ ok: true });
    expect(verifyChain(db, randomBytes(32))).toEqual({ ok: false, brokenAtSeq: 1 });
    expect(verifyChain(db, Buffer.alloc(32))).toEqual({ ok: false, brokenAtSeq: 1 });
  });

  it('numbers every entry in its hash and reports the head the keychain keeps', () => {
    const heads: unknown[] = [];
    const db = openJournalDb(':memory:');
    const audit = createAuditLog(db, { key, activeProfileId: () => 'p1', onAppend: (h) => heads.push(h) });
    const first = audit.record({ action: 'a', outcome: 'ok' });
    const second = audit.record({ action: 'b', outcome: 'ok' });
    expect([first.seq, second.seq]).toEqual([1, 2]);
    expect(heads).toEqual([
      { count: 1, seq: 1, hash: first.hash },
      { count: 2, seq: 2, hash: second.hash },
    ]);
    expect(audit.verify()).toEqual({ ok: true, entries: 2, head: { count: 2, seq: 2, hash: second.hash } });
  });

  it('a journal from before the HMAC chain is recognised by its intact SHA-256 chain and re-keyed', () => {
    const { db, audit } = open();
    audit.record({ action: 'a', outcome: 'ok' });
    audit.record({ action: 'b', outcome: 'ok', operator: 'Ann' });
    unguard(db);
    rechainPlain(db);
    expect(verifyLegacyChain(db)).toMatchObject({ ok: true, entries: 2 });
    expect(audit.verify()).toEqual({ ok: false, brokenAtSeq: 1 });
    const head = resignChain(db, key);
    expect(head).toMatchObject({ count: 2, seq: 2 });
    expect(audit.verify()).toMatchObject({ ok: true, entries: 2, head });
    // The guard is back after the re-keying.
    expect(() => db.prepare("UPDATE audit SET action = 'x' WHERE seq = 2").run()).toThrow(/append-only/);
  });

  it('keeps a bounded part of a huge payload, and the chain still verifies', () => {
    const { audit } = open();
    const huge = 'x'.repeat(10_000_000);
    audit.record({ action: 'trade.updateSettings', params: { favourites: [huge] }, outcome: 'ok' });
    const [entry] = audit.list();
    expect(entry?.params.length).toBeLessThan(AUDIT_PARAMS_MAX + 100);
    expect(entry?.params).toContain('more characters not kept');
    expect(audit.verify()).toMatchObject({ ok: true, entries: 1 });
  });
});
