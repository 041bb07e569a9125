/**
 * Addresses and ids (issue 13, items 8–9): grouped in fours on screen but copied without spaces;
 * explorer links go through main (headless: the link is copied, and the window says so, never
 * navigating away); a saved address the platform would refuse cannot be reviewed.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { expect, test } from './fixtures';

const chooseSaved = async (page: Page, address: RegExp) => {
  const form = page.getByRole('form', { name: 'New withdrawal' });
  await form.getByLabel('Currency').selectOption('USDT');
  await form.getByRole('radio', { name: /^TRX\b/ }).check();
  await form.getByRole('radio', { name: address }).check();
  return form;
};

test.describe('addresses and ids', () => {
  test('the review shows the address in groups, and every way of copying it gives no spaces', async ({ page, app }) => {
    await app.open('withdrawals');
    const form = await chooseSaved(page, /OTC desk \(TRC20\)/);
    await form.getByLabel('Amount').fill('100');
    await page.getByTestId('withdraw-review').click();
    const sheet = page.getByTestId('review-sheet');
    const shown = sheet.getByTestId('review-address');
    await expect(shown).toBeVisible();

    // Grouped on screen: groups of four with a visible gap between them (a CSS margin).
    const groups = shown.locator('.long-id-group');
    expect(await groups.count()).toBeGreaterThan(5);
    await expect(groups.first()).toHaveText(/^.{4}$/);
    const gap = await groups.nth(1).evaluate((el) => Number.parseFloat(getComputedStyle(el).marginLeft));
    expect(gap).toBeGreaterThan(0);
    const [first, second] = await Promise.all([groups.nth(0).boundingBox(), groups.nth(1).boundingBox()]);
    expect(second!.x - (first!.x + first!.width)).toBeGreaterThan(1);

    // The text itself has no space: textContent, and a manual selection (what Ctrl+C copies).
    const address = await shown.evaluate((el) => el.textContent ?? '');
    expect(address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    const selected = await shown.evaluate((el) => {
      const selection = window.getSelection()!;
      selection.removeAllRanges();
      selection.selectAllChildren(el);
      const text = selection.toString();
      selection.removeAllRanges();
      return text;
    });
    expect(selected).toBe(address);
    // A copy event of that selection carries the same text (what the clipboard receives).
    const copied = await shown.evaluate((el) => {
      let data = '';
      const onCopy = (event: ClipboardEvent) => {
        data = window.getSelection()?.toString() ?? '';
        event.preventDefault();
      };
      document.addEventListener('copy', onCopy);
      window.getSelection()!.selectAllChildren(el);
      document.execCommand('copy');
      document.removeEventListener('copy', onCopy);
      window.getSelection()!.removeAllRanges();
      return data;
    });
    expect(copied).toBe(address);

    // The copy button copies exactly the address (its result is announced).
    await sheet.getByTestId('review-address-copy').click();
    await expect(sheet.getByTestId('review-address-copy')).toHaveAttribute('data-state', /copied|failed/);
    const state = await sheet.getByTestId('review-address-copy').getAttribute('data-state');
    if (state === 'copied') {
      const clipboard = await page.evaluate(() => navigator.clipboard.readText().catch(() => undefined));
      if (clipboard !== undefined) expect(clipboard).toBe(address);
    }

    // The explorer link: main refuses to navigate the window; headless, the link is copied and it says so.
    const explorer = sheet.getByTestId('review-address-explorer');
    await expect(explorer).toHaveAttribute('data-url', `https://tronscan.org/#/address/${address}`);
    await explorer.getByRole('button', { name: /View address on Tronscan/ }).click();
    await expect(explorer.getByRole('status')).toHaveText(/Link copied|Opened in your browser/);
    expect(new URL(page.url()).hostname).toBe('treasury-desk.invalid');
    // The icons are SVG (no font glyph), hidden from assistive technology.
    await expect(sheet.getByTestId('review-address-copy').locator('svg[aria-hidden="true"]')).toHaveCount(1);
  });

  test('main opens only explorer links: another host or http is refused', async ({ app }) => {
    const http = await app.call('app.openExternal', { url: 'http://tronscan.org/#/address/T1' });
    expect(http).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    const other = await app.call('app.openExternal', { url: 'https://evil.example/tronscan.org' });
    expect(other).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    // Headless shell: an explorer link is not opened (nobody to show a browser to).
    const ok = await app.call('app.openExternal', { url: 'https://tronscan.org/#/address/T1' });
    expect(ok).toMatchObject({ ok: true, value: { opened: false } });
  });

  test('an unverified saved address is marked and cannot be reviewed; main refuses it too', async ({
    page,
    app,
    control,
    sandbox,
  }) => {
    // One more unverified address, made through the sandbox's control plane.
    const fresh = 'TUnverifiedE2e1111111111111111111';
    await control.savedAddress({
      user_id: sandbox.userId,
      currency: 'USDT',
      chain: 'TRX',
      address: fresh,
      name: 'Fresh supplier (e2e)',
      verified: false,
    });
    await app.open('withdrawals');
    const form = page.getByRole('form', { name: 'New withdrawal' });
    await form.getByLabel('Currency').selectOption('USDT');
    await form.getByRole('radio', { name: /^TRX\b/ }).check();
    // The refused one says why and cannot be chosen at all (nor the seeded unverified one).
    const entry = page.getByTestId(`saved-address-${fresh}`);
    await expect(entry).toHaveAttribute('data-refused', 'true');
    await expect(entry).toContainText('Not verified — cannot be used');
    await expect(entry).toContainText("Verify it in the platform's address book (web or app)");
    await expect(form.getByRole('radio', { name: /Fresh supplier \(e2e\)/ })).toBeDisabled();
    await expect(form.getByRole('radio', { name: /New supplier \(unverified\)/ })).toBeDisabled();
    await expect(page.getByTestId('withdraw-review')).toBeDisabled();
    await expect(page.getByTestId('withdraw-review-why')).toHaveText('Choose a saved address.');
    await app.expectAccessible();
    await app.screenshot('withdrawal-unverified-address');

    // A verified one can be reviewed.
    await form.getByRole('radio', { name: /OTC desk \(TRC20\)/ }).check();
    await form.getByLabel('Amount').fill('20');
    await expect(page.getByTestId('withdraw-review')).toBeEnabled();

    // Main refuses it before sending, with the reason at the address field.
    const refused = await app.call('funding.withdraw', {
      requestKey: randomUUID(),
      currency: 'USDT',
      chain: 'TRX',
      address: fresh,
      amount: '20',
    });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', fields: { address: expect.stringContaining('not verified') } },
    });
  });
});
