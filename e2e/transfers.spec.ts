/**
 * Transfers screen against a sandbox: amounts are checked before sending (9 decimals, more than
 * available), own-account transfers ask for the settle currency only when needed and land in the
 * history as recorded by the journal.
 */
import Decimal from 'decimal.js';
import { expect, test } from './fixtures';
import { confirmTrusted } from './fixtures/trustedConfirm';

test('an amount with 9 decimals is stopped before sending', async ({ page, app }) => {
  await app.open('transfers');
  const form = page.getByTestId('transfer-form');
  await form.getByLabel('Transfer type').selectOption('own');
  await form.getByLabel('From account').selectOption('spot');
  await form.getByLabel('To account').selectOption('futures');
  await form.getByLabel('Amount').fill('1.123456789');
  await expect(form.getByText('At most 8 decimals are allowed (this has 9).')).toBeVisible();
  await form.getByRole('button', { name: 'Review transfer' }).click();
  await expect(form.getByTestId('transfer-invalid')).toBeVisible();
  await expect(page.getByTestId('transfer-confirm')).toHaveCount(0);
  await app.expectAccessible();
  await app.screenshot('transfer-nine-decimals');
  // Nothing reached the journal.
  const history = await app.call('transfers.history', {});
  expect(history).toMatchObject({ ok: true });
  expect((history.value as { records: unknown[] }).records).toHaveLength(0);
});

test('own-account transfer spot → futures asks for settle only, sends once and shows in history', async ({
  page,
  app,
  shell,
}) => {
  await app.open('transfers');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Transfers');
  const form = page.getByTestId('transfer-form');
  await form.getByLabel('Transfer type').selectOption('own');
  await form.getByLabel('From account').selectOption('spot');
  await form.getByLabel('To account').selectOption('options');
  await expect(form.getByLabel('Settle currency')).toHaveCount(0);
  await expect(form.getByLabel('Margin market (pair)')).toHaveCount(0);
  await form.getByLabel('To account').selectOption('futures');
  await expect(form.getByLabel('Settle currency')).toBeVisible();
  await expect(form.getByLabel('Margin market (pair)')).toHaveCount(0);
  await expect(form.getByTestId('transfer-available')).toContainText('Available:');
  await form.getByRole('textbox', { name: 'Currency', exact: true }).fill('USDT');
  // Typed as people write it (thousands comma, pasted spaces): read as 1012.5, shown as 1,012.5 USDT.
  await form.getByLabel('Amount').fill(' 1,012.5\u00a0');
  await app.expectAccessible();
  await app.screenshot('transfer-form');
  await form.getByRole('button', { name: 'Review transfer' }).click();
  const review = page.getByTestId('transfer-confirm');
  await expect(review.getByTestId('review-amount')).toHaveText('1,012.5 USDT');
  await expect(review).toContainText('Perpetual futures (settle USDT)');
  await app.expectAccessible();
  await app.screenshot('transfer-review');
  // A double click is one transfer: the confirmation's request key makes the second the same one.
  await review.getByRole('button', { name: 'Transfer now' }).dblclick();
  // Main asks the shell's trusted confirmation once; the amount is typed as people write it.
  await confirmTrusted(shell, { title: 'Transfer 1,012.5 USDT', typedAmount: '1,012.5' });
  await expect(page.getByTestId('transfer-result-state')).toHaveAttribute('data-state', 'done');
  const row = page.getByTestId('transfer-history-table').getByRole('row').filter({ hasText: 'Own accounts' });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('1,012.5');
  await expect(row).toContainText('Done');
  await app.screenshot('transfer-history');
});

test('a lost answer shows “unknown — checking”, is reconciled, never resent: the funds move exactly once', async ({
  page,
  app,
  shell,
  control,
}) => {
  test.setTimeout(90_000);
  const list = await app.call('subAccounts.list', {});
  const sub = (list.value as { accounts: { userId: number; loginName: string }[] }).accounts[0];
  if (sub === undefined) throw new Error('the sandbox seeds sub-accounts');
  const availableIn = async () =>
    (
      (await app.call('transfers.available', { owner: sub.userId, account: 'spot', currency: 'USDT' })).value as {
        available: string;
      }
    ).available;
  const before = await availableIn();

  // The platform executes the next transfer, then the connection is cut before the answer; and
  // until the test says so it cannot say what happened either (its status endpoint fails).
  await control.addFaults([
    { method: 'POST', path: '/wallet/sub_account_transfers', kind: 'drop_after', times: 1 },
    { method: 'GET', path: '/wallet/order_status', kind: 'status_500' },
  ]);

  await app.open('transfers');
  const form = page.getByTestId('transfer-form');
  await form.getByLabel('Transfer type').selectOption('mainToSub');
  await form.getByLabel('Sub-account', { exact: true }).selectOption(String(sub.userId));
  await form.getByRole('textbox', { name: 'Currency', exact: true }).fill('USDT');
  await form.getByLabel('Amount').fill('7');
  await form.getByRole('button', { name: 'Review transfer' }).click();
  await page.getByTestId('transfer-confirm').getByRole('button', { name: 'Transfer now' }).click();
  await confirmTrusted(shell, { typedAmount: '7' });

  // The screen says so plainly and offers no way to send it again…
  const state = page.getByTestId('transfer-result-state');
  await expect(state).toHaveAttribute('data-state', 'checking', { timeout: 20_000 });
  await expect(state).toContainText('Unknown — checking');
  await expect(state).toContainText('do not send it again');
  await app.expectAccessible();
  await app.screenshot('transfer-checking');
  // …and once the platform answers again, the journal settles it by its client id: done.
  await control.clearFaults();
  await expect(state).toHaveAttribute('data-state', 'done', { timeout: 30_000 });
  await app.screenshot('transfer-reconciled');
  // …and the sandbox moved the funds once, not twice.
  const after = await availableIn();
  expect(new Decimal(after).minus(before).toFixed()).toBe('7');
  const movements = await app.call('activity.movements', {});
  expect(movements.ok).toBe(true);
  const journaled = (movements.value as { kind: string; state: string; attempts: number }[]).filter(
    (m) => m.kind === 'subAccountTransfer',
  );
  expect(journaled).toHaveLength(1);
  expect(journaled[0]?.state).toBe('done');
});
