import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { expect, savedExports, test } from './fixtures';
import type { SandboxControl } from './fixtures/control';
import { confirmTrusted } from './fixtures/trustedConfirm';

/** Rows of withdrawals the sandbox holds for everyone (the seed has exactly one). */
const withdrawalRows = (sandbox: { ctx: { db: { prepare(sql: string): { get(): unknown } } } }): number =>
  (sandbox.ctx.db.prepare('SELECT COUNT(*) AS n FROM withdrawals').get() as { n: number }).n;

const fillWithdrawal = async (page: Page, o: { currency: string; chain: string; address: RegExp; amount?: string }) => {
  const form = page.getByRole('form', { name: 'New withdrawal' });
  await form.getByLabel('Currency').selectOption(o.currency);
  await form.getByRole('radio', { name: new RegExp(`^${o.chain}\\b`) }).check();
  await form.getByRole('radio', { name: o.address }).check();
  if (o.amount !== undefined) await form.getByLabel('Amount').fill(o.amount);
  return form;
};

/**
 * Moves the sandbox's manual clock through a whole on-chain route (18 s) at once, and again should
 * the timeline not show `status` soon after (the app's watcher asks every second): stepping 5 s at a
 * time cost 2.5 s of waiting for each step the timeline could not reach yet.
 */
const advanceUntil = async (page: Page, control: SandboxControl, status: string, testId = 'timeline-headline') => {
  const headline = page.getByTestId('withdrawal-tracker').getByTestId(testId);
  await expect(async () => {
    await control.advance(20);
    await expect(headline).toHaveAttribute('data-status', status, { timeout: 5_000 });
  }).toPass({ timeout: 25_000 });
};

