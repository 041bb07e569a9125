import { describe, expect, it } from 'vitest';
import { csvField, parseCsv, toCsv } from './csv';

/** The cells a spreadsheet makes of a line when it splits on `separator` (it may ignore our quotes). */
const cellsSplitOn = (line: string, separator: string) => line.split(separator);
const runsAsFormula = (cell: string) => /^[=+\-@]/.test(cell.replace(/^"/, '').replace(/^\s+/, ''));

describe('the CSV writer every export uses', () => {
  it('quotes every field, doubles quotes, ends every record with CRLF', () => {
    expect(csvField('plain')).toBe('"plain"');
    expect(csvField('a,"b"')).toBe('"a,""b"""');
    expect(csvField('line\nbreak')).toBe('"line\nbreak"');
    expect(toCsv(['a', 'b'], [['1', 'x,y']])).toBe('"a","b"\r\n"1","x,y"\r\n');
  });

  it('keeps plain numbers as numbers, including negative ones', () => {
    expect(csvField('-12.5')).toBe('"-12.5"');
    expect(csvField('42')).toBe('"42"');
  });

  it('never lets a spreadsheet run a cell as a formula, whatever separator it splits on', () => {
    const attacks = [
      '=1+1',
      '+1+1',
      '@SUM(A1)',
      "-1+cmd|' /C calc'!A0",
      '-2-3',
      '\t=1+1',
      '\r=1+1',
      "x;=cmd|'/C calc'!A0",
      'memo,+1',
      'a|@SUM(A1)',
      'a\t-1+1',
      "x; =cmd|'/C calc'!A0",
    ];
    for (const attack of attacks) {
      const line = toCsv(['note'], [[attack]]).split('\r\n')[1] ?? '';
      for (const separator of [',', ';', '\t', '|']) {
        const cells = cellsSplitOn(line, separator);
        expect(cells.filter(runsAsFormula), `${JSON.stringify(attack)} split on ${JSON.stringify(separator)}`).toEqual(
          [],
        );
      }
      // The text itself is all there, read back as one field.
      expect(parseCsv(line)[0]?.[0]?.replace(/'/g, '')).toBe(attack.replace(/'/g, ''));
    }
  });

  it('reads back what it wrote (quotes, commas, line breaks), skipping a BOM', () => {
    const rows = [
      ['a', 'b,c', 'say "hi"'],
      ['line\r\nbreak', '', 'x'],
    ];
    expect(parseCsv(`\uFEFF${toCsv(['h1', 'h2', 'h3'], rows)}`)).toEqual([['h1', 'h2', 'h3'], ...rows]);
  });
});
