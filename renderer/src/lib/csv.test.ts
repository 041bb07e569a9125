import { afterEach, describe, expect, it, vi } from 'vitest';
import { csvField, downloadCsv, isoInZone, timeHeader, toCsv } from './csv';
import { useNotices } from './notify';
import { installFakeDesk } from './testing/fakeDesk';

describe('CSV export (RFC 4180)', () => {
  it('quotes every field and doubles quotes (shared/format/csv.test.ts has the rest)', () => {
    expect(csvField('plain')).toBe('"plain"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
  });

  it('ends every record with CRLF', () => {
    expect(toCsv(['a', 'b'], [['1', 'x,y']])).toBe('"a","b"\r\n"1","x,y"\r\n');
  });

  it('writes times with the offset of the stated zone', () => {
    const ms = Date.UTC(2026, 0, 2, 3, 4, 5);
    expect(isoInZone(ms, 'UTC')).toBe('2026-01-02T03:04:05Z');
    expect(isoInZone(ms, 'UTC+8')).toBe('2026-01-02T11:04:05+08:00');
    expect(timeHeader('Time', 'UTC+8')).toBe('Time (UTC+8)');
  });
});

describe('downloadCsv saves through main and says where', () => {
  const install = (saveFile: () => unknown) => installFakeDesk({ 'app.saveFile': saveFile });
  afterEach(() => {
    Reflect.deleteProperty(window, 'desk');
    useNotices.setState({ notices: [] });
  });

  it('sends the text with one BOM and shows “Saved to …”', async () => {
    const saveFile = vi.fn(() => ({ path: '/home/ops/Downloads/deposits.csv' }));
    install(saveFile);
    await expect(downloadCsv('deposits.csv', '\uFEFFa,b\r\n')).resolves.toBe('/home/ops/Downloads/deposits.csv');
    expect(saveFile).toHaveBeenCalledWith({
      suggestedName: 'deposits.csv',
      content: '\uFEFFa,b\r\n',
      mimeType: 'text/csv',
    });
    expect(useNotices.getState().notices).toEqual([
      expect.objectContaining({ tone: 'good', message: 'Saved to /home/ops/Downloads/deposits.csv' }),
    ]);
  });

  it('says nothing when the person cancels the save dialog', async () => {
    install(() => ({ cancelled: true }));
    await expect(downloadCsv('x.csv', 'a\r\n')).resolves.toBeUndefined();
    expect(useNotices.getState().notices).toEqual([]);
  });

  it('shows a failure as a notice that stays, never as an exception', async () => {
    install(() => {
      throw { code: 'PRECONDITION', message: 'The file could not be saved.', advice: 'Check the folder.' };
    });
    await expect(downloadCsv('x.csv', 'a\r\n')).resolves.toBeUndefined();
    expect(useNotices.getState().notices).toEqual([
      expect.objectContaining({ tone: 'bad', sticky: true, message: 'The file could not be saved. Check the folder.' }),
    ]);
  });
});
