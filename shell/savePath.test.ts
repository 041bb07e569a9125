import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSaveTarget, fileNameProblem } from './savePath';

describe('the save dialog’s file name', () => {
  it.each([
    ['report.csv', undefined],
    ['  Report 2026 (final).CSV ', undefined],
    ['', 'Enter a file name.'],
    ['../report.csv', 'cannot contain /'],
    ['sub/report.csv', 'cannot contain /'],
    ['sub\\report.csv', 'cannot contain /'],
    ['rep\u0000ort.csv', 'control characters'],
    ['.hidden.csv', 'cannot start with a dot'],
    ['report.txt', 'must end with .csv'],
    ['report', 'must end with .csv'],
    ['.csv', 'cannot start with a dot'],
    [`${'a'.repeat(130)}.csv`, 'at most 120'],
  ])('%j → %s', (name, problem) => {
    const found = fileNameProblem(name, '.csv');
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toContain(problem);
  });
});

describe('the save dialog’s folder and target', () => {
  let home: string;
  let outside: string;
  let downloads: string;
  const rules = () => ({ home, extension: '.csv', alsoAllowed: [downloads] });

  beforeAll(async () => {
    const root = await realpath(await mkdtemp(join(tmpdir(), 'save-path-')));
    home = join(root, 'home');
    outside = join(root, 'elsewhere');
    downloads = join(root, 'downloads');
    await mkdir(join(home, 'Documents'), { recursive: true });
    await mkdir(outside);
    await mkdir(downloads);
    await writeFile(join(home, 'Documents', 'old.csv'), 'a,b\r\n');
    await writeFile(join(home, 'a-file'), 'x');
    await mkdir(join(home, 'Documents', 'folder.csv'));
    await symlink(outside, join(home, 'link-out'));
    await symlink(join(outside, 'target.csv'), join(home, 'Documents', 'link.csv'));
  });
  afterAll(async () => {
    await rm(join(home, '..'), { recursive: true, force: true });
  });

  it('a new file in a folder inside home (also written with ~) is fine', async () => {
    expect(await checkSaveTarget({ name: 'new.csv', folder: join(home, 'Documents') }, rules())).toEqual({
      ok: true,
      path: join(home, 'Documents', 'new.csv'),
      exists: false,
    });
    expect(await checkSaveTarget({ name: 'new.csv', folder: '~/Documents' }, rules())).toMatchObject({
      ok: true,
      path: join(home, 'Documents', 'new.csv'),
    });
    expect(await checkSaveTarget({ name: 'new.csv', folder: '~' }, rules())).toMatchObject({ ok: true });
  });

  it('an existing plain file needs the overwrite confirmation; a folder or a link of that name is refused', async () => {
    expect(await checkSaveTarget({ name: 'old.csv', folder: '~/Documents' }, rules())).toMatchObject({
      ok: true,
      exists: true,
    });
    expect(await checkSaveTarget({ name: 'folder.csv', folder: '~/Documents' }, rules())).toMatchObject({
      ok: false,
      field: 'name',
    });
    expect(await checkSaveTarget({ name: 'link.csv', folder: '~/Documents' }, rules())).toMatchObject({
      ok: false,
      field: 'name',
    });
  });

  it('the default folder is allowed even outside home; anything else outside home is not', async () => {
    expect(await checkSaveTarget({ name: 'x.csv', folder: downloads }, rules())).toMatchObject({ ok: true });
    for (const folder of [outside, join(home, '..'), join(home, 'Documents', '..', '..'), '/']) {
      expect(await checkSaveTarget({ name: 'x.csv', folder }, rules())).toMatchObject({
        ok: false,
        field: 'folder',
        message: expect.stringContaining('inside your home folder'),
      });
    }
  });

  it('a link inside home that points outside is refused (the real path counts)', async () => {
    expect(await checkSaveTarget({ name: 'x.csv', folder: join(home, 'link-out') }, rules())).toMatchObject({
      ok: false,
      field: 'folder',
    });
  });

  it('a folder must exist, be a folder and be written in full', async () => {
    expect(await checkSaveTarget({ name: 'x.csv', folder: join(home, 'missing') }, rules())).toMatchObject({
      ok: false,
      field: 'folder',
      message: 'There is no such folder.',
    });
    expect(await checkSaveTarget({ name: 'x.csv', folder: join(home, 'a-file') }, rules())).toMatchObject({
      ok: false,
      message: 'This is a file, not a folder.',
    });
    expect(await checkSaveTarget({ name: 'x.csv', folder: 'Documents' }, rules())).toMatchObject({
      ok: false,
      field: 'folder',
      message: expect.stringContaining('whole path'),
    });
    expect(await checkSaveTarget({ name: 'x.csv', folder: ' ' }, rules())).toMatchObject({
      ok: false,
      field: 'folder',
    });
  });

  it('the name is checked before the folder', async () => {
    expect(await checkSaveTarget({ name: 'a/b.csv', folder: outside }, rules())).toMatchObject({
      ok: false,
      field: 'name',
    });
  });
});
