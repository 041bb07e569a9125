import { describe, expect, it } from 'vitest';
import { MAX_FILE_NAME, MAX_SAVED_FILE_CHARS, SaveFileInput, sanitizeFileName } from './app';

describe('file names for saved exports', () => {
  it.each([
    ['withdrawals-2026-01-02.csv', 'withdrawals-2026-01-02.csv'],
    ['audit log', 'audit log.csv'],
    ['../../etc/passwd', 'etc-passwd.csv'],
    ['/etc/cron.d/job.csv', 'etc-cron.d-job.csv'],
    ['..\\..\\Windows\\System32\\x.csv', 'Windows-System32-x.csv'],
    ['C:\\Users\\ops\\report.csv', 'C-Users-ops-report.csv'],
    ['.hidden.csv', 'hidden.csv'],
    ['..', 'export.csv'],
    ['...csv', 'csv.csv'],
    ['a\u0000b\nc.csv', 'a-b-c.csv'],
    ['what?*<>|".csv', 'what-.csv'],
    ['CON', '_CON.csv'],
    ['report.CSV', 'report.csv'],
    ['  spaced  out  .csv ', 'spaced out.csv'],
  ])('%j becomes %j', (raw, safe) => {
    expect(sanitizeFileName(raw)).toBe(safe);
  });

  it('never yields a path, a hidden file or an overlong name', () => {
    for (const raw of ['a/b', 'a\\b', '../x', '/', '\\\\server\\share', 'é'.repeat(500), `${'x'.repeat(300)}.csv`]) {
      const name = sanitizeFileName(raw);
      expect(name).not.toMatch(/[/\\]/);
      expect(name.startsWith('.')).toBe(false);
      expect(name.endsWith('.csv')).toBe(true);
      expect(Array.from(name).length).toBeLessThanOrEqual(MAX_FILE_NAME);
    }
  });

  it('the operation’s input sanitises the name and bounds the content', () => {
    expect(SaveFileInput.parse({ suggestedName: '../x', content: 'a', mimeType: 'text/csv' })).toEqual({
      suggestedName: 'x.csv',
      content: 'a',
      mimeType: 'text/csv',
    });
    const big = SaveFileInput.safeParse({
      suggestedName: 'x.csv',
      content: 'a'.repeat(MAX_SAVED_FILE_CHARS + 1),
      mimeType: 'text/csv',
    });
    expect(big.success).toBe(false);
    expect(
      SaveFileInput.safeParse({ suggestedName: 'x.exe', content: 'a', mimeType: 'application/x-msdownload' }).success,
    ).toBe(false);
    expect(SaveFileInput.safeParse({ suggestedName: '', content: 'a', mimeType: 'text/csv' }).success).toBe(false);
  });
});
