/**
 * The audit log that cannot be rewritten quietly, end to end: its export is signed with the desk's
 * key and checks out as saved (`npm run audit:verify`'s check), a hostile text in it opens as text
 * whatever separator a spreadsheet uses, and a journal cut short behind the app's back is caught at
 * the next start and shown on every screen until an administrator acknowledges it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { checkAuditExport } from '../core/journal/auditExport';
import { openShell } from '../shell/shell';
import { coreOptionsFor, expect, rendererDir, savedExports, test } from './fixtures';
import { confirmedCall, confirmTrusted } from './fixtures/trustedConfirm';

/** What a cell would start with once a spreadsheet splits the line on `separator` and trims it. */
const formulaCells = (line: string, separator: string) =>
  line
    .split(separator)
    .map((cell) => cell.replace(/^[\s"]+/, ''))
    .filter((cell) => /^[=+\-@]/.test(cell));

test('the audit export is signed with the desk’s key, checks out as saved, and a hostile text in it opens as text', async ({
  page,
  app,
  shell,
  downloadsDir,
}) => {
  const hostile = "x;=cmd|'/C calc'!A0";
  // A remark is free text, sent to the platform and kept in the audit entry of that request.
  expect(
    await confirmedCall(shell, app.call('subAccounts.create', { loginName: 'audit_e2e', remark: hostile })),
  ).toMatchObject({ ok: true });
  await app.open('activity');
  await page.getByRole('tab', { name: 'Audit log' }).click();
  const fingerprint = (await page.getByTestId('audit-signing-key').locator('code').first().textContent()) ?? '';
  expect(fingerprint).toMatch(/^([0-9a-f]{4} ){7}[0-9a-f]{4}$/);
  await page.getByTestId('audit-export').click();
  const [file] = await savedExports(downloadsDir);

  // What an auditor runs later (npm run audit:verify -- file --key "<fingerprint>").
  expect(checkAuditExport(file!.bytes.toString('utf8'), fingerprint)).toMatchObject({ ok: true });
  expect(
    checkAuditExport(file!.bytes.toString('utf8').replace('POST /sub_accounts', 'POST /sub_accountz')),
  ).toMatchObject({
    ok: false,
  });

  // The remark is in the entry's parameters; no spreadsheet runs it, whatever it splits on.
  const line = file!.text.split('\r\n').find((l) => l.includes('cmd|'));
  expect(line).toBeDefined();
  for (const separator of [',', ';', '\t', '|']) expect(formulaCells(line!, separator), separator).toEqual([]);
  const cell = file!.rows.flat().find((c) => c.includes('cmd|'));
  expect(cell).toContain("x;'=cmd|'/C calc'!A0");
});

test('a journal cut short behind the app’s back is caught at the next start: a banner on every screen until an administrator acknowledges it', async ({
  sandbox,
}, testInfo) => {
  // The check needs a keychain that outlives the app's processes, as the OS keychain does.
  test.skip(
    !process.env.DBUS_SESSION_BUS_ADDRESS && process.platform === 'linux',
    'needs the OS keychain: run inside scripts/with-keychain.sh (npm test does)',
  );
  const dataDir = await mkdtemp(join(tmpdir(), 'treasury-desk-audit-'));
  const open = () =>
    openShell({
      dataDir,
      headless: true,
      rendererDir: rendererDir(),
      core: { ...coreOptionsFor(sandbox), keyStore: 'os' },
    });
  try {
    const first = await open();
    for (const [name, role] of [
      ['Val', 'viewer'],
      ['Mo', 'maker'],
      ['Ann', 'approver'],
    ] as const) {
      // A control change: the one administrator confirms it in the trusted confirmation.
      const created = await confirmedCall(
        first,
        first.page.evaluate((input) => window.desk!.operators.create(input), {
          name,
          role,
          passphrase: `a passphrase for the ${role}`,
        }),
      );
      expect(created).toMatchObject({ ok: true });
    }
    await first.close();

    // Someone with a SQLite tool deletes the last two entries (who was made maker and approver).
    const journal = new Database(join(dataDir, 'journal.sqlite'));
    journal.exec('DROP TRIGGER audit_append_only_delete');
    const { last } = journal.prepare('SELECT MAX(seq) AS last FROM audit').get() as { last: number };
    journal.prepare('DELETE FROM audit WHERE seq > ?').run(last - 2);
    journal.close();

    const again = await open();
    try {
      const banner = again.page.getByTestId('audit-integrity-banner');
      await expect(banner).toContainText('entries at its end were deleted');
      // On every screen.
      await again.page.getByTestId('nav-balances').click();
      await expect(banner).toBeVisible();
      await again.page.screenshot({ path: testInfo.outputPath('audit-banner.png') });
      await banner.getByTestId('audit-acknowledge-open').click();
      await banner
        .getByLabel('What you found (kept in the log)')
        .fill('Two entries lost; the operators are as they should be.');
      await banner.getByTestId('audit-acknowledge').click();
      await confirmTrusted(again, { title: 'Acknowledge the failed audit check' });
      await expect(banner).toHaveCount(0);
    } finally {
      await again.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
