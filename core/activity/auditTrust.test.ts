import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkAuditExport } from '../journal/auditExport';
import { type Db, openJournalDb } from '../journal/db';
import { MemoryKeyStore, type StoredKey } from '../keychain/keyStore';
import { type AuditTrust, openAuditTrust } from './auditTrust';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A desk's data folder and its keychain; `start()` is what every start of the core does. */
const desk = (keyStore = new MemoryKeyStore()) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'td-trust-'));
  dirs.push(dataDir);
  let db: Db | undefined;
  let trust: AuditTrust | undefined;
  return {
    dataDir,
    keyStore,
    get db() {
      return db as Db;
    },
    start: async (store: MemoryKeyStore = keyStore) => {
      await trust?.flush();
      db?.close();
      db = openJournalDb(dataDir);
      trust = await openAuditTrust({
        db,
        keyStore: store,
        dataDir,
        activeProfileId: () => 'p1',
        operatorName: () => 'Ann',
      });
      return trust;
    },
    /** Stops the core (the head is written first, as close() does). */
    stop: async () => {
      await trust?.flush();
      db?.close();
      db = undefined;
    },
  };
};

/** Edits the SQLite file directly, as someone with a SQLite tool would. */
const tamper = (dataDir: string, edit: (db: Db) => void) => {
  const db = openJournalDb(dataDir);
  db.exec('DROP TRIGGER audit_append_only_update; DROP TRIGGER audit_append_only_delete;');
  edit(db);
  db.close();
};

type Row = Record<string, string | number>;
/** Every hash recomputed as the plain SHA-256 chain of earlier versions did. */
const rechainPlain = (db: Db) => {
  let prev = '0'.repeat(64);
  for (const r of db.prepare<[], Row>('SELECT * FROM audit ORDER BY seq').all()) {
    const fields = [prev, r.at, r.profile_id, r.action, r.account, r.params, r.outcome, r.label, r.request_id];
    prev = createHash('sha256')
      .update(JSON.stringify([...fields, ...(r.operator ? [r.operator] : [])]))
      .digest('hex');
    db.prepare('UPDATE audit SET hash = ? WHERE seq = ?').run(prev, r.seq);
  }
};

const actions = (trust: AuditTrust) =>
  trust.audit
    .list()
    .map((e) => e.action)
    .reverse();

