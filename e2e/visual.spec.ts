/**
 * The visual check, on a working day: a running market, several sub-accounts with money moved
 * between them, open orders, two withdrawals waiting for approval. Every screen and every tab of
 * it, at 1024×700, 1360×768, 1440×900 and 1920×1080, in both themes:
 *
 * - no horizontal overflow of the page, no control cut off by the window or by a clipping box, no
 *   heading, label, tab or button whose text breaks inside a word;
 * - no table cell whose text overflows it or breaks inside a token (a pair, a time, an id, an
 *   amount): a cell wraps between words only, and a table too wide for its panel scrolls sideways.
 *
 * A screenshot of each screen is kept in e2e/artifacts/ (the issue's "done when": each item visible).
 *
 * Two tests per theme, which the workers run side by side: the Trade screen (its tabs with the live
 * market are about 40 % of the time) and every other screen. Each builds the working day once, then
 * opens each of its screens and tabs once and resizes the window through the four sizes there,
 * instead of building the day and reopening every screen for each size (which cost four times the
 * set-up and the screens' first answers). Every screen is in exactly one part (the second is "all
 * but Trade").
 */
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { SCREENS } from '../renderer/src/frame/screens';
import type { Shell } from '../shell/shell';
import { type AppDriver, expect, test } from './fixtures';
import { confirmTrusted, trustedConfirmPage } from './fixtures/trustedConfirm';

const VIEWPORTS = [
  { width: 1024, height: 700 },
  { width: 1360, height: 768 },
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
] as const;
const THEMES = ['dark', 'light'] as const;
/** The screens each test checks, per theme. */
const PARTS = [
  { name: 'Trade', screens: SCREENS.filter((screen) => screen.id === 'trade') },
  { name: 'every other screen', screens: SCREENS.filter((screen) => screen.id !== 'trade') },
] as const;

test.use({ sandboxOptions: { memory: true, clock: 'real', market: 'on', seed: 7 } });

/** What is wrong with the layout on screen now, one line per problem (empty when fine). */
export const layoutProblems = (page: Page): Promise<string[]> =>
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
    /** Inside a closed <details> (not its summary): folded away, not on screen. */
    const folded = (el: Element): boolean => {
      const details = el.closest('details');
      return details !== null && !details.open && el.closest('summary') === null;
    };
    /** Every token of two characters or more in `el`'s text that is laid out on more than one line. */
    const brokenTokens = (el: Element): string[] => {
      const broken: string[] = [];
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        if (node.parentElement && folded(node.parentElement)) continue;
        const value = node.nodeValue ?? '';
        for (const match of value.matchAll(/\S{2,}/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const tops = new Set([...range.getClientRects()].filter((q) => q.width > 0).map((q) => Math.round(q.top)));
          if (tops.size > 1) broken.push(match[0]);
        }
      }
      return broken;
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
      for (const token of brokenTokens(el)) problems.push(`“${token}” breaks inside the word in ${describe(el)}`);
    }
    // Table cells: money, times, pairs and ids are read here; a cell never clips or splits them.
    for (const cell of document.querySelectorAll('td, th')) {
      if (!visible(cell)) continue;
      const box = cell.getBoundingClientRect();
      const table = cell.closest('table');
      const name = table?.getAttribute('data-testid') ?? table?.querySelector('caption')?.textContent ?? 'a table';
      const folds = cell.querySelector('details:not([open])') !== null;
      if (!folds && cell.scrollWidth > cell.clientWidth + 1) {
        problems.push(`text overflows its cell in “${name}”: ${describe(cell)}`);
      } else {
        for (const child of cell.querySelectorAll('*')) {
          if (folded(child)) continue;
          const r = child.getBoundingClientRect();
          if (r.width > 0 && (r.right > box.right + 1 || r.left < box.left - 1)) {
            problems.push(`text overflows its cell in “${name}”: ${describe(cell)}`);
            break;
          }
        }
      }
      for (const token of brokenTokens(cell)) {
        problems.push(`“${token}” breaks inside the token in a cell of “${name}”: ${describe(cell)}`);
      }
    }
    return [...new Set(problems)];
  });

/**
 * Runs a call that may ask for the trusted confirmation, and confirms it when it does. A call that
 * asks waits for the answer, so one that answered first asked nothing: no waiting for a page that
 * will not open.
 */
const confirmingIfAsked = async <T>(shell: Shell, call: Promise<T>): Promise<T> => {
  const asked = trustedConfirmPage(shell, 5_000).then(
    () => 'asked' as const,
    () => 'never asked' as const,
  );
  const first = await Promise.race([call.then(() => 'answered' as const), asked]);
  if (first === 'asked') await confirmTrusted(shell);
  return call;
};

type Call = AppDriver['call'];
const answerOf = async <T>(call: ReturnType<Call>): Promise<T> => {
  const result = await call;
  if (!result.ok) throw new Error(`set-up call failed: ${JSON.stringify(result.error)}`);
  return result.value as T;
};

/**
 * A working day: a third sub-account, money moved to each, an open order below the market, a
 * policy with approvals above 50 USDT and two withdrawals waiting for them.
 */
