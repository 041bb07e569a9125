import { describe, expect, it } from 'vitest';
import { csvField } from '../../../shared/format/csv';
import { AUDIT_PARAMS_MAX, createAuditLog } from './audit';
import { openJournalDb } from './db';

describe('audit CSV', () => {
  it('keeps plain numbers as numbers, including negative ones', () => {
    expect(csvField('-12.5')).toBe('-12.5');
    expect(csvField('42')).toBe('42');
  });

  it('never lets a spreadsheet run a cell as a formula', () => {
    // Text from the platform (error messages, memos) ends up in exported cells.
    for (const attack of ['=1+1', '+1+1', '@SUM(A1)', "-1+cmd|' /C calc'!A0", '-2-3', '\t=1+1', '\r=1+1']) {
      const cell = csvField(attack);
      expect(cell.replace(/^"/, '').startsWith("'"), attack).toBe(true);
    }
  });

  it('quotes per RFC 4180', () => {
    expect(csvField('a,"b"')).toBe('"a,""b"""');
  });
});

describe('audit log', () => {
  it('redacts secrets and shows any edit made behind its back', () => {
    const db = openJournalDb(':memory:');
    const audit = createAuditLog(db, () => 'p1');
    audit.record({ action: 'POST /sub_accounts', params: { login_name: 'ops', password: 'hunter2' }, outcome: 'ok' });
    audit.record({ action: 'POST /withdrawals', params: { amount: '1' }, outcome: 'unknown' });
    expect(JSON.stringify(audit.list())).not.toContain('hunter2');
    expect(audit.verify()).toEqual({ ok: true, entries: 2 });
    db.exec('DROP TRIGGER audit_append_only_update');
    db.prepare('UPDATE audit SET params = ? WHERE seq = 2').run(JSON.stringify({ amount: '100' }));
    expect(audit.verify()).toEqual({ ok: false, brokenAtSeq: 2 });
  });

  it('keeps a bounded part of a huge payload, and the chain still verifies', () => {
    const db = openJournalDb(':memory:');
    const audit = createAuditLog(db, () => 'p1');
    const huge = 'x'.repeat(10_000_000);
    audit.record({ action: 'trade.updateSettings', params: { favourites: [huge] }, outcome: 'ok' });
    const [entry] = audit.list();
    expect(entry?.params.length).toBeLessThan(AUDIT_PARAMS_MAX + 100);
    expect(entry?.params).toContain('more characters not kept');
    expect(audit.verify()).toEqual({ ok: true, entries: 1 });
  });
});