describe('the audit log against the keychain', () => {
  it('a new desk starts intact; the chain key, the head and the signing key are in the keychain, not the folder', async () => {
    const d = desk();
    const trust = await d.start();
    trust.audit.record({ action: 'approvals.approve', outcome: 'ok' });
    await trust.flush();
    expect(trust.state()).toMatchObject({ ok: true, entries: 0 });
    await d.stop();
    const again = await d.start();
    expect(again.state()).toMatchObject({ ok: true, entries: 1 });
    expect(again.state().signingKey).toMatch(/^([0-9a-f]{4} ){7}[0-9a-f]{4}$/);
  });

  it('deleting the last entries is detected at the next start, recorded, and stays until acknowledged', async () => {
    const d = desk();
    const trust = await d.start();
    for (const action of ['a', 'b', 'approvals.approve', 'POST /withdrawals'])
      trust.audit.record({ action, outcome: 'ok' });
    await d.stop();
    tamper(d.dataDir, (db) => db.prepare('DELETE FROM audit WHERE seq > 2').run());

    const after = await d.start();
    expect(after.state()).toMatchObject({
      ok: false,
      problem: expect.stringContaining('entries at its end were deleted'),
    });
    expect(actions(after)).toEqual(['a', 'b', 'audit.checkFailed']);
    // Still failed at the next start: nothing clears it but an administrator.
    await d.stop();
    const next = await d.start();
    expect(next.state()).toMatchObject({ ok: false });

    const acknowledged = await next.acknowledge('Checked with the platform: two entries were lost.');
    expect(acknowledged).toMatchObject({ ok: true });
    await d.stop();
    const later = await d.start();
    expect(later.state()).toMatchObject({ ok: true });
    // The failure is recorded once, when found; the acknowledgement after it.
    expect(actions(later)).toEqual(['a', 'b', 'audit.checkFailed', 'audit.failureAcknowledged']);
  });

  it('rewriting who approved and recomputing every plain hash is detected at start', async () => {
    const d = desk();
    const trust = await d.start();
    trust.audit.record({ action: 'approvals.approve', params: { id: 'ap_1' }, outcome: 'ok', operator: 'Bob' });
    trust.audit.record({ action: 'POST /withdrawals', params: { amount: '60' }, outcome: 'ok' });
    await d.stop();
    tamper(d.dataDir, (db) => {
      db.prepare("UPDATE audit SET operator = 'Carol' WHERE action = 'approvals.approve'").run();
      rechainPlain(db);
    });
    const after = await d.start();
    expect(after.state()).toMatchObject({ ok: false, brokenAtSeq: 1, problem: expect.stringContaining('Entry 1') });
  });

  it('deleting only the last entry leaves a chain whose every link checks out: the keychain’s head shows it', async () => {
    const d = desk();
    const trust = await d.start();
    trust.audit.record({ action: 'a', outcome: 'ok' });
    trust.audit.record({ action: 'b', outcome: 'ok' });
    await d.stop();
    tamper(d.dataDir, (db) => db.prepare('DELETE FROM audit WHERE seq = 2').run());
    const after = await d.start();
    expect(after.state()).toMatchObject({ ok: false });
  });

  it('a journal written before the HMAC chain is re-keyed once at the first start, and the log says so', async () => {
    const d = desk();
    const first = await d.start();
    first.audit.record({ action: 'POST /withdrawals', outcome: 'ok', operator: '' });
    first.audit.record({ action: 'operators.create', outcome: 'ok' });
    await d.stop();
    // What an older version left: plain SHA-256 hashes, and nothing of ours in its keychain.
    tamper(d.dataDir, rechainPlain);
    const upgraded = await d.start(new MemoryKeyStore());
    expect(upgraded.state()).toMatchObject({ ok: true, entries: 3 });
    expect(actions(upgraded)).toEqual(['POST /withdrawals', 'operators.create', 'audit.chainRekeyed']);
    expect(upgraded.audit.list()[0]?.params).toContain('plain SHA-256');
  });

  it('an old-style chain that does not check out is not re-keyed: the failure shows', async () => {
    const d = desk();
    const first = await d.start();
    first.audit.record({ action: 'a', outcome: 'ok' });
    first.audit.record({ action: 'b', outcome: 'ok' });
    await d.stop();
    tamper(d.dataDir, (db) => {
      rechainPlain(db);
      db.prepare("UPDATE audit SET action = 'x' WHERE seq = 2").run();
    });
    const upgraded = await d.start(new MemoryKeyStore());
    expect(upgraded.state()).toMatchObject({
      ok: false,
      problem: expect.stringContaining('not in this computer’s keychain'),
    });
  });

  it('a journal whose key is in the keychain is never taken for an old one, even made to look like one', async () => {
    const d = desk();
    const first = await d.start();
    first.audit.record({ action: 'a', outcome: 'ok' });
    await d.stop();
    tamper(d.dataDir, rechainPlain);
    const after = await d.start();
    expect(after.state()).toMatchObject({ ok: false, brokenAtSeq: 1 });
  });

  it('a keychain that does not answer does not stop the app: the log goes on, and the failure shows', async () => {
    class Broken extends MemoryKeyStore {
      override async get(): Promise<StoredKey | undefined> {
        throw new Error('no Secret Service on this session');
      }
    }
    const d = desk();
    const trust = await d.start(new Broken());
    expect(trust.state()).toMatchObject({ ok: false, problem: expect.stringContaining('does not answer') });
    expect(trust.audit.record({ action: 'a', outcome: 'ok' }).seq).toBe(2);
    await expect(trust.acknowledge(undefined)).rejects.toThrow(/keychain does not answer/);
  });

  it('signs exports: the checker accepts the file as saved and refuses any change', async () => {
    const d = desk();
    const trust = await d.start();
    trust.audit.record({ action: 'POST /withdrawals', params: { memo: "x;=cmd|'/C calc'!A0" }, outcome: 'ok' });
    const signed = trust.signExport(trust.audit.exportCsv());
    const fingerprint = trust.state().signingKey;
    expect(checkAuditExport(`\uFEFF${signed}`, fingerprint)).toMatchObject({ ok: true, entries: 1, lastSeq: 1 });
    expect(checkAuditExport(signed.replace('POST /withdrawals', 'POST /withdrawal'))).toMatchObject({
      ok: false,
      problem: expect.stringContaining('changed'),
    });
    expect(checkAuditExport(signed, '0000 1111 2222 3333 4444 5555 6666 7777')).toMatchObject({
      ok: false,
      problem: expect.stringContaining('re-signed'),
    });
    expect(checkAuditExport(trust.audit.exportCsv())).toMatchObject({ ok: false });
  });

  it('hashes names with a key of the desk: the same at every start, never the name itself', async () => {
    const d = desk();
    const one = (await d.start()).nameHash('correct horse battery staple');
    await d.stop();
    const two = (await d.start()).nameHash('correct horse battery staple');
    expect(one).toBe(two);
    expect(one).toMatch(/^[0-9a-f]{16}$/);
    await d.stop();
    expect((await d.start(new MemoryKeyStore())).nameHash('correct horse battery staple')).not.toBe(one);
  });
});
