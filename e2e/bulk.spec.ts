/**
 * Bulk → Batch from CSV, clicked through against a sandbox: a UTF-16 file is refused before
 * reading; pasted rows with errors → preview lists them by row number and Create stays disabled →
 * fixed → created → run (one trusted confirmation for the whole batch) → every row done → the CSV
 * report in Downloads. Then a sweep of a sub-account to main.
 */
import { expect, savedExports, test } from './fixtures';
import { confirmTrusted } from './fixtures/trustedConfirm';

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
