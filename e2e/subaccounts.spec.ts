/**
 * Sub-accounts, their API keys and transfers, clicked through against a sandbox:
 * create a sub-account → create a key (secret shown once, gone after closing) → transfer to it →
 * freeze it → a transfer fails with a clear message → unfreeze → a transfer works again.
 * Plus: an invalid login name and an invalid whitelist IP are stopped before anything is sent.
 */
import type { Page } from 'playwright-core';
import type { Shell } from '../shell/shell';
import { type AppDriver, expect, test } from './fixtures';
import { confirmTrusted, readTrustedSecret, trustedConfirmPage } from './fixtures/trustedConfirm';

const LOGIN = 'ops_e2e_desk';

const openSubAccount = async (page: Page, app: AppDriver) => {
  await app.open('subAccounts');
  await page.getByRole('button', { name: `Open ${LOGIN}` }).click();
  await expect(page.getByRole('heading', { level: 2, name: new RegExp(LOGIN) })).toBeVisible();
};

const transferToSub = async (page: Page, app: AppDriver, shell: Shell, uid: string, amount: string) => {
  await app.open('transfers');
  const form = page.getByTestId('transfer-form');
  await form.getByLabel('Transfer type').selectOption('mainToSub');
  await form.getByLabel('Sub-account', { exact: true }).selectOption(uid);
  await form.getByRole('textbox', { name: 'Currency', exact: true }).fill('USDT');
  await form.getByLabel('Amount').fill(amount);
  await form.getByRole('button', { name: 'Review transfer' }).click();
  const review = page.getByTestId('transfer-confirm');
  await expect(review.getByTestId('review-amount')).toHaveText(`${amount} USDT`);
  await review.getByRole('button', { name: 'Transfer now' }).click();
  // Main asks for the trusted confirmation (no review threshold for USDT: every transfer asks).
  await confirmTrusted(shell, { title: `Transfer ${amount} USDT`, typedAmount: amount });
  await expect(review).toBeHidden();
};

