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

  test('every account side by side', async ({ page, app }) => {
    await app.open('balances');
    await page.getByRole('tab', { name: 'All accounts' }).click();
    const matrix = page.getByTestId('consolidated-matrix');
    await expect(matrix.locator('tbody tr[data-row-key]')).toHaveCount(3);
    await expect(matrix).toHaveAttribute('data-row-count', '3');
    await expect(matrix).toContainText('desk_trading');
    await expect(matrix).toContainText('desk_ops');
    // Columns: account, spot, isolated margin, perpetual, cross margin.
    const trading = matrix.locator('tbody tr[data-row-key]').filter({ hasText: 'desk_trading' });
    await expect(trading.locator('td').nth(1)).toContainText('10,000');
    await expect(trading.locator('td').nth(3)).toContainText('2,500');
    await app.expectAccessible();
    await app.screenshot('balances-all-accounts');
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
