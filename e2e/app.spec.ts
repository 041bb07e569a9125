import { E2E_ADMIN, expect, test } from './fixtures';
import { confirmedCall, confirmTrusted, trustedConfirmPage } from './fixtures/trustedConfirm';

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

test('in the light theme too, every screen has no serious accessibility problem (contrast included)', async ({
  page,
  app,
}) => {
  await app.open('settings');
  await page.getByLabel('Theme').selectOption('light');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  for (const [id] of SCREENS) {
    await app.open(id);
    await app.expectAccessible();
  }
});

test('the connection state opens its details: clock offset and the rate limiter’s budget, live', async ({
  page,
  app,
}) => {
  await app.open('balances');
  await page.getByTestId('connection-state').click();
  const details = page.getByTestId('connection-details');
  await expect(details).toBeVisible();
  await expect(details.getByTestId('connection-clock')).toContainText('platform');
  await expect(details.getByTestId('connection-budget')).toContainText('left in the tightest window');
  // The screens' reads went through the limiter: its windows are listed with what they used.
  await expect(details.getByTestId('connection-buckets')).toContainText(/\d+ of \d+ per/);
  await app.expectAccessible();
  await app.screenshot('connection-details');
  await page.keyboard.press('Escape');
  await expect(details).toHaveCount(0);
});

// Ctrl+number opening a screen with focus on its title: renderer/src/frame/Frame.test.tsx.

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

test('the Lock button locks main too: only app.* answers until Unlock reads the key again', async ({ page, app }) => {
  // (That main forgets the key while locked is checked in core/ipc/lock.integration.test.ts.)
  await page.getByTestId('lock-now').click();
  await expect(page.getByTestId('lock-screen')).toBeVisible();
  await expect(page.getByTestId('unlock-passphrase')).toBeFocused();
  await expect.poll(async () => (await app.call('app.lockState', {})).value).toMatchObject({ state: 'locked' });
  expect(await app.call('balances.spot', {})).toMatchObject({ ok: false, error: { code: 'LOCKED' } });
  expect(await app.call('app.ping', { text: 'still here' })).toMatchObject({ ok: true });
  await app.expectAccessible();

  // A reload does not get around it: the window comes back locked.
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-desk-ready', 'true');
  await expect(page.getByTestId('lock-screen')).toBeVisible();

  // Unlocking needs the operator's passphrase, checked in main: a wrong one is refused.
  await expect(page.getByTestId('lock-operator')).toContainText(E2E_ADMIN.name);
  await page.getByTestId('unlock-passphrase').fill('not my passphrase');
  await page.getByTestId('unlock').click();
  await expect(page.getByTestId('lock-screen')).toContainText('do not match');
  await expect(page.getByTestId('lock-screen')).toBeVisible();
  expect(await app.call('balances.spot', {})).toMatchObject({ ok: false, error: { code: 'LOCKED' } });
  expect(await app.call('app.unlock', { passphrase: 'guessed again' })).toMatchObject({
    ok: false,
    error: { code: 'NOT_ALLOWED', label: 'WRONG_PASSPHRASE' },
  });
  await app.screenshot('unlock-wrong-passphrase');

  await page.getByTestId('unlock-passphrase').fill(E2E_ADMIN.passphrase);
  await page.getByTestId('unlock').click();
  await expect(page.getByTestId('lock-screen')).toHaveCount(0);
  await expect(page.getByTestId('app-frame')).toBeVisible();
  expect(await app.call('balances.spot', {})).toMatchObject({ ok: true });
});

