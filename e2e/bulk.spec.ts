/**
 * Bulk → Batch from CSV, clicked through against a sandbox: a UTF-16 file is refused before
 * reading; pasted rows with errors → preview lists them by row number and Create stays disabled →
 * fixed → created → run (one trusted confirmation for the whole batch) → every row done → the CSV
 * report in Downloads. Then a sweep of a sub-account to main.
 */
import { expect, savedExports, test } from './fixtures';
import { confirmTrusted, readTrustedSecret } from './fixtures/trustedConfirm';

test('batch: import → preview with errors → fix → run → report; a sweep', async ({
  page,
  app,
  shell,
  sandbox,
  control,
  downloadsDir,
}) => {
  test.setTimeout(120_000);
  await control.post('/scale', { sub_accounts: 2 });
  const subs = (
    sandbox.ctx.db
      .prepare("SELECT id FROM users WHERE parent_id = ? AND login_name LIKE 'scale_sub_%' ORDER BY id")
      .all(sandbox.userId) as { id: number }[]
  ).map((r) => r.id);
  const [a, b] = subs as [number, number];
  await control.post('/balances', { user_id: sandbox.userId, account: 'spot', currency: 'USDT', amount: '5000' });

  await app.open('bulk');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Bulk operations');

  // A UTF-16 file is refused before it is read as text.
  await page.getByTestId('bulk-file').setInputFiles({
    name: 'payroll.csv',
    mimeType: 'text/csv',
    buffer: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('type,currency,amount\n', 'utf16le')]),
  });
  await expect(page.getByTestId('bulk-file-refused')).toContainText('UTF-16');

  const header = 'type,currency,amount,from,to,chain,memo,reference';
  await page
    .getByTestId('bulk-paste')
    .fill(
      [
        header,
        `transfer,USDT,10,spot,sub:${a},,,r1`,
        `transfer,USDT,1.123456789,spot,sub:${b},,,r2`,
        'transfer,USDT,5,spot,sub:99999999,,,r3',
      ].join('\n'),
    );
  await page.getByTestId('bulk-check').click();
  await expect(page.getByTestId('bulk-preview-summary')).toContainText('errors');
  await expect(page.getByTestId('bulk-row-problems-3')).toContainText('Row 3');
  await expect(page.getByTestId('bulk-row-problems-4')).toContainText('not one of this account’s sub-accounts');
  await expect(page.getByTestId('bulk-create')).toBeDisabled();
  await app.expectAccessible();
  await app.screenshot('bulk-preview-errors');

  await page
    .getByTestId('bulk-paste')
    .fill(
      [
        header,
        `transfer,USDT,10,spot,sub:${a},,,r1`,
        `transfer,USDT,1.12345678,spot,sub:${b},,,r2`,
        `transfer,USDT,"1,000",spot,sub:${b},,,r3`,
      ].join('\n'),
    );
  await page.getByTestId('bulk-check').click();
  await expect(page.getByTestId('bulk-preview-summary')).toContainText('no errors');
  await page.getByTestId('bulk-create').click();
  await page.getByTestId('bulk-run').click();
  await confirmTrusted(shell, { typedAmount: '1011.12345678' });
  await expect(page.getByTestId('bulk-progress')).toHaveAttribute('data-state', 'finished', { timeout: 30_000 });
  await expect(page.getByTestId('bulk-counts')).toContainText('3 done');
  await app.screenshot('bulk-finished');
  await page.getByTestId('bulk-export').click();
  const [report] = await savedExports(downloadsDir, 1);
  expect(report?.rows.length).toBe(4); // the header and 3 rows

  // Sweep: sub b's spot USDT back to main.
  await page.getByRole('tab', { name: 'Sweep / top-up' }).click();
  await page.getByTestId(`bulk-pick-${b}`).click();
  await page.getByTestId('bulk-plan').click();
  await expect(page.getByTestId('bulk-preview-summary')).toContainText('no errors');
  await page.getByTestId('bulk-sweep-create').click();
  await page.getByTestId('bulk-run').click();
  await confirmTrusted(shell);
  await expect(page.getByTestId('bulk-progress')).toHaveAttribute('data-state', 'finished', { timeout: 30_000 });
  await app.expectAccessible();
});

test('key rotation: the new key has the same permissions and whitelist, its secret shown once, the old key deleted after the new one works', async ({
  page,
  app,
  sandbox,
  control,
  shell,
}) => {
  test.setTimeout(90_000);
  await control.post('/scale', { sub_accounts: 1 });
  const sub = (
    sandbox.ctx.db
      .prepare("SELECT id FROM users WHERE parent_id = ? AND login_name LIKE 'scale_sub_%' ORDER BY id")
      .get(sandbox.userId) as { id: number }
  ).id;
  const perms = [
    { name: 'wallet', read_only: true },
    { name: 'spot', read_only: false },
  ];
  const whitelist = ['127.0.0.1', '10.20.30.40'];
  const { key: old } = (await control.post('/keys', {
    user_id: sub,
    name: 'trading bot',
    perms,
    ip_whitelist: whitelist,
  })) as { key: string };
  const keys = () =>
    sandbox.ctx.db
      .prepare('SELECT key, secret, perms, ip_whitelist FROM api_keys WHERE user_id = ? ORDER BY created_at, key')
      .all(sub) as { key: string; secret: string; perms: string; ip_whitelist: string }[];
  const before = keys();
  expect(before.map((k) => k.key)).toEqual([old]);

  await app.open('bulk');
  await page.getByRole('tab', { name: 'Sub-accounts and keys' }).click();
  await page.getByTestId(`bulk-pick-${sub}`).click();
  await page.getByTestId('bulk-key-health').click();
  await page.getByTestId(`bulk-key-${old}`).click();
  await page.getByTestId('bulk-rotate').click();
  await page.getByTestId('bulk-rotate-go').click();
  // Creating keys is an API-key change: confirmed in the shell's own window.
  await confirmTrusted(shell, { title: /Rotate 1 API key/ });
  // The new secret is shown once in Treasury Desk's own page, never in the app's window.
  const [secret] = await readTrustedSecret(shell);
  const rotated = page.getByTestId(`bulk-rotated-${sub}`);
  await expect(rotated).toContainText('verified');
  await expect(rotated).toContainText('shown once in Treasury Desk’s own window');

  // The sandbox holds both keys now; the new one with the old one's permissions and whitelist.
  const during = keys();
  expect(during).toHaveLength(2);
  const created = during.find((k) => k.key !== old)!;
  expect(JSON.parse(created.perms)).toEqual(JSON.parse(before[0]!.perms));
  expect(JSON.parse(created.ip_whitelist)).toEqual(whitelist);
  expect(secret).toBe(created.secret);
  expect(await page.content()).not.toContain(created.secret);
  await app.expectAccessible();

  await page.getByTestId('bulk-rotate-confirm').click();
  await confirmTrusted(shell, { title: /Delete 1 old API key/ });
  await expect(rotated).toContainText('replaced');
  // The old key is gone from the platform; the secret never reached the window.
  expect(await page.content()).not.toContain(created.secret);
  expect(keys().map((k) => k.key)).toEqual([created.key]);
});
