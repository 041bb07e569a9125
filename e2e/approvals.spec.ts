/**
 * Four eyes, end to end through the Chromium shell: an administrator creates a maker and an
 * approver and sets a policy in Settings → Policies (each confirmed in the shell's trusted window).
 * The approver may not approve what that administrator prepares (the cooling-off after a grant:
 * one person with two names is not four eyes). The maker prepares a withdrawal that needs approval
 * (nothing reaches the platform; the review sheet closes, one intent, one item); the approver signs
 * in on the Approvals screen with their passphrase and approves it with a reason → the sandbox
 * executes it exactly once; a rejected one is never sent; one left pending survives a reload of the
 * window and a restart of the core, and is sent once when approved after it.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { E2E_ADMIN, expect, test } from './fixtures';
import { confirmedCall, confirmTrusted } from './fixtures/trustedConfirm';

const APPROVER = { name: 'E2E approver', passphrase: 'approver passphrase 42' } as const;
const MAKER = { name: 'E2E maker', passphrase: 'maker passphrase 4242' } as const;

/** Withdrawals the sandbox holds for everyone (the seed has one). */
const withdrawals = (sandbox: { ctx: { db: { prepare(sql: string): { get(): unknown } } } }): number =>
  (sandbox.ctx.db.prepare('SELECT COUNT(*) AS n FROM withdrawals').get() as { n: number }).n;

const signInOnApprovals = async (page: Page, who: { name: string; passphrase: string }) => {
  const form = page.getByTestId('approver-sign-in');
  await form.getByTestId('approver-name').fill(who.name);
  await form.getByTestId('approver-passphrase').fill(who.passphrase);
  await form.getByTestId('approver-sign-in-submit').click();
  await expect(page.getByTestId('approvals-operator')).toContainText(`Signed in: ${who.name}`);
};