const setTheScene = async (app: AppDriver, shell: Shell): Promise<void> => {
  await confirmingIfAsked(shell, app.call('subAccounts.create', { loginName: 'desk_mm', remark: 'Market making' }));
  const { accounts } = await answerOf<{ accounts: { userId: number; loginName: string }[] }>(
    app.call('subAccounts.list', {}),
  );
  for (const [i, account] of accounts.entries()) {
    await confirmingIfAsked(
      shell,
      app.call('transfers.send', {
        kind: 'mainSub',
        direction: 'to',
        subUserId: account.userId,
        subAccountType: 'spot',
        currency: 'USDT',
        amount: ['1250.5', '730', '99.99'][i % 3],
        requestKey: randomUUID(),
      }),
    );
  }
  const tickers = await answerOf<{ pair: string; last: string }[]>(app.call('trade.tickers', {}));
  const last = tickers.find((t) => t.pair === 'BTC_USDT')?.last ?? '65000';
  const price = (Math.floor(Number(last) * 0.97 * 10) / 10).toFixed(1);
  await confirmingIfAsked(
    shell,
    app.call('trade.placeOrder', {
      pair: 'BTC_USDT',
      side: 'buy',
      type: 'limit',
      price,
      amount: '0.0125',
      timeInForce: 'gtc',
      text: `t-visual-${Date.now().toString(36)}`,
    }),
  );
  const policy = await answerOf<{ policy: Record<string, unknown> }>(app.call('policies.get', {}));
  await confirmingIfAsked(
    shell,
    app.call('policies.set', {
      ...policy.policy,
      approval: { ...(policy.policy.approval as object), aboveUsdt: '50' },
    }),
  );
  const saved = await answerOf<{ address: string }[]>(
    app.call('funding.savedAddresses', { currency: 'USDT', chain: 'TRX' }),
  );
  for (const amount of ['120', '2500']) {
    await confirmingIfAsked(
      shell,
      app.call('funding.withdraw', {
        requestKey: randomUUID(),
        currency: 'USDT',
        chain: 'TRX',
        address: saved[0]?.address ?? '',
        amount,
      }),
    );
  }
};

/** Waits until the page has laid out and painted twice after a resize (charts follow their box a frame late). */
const settled = (page: Page): Promise<void> =>
  page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));

const sizeName = (viewport: (typeof VIEWPORTS)[number]): string => `${viewport.width}x${viewport.height}`;

for (const theme of THEMES) {
  for (const part of PARTS) {
    test(`screens in the ${theme} theme: ${part.name}`, async ({ page, app, shell }) => {
      test.setTimeout(180_000);
      await setTheScene(app, shell);
      await app.open('settings');
      await page.getByLabel('Theme').selectOption(theme);
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      const found: string[] = [];
      /** The view on screen now at every size: its layout problems, and a screenshot when `shot` names it. */
      const checkAtEverySize = async (where: string, shot?: string): Promise<void> => {
        for (const viewport of VIEWPORTS) {
          await page.setViewportSize(viewport);
          await settled(page);
          if (shot !== undefined) await app.screenshot(`${shot}-${sizeName(viewport)}-${theme}`);
          for (const problem of await layoutProblems(page)) {
            found.push(`${viewport.width}×${viewport.height} · ${theme} · ${where}: ${problem}`);
          }
        }
      };
      for (const screen of part.screens) {
        await app.open(screen.id);
        // Let the screen's first answers arrive (a loading state fits anything).
        await expect(page.getByTestId('loading')).toHaveCount(0, { timeout: 15_000 });
        await checkAtEverySize(screen.label, screen.id);
        // Every tab of the screen's own tab bar, too.
        const tabs = page.getByTestId(`screen-${screen.id}`).getByRole('tab');
        const names = await tabs.allInnerTexts();
        for (const [index, name] of names.entries()) {
          if (index === 0) continue; // the screen's first view, checked above
          await tabs.nth(index).click();
          await expect(page.getByTestId('loading')).toHaveCount(0, { timeout: 15_000 });
          await checkAtEverySize(`${screen.label} → ${name}`, theme === 'dark' ? `${screen.id}-${name}` : undefined);
        }
      }
      if (theme === 'light' && part.screens.some((screen) => screen.id === 'subAccounts')) {
        // A long form in a dialog: the API-key form keeps its Create button and the permission
        // columns' headers in view while its body scrolls.
        await app.open('subAccounts');
        await page
          .getByTestId('subaccounts-table')
          .getByRole('button', { name: /^Open / })
          .first()
          .click();
        const keyForm = page.getByTestId('key-form');
        for (const viewport of VIEWPORTS) {
          // Opened at each size, as a person opens it: its body starts at the top.
          await page.setViewportSize(viewport);
          await page.getByTestId('create-key').click();
          await expect(keyForm.getByTestId('key-form-submit')).toBeInViewport();
          await app.screenshot(`api-key-form-${sizeName(viewport)}`);
          await keyForm.getByLabel(/Keep the secret/).scrollIntoViewIfNeeded();
          await expect(keyForm.getByTestId('key-form-submit')).toBeInViewport();
          await expect(keyForm.getByRole('columnheader', { name: 'Read-write' })).toBeInViewport();
          for (const problem of await layoutProblems(page)) {
            found.push(`${viewport.width}×${viewport.height} · API-key form: ${problem}`);
          }
          await page.keyboard.press('Escape');
          await expect(keyForm).toHaveCount(0);
        }
      }
      expect([...new Set(found)], 'layout problems').toEqual([]);
    });
  }
}