test('sub-account lifecycle: key shown once, transfers, freeze blocks them, unfreeze restores them', async ({
  page,
  app,
  shell,
}) => {
  test.setTimeout(90_000);

  // --- Create a sub-account; the login-name rule is checked inline first.
  await app.open('subAccounts');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sub-accounts');
  await app.expectAccessible();
  await app.screenshot('sub-accounts-list');
  await page.getByTestId('open-create-subaccount').click();
  const create = page.getByTestId('create-subaccount');
  await create.getByLabel('Login name').fill('ops desk');
  await expect(create.getByRole('alert')).toContainText('Spaces are not allowed');
  await create.getByRole('button', { name: 'Create sub-account' }).click();
  await expect(create).toBeVisible(); // nothing sent: still open
  await create.getByLabel('Login name').fill(LOGIN);
  await create.getByLabel('Remark (optional)').fill('e2e desk');
  await app.expectAccessible();
  await app.screenshot('create-sub-account');
  await create.getByRole('button', { name: 'Create sub-account' }).click();
  // Creating a sub-account is a control change: the trusted confirmation names it first.
  await confirmTrusted(shell, { title: `Create sub-account ${LOGIN}` });
  await expect(create).toBeHidden();
  const detail = page.getByTestId('subaccount-detail');
  await expect(detail.getByRole('heading', { level: 2 })).toContainText(LOGIN);
  await expect(detail.getByTestId('subaccount-state')).toHaveText('Active');
  const uid = await uidOf(page);

  // --- Create a key: an invalid whitelist IP is stopped before sending.
  await detail.getByTestId('create-key').click();
  const keyForm = page.getByTestId('key-form');
  await keyForm.getByLabel('Key name').fill('e2e-bot');
  await keyForm.getByLabel('Wallet: Read-write').check();
  await keyForm.getByRole('button', { name: 'Add address' }).click();
  await keyForm.getByRole('textbox', { name: 'IP address 1', exact: true }).fill('300.1.2.3');
  await expect(keyForm.getByText('Each of the four numbers must be between 0 and 255.')).toBeVisible();
  await keyForm.getByTestId('key-form-submit').click();
  await expect(keyForm.getByTestId('key-form-invalid')).toBeVisible();
  await expect(page.getByTestId('key-created')).toHaveCount(0);
  await app.expectAccessible();
  await app.screenshot('key-form-invalid-ip');
  await keyForm.getByRole('textbox', { name: 'IP address 1', exact: true }).fill('203.0.113.7');
  // Kept in the keychain (the fixtures give the core a test KeyStore), shown once all the same.
  await expect(keyForm.getByLabel(/Keep the secret/)).toBeChecked();
  await keyForm.getByTestId('key-form-submit').click();
  await confirmTrusted(shell, { title: /Create an API key/ });

  // --- The secret is shown once, in Treasury Desk's own page (never in the app's window)…
  const [secret = ''] = await readTrustedSecret(shell);
  expect(secret.length).toBeGreaterThanOrEqual(32);
  const done = page.getByTestId('key-created');
  await expect(done).toBeVisible();
  const key = (await done.getByTestId('created-key').textContent())?.trim() ?? '';
  await expect(done.getByTestId('secret-shown')).toBeVisible();
  await expect(done.getByTestId('secret-stored')).toBeVisible();
  await app.expectAccessible();
  await app.screenshot('key-created');
  await done.getByTestId('key-created-done').click();
  await expect(done).toBeHidden();

  // …and after closing it cannot be shown again: not on the page, not from any operation.
  expect(await page.content()).not.toContain(secret);
  const row = page.getByTestId('keys-table').getByRole('row').filter({ hasText: 'e2e-bot' });
  await expect(row).toContainText('203.0.113.7');
  await expect(row).toContainText('IP-bound, no expiry');
  await expect(row).toContainText('Secret in keychain');
  const listed = await app.call('keys.list', { userId: Number(uid) });
  expect(listed.ok).toBe(true);
  expect(JSON.stringify(listed)).toContain(key);
  expect(JSON.stringify(listed)).not.toContain(secret);
  await app.screenshot('sub-account-detail-with-key');

  // --- Edit only the name: the whole whitelist is sent again, so the address stays.
  await row.getByRole('button', { name: 'Edit key e2e-bot' }).click();
  const editForm = page.getByTestId('key-form');
  await expect(editForm.getByRole('textbox', { name: 'IP address 1', exact: true })).toHaveValue('203.0.113.7');
  await editForm.getByLabel('Key name').fill('e2e-bot-2');
  await editForm.getByTestId('key-form-submit').click();
  await confirmTrusted(shell);
  await expect(editForm).toBeHidden();
  const edited = page.getByTestId('keys-table').getByRole('row').filter({ hasText: 'e2e-bot-2' });
  await expect(edited).toContainText('203.0.113.7');

  // --- Transfer to it ("Transfer funds" hands the sub-account over to the Transfers screen).
  await page.getByTestId('transfer-funds').click();
  await expect(page.getByTestId('screen-transfers')).toBeVisible();
  await expect(page.getByTestId('transfer-form').getByLabel('Sub-account', { exact: true })).toHaveValue(uid);
  await transferToSub(page, app, shell, uid, '25');
  await expect(page.getByTestId('transfer-result-state')).toHaveAttribute('data-state', 'done');

  // --- Freeze it (with confirmation).
  await openSubAccount(page, app);
  await page.getByTestId('freeze').click();
  const confirmFreeze = page.getByTestId('freeze-confirm');
  await expect(confirmFreeze).toContainText('transfers to and from it fail');
  await app.expectAccessible();
  await app.screenshot('freeze-confirm');
  await confirmFreeze.getByRole('button', { name: 'Freeze' }).click();
  // A control change too: the account by its name and UID, active → frozen.
  const frozen = await trustedConfirmPage(shell);
  await expect(frozen.getByTestId('trusted-rows')).toContainText(`${LOGIN} (UID ${uid})`);
  await expect(frozen.getByTestId('trusted-rows')).toContainText('active → frozen');
  await confirmTrusted(shell, { title: 'Freeze a sub-account' });
  await expect(page.getByTestId('subaccount-state')).toHaveText('Frozen');

  // --- A transfer now fails with a clear message, label and request id (the form warns, the platform refuses).
  await app.open('transfers');
  await page.getByTestId('transfer-form').getByLabel('Sub-account', { exact: true }).selectOption(uid);
  await expect(page.getByTestId('transfer-frozen-warning')).toContainText(`${LOGIN} is frozen`);
  await transferToSub(page, app, shell, uid, '5');
  const failure = page.getByTestId('transfer-result').getByTestId('error-notice');
  await expect(failure).toContainText('The platform refused the request.');
  await expect(failure).toContainText(/frozen/i);
  await expect(failure.getByTestId('error-label')).toHaveText('SUB_ACCOUNT_LOCKED');
  await expect(failure.getByTestId('error-request-id')).not.toBeEmpty();
  await app.expectAccessible();
  await app.screenshot('transfer-refused-frozen');

  // --- Unfreeze, and a transfer works again.
  await openSubAccount(page, app);
  await page.getByTestId('unfreeze').click();
  await page.getByTestId('freeze-confirm').getByRole('button', { name: 'Unfreeze' }).click();
  await confirmTrusted(shell, { title: 'Unfreeze a sub-account' });
  await expect(page.getByTestId('subaccount-state')).toHaveText('Active');
  await transferToSub(page, app, shell, uid, '5');
  await expect(page.getByTestId('transfer-result-state')).toHaveAttribute('data-state', 'done');

  // The history shows both successful transfers; the sub-account holds 30 USDT.
  const history = page.getByTestId('transfer-history-table');
  await expect(history.getByRole('row').filter({ hasText: LOGIN }).filter({ hasText: 'Done' })).toHaveCount(2);
  await app.screenshot('transfers-after-unfreeze');
  await openSubAccount(page, app);
  await expect(page.getByTestId('subaccount-balances')).toContainText('30');

  // --- Delete the key, after confirmation.
  await page.getByRole('button', { name: 'Delete key e2e-bot-2' }).click();
  const confirmDelete = page.getByTestId('delete-key-confirm');
  await expect(confirmDelete).toContainText('stops working');
  await confirmDelete.getByRole('button', { name: 'Delete key' }).click();
  await confirmTrusted(shell);
  await expect(page.getByTestId('keys-panel')).toContainText('No API keys yet');
});

/** The selected sub-account's user id, read from its heading ("name · UID n"). */
const uidOf = async (page: Page): Promise<string> => {
  const heading = (await page.getByTestId('subaccount-detail').getByRole('heading', { level: 2 }).textContent()) ?? '';
  const uid = /UID (\d+)/.exec(heading)?.[1];
  if (uid === undefined) throw new Error(`no UID in “${heading}”`);
  return uid;
};