test.describe('approvals', () => {
  test('a withdrawal above the approval threshold waits; another operator approves it → sent once; a rejected one never; a pending one survives a reload', async ({
    page,
    app,
    shell,
    sandbox,
    control,
  }) => {
    test.setTimeout(180_000);
    // A maker and an approver (the administrator creates them, each confirmed in the trusted window).
    for (const [who, role, title] of [
      [APPROVER, 'approver', 'Approver'],
      [MAKER, 'maker', 'Maker'],
    ] as const) {
      expect(
        await confirmedCall(shell, app.call('operators.create', { ...who, role }), {
          title: `Create operator ${who.name} (${title})`,
        }),
      ).toMatchObject({ ok: true });
    }

    // --- The administrator sets the policy in Settings → Policies: above 50 USDT needs approval.
    await app.open('settings');
    const policy = page.getByTestId('policy-form');
    await policy.getByTestId('policy-above-usdt').fill('50');
    await policy.getByTestId('policy-usdt-per').fill('abc');
    await policy.getByTestId('policy-save').click();
    await expect(
      policy.getByText('Use digits and an optional decimal point (no signs, spaces or exponents)'),
    ).toBeVisible();
    await policy.getByTestId('policy-usdt-per').fill('');
    await app.expectAccessible();
    await app.screenshot('policies-form');
    await policy.getByTestId('policy-save').click();
    await confirmTrusted(shell, { title: /Change the policy/ });
    await expect(page.getByTestId('policy-saved')).toBeVisible();
    await expect(page.getByTestId('policy-updated')).toContainText(`by ${E2E_ADMIN.name}`);

    // --- The administrator prepares 55 USDT (directly, as the screen would): it waits.
    const saved = await app.call('funding.savedAddresses', { currency: 'USDT', chain: 'TRX' });
    const address = (saved.value as { address: string }[])[0]!.address;
    const before = withdrawals(sandbox);
    const byAdmin = await confirmedCall(
      shell,
      app.call('funding.withdraw', { requestKey: randomUUID(), currency: 'USDT', chain: 'TRX', address, amount: '55' }),
    );
    expect(byAdmin).toMatchObject({ ok: false, error: { code: 'AWAITING_APPROVAL' } });

    // --- The cooling-off, by hand: the approver the administrator just created may not approve it.
    await app.open('approvals');
    await signInOnApprovals(page, APPROVER);
    const adminsItem = page.getByTestId('approvals-pending').locator('article').filter({ hasText: 'Withdraw 55 USDT' });
    await expect(adminsItem.getByTestId('approval-maker')).toContainText(E2E_ADMIN.name);
    await adminsItem.getByTestId('approval-reason').fill('Looks fine to me');
    await adminsItem.getByTestId('approval-approve').click();
    await expect(adminsItem.getByTestId('approval-error')).toContainText(
      `${E2E_ADMIN.name} gave you your role or passphrase less than 72 h ago`,
    );
    expect(shell.context.pages().some((p) => p.url().startsWith(`${shell.confirmOrigin}/`))).toBe(false);
    expect(withdrawals(sandbox)).toBe(before);
    // Rejecting it (nothing moves) is theirs to do.
    await adminsItem.getByTestId('approval-reason').fill('Prepared by the one who made me an approver');
    await adminsItem.getByTestId('approval-reject').click();
    await expect(page.getByTestId('approvals-decided')).toContainText('Rejected — never sent');

    // --- The maker prepares a 100 USDT withdrawal on screen: it waits, nothing is sent, the review
    // closes at once (Send cannot queue the same withdrawal twice).
    expect(await app.call('operators.signIn', MAKER)).toMatchObject({ ok: true });
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-desk-ready', 'true');
    await app.open('withdrawals');
    const form = page.getByRole('form', { name: 'New withdrawal' });
    await form.getByLabel('Currency').selectOption('USDT');
    await form.getByRole('radio', { name: /^TRX\b/ }).check();
    await form.getByRole('radio', { name: /OTC desk \(TRC20\)/ }).check();
    await form.getByLabel('Amount').fill('100');
    await page.getByTestId('withdraw-review').click();
    const sheet = page.getByTestId('review-sheet');
    await sheet.getByLabel(/Type the amount/).fill('100');
    await sheet.getByTestId('withdraw-send').click();
    const submitted = await confirmTrusted(shell, { title: 'Withdraw 100 USDT' });
    expect(submitted.isClosed()).toBe(true);
    await expect(sheet).toHaveCount(0);
    await expect(page.getByTestId('withdraw-queued')).toContainText('It waits in Approvals; nothing was sent yet.');
    expect(withdrawals(sandbox)).toBe(before);

    // --- It is in Approvals; its maker cannot approve it.
    await app.open('approvals');
    const pending = page.getByTestId('approvals-pending');
    await expect(pending).toHaveAttribute('data-count', '1');
    const item = pending.locator('article').first();
    await expect(item.getByTestId('approval-maker')).toContainText(MAKER.name);
    await expect(item.getByTestId('approval-amount')).toHaveText('100 USDT');
    await expect(item.getByTestId('approval-reasons')).toContainText('50');
    await expect(item.getByTestId('approval-expires')).toContainText(/Expires in \d+ h/);
    await expect(item.getByTestId('approval-approve')).toBeDisabled();
    await app.expectAccessible();
    await app.screenshot('approvals-pending');

    // --- The approver signs in with their passphrase and approves it with a reason → sent once.
    await signInOnApprovals(page, APPROVER);
    await expect(item.getByTestId('approval-approve')).toBeEnabled();
    await item.getByTestId('approval-reason').fill('Invoice 4411 checked with the desk');
    await item.getByTestId('approval-approve').click();
    await confirmTrusted(shell, { title: /^Approve: / });
    await expect.poll(() => withdrawals(sandbox)).toBe(before + 1);
    const decided = page.getByTestId('approvals-decided');
    await expect(decided).toContainText('Approved and sent');
    await expect(decided).toContainText('Invoice 4411 checked with the desk');
    await expect(page.getByTestId('approvals-pending')).toHaveCount(0);
    await app.screenshot('approvals-decided');

    // --- The maker prepares two more (directly, as the screen would): one is rejected, one waits.
    expect(await app.call('operators.signIn', MAKER)).toMatchObject({ ok: true });
    for (const amount of ['60', '70']) {
      const prepared = await confirmedCall(
        shell,
        app.call('funding.withdraw', { requestKey: randomUUID(), currency: 'USDT', chain: 'TRX', address, amount }),
      );
      expect(prepared).toMatchObject({ ok: false, error: { code: 'AWAITING_APPROVAL' } });
    }
    expect(withdrawals(sandbox)).toBe(before + 1);

    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-desk-ready', 'true');
    await app.open('approvals');
    await expect(page.getByTestId('approvals-pending')).toHaveAttribute('data-count', '2');
    await signInOnApprovals(page, APPROVER);
    const sixty = page.getByTestId('approvals-pending').locator('article').filter({ hasText: 'Withdraw 60 USDT' });
    await sixty.getByTestId('approval-reason').fill('Not on the payment plan');
    await sixty.getByTestId('approval-reject').click();
    await expect(page.getByTestId('approvals-decided')).toContainText('Rejected — never sent');
    await expect(page.getByTestId('approvals-pending')).toHaveAttribute('data-count', '1');

    // --- The one left pending is still there after a reload (it is journaled in main).
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-desk-ready', 'true');
    await app.open('approvals');
    const left = page.getByTestId('approvals-pending');
    await expect(left).toHaveAttribute('data-count', '1');
    await expect(left).toContainText('Withdraw 70 USDT');
    await expect(page.getByTestId('approvals-decided')).toContainText('Rejected — never sent');
    const listed = await app.call('approvals.list', {});
    const states = (listed.value as { approvals: { amount: string; state: string }[] }).approvals
      .map((a) => `${a.amount}:${a.state}`)
      .sort();
    expect(states).toEqual(['100:sent', '55:rejected', '60:rejected', '70:pending']);
    // Exactly one withdrawal reached the platform: the approved one.
    expect(withdrawals(sandbox)).toBe(before + 1);
    await app.expectAccessible();

    // --- The core process dies while it waits: the new core still holds it, and approving it then
    // sends it exactly once.
    await shell.core.crash();
    await expect(page.getByTestId('notice').filter({ hasText: 'core stopped unexpectedly' })).toBeVisible();
    await expect
      .poll(
        async () =>
          (
            (await app.call('approvals.list', {})).value as { approvals: { state: string }[] } | undefined
          )?.approvals.filter((a) => a.state === 'pending').length,
      )
      .toBe(1);
    // The new core signs its administrator in (automation); the approver signs in again.
    expect(await app.call('operators.signIn', APPROVER)).toMatchObject({ ok: true });
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-desk-ready', 'true');
    await app.open('approvals');
    await expect(page.getByTestId('approvals-operator')).toContainText(`Signed in: ${APPROVER.name}`);
    const seventy = page.getByTestId('approvals-pending').locator('article').filter({ hasText: 'Withdraw 70 USDT' });
    // (A minute later on the sandbox's clock: the platform takes one withdrawal a minute per address.)
    await control.advance(61);
    await seventy.getByTestId('approval-reason').fill('Approved after the restart');
    await seventy.getByTestId('approval-approve').click();
    await confirmTrusted(shell, { title: /^Approve: / });
    await expect.poll(() => withdrawals(sandbox)).toBe(before + 2);
    await expect(page.getByTestId('approvals-pending')).toHaveCount(0);
    expect(withdrawals(sandbox)).toBe(before + 2);
  });
});
