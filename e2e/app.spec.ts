import { expect, test } from './fixtures';

const SCREENS = [
  ['balances', 'Balances'],
  ['deposits', 'Deposits'],
  ['withdrawals', 'Withdrawals'],
  ['transfers', 'Transfers'],
  ['subAccounts', 'Sub-accounts'],
  ['trade', 'Trade'],
  ['activity', 'Activity'],
  ['settings', 'Settings'],
] as const;

test('the app starts and shows its frame with every screen in the navigation', async ({ page, app }) => {
  await expect(page.getByTestId('app-frame')).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Screens' });
  for (const [id, label] of SCREENS) {
    await expect(nav.getByTestId(`nav-${id}`)).toHaveAccessibleName(label);
  }
  await expect(page.getByTestId('app-version')).toContainText('Chromium');
  await app.screenshot('frame');
});

test('every navigation entry opens its screen, which has no serious accessibility problem', async ({ page, app }) => {
  for (const [id, label] of SCREENS) {
    await app.open(id);
    await expect(page.getByTestId(`nav-${id}`)).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('main')).toHaveAccessibleName(label);
    await app.expectAccessible();
  }
});

test('keyboard: Ctrl+number opens screens and focus lands on the screen title', async ({ page }) => {
  await page.keyboard.press('Control+4');
  await expect(page.getByTestId('screen-transfers')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
  await page.keyboard.press('Control+8');
  await expect(page.getByTestId('screen-settings')).toBeVisible();
});

test('an IPC round trip works through window.desk', async ({ app }) => {
  const result = await app.call('app.ping', { text: 'hello desk' });
  expect(result.ok).toBe(true);
  expect(result.value).toMatchObject({ text: 'hello desk' });
  const info = await app.call('app.info', {});
  expect(info).toMatchObject({ ok: true, value: { name: 'Treasury Desk', shell: 'chromium' } });
});

test('light theme and the display time zone are remembered across a reload', async ({ page, app }) => {
  await app.open('settings');
  await page.getByLabel('Theme').selectOption('light');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await page.getByLabel('Show times in').selectOption('UTC+8');
  await expect(page.getByTestId('time-zone-example')).toContainText('UTC+8');
  await app.expectAccessible();
  await app.screenshot('settings-light');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-desk-ready', 'true');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await app.open('settings');
  await expect(page.getByLabel('Show times in')).toHaveValue('UTC+8');
});

test('the Lock button locks the app and Unlock brings it back', async ({ page }) => {
  await page.getByTestId('lock-now').click();
  await expect(page.getByTestId('lock-screen')).toBeVisible();
  await expect(page.getByTestId('unlock')).toBeFocused();
  await page.getByTestId('unlock').click();
  await expect(page.getByTestId('lock-screen')).toHaveCount(0);
  await expect(page.getByTestId('app-frame')).toBeVisible();
});

test('Settings shows the sandbox profile with a masked key, and its connection check passes', async ({ page, app, sandbox }) => {
  await app.open('settings');
  const panel = page.getByTestId('profiles-panel');
  const table = panel.getByTestId('profiles-table');
  await expect(table).toContainText('Built-in sandbox');
  await expect(table).not.toContainText(sandbox.key);
  await panel.getByTestId('run-connection-check').click();
  await expect(panel.getByTestId('connection-check')).toContainText('All checks passed', { timeout: 15_000 });
  await expect(page.getByTestId('connection-state')).toHaveAttribute('data-state', 'connected');
  await app.expectAccessible();
  await app.screenshot('settings-profiles');
});
