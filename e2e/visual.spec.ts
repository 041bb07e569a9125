/**
 * The visual check: every screen at 1440×900 and 1024×700, in both themes, with no horizontal
 * overflow, no control cut off by the window or by a clipping box, and no heading, label, tab or
 * button whose text breaks inside a word. A screenshot of each is kept in e2e/artifacts/.
 */
import type { Page } from 'playwright-core';
import { SCREENS } from '../renderer/src/frame/screens';
import { expect, test } from './fixtures';

const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 },
] as const;
const THEMES = ['dark', 'light'] as const;

/** What is wrong with the layout on screen now, one line per problem (empty when fine). */
const layoutProblems = (page: Page): Promise<string[]> =>
  page.evaluate(() => {
    const problems: string[] = [];
    const describe = (el: Element): string => {
      const id = el.getAttribute('data-testid');
      const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
      return `<${el.tagName.toLowerCase()}${id ? ` data-testid="${id}"` : ''}>${text ? ` “${text}”` : ''}`;
    };
    const visible = (el: Element): boolean => {
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none') return false;
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0;
    };
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width + 1) {
      problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth}px wide in ${width}px`);
    }
    const controls = document.querySelectorAll(
      'button, input:not([type=hidden]), select, textarea, a[href], [role=tab], [role=button]',
    );
    for (const el of controls) {
      if (!visible(el)) continue;
      const r = el.getBoundingClientRect();
      if (r.right > width + 1 || r.left < -1) {
        problems.push(`cut off by the window: ${describe(el)}`);
        continue;
      }
      for (let a = el.parentElement; a !== null && a !== document.body; a = a.parentElement) {
        const overflow = getComputedStyle(a).overflowX;
        if (overflow === 'visible') continue;
        // A scrolling box shows the rest on scroll: only a box that hides it cuts it off.
        if (overflow === 'auto' || overflow === 'scroll') break;
        const box = a.getBoundingClientRect();
        if (r.right > box.right + 1 || r.left < box.left - 1) {
          problems.push(`cut off by ${describe(a)}: ${describe(el)}`);
        }
        break;
      }
    }
    const texts = document.querySelectorAll('th, button, label, [role=tab], nav a, dt, h1, h2, h3, legend');
    for (const el of texts) {
      if (!visible(el)) continue;
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        const value = node.nodeValue ?? '';
        for (const match of value.matchAll(/\S{2,}/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const tops = new Set([...range.getClientRects()].filter((q) => q.width > 0).map((q) => Math.round(q.top)));
          if (tops.size > 1) problems.push(`“${match[0]}” breaks inside the word in ${describe(el)}`);
        }
      }
    }
    return [...new Set(problems)];
  });

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ shellOptions: { viewport } });
    for (const theme of THEMES) {
      test(`every screen fits in the ${theme} theme`, async ({ page, app }) => {
        await app.open('settings');
        await page.getByLabel('Theme').selectOption(theme);
        await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
        const found: string[] = [];
        for (const screen of SCREENS) {
          await app.open(screen.id);
          // Let the screen's first answers arrive (a loading state fits anything).
          await expect(page.getByTestId('loading')).toHaveCount(0, { timeout: 15_000 });
          await app.screenshot(`${screen.id}-${viewport.width}x${viewport.height}-${theme}`);
          for (const problem of await layoutProblems(page)) found.push(`${screen.label}: ${problem}`);
          // Every tab of the screen's own tab bar, too.
          const tabs = page.getByTestId(`screen-${screen.id}`).getByRole('tab');
          const names = await tabs.allInnerTexts();
          for (const [index, name] of names.entries()) {
            if (index === 0) continue; // the screen's first view, checked above
            await tabs.nth(index).click();
            await expect(page.getByTestId('loading')).toHaveCount(0, { timeout: 15_000 });
            for (const problem of await layoutProblems(page)) found.push(`${screen.label} → ${name}: ${problem}`);
          }
        }
        expect(found, 'layout problems').toEqual([]);
      });
    }
  });
}
