import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AUDIT_CSV_HEADER } from '../core/journal/audit';
import { keyFingerprint, signAuditExport, signingKeyFrom } from '../core/journal/auditExport';
import { toCsv } from '../shared/format/csv';
import { auditVerify, USAGE } from './audit-verify';

const key = signingKeyFrom(
  generateKeyPairSync('ed25519').privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
);
const row = (seq: number, operator: string) => [
  String(seq),
  '2026-01-02T03:04:05.000Z',
  'local-sandbox',
  'approvals.approve',
  '',
  '{}',
  'ok',
  '',
  '',
  operator,
  'ab'.repeat(32),
];
const exported = `\uFEFF${signAuditExport(toCsv(AUDIT_CSV_HEADER, [row(1, 'Ann'), row(2, 'Bob')]), key)}`;
const run = (args: string[], text = exported) => auditVerify(args, () => text);

describe('npm run audit:verify', () => {
  it('accepts the file as the app saved it and names the key it was signed with', () => {
    const result = run(['audit.csv', '--key', keyFingerprint(key.publicKeyDer)]);
    expect(result.code).toBe(0);
    expect(result.lines[0]).toBe('audit.csv: valid — 2 entries (1 to 2), unchanged since it was signed.');
  });

  it('refuses a file whose approver was changed, a row removed, or that was signed by another key', () => {
    expect(run(['a.csv'], exported.replace('"Bob"', '"Eve"'))).toMatchObject({ code: 1 });
    const lines = exported.split('\r\n');
    expect(run(['a.csv'], [lines[0], lines[1], ...lines.slice(3)].join('\r\n'))).toMatchObject({ code: 1 });
    expect(run(['a.csv', '--key', '0000 0000 0000 0000 0000 0000 0000 0000'])).toMatchObject({
      code: 1,
      lines: [expect.stringContaining('re-signed'), expect.stringContaining('signed by key')],
    });
  });

  it('says how to call it', () => {
    expect(run([])).toEqual({ lines: [USAGE], code: 2 });
    expect(run(['a.csv', 'b.csv'])).toEqual({ lines: [USAGE], code: 2 });
    expect(run(['a.csv', '--key'])).toEqual({ lines: [USAGE], code: 2 });
  });
});