test.describe('first start', () => {
  test.use({ coreOptions: { bootstrapOperator: undefined } });

  test('asks to create the administrator before anything else; then the app opens, and a restart asks to sign in', async ({
    page,
    app,
  }) => {
    const setup = page.getByTestId('create-administrator');
    await expect(setup).toBeVisible();
    await expect(setup).toContainText('Create the administrator');
    expect(await app.call('balances.spot', {})).toMatchObject({ ok: false, error: { code: 'LOCKED' } });
    await app.expectAccessible();
    await app.screenshot('create-administrator');

    await page.getByTestId('setup-name').fill('Ada');
    await page.getByTestId('setup-passphrase').fill('short');
    await page.getByTestId('setup-repeat').fill('short');
    await page.getByTestId('setup-create').click();
    await expect(setup).toContainText('at least 12 characters');
    await page.getByTestId('setup-passphrase').fill('she keeps the ledgers');
    await page.getByTestId('setup-repeat').fill('she keeps the ledgers!');
    await page.getByTestId('setup-create').click();
    await expect(setup).toContainText('The two passphrases differ');
    await page.getByTestId('setup-repeat').fill('she keeps the ledgers');
    await page.getByTestId('setup-create').click();

    await expect(setup).toHaveCount(0);
    await expect(page.getByTestId('lock-screen')).toHaveCount(0);
    expect(await app.call('balances.spot', {})).toMatchObject({ ok: true });
    expect(await app.call('operators.current', {})).toMatchObject({
      ok: true,
      value: { setupNeeded: false, operator: { name: 'Ada', role: 'admin' } },
    });
    // Only once.
    expect(await app.call('operators.setup', { name: 'Eve', passphrase: 'wants to be the admin' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_ALLOWED' },
    });

    // Signed out (as after a restart): the lock screen asks the name and the passphrase.
    expect(await app.call('operators.signOut', {})).toMatchObject({ ok: true });
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-desk-ready', 'true');
    await expect(page.getByTestId('lock-screen')).toBeVisible();
    await page.getByTestId('unlock-name').fill('Ada');
    await page.getByTestId('unlock-passphrase').fill('she keeps the ledgers');
    await page.getByTestId('unlock').click();
    await expect(page.getByTestId('lock-screen')).toHaveCount(0);
    expect(await app.call('balances.spot', {})).toMatchObject({ ok: true });
  });
});

test('Settings shows the sandbox profile with a masked key, and its connection check passes', async ({
  page,
  app,
  sandbox,
}) => {
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

test('the deep check lists its test writes first, then shows read-write per group; the audit log marks the probes', async ({
  page,
  app,
}) => {
  await app.open('settings');
  const panel = page.getByTestId('profiles-panel');
  // Test connection reads only: a group it can read is "may read; writing not tested".
  await panel.getByTestId('run-connection-check').click();
  await expect(panel.getByTestId('check-kind')).toHaveAttribute('data-deep', 'false', { timeout: 15_000 });
  await expect(panel.getByTestId('permission-spot')).toHaveAttribute('data-level', 'read');
  await expect(panel.getByTestId('permission-spot')).toContainText('writing not tested');

  await panel.getByTestId('run-deep-check').click();
  const dialog = page.getByTestId('deep-check-dialog');
  await expect(dialog.getByTestId('deep-check-probes').getByRole('listitem')).toHaveCount(4);
  await expect(dialog).toContainText('withdraw 0 USDT');
  await app.expectAccessible();
  await app.screenshot('settings-deep-check-confirm');
  await dialog.getByTestId('confirm-accept').click();
  await expect(dialog).toHaveCount(0, { timeout: 15_000 });
  await expect(panel.getByTestId('check-kind')).toHaveAttribute('data-deep', 'true');
  await expect(panel.getByTestId('check-kind')).toContainText('test writes were sent');
  for (const group of ['spot', 'wallet', 'withdrawal', 'subAccounts']) {
    await expect(panel.getByTestId(`permission-${group}`)).toHaveAttribute('data-level', 'read-write');
  }
  await app.expectAccessible();
  await app.screenshot('settings-deep-check');

  // Each probe is in the audit log, marked as a refused-by-design permission probe.
  await app.open('activity');
  await page.getByRole('tab', { name: 'Audit log' }).click();
  await page.getByLabel('Search').fill('permission probe');
  const probes = page.getByTestId('audit-table').locator('tbody tr');
  await expect(probes).toHaveCount(4);
  await expect(probes.first()).toContainText('deep connection check: permission probe, refused by design');
  await expect(page.getByTestId('audit-table')).toContainText('POST /withdrawals');
});

test('events from main reach the page: a core that dies is restarted and the window says so', async ({
  page,
  app,
  shell,
}) => {
  const before = shell.core.pid;
  await shell.core.crash();
  const notice = page.getByTestId('notice').filter({ hasText: 'core stopped unexpectedly and was restarted' });
  // Once a new core serves the window: a process start, which takes a while on a busy machine (as
  // in withdrawals.spec.ts); 5 s was exceeded with three workers at a load of 17–40.
  await expect(notice).toBeVisible({ timeout: 20_000 });
  expect(shell.core.pid).not.toBe(before);
  expect(shell.core.restarts).toBe(1);
  // The new core answers the same window.
  expect(await app.call('balances.spot', {})).toMatchObject({ ok: true });
  // It found the audit log's key and head where the one before left them (the test key store is
  // the shell's, as the OS keychain outlives the app): the log checks out, no banner.
  expect(await app.call('activity.auditIntegrity', {})).toMatchObject({ ok: true, value: { ok: true } });
  await expect(page.getByTestId('audit-integrity-banner')).toHaveCount(0);
  await notice.getByRole('button', { name: /Dismiss/ }).click();
  await expect(notice).toHaveCount(0);
});

test('the idle lock locks after the chosen minutes without activity', async ({ page, app }) => {
  await app.open('settings');
  await page.getByLabel('Lock the app after inactivity').selectOption('5');
  await page.clock.install();
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-desk-ready', 'true');
  await page.clock.fastForward('04:00');
  await expect(page.getByTestId('lock-screen')).toHaveCount(0);
  await page.clock.fastForward('01:30');
  await expect(page.getByTestId('lock-screen')).toBeVisible();
  await expect(page.getByTestId('lock-screen')).toContainText('Locked after 5 minutes');
  // Main is locked too, not only the screen.
  await expect
    .poll(async () => (await app.call('app.lockState', {})).value)
    .toMatchObject({ state: 'locked', reason: 'idle' });
});

test('the idle lock never interrupts an operation in flight', async ({ page, app, control }) => {
  await app.open('settings');
  await page.getByLabel('Lock the app after inactivity').selectOption('5');
  await page.clock.install();
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-desk-ready', 'true');
  await app.open('settings');
  // The platform holds the check's own requests (named, so background polling cannot use the holds
  // up) until the test lets them go on: the connection check stays in flight meanwhile.
  await control.addFaults([
    { method: 'GET', path: '/spot/time', kind: 'hold', times: 1 },
    { method: 'GET', path: '/account/detail', kind: 'hold', times: 1 },
  ]);
  await page.getByTestId('run-connection-check').click();
  await expect(page.getByTestId('busy')).toContainText('Working');
  await page.clock.fastForward('06:00');
  await expect(page.getByTestId('lock-screen')).toHaveCount(0);
  await expect(page.getByTestId('busy')).toContainText('Working');
  await control.clearFaults();
  await expect(page.getByTestId('connection-check')).toContainText('checks', { timeout: 15_000 });
  // The finished action counts as activity: the full period starts again from there.
  await page.clock.fastForward('04:00');
  await expect(page.getByTestId('lock-screen')).toHaveCount(0);
  await page.clock.fastForward('01:30');
  await expect(page.getByTestId('lock-screen')).toBeVisible();
});

test('a profile can be added and given a key, which is shown masked only', async ({ page, app, shell }) => {
  await app.open('settings');
  const panel = page.getByTestId('profiles-panel');
  await panel.getByTestId('add-profile').click();
  const add = page.getByTestId('add-profile-dialog');
  await add.getByLabel('Connects to').selectOption('testnet');
  await add.getByLabel('Name').fill('Desk testnet');
  await app.expectAccessible();
  await add.getByRole('button', { name: 'Add profile' }).click();
  // Adding a profile and setting its key are control changes: the trusted confirmation first.
  await confirmTrusted(shell, { title: 'Add a testnet profile' });
  await expect(add).toHaveCount(0);
  const row = panel.getByTestId('profiles-table').locator('tr', { hasText: 'Desk testnet' });
  await expect(row).toContainText('No key');

  const key = 'TESTKEY0123456789abcdef0123456789';
  const secret = 'TOPSECRET0123456789abcdef0123456789abcdef0123456789';
  await row.getByRole('button', { name: 'Set key' }).click();
  const dialog = page.getByTestId('set-key-dialog');
  await dialog.getByLabel('API key').fill(key);
  await dialog.getByLabel('API secret').fill(secret);
  await dialog.getByRole('button', { name: 'Save key' }).click();
  // The confirmation says whose account the key is (read with it first; this machine cannot reach
  // the testnet, so it says it could not be read) and never shows the secret.
  const keyConfirmation = await trustedConfirmPage(shell);
  await expect(keyConfirmation.getByTestId('trusted-title')).toHaveText('Set the API key of Desk testnet');
  await expect(keyConfirmation.getByTestId('trusted-rows')).toContainText('Account (UID)');
  expect(await keyConfirmation.content()).not.toContain(secret);
  await confirmTrusted(shell);
  await expect(dialog).toHaveCount(0);
  await expect(row.locator('code').last()).not.toHaveText('No key');
  // Neither the secret nor the full key is anywhere in the page afterwards.
  const html = await page.content();
  expect(html).not.toContain(secret);
  expect(html).not.toContain(key);
  await app.screenshot('profile-with-key');
});

test('switching to a live profile asks first; cancelling keeps the current one', async ({ page, app, shell }) => {
  const added = await confirmedCall(shell, app.call('profiles.add', { kind: 'live', name: 'Treasury live' }));
  expect(added.ok).toBe(true);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-desk-ready', 'true');
  await page.getByTestId('profile-select').selectOption({ label: 'Treasury live' });
  const confirm = page.getByTestId('confirm-live-switch');
  await expect(confirm).toContainText('real money');
  // The dialog's body takes the first focus (ui/Dialog.tsx); Enter never confirms a danger dialog.
  await expect(confirm.locator('[data-dialog-body]')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(confirm).toBeVisible();
  await app.expectAccessible();
  await confirm.getByTestId('confirm-cancel').click();
  await expect(confirm).toHaveCount(0);
  await expect(page.getByTestId('profile-kind')).toHaveText('Sandbox');
  await expect(page.getByTestId('profile-select').locator('option:checked')).toHaveText('Local sandbox');
});

test('locking with a dialog open closes the dialog; the lock screen is on top and Unlock works', async ({
  page,
  app,
}) => {
  await app.open('subAccounts');
  await page.getByTestId('open-create-subaccount').click();
  const create = page.getByTestId('create-subaccount');
  await expect(create).toBeVisible();
  await create.getByLabel('Login name').fill('typed before locking');
  await page.keyboard.press('Control+Shift+L');
  const lockScreen = page.getByTestId('lock-screen');
  await expect(lockScreen).toBeVisible();
  await expect(create).toHaveCount(0);
  await expect(page.getByTestId('unlock-passphrase')).toBeFocused();
  // Chrome stops letting a page refuse Escape after a few presses (close watchers); the lock holds.
  for (let press = 0; press < 4; press++) await page.keyboard.press('Escape');
  await expect(lockScreen).toBeVisible();
  await expect(page.getByTestId('unlock-passphrase')).toBeFocused();
  await app.expectAccessible();

  // Real typing and a real click: nothing above the lock screen intercepts them.
  await page.getByTestId('unlock-passphrase').fill(E2E_ADMIN.passphrase);
  await page.getByTestId('unlock').click();
  await expect(lockScreen).toHaveCount(0);
  await expect(create).toHaveCount(0);
  await page.getByTestId('open-create-subaccount').click();
  await expect(create.getByLabel('Login name')).toHaveValue('');
  await page.keyboard.press('Escape');
  await expect(create).toHaveCount(0);
});

test('after switching to a profile that cannot answer, nothing of the previous profile stays on screen', async ({
  page,
  app,
  shell,
}) => {
  await app.open('balances');
  const spot = page.getByTestId('spot-balances');
  await expect(spot.locator('[data-row-key="USDT"]')).toContainText('250,000');
  await expect(page.getByTestId('total-balance')).toContainText('USDT');
  // A custom endpoint on a loopback port nothing listens on, with no key: it never answers.
  // A custom endpoint decides where signed requests go: main asks for the trusted confirmation.
  const added = await confirmedCall(
    shell,
    app.call('profiles.add', {
      kind: 'custom',
      name: 'Unreachable proxy',
      baseUrl: 'https://127.0.0.1:9/api/v4',
    }),
    { title: /Add an endpoint/ },
  );
  expect(added.ok).toBe(true);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-desk-ready', 'true');
  await app.open('balances');
  await expect(spot.locator('[data-row-key="USDT"]')).toContainText('250,000');
  await page.getByTestId('profile-select').selectOption({ label: 'Unreachable proxy' });
  const confirm = page.getByTestId('confirm-live-switch');
  await confirm.getByRole('button', { name: 'Switch to live' }).click();
  await expect(page.getByTestId('profile-kind')).toHaveText('Custom endpoint');
  // The sandbox's balances are gone: neither its spot rows nor its total are shown any more.
  await expect(page.getByText('250,000')).toHaveCount(0);
  await expect(spot.locator('[data-row-key="USDT"]')).toHaveCount(0);
  await app.screenshot('switched-to-unreachable-profile');
});
