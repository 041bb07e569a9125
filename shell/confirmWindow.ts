/**
 * The Chromium shell's trusted confirmation: a page the SHELL opens at its own site, which the
 * renderer cannot script, fetch or even reach (./trustedPage.ts), with the answer function exposed
 * to that page alone. It shows the view the core built from the intent; closing it or letting it
 * time out is a cancel. One at a time.
 */
import type { BrowserContext, Page } from 'playwright-core';
import type { ConfirmAnswer, ConfirmView } from '../core/policies/confirm';
import { CONFIRM_PAGE_CSS, CONFIRM_PAGE_SCRIPT, confirmPageHtml } from '../core/policies/confirmPage';
import { typedAmountsOf } from '../shared/contract/shell';
import { createTrustedPages } from './trustedPage';

/** The confirmation's own site: another registrable name than the renderer's (treasury-desk.invalid). */
export const CONFIRM_ORIGIN = 'https://treasury-desk-confirm.invalid';
export const CONFIRM_URL = `${CONFIRM_ORIGIN}/confirm.html`;

export interface ConfirmWindow {
  confirm(view: ConfirmView): Promise<ConfirmAnswer>;
  /** Whether the shell opened this page (its 'page' listener closes every other new page). */
  owns(page: Page): Promise<boolean>;
}

export const createConfirmWindow = (
  context: BrowserContext,
  options: { readonly timeoutMs?: number; readonly log?: (line: string) => void } = {},
): ConfirmWindow => {
  const pages = createTrustedPages<ConfirmAnswer>(context, {
    origin: CONFIRM_ORIGIN,
    binding: '__deskConfirmAnswer',
    timeoutMs: options.timeoutMs ?? 120_000,
    ...(options.log ? { log: options.log } : {}),
  });
  return {
    confirm: (view) =>
      pages.show({
        entry: '/confirm.html',
        files: {
          '/confirm.html': ['text/html; charset=utf-8', confirmPageHtml(view)],
          '/confirm.js': ['text/javascript; charset=utf-8', CONFIRM_PAGE_SCRIPT],
          '/confirm.css': ['text/css; charset=utf-8', CONFIRM_PAGE_CSS],
        },
        cancelled: { accepted: false },
        onAnswer: ([accepted, typed], finish) => {
          const typedAmounts = typedAmountsOf(typed);
          finish({ accepted: accepted === true, ...(typedAmounts ? { typedAmounts } : {}) });
        },
        describe: (answer) => `trusted confirmation ${view.action}: ${answer.accepted ? 'confirmed' : 'cancelled'}`,
      }),
    owns: pages.owns,
  };
};
