/**
 * The Chromium shell's trusted confirmation: a page the SHELL opens (context.newPage: no opener,
 * nothing the renderer holds a handle to) at its own origin, which the renderer's origin cannot
 * script or even fetch (every request of the renderer to another origin is refused, serve.ts), with
 * the answer function exposed to that page alone (page.exposeBinding). It shows the view the core
 * built from the intent; closing it or letting it time out is a cancel. One at a time.
 */
import type { BrowserContext, Page, Route } from 'playwright-core';
import type { ConfirmAnswer, ConfirmView } from '../core/policies/confirm';
import { CONFIRM_PAGE_CSP, CONFIRM_PAGE_CSS, CONFIRM_PAGE_SCRIPT, confirmPageHtml } from '../core/policies/confirmPage';

/** The confirmation's own origin: not the renderer's, so the renderer cannot script it. */
export const CONFIRM_ORIGIN = 'https://confirm.treasury-desk.invalid';
export const CONFIRM_URL = `${CONFIRM_ORIGIN}/confirm.html`;
const ANSWER_BINDING = '__deskConfirmAnswer';

export interface ConfirmWindow {
  confirm(view: ConfirmView): Promise<ConfirmAnswer>;
  /** Whether the shell opened this page (its 'page' listener closes every other new page). */
  owns(page: Page): Promise<boolean>;
}

const headers = (contentType: string) => ({
  'content-type': contentType,
  'content-security-policy': CONFIRM_PAGE_CSP,
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
});

export const createConfirmWindow = (
  context: BrowserContext,
  options: { readonly timeoutMs?: number; readonly log?: (line: string) => void } = {},
): ConfirmWindow => {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const own = new Set<Page>();
  let opening: Promise<Page> | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  const show = async (view: ConfirmView): Promise<ConfirmAnswer> => {
    opening = context.newPage().then((p) => {
      own.add(p);
      return p;
    });
    const page = await opening;
    return new Promise<ConfirmAnswer>((resolve) => {
      let done = false;
      const finish = (answer: ConfirmAnswer): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        options.log?.(`trusted confirmation ${view.action}: ${answer.accepted ? 'confirmed' : 'cancelled'}`);
        resolve(answer);
        void page.close().catch(() => {});
        own.delete(page);
      };
      const timer = setTimeout(() => finish({ accepted: false }), timeoutMs);
      page.once('close', () => finish({ accepted: false }));
      const html = confirmPageHtml(view);
      void (async () => {
        // Page routes come before the context's (which refuses every origin but the renderer's).
        await page.route(`${CONFIRM_ORIGIN}/**`, async (route: Route) => {
          const request = route.request();
          const path = new URL(request.url()).pathname;
          if (request.method() !== 'GET') return route.fulfill({ status: 405, body: '' });
          if (path === '/confirm.html')
            return route.fulfill({ status: 200, headers: headers('text/html; charset=utf-8'), body: html });
          if (path === '/confirm.js')
            return route.fulfill({
              status: 200,
              headers: headers('text/javascript; charset=utf-8'),
              body: CONFIRM_PAGE_SCRIPT,
            });
          if (path === '/confirm.css')
            return route.fulfill({ status: 200, headers: headers('text/css; charset=utf-8'), body: CONFIRM_PAGE_CSS });
          return route.fulfill({ status: 404, body: '' });
        });
        await page.exposeBinding(ANSWER_BINDING, (source, accepted: unknown, typed: unknown) => {
          // Only this page's own top-level document at the confirmation origin may answer.
          if (
            source.page !== page ||
            source.frame !== page.mainFrame() ||
            !source.frame.url().startsWith(`${CONFIRM_ORIGIN}/`)
          ) {
            throw new Error('Not allowed');
          }
          finish({
            accepted: accepted === true,
            ...(typeof typed === 'string' ? { typedAmount: typed.slice(0, 100) } : {}),
          });
        });
        await page.goto(CONFIRM_URL);
        await page.bringToFront().catch(() => {});
      })().catch((error: unknown) => {
        options.log?.(`trusted confirmation could not be shown: ${String(error)}`);
        finish({ accepted: false });
      });
    });
  };

  return {
    confirm: (view) => {
      const run = queue.then(() => show(view));
      queue = run.catch(() => {});
      return run;
    },
    owns: async (page) => {
      await opening?.catch(() => undefined);
      return own.has(page);
    },
  };
};
