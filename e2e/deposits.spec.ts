import { expect, savedExports, test } from './fixtures';

test.describe('deposits', () => {
  test('address, memo and QR per network, with a loud memo warning', async ({ page, app }) => {
    await app.open('deposits');
    await page.getByLabel('Currency').selectOption('USDT');
    // A network without a memo: address, QR, minimum and confirmations.
    await page.getByRole('radio', { name: /^TRX\b/ }).check();
    await expect(page.getByTestId('deposit-address')).toHaveText(/^T[\w ]+$/);
    await expect(page.getByTestId('memo-required-banner')).toHaveCount(0);
    await expect(page.getByTestId('deposit-minimum')).toContainText('USDT');
    await expect(page.getByTestId('deposit-confirmations')).toContainText('20 network confirmations');
    await expect(page.getByTestId('qr-code')).toHaveCount(1);
    // A memo network: the banner, the memo with its own copy button and QR.
    await page.getByRole('radio', { name: /^TON\b/ }).check();
    await expect(page.getByTestId('memo-required-banner')).toContainText('MEMO REQUIRED');
    await expect(page.getByTestId('deposit-memo')).not.toBeEmpty();
    await expect(page.getByRole('button', { name: 'Copy memo' })).toBeVisible();
    await expect(page.getByTestId('qr-code')).toHaveCount(2);
    // A suspended network is shown and explained, not offered.
    await expect(page.getByTestId('deposit-chain-SOL')).toBeVisible();
    await app.expectAccessible();
    await app.screenshot('deposit-address');
  });

  test('an injected deposit appears and its timeline reaches Done', async ({ page, app, control, sandbox }) => {
    const deposit = await control.post<{ id: string; status: string }>('/deposits', {
      user_id: sandbox.userId,
      currency: 'USDT',
      chain: 'TRX',
      amount: '1234.5',
    });
    await app.open('deposits');
    await page.getByRole('tab', { name: 'History' }).click();
    const row = page.locator(`[data-row-key="${deposit.id}"]`);
    await expect(row).toContainText('1,234.5');
    await row.getByRole('button', { name: `Details of ${deposit.id}` }).click();
    const detail = page.getByTestId('deposit-detail');
    const headline = detail.getByTestId('timeline-headline');
    await expect(headline).toHaveAttribute('data-status', deposit.status);
    await app.screenshot('deposit-in-progress');
    await expect(async () => {
      // Through the whole on-chain route (23 s) at once; again should the app not show it soon after.
      await control.advance(30);
      await expect(headline).toHaveAttribute('data-status', 'DONE', { timeout: 5_000 });
    }).toPass({ timeout: 30_000 });
    await expect(headline).toContainText('Done');
    await expect(detail.getByRole('listitem')).toHaveCount(4);
    await app.expectAccessible();
    await app.screenshot('deposit-done');
  });

  test('the history exports as a CSV file with the deposit’s row', async ({
    page,
    app,
    control,
    sandbox,
    downloadsDir,
  }) => {
    const deposit = await control.post<{ id: string }>('/deposits', {
      user_id: sandbox.userId,
      currency: 'USDT',
      chain: 'TRX',
      amount: '1234.5',
    });
    await app.open('deposits');
    await page.getByRole('tab', { name: 'History' }).click();
    await expect(page.locator(`[data-row-key="${deposit.id}"]`)).toBeVisible();
    await page.getByTestId('deposits-export').click();
    const [file] = await savedExports(downloadsDir);
    expect(file?.name).toMatch(/^deposits-\d{4}-\d{2}-\d{2}\.csv$/);
    const [header = [], ...rows] = file?.rows ?? [];
    expect(header[0]).toMatch(/^Time \(/);
    // Every deposit of the period (the sandbox's account starts with three), one record each.
    const table = page.getByTestId('deposits-table');
    expect(rows).toHaveLength(await table.locator('tbody tr').count());
    const records = rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]])));
    expect(records.find((r) => r['Deposit ID'] === deposit.id)).toMatchObject({
      Currency: 'USDT',
      Chain: 'TRX',
      Amount: '1234.5',
      Status: expect.stringContaining(','), // a quoted field with a comma comes back whole
    });
    await expect(page.getByTestId('notice').filter({ hasText: 'Export saved' })).toContainText(
      `Saved to ${file?.path}`,
    );
  });
});
