import { expect, test } from './fixtures';

test.describe('balances', () => {
  test('total by account type, spot balances, total over time', async ({ page, app }) => {
    await app.open('balances');
    await expect(page.getByTestId('total-balance')).toContainText('USDT');
    await expect(page.getByTestId('total-by-account')).toContainText('Spot');
    await expect(page.getByTestId('total-by-account')).toContainText('Perpetual futures');
    const spot = page.getByTestId('spot-balances');
    await expect(spot.locator('[data-row-key="BTC"]')).toContainText('2.5');
    await expect(spot.locator('[data-row-key="USDT"]')).toContainText('250,000');
    await app.expectAccessible();
    await app.screenshot('balances-overview');
  });

  test('the firm-wide view: every account × every account type, valued, with totals, sorting, search and detail', async ({
    page,
    app,
  }) => {
    await app.open('balances');
    await page.getByRole('tab', { name: 'Firm-wide' }).click();
    const table = page.getByTestId('firm-accounts');
    await expect(table).toHaveAttribute('data-row-count', '3');
    await expect(table).toContainText('desk_trading');
    await expect(table).toContainText('desk_ops');
    const total = page.getByTestId('firm-total');
    await expect(total).toContainText('USDT');
    await expect(total).toContainText('main and 2 sub-accounts');
    // Every account type of the main account has a value column.
    for (const header of [
      'Spot',
      'Isolated margin',
      'Cross margin',
      'Perpetual futures',
      'Delivery futures',
      'Options',
    ]) {
      await expect(table.locator('thead')).toContainText(header);
    }
    const main = table.locator('tbody tr[data-row-key]').filter({ hasText: 'Main account' });
    await expect(main.locator('td').nth(5)).toContainText('1,000'); // cross margin (after total and share), 1,000 USDT
    // The firm total is the sum of the accounts' totals.
    const totals = await table.locator('tbody tr[data-row-key] td:nth-child(2)').allInnerTexts();
    const sum = totals.reduce((s, t) => s + Number(t.replace(/[^0-9.]/g, '')), 0);
    const firm = Number((await total.locator('.big-number').innerText()).replace(/[^0-9.]/g, ''));
    expect(Math.abs(sum - firm)).toBeLessThan(0.02);
    // Sorted by total, highest first: the main account holds the most.
    await page.getByTestId('sort-value').click();
    await expect(table.locator('tbody tr[data-row-key]').first()).toContainText('Main account');
    // Search by name; a row opens the account's holdings with every account type it has.
    await page.getByLabel('Search').fill('desk_trading');
    await expect(table.locator('tbody tr[data-row-key]')).toHaveCount(1);
    await table.locator('tbody tr[data-row-key]').first().click();
    const detail = page.getByTestId('firm-account-detail');
    await expect(detail).toContainText('Perpetual futures');
    await expect(detail).toContainText('2,500');
    // In BTC, the unit follows.
    await page.getByLabel('Value in').selectOption('BTC');
    await expect(total).toContainText('BTC');
    await app.expectAccessible();
    await app.screenshot('balances-firm-wide');
  });

  test('small balances with a conversion preview', async ({ page, app }) => {
    await app.open('balances');
    await page.getByRole('tab', { name: 'Small balances' }).click();
    const table = page.getByTestId('small-balances');
    await expect(table.locator('tbody tr').first()).toBeVisible();
    await expect(page.getByTestId('conversion-preview')).toHaveText('Choose balances to convert.');
    await table.getByRole('checkbox').first().check();
    await expect(page.getByTestId('conversion-preview')).toContainText('gives');
    await app.expectAccessible();
    await app.screenshot('balances-small');
  });
});
