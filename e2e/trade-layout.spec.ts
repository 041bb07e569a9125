/**
 * The trade screen's layout at the sizes the reviewers used, in both themes: at 1440×900 the open
 * orders are on screen without scrolling; at 1024×700 the sidebar collapses to icons, the ticket is
 * not clipped, and nothing overflows sideways. The candle chart is drawn by lightweight-charts with
 * the theme's colours.
 */
import type { Page } from 'playwright-core';
import { expect, test } from './fixtures';

test.use({ sandboxOptions: { memory: true, clock: 'real', market: 'on', seed: 7 } });
test.setTimeout(60_000);

const setTheme = async (page: Page, open: (screen: 'settings') => Promise<void>, theme: 'dark' | 'light') => {
  await open('settings');
  await page.getByTestId('pref-theme').selectOption(theme);
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
};

for (const theme of ['dark', 'light'] as const) {
  test.describe(`${theme} theme`, () => {
    test.describe('1440×900', () => {
      test.use({ shellOptions: { viewport: { width: 1440, height: 900 } } });
      test(`open orders are visible without scrolling (${theme})`, async ({ app, page }) => {
        await setTheme(page, (screen) => app.open(screen), theme);
        await app.open('trade');
        await expect(page.getByTestId('order-book')).toBeVisible();
        const orders = page.getByRole('tab', { name: 'Open orders' });
        await expect(orders).toBeInViewport();
        const panel = page.locator('.orders-panel').first();
        const box = await panel.boundingBox();
        expect(box && box.y + 120).toBeLessThan(900);
        const sidebar = page.getByTestId('app-frame');
        await expect(sidebar).toHaveAttribute('data-sidebar', 'expanded');
        await expect(page.getByTestId('ticket-submit')).toBeInViewport();
        await expect(page.locator('[data-testid="candle-chart"] canvas').first()).toBeVisible();
        await app.screenshot(`trade-1440x900-${theme}`);
      });
    });
    test.describe('1024×700', () => {
      test.use({ shellOptions: { viewport: { width: 1024, height: 700 } } });
      test(`the sidebar collapses and the ticket is not clipped (${theme})`, async ({ app, page }) => {
        await setTheme(page, (screen) => app.open(screen), theme);
        await app.open('trade');
        await expect(page.getByTestId('app-frame')).toHaveAttribute('data-sidebar', 'collapsed');
        const ticket = page.getByTestId('order-ticket');
        await expect(ticket).toBeVisible();
        const box = await ticket.boundingBox();
        expect(box).not.toBeNull();
        expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(1024);
        // Nothing wider than the screen's scroll area: no sideways scrolling.
        const overflow = await page.getByTestId('screen-trade').evaluate((el) => el.scrollWidth - el.clientWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        await expect(page.getByTestId('ticket-submit')).toBeVisible();
        // The person can expand it again.
        await page.getByTestId('sidebar-toggle').click();
        await expect(page.getByTestId('app-frame')).toHaveAttribute('data-sidebar', 'expanded');
        await page.getByTestId('sidebar-toggle').click();
        await app.screenshot(`trade-1024x700-${theme}`);
      });
    });
  });
}
