/**
 * A page the Chromium shell opens itself, for what the renderer must neither see nor answer: the
 * trusted confirmation (./confirmWindow.ts), the new secret shown once (./secretWindow.ts) and the
 * save dialog (./saveWindow.ts).
 *
 * - `context.newPage()`: no opener, nothing the renderer holds a handle to.
 * - Its own site (`https://treasury-desk-<name>.invalid`: another registrable name than the
 *   renderer's `treasury-desk.invalid`), served by a route of that page alone with
 *   `trustedPageHeaders` (its CSP, `Origin-Agent-Cluster: ?1`); the renderer's requests to it are
 *   refused (serve.ts refuses every other origin), and other pages get nothing from it.
 * - Its answer function is a Playwright binding of that page only, which also checks that the
 *   caller is the page's own top-level document at its origin.
 * - Closing it or the time running out gives the `cancelled` answer; one page of a kind at a time.
 */
import type { BrowserContext, Page, Route } from 'playwright-core';
import { trustedPageHeaders } from '../core/policies/confirmPage';

export interface TrustedPageContent<A> {
  /** The files of the page by path; `entry` is the one opened. */
  readonly files: Readonly<Record<string, readonly [contentType: string, body: string]>>;
  readonly entry: string;
  /** The answer when the page is closed or the time runs out. */
  readonly cancelled: A;
  /**
   * Called with what the page passed to its answer function; calls `finish` when the page has
   * answered. What it returns goes back to the page.
   */
  readonly onAnswer: (args: readonly unknown[], finish: (answer: A) => void) => unknown;
  /** A line for the shell's log once answered (never a secret). */
  readonly describe: (answer: A) => string;
  /** Called once the page is on screen. */
  readonly onShown?: () => void;
}

export interface TrustedPages<A> {
  readonly origin: string;
  /** Opens the page; resolves with its answer. Pages of this kind are shown one at a time. */
  show(content: TrustedPageContent<A>): Promise<A>;
  /** Whether the shell opened this page (its 'page' listener closes every other new page). */
  owns(page: Page): Promise<boolean>;
}

export interface TrustedPagesOptions {
  /** `https://treasury-desk-<name>.invalid` (`.invalid` never resolves: nothing real answers for it). */
  readonly origin: string;
  /** The answer function's name in the page. */
  readonly binding: string;
  readonly csp?: string;
  readonly timeoutMs: number;
  readonly log?: (line: string) => void;
}

export const createTrustedPages = <A>(context: BrowserContext, options: TrustedPagesOptions): TrustedPages<A> => {
  const own = new Set<Page>();
  let opening: Promise<Page> | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  const open = async (content: TrustedPageContent<A>): Promise<A> => {
    opening = context.newPage().then((p) => {
      own.add(p);
      return p;
    });
    const page = await opening;
    return new Promise<A>((resolve) => {
      let done = false;
      const finish = (answer: A): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        options.log?.(content.describe(answer));
        resolve(answer);
        void page.close().catch(() => {});
        own.delete(page);
      };
      const timer = setTimeout(() => finish(content.cancelled), options.timeoutMs);
      page.once('close', () => finish(content.cancelled));
      void (async () => {
        // Page routes come before the context's (which refuses every origin but the renderer's).
        await page.route(`${options.origin}/**`, async (route: Route) => {
          const request = route.request();
          if (request.method() !== 'GET') return route.fulfill({ status: 405, body: '' });
          const path = new URL(request.url()).pathname;
          const file = Object.hasOwn(content.files, path) ? content.files[path] : undefined;
          if (!file) return route.fulfill({ status: 404, body: '' });
          return route.fulfill({ status: 200, headers: trustedPageHeaders(file[0], options.csp), body: file[1] });
        });
        await page.exposeBinding(options.binding, (source, ...args: unknown[]) => {
          // Only this page's own top-level document at its origin may answer.
          if (
            source.page !== page ||
            source.frame !== page.mainFrame() ||
            !source.frame.url().startsWith(`${options.origin}/`)
          ) {
            throw new Error('Not allowed');
          }
          return content.onAnswer(args, finish);
        });
        await page.goto(`${options.origin}${content.entry}`);
        content.onShown?.();
        await page.bringToFront().catch(() => {});
      })().catch((error: unknown) => {
        options.log?.(`${options.origin}: the page could not be shown: ${String(error)}`);
        finish(content.cancelled);
      });
    });
  };

  return {
    origin: options.origin,
    show: (content) => {
      const run = queue.then(() => open(content));
      queue = run.catch(() => {});
      return run;
    },
    owns: async (page) => {
      await opening?.catch(() => undefined);
      return own.has(page);
    },
  };
};
