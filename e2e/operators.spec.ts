/**
 * Operators on screen: Settings → Operators (an administrator adds a maker), the top bar's operator
 * and "Switch operator", which signs out to the sign-in screen; the next operator sees only their
 * own passphrase form; the Audit log names who did what.
 */
import { E2E_ADMIN, expect, test } from './fixtures';
import { confirmTrusted } from './fixtures/trustedConfirm';

test('an administrator adds a maker; Switch operator signs out; the maker signs in and is named on screen', async ({
  page,
  app,
  shell,
}) => {
  await expect(page.getByTestId('topbar-operator')).toContainText(`${E2E_ADMIN.name}`);
  await expect(page.getByTestId('topbar-operator')).toContainText('Administrator');

  await app.open('settings');
  const panel = page.getByTestId('operators-panel');
  await expect(panel.getByTestId('operators-table')).toContainText(E2E_ADMIN.name);
  await panel.getByTestId('operator-create-name').fill('Mo');
  await panel.getByTestId('operator-create-role').selectOption('maker');
  await panel.getByTestId('operator-create-passphrase').fill('maker walks the ledger');
  await panel.getByTestId('operator-create-repeat').fill('maker walks the ledger');
  await panel.getByTestId('operator-create-submit').click();
  // A control change: the trusted confirmation shows it before anything changes.
  const confirmation = await confirmTrusted(shell, { title: 'Create operator Mo (Maker)' });
  expect(confirmation.isClosed()).toBe(true);
  await expect(panel.getByTestId('operator-created')).toContainText('Mo can now sign in as maker');
  await expect(panel.getByTestId('operators-table')).toContainText('Mo');
  await app.expectAccessible();
  await app.screenshot('settings operators');

  // The last administrator keeps the role: main refuses, the field says why.
  await panel.getByTestId(`operator-role-${E2E_ADMIN.name}`).selectOption('viewer');
  await expect(panel.getByText('The desk needs at least one administrator.')).toBeVisible();

  await page.getByTestId('sign-out').click();
  await expect(page.getByTestId('lock-screen')).toBeVisible();
  await page.getByTestId('unlock-name').fill('Mo');
  await page.getByTestId('unlock-passphrase').fill('maker walks the ledger');
  await page.getByTestId('unlock').click();
  await expect(page.getByTestId('lock-screen')).toBeHidden();
  await expect(page.getByTestId('topbar-operator')).toContainText('Mo');
  await expect(page.getByTestId('topbar-operator')).toContainText('Maker');

  await expect(panel.getByTestId('operators-me')).toContainText('You are signed in as Mo (Maker)');
  await expect(panel.getByTestId('operators-table')).toHaveCount(0);
  await expect(panel.getByTestId('passphrase-change')).toBeVisible();

  // The audit log names the operator of each entry.
  await app.open('activity');
  await page.getByRole('tab', { name: 'Audit log' }).click();
  const table = page.getByTestId('audit-table');
  await expect(table.getByRole('columnheader', { name: 'Operator' })).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: 'operators.create' }).first()).toContainText(E2E_ADMIN.name);
  await expect(table.getByRole('row').filter({ hasText: 'operators.signIn' }).first()).toContainText('Mo');
});
