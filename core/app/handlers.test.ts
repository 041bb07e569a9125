import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SaveFileInput } from '../../shared/contract/app';
import type { ServiceContext } from '../context';
import { createAppHandlers } from './handlers';

let dir: string;
const record = vi.fn();
const ctx = { shell: 'chromium', audit: { record } } as unknown as ServiceContext;
const call = { operation: 'app.saveFile' };
/** As the dispatcher hands it over: parsed (and so sanitised) by the contract. */
const input = (suggestedName: string, content = 'a,b\r\n') =>
  SaveFileInput.parse({ suggestedName, content, mimeType: 'text/csv' });

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'td-save-'));
  record.mockClear();
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('app.saveFile', () => {
  it('Chromium shell: writes into the Downloads folder (created when missing), never over an existing file', async () => {
    const downloads = join(dir, 'Downloads');
    const app = createAppHandlers(ctx, { downloadsDir: downloads });
    expect(await app.saveFile(input('deposits.csv', 'one'), call)).toEqual({ path: join(downloads, 'deposits.csv') });
    expect(await app.saveFile(input('deposits.csv', 'two'), call)).toEqual({
      path: join(downloads, 'deposits (2).csv'),
    });
    await writeFile(join(downloads, 'deposits (3).csv'), 'someone else’s');
    expect(await app.saveFile(input('deposits.csv', 'four'), call)).toEqual({
      path: join(downloads, 'deposits (4).csv'),
    });
    expect(await readFile(join(downloads, 'deposits.csv'), 'utf8')).toBe('one');
    expect(await readFile(join(downloads, 'deposits (3).csv'), 'utf8')).toBe('someone else’s');
    expect(record).toHaveBeenCalledWith(expect.objectContaining({ action: 'app.saveFile', outcome: 'ok' }));
  });

  it('a name that tries to leave the folder stays inside it', async () => {
    const app = createAppHandlers(ctx, { downloadsDir: dir });
    const saved = await app.saveFile(input('../../evil.csv'), call);
    expect(saved).toEqual({ path: join(dir, 'evil.csv') });
    expect(await readdir(dir)).toEqual(['evil.csv']);
  });

  it('Electron: writes where the person chose in the save dialog, or nothing when they cancel', async () => {
    const chosen = join(dir, 'chosen.csv');
    const chooseSavePath = vi.fn(async () => chosen);
    const app = createAppHandlers(ctx, { chooseSavePath, downloadsDir: join(dir, 'unused') });
    expect(await app.saveFile(input('audit.csv', 'x'), call)).toEqual({ path: chosen });
    expect(chooseSavePath).toHaveBeenCalledWith('audit.csv');
    expect(await readFile(chosen, 'utf8')).toBe('x');

    chooseSavePath.mockResolvedValueOnce(undefined as never);
    expect(await app.saveFile(input('audit.csv', 'y'), call)).toEqual({ cancelled: true });
    expect(await readdir(dir)).toEqual(['chosen.csv']);
  });

  it('a folder that cannot be written is a clear failure', async () => {
    const file = join(dir, 'not-a-folder');
    await writeFile(file, '');
    const app = createAppHandlers(ctx, { downloadsDir: file });
    await expect(app.saveFile(input('x.csv'), call)).rejects.toMatchObject({
      detail: { code: 'PRECONDITION', message: expect.stringContaining('could not be saved') },
    });
  });
});