test.describe('withdrawals', () => {
  test('a withdrawal to a saved address passes review and its timeline reaches Done', async ({
    page,
    app,
    control,
    sandbox,
    shell,
  }) => {
    await app.open('withdrawals');
    const form = await fillWithdrawal(page, {
      currency: 'USDT',
      chain: 'TRX',
      address: /OTC desk \(TRC20\)/,
      amount: '100',
    });
    // Fee, limits and the net amount are shown before anything is sent.
    await expect(form.getByTestId('withdraw-fee')).toHaveText('1 USDT');
    await expect(form.getByTestId('withdraw-net')).toHaveText('100 USDT');
    await expect(form.getByTestId('withdraw-debit')).toHaveText('101 USDT');
    await expect(page.getByTestId('saved-address-explainer')).toContainText('address book');
    await app.expectAccessible();
    await app.screenshot('withdrawal-form');

    await page.getByTestId('withdraw-review').click();
    const sheet = page.getByTestId('review-sheet');
    await expect(sheet).toBeVisible();
    await expect(sheet.getByTestId('review-network')).toContainText('TRX');
    await expect(sheet.getByTestId('review-fee')).toHaveText('1 USDT');
    await expect(sheet.getByTestId('review-net')).toHaveText('100 USDT');
    // The full address, in groups of four.
    const address = (await sheet.getByTestId('review-address').innerText()).replace(/\s+/g, '');
    expect(address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    // No threshold configured for USDT: the amount must be typed.
    const send = sheet.getByTestId('withdraw-send');
    await expect(send).toBeDisabled();
    await sheet.getByLabel(/Type the amount/).fill('100');
    await app.expectAccessible();
    await app.screenshot('withdrawal-review');
    const before = withdrawalRows(sandbox);
    // A double click sends one withdrawal (one confirmation, one request key).
    await send.dblclick();
    // Main asks again in the shell's own confirmation window (one, for the double click).
    await confirmTrusted(shell, { title: 'Withdraw 100 USDT' });

    const tracker = page.getByTestId('withdrawal-tracker');
    await expect(tracker.getByTestId('timeline-headline')).toHaveAttribute('data-status', 'REQUEST');
    expect(withdrawalRows(sandbox)).toBe(before + 1);
    await advanceUntil(page, control, 'DONE');
    await expect(tracker.getByTestId('timeline-headline')).toContainText('Done');
    expect(withdrawalRows(sandbox)).toBe(before + 1);
    await expect(tracker.locator('[data-stage="done"]')).toHaveAttribute('data-state', 'done');
    // One notice for this withdrawal, replaced at each status, in plain words.
    const notice = page.getByTestId('notice').filter({ hasText: 'Withdrawal of 100 USDT' });
    await expect(notice).toHaveCount(1);
    await expect(notice).toContainText('Done: the funds were sent');
    await app.screenshot('withdrawal-done');
  });

  test('the core process dies while a withdrawal is on its way: restarted, it finds it on the platform and never sends it twice', async ({
    page,
    app,
    control,
    sandbox,
    shell,
  }) => {
    test.setTimeout(90_000);
    await app.open('withdrawals');
    await fillWithdrawal(page, { currency: 'USDT', chain: 'TRX', address: /OTC desk \(TRC20\)/, amount: '100' });
    await page.getByTestId('withdraw-review').click();
    const sheet = page.getByTestId('review-sheet');
    await sheet.getByLabel(/Type the amount/).fill('100');
    const before = withdrawalRows(sandbox);
    // The platform holds the request until the test lets it go on; the core is killed while it
    // waits. The in-process sandbox says when it holds it, so the kill always falls inside.
    await control.addFaults([{ method: 'POST', path: '/withdrawals', kind: 'hold', times: 1 }]);
    await sheet.getByTestId('withdraw-send').click();
    await confirmTrusted(shell, { title: 'Withdraw 100 USDT', typedAmount: '100' });
    await expect.poll(() => sandbox.faults.holding).toBe(1);
    const firstCore = shell.core.pid;
    await shell.core.crash();

    // The window says what happened once a new core serves it (starting one takes a while on a busy machine).
    await expect(page.getByTestId('notice').filter({ hasText: 'core stopped unexpectedly' })).toBeVisible({
      timeout: 20_000,
    });
    expect(shell.core.pid).not.toBe(firstCore);
    expect(withdrawalRows(sandbox)).toBe(before);
    // The platform carries it out once (its answer goes to a dead process)…
    await control.clearFaults();
    await expect.poll(() => withdrawalRows(sandbox)).toBe(before + 1);
    // The review says the outcome is being checked; the person closes it and looks in Activity…
    await expect(sheet).toContainText('We do not know yet whether this went through');
    await page.keyboard.press('Escape');
    await expect(sheet).toBeHidden();
    // …where the new core, reconciling its journal, finds it by its client id instead of resending.
    await app.open('activity');
    const row = page.getByTestId('movements-table').locator('tbody tr').filter({ hasText: 'Withdrawal' }).first();
    // Found, not resent: the row shows where the platform has it (no longer "Unknown — checking").
    await expect(row).toContainText(/received by the platform|Accepted by the platform/, { timeout: 45_000 });
    expect(withdrawalRows(sandbox)).toBe(before + 1);
    await app.screenshot('withdrawal-after-core-restart');
  });

  test('a pending withdrawal is cancelled', async ({ page, app, shell, control }) => {
    await app.open('withdrawals');
    await fillWithdrawal(page, { currency: 'USDT', chain: 'TRX', address: /OTC desk \(TRC20\)/, amount: '50' });
    await page.getByTestId('withdraw-review').click();
    const sheet = page.getByTestId('review-sheet');
    await sheet.getByLabel(/Type the amount/).fill('50');
    await sheet.getByTestId('withdraw-send').click();
    await confirmTrusted(shell, { title: 'Withdraw 50 USDT', typedAmount: '50' });

    const tracker = page.getByTestId('withdrawal-tracker');
    await expect(tracker.getByTestId('timeline-headline')).toHaveAttribute('data-status', 'REQUEST');
    await tracker.getByTestId('withdrawal-cancel').click();
    const dialog = page.getByTestId('cancel-withdrawal-dialog');
    await app.screenshot('withdrawal-cancel-confirm');
    await dialog.getByTestId('confirm-accept').click();
    await expect(tracker.getByTestId('timeline-headline')).toHaveAttribute('data-status', /CANCELPEND|CANCEL/);
    await expect(async () => {
      // Past the 2 s of CANCELPEND.
      await control.advance(5);
      await expect(tracker.getByTestId('timeline-headline')).toHaveAttribute('data-status', 'CANCEL', {
        timeout: 5_000,
      });
    }).toPass({ timeout: 20_000 });
    await expect(tracker.getByTestId('timeline-headline')).toContainText('Cancelled');
    await expect(tracker.getByTestId('withdrawal-cancel')).toHaveCount(0);
  });

  test('a too-large amount and a missing memo are stopped before sending', async ({ page, app, sandbox }) => {
    const before = withdrawalRows(sandbox);
    await app.open('withdrawals');
    const form = await fillWithdrawal(page, {
      currency: 'USDT',
      chain: 'TRX',
      address: /OTC desk \(TRC20\)/,
      amount: '300000',
    });
    await expect(form.getByRole('alert').filter({ hasText: 'Not enough USDT' })).toBeVisible();
    // Review cannot open: the reason once, at the amount; the line by the button says where to look.
    await expect(page.getByTestId('withdraw-review')).toBeDisabled();
    await expect(page.getByTestId('withdraw-review-why')).toHaveText('Check the amount above.');
    await expect(form.getByText(/Not enough USDT/)).toHaveCount(1);
    await expect(page.getByTestId('review-sheet')).toHaveCount(0);

    // TON needs a memo: the saved address brings one; without it nothing can be sent.
    await form.getByRole('radio', { name: /^TON\b/ }).check();
    await form.getByRole('radio', { name: /Exchange B \(TON\)/ }).check();
    await expect(page.getByTestId('memo-warning')).toBeVisible();
    await expect(form.getByLabel('Memo / tag')).toHaveValue('7734001');
    await form.getByLabel('Memo / tag').fill('');
    await form.getByLabel('Amount').fill('20');
    await expect(page.getByTestId('withdraw-review')).toBeDisabled();
    await expect(page.getByTestId('withdraw-review-why')).toHaveText('Check the memo / tag above.');
    await expect(form.getByRole('alert').filter({ hasText: 'needs a memo' })).toHaveCount(1);
    await expect(page.getByTestId('review-sheet')).toHaveCount(0);
    await app.screenshot('withdrawal-stopped');

    // Main refuses the same mistakes even if a screen let them through: nothing reaches the platform.
    const direct = await app.call('funding.withdraw', {
      requestKey: randomUUID(),
      currency: 'USDT',
      chain: 'TON',
      address: 'UQ000000000000000000000000000000000000000000000',
      amount: '20',
    });
    expect(direct).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(withdrawalRows(sandbox)).toBe(before);
  });

  test('history filters and exports CSV with fees, chain, txid and status', async ({ page, app, downloadsDir }) => {
    await app.open('withdrawals');
    await page.getByRole('tab', { name: 'History' }).click();
    const table = page.getByTestId('withdrawals-table');
    await expect(table.locator('tbody tr')).toHaveCount(1);
    await expect(table).toContainText('Done');
    await app.expectAccessible();
    await app.screenshot('withdrawal-history');

    // The export is saved through main as a file (the shells refuse browser downloads).
    await page.getByTestId('withdrawals-export').click();
    const [file] = await savedExports(downloadsDir);
    expect(file?.name).toMatch(/\.csv$/);
    const buffer = file?.bytes ?? Buffer.alloc(0);
    expect([...buffer.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = buffer.toString('utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    expect(text.endsWith('\r\n')).toBe(true);
    const [header = [], ...rows] = file?.rows ?? [];
    expect(header[0]).toMatch(/^Time \(UTC/);
    expect(header).toEqual(expect.arrayContaining(['Currency', 'Chain', 'Amount', 'Fee', 'Status code', 'TXID']));
    expect(rows).toHaveLength(1);
    const row = Object.fromEntries(header.map((h, i) => [h, rows[0]![i]]));
    expect(row).toMatchObject({
      'Withdrawal ID': 'w20000001',
      Currency: 'USDT',
      Chain: 'TRX',
      Amount: '1200',
      Fee: '1',
      'Status code': 'DONE',
      'Block number': '61234567',
    });
    expect(row.TXID).toMatch(/^[0-9a-fx]{16,}$/i);
    expect(row[header[0]!]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)$/);
  });

  test('UID transfer to another main account shows its states', async ({ page, app, shell, control }) => {
    const counterparty = await control.post<{ user_id: number }>('/users', {});
    await app.open('withdrawals');
    await page.getByRole('tab', { name: 'UID transfer' }).click();
    const form = page.getByRole('form', { name: 'UID transfer' });
    await form.getByLabel('Receiving user id').fill(String(counterparty.user_id));
    await form.getByLabel('Currency').selectOption('USDT');
    await form.getByLabel('Amount').fill('25');
    await page.getByTestId('push-review').click();
    await expect(page.getByTestId('push-review-uid')).toHaveText(String(counterparty.user_id));
    await app.expectAccessible();
    await page.getByTestId('push-confirm').getByTestId('confirm-accept').click();
    await confirmTrusted(shell, { typedAmount: '25' });
    const tracker = page.getByTestId('push-tracker');
    await expect(tracker.getByTestId('timeline-headline')).toHaveAttribute('data-status', /CREATING|PENDING/);
    await expect(async () => {
      // Through the whole accepted route (15 s) at once.
      await control.advance(20);
      await expect(tracker.getByTestId('timeline-headline')).toHaveAttribute('data-status', 'RECEIVED', {
        timeout: 5_000,
      });
    }).toPass({ timeout: 25_000 });
    await app.screenshot('uid-transfer');
  });
});
