/**
 * The Chromium shell's save dialog (shell/saveWindow.ts): an export asks where to save in
 * a page the shell owns. Headless runs write into `downloadsDir` without asking; this spec turns the
 * dialog on (`askWhereToSave: true`), as a run with a window has it.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { Shell } from '../shell/shell';
import { ARTIFACTS_DIR, expect, test } from './fixtures';

test.use({ shellOptions: { askWhereToSave: true } });

/** Waits for the shell's save page (and returns it). */
const savePage = async (shell: Shell): Promise<Page> => {
  await expect
    .poll(() => shell.context.pages().some((p) => p.url().startsWith(`${shell.saveOrigin}/`)), {
      message: 'the save dialog opens',
    })
    .toBe(true);
  const page = shell.context.pages().find((p) => p.url().startsWith(`${shell.saveOrigin}/`)) as Page;
  await expect(page.getByTestId('save-dialog')).toBeVisible();
  return page;
};

const click = async (page: Page, testId: string): Promise<void> => {
  const closed = page.waitForEvent('close').then(() => undefined);
  await page
    .getByTestId(testId)
    .click({ noWaitAfter: true })
    .catch(() => undefined);
  await closed;
};

test('an export asks where to save: the name is changed and saved; a cancelled one writes nothing', async ({
  page,
  app,
  shell,
  downloadsDir,
}) => {
  await app.open('activity');
  await page.getByRole('tab', { name: 'Audit log' }).click();
  await page.getByTestId('audit-export').click();

  const dialog = await savePage(shell);
  await expect(dialog.getByTestId('save-name')).toHaveValue(/^treasury-desk-audit-.*\.csv$/);
  await expect(dialog.getByTestId('save-folder')).toHaveValue(downloadsDir);
  // The app's page cannot reach the dialog: no handle to it, and its origin refuses the renderer's requests.
  expect(
    await page.evaluate(
      (url) =>
        fetch(url).then(
          () => 'reached',
          () => 'refused',
        ),
      `${shell.saveOrigin}/save.html`,
    ),
  ).toBe('refused');

  // A name with a folder in it, or without .csv, is refused at the field; nothing is written.
  await dialog.getByTestId('save-name').fill('../escape.csv');
  await dialog.getByTestId('save-confirm').click();
  await expect(dialog.getByTestId('save-name-error')).toContainText('cannot contain /');
  await dialog.getByTestId('save-name').fill('audit for the auditors.txt');
  await dialog.getByTestId('save-confirm').click();
  await expect(dialog.getByTestId('save-name-error')).toContainText('must end with .csv');
  // A folder outside home (and not the default one) is refused.
  await dialog.getByTestId('save-folder').fill('/');
  await dialog.getByTestId('save-name').fill('audit for the auditors.csv');
  await dialog.getByTestId('save-confirm').click();
  await expect(dialog.getByTestId('save-folder-error')).toContainText('inside your home folder');
  expect(await readdir(downloadsDir)).toEqual([]);

  await dialog.getByTestId('save-folder').fill(downloadsDir);
  await click(dialog, 'save-confirm');
  const path = join(downloadsDir, 'audit for the auditors.csv');
  await expect(page.getByTestId('notice').filter({ hasText: 'Export saved' })).toContainText(`Saved to ${path}`);
  expect(await readdir(downloadsDir)).toEqual(['audit for the auditors.csv']);
  const header = (await readFile(path, 'utf8')).replace(/^\uFEFF/, '').split('\r\n')[0];
  expect(header).toContain('operator');

  // The second export is cancelled: nothing is written.
  await page.getByTestId('audit-export').click();
  await click(await savePage(shell), 'save-cancel');
  expect(await readdir(downloadsDir)).toEqual(['audit for the auditors.csv']);

  // The same name again asks before replacing the file.
  await writeFile(path, 'old');
  await page.getByTestId('audit-export').click();
  const again = await savePage(shell);
  await again.getByTestId('save-name').fill('audit for the auditors.csv');
  await again.getByTestId('save-confirm').click();
  await expect(again.getByTestId('save-overwrite')).toContainText('already exists');
  await again.screenshot({ path: join(ARTIFACTS_DIR, 'chromium', 'save-dialog-asks-before-replacing.png') });
  await click(again, 'save-confirm');
  await expect.poll(async () => (await readFile(path, 'utf8')).includes('operator')).toBe(true);
  expect(await readdir(downloadsDir)).toEqual(['audit for the auditors.csv']);
});
