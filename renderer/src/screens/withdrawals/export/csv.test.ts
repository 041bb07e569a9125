import { describe, expect, it } from 'vitest';
import { csvField, isoInZone, timeHeader, toCsv } from './csv';

describe('CSV export (RFC 4180)', () => {
  it('quotes only what needs quoting and doubles quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('line\nbreak')).toBe('"line\nbreak"');
  });

  it('ends every record with CRLF', () => {
    expect(toCsv(['a', 'b'], [['1', 'x,y']])).toBe('a,b\r\n1,"x,y"\r\n');
  });

  it('writes times with the offset of the stated zone', () => {
    const ms = Date.UTC(2026, 0, 2, 3, 4, 5);
    expect(isoInZone(ms, 'UTC')).toBe('2026-01-02T03:04:05Z');
    expect(isoInZone(ms, 'UTC+8')).toBe('2026-01-02T11:04:05+08:00');
    expect(timeHeader('Time', 'UTC+8')).toBe('Time (UTC+8)');
  });
});
