/**
 * The Chromium shell's page for a new secret (an API key's, which the platform returns once, at
 * creation): the SHELL opens it at its own site (./trustedPage.ts), the secret is in that page and
 * nowhere else the renderer could read, and the page is gone once the person has copied it ("I
 * have copied it", Escape, closing it, or 10 minutes). Main never returns the secret to the window.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { CONFIRM_PAGE_CSS, SECRET_PAGE_SCRIPT, type SecretView, secretPageHtml } from '../core/policies/confirmPage';
import { createTrustedPages } from './trustedPage';

/** The secret page's own site: another registrable name than the renderer's and the confirmation's. */
export const SECRET_ORIGIN = 'https://treasury-desk-secret.invalid';

export interface SecretWindow {
  /** Shows the secret; resolves once the page is closed (`shown`: whether it was on screen). */
  show(view: SecretView): Promise<{ readonly shown: boolean }>;
  owns(page: Page): Promise<boolean>;
}

export const createSecretWindow = (
  context: BrowserContext,
  options: { readonly timeoutMs?: number; readonly log?: (line: string) => void } = {},
): SecretWindow => {
  const pages = createTrustedPages<{ shown: boolean }>(context, {
    origin: SECRET_ORIGIN,
    binding: '__deskConfirmAnswer',
    timeoutMs: options.timeoutMs ?? 10 * 60_000,
    ...(options.log ? { log: options.log } : {}),
  });
  return {
    show: (view) => {
      let loaded = false;
      return pages
        .show({
          onShown: () => {
            loaded = true;
          },
          entry: '/secret.html',
          files: {
            '/secret.html': ['text/html; charset=utf-8', secretPageHtml(view)],
            '/secret.js': ['text/javascript; charset=utf-8', SECRET_PAGE_SCRIPT],
            '/confirm.css': ['text/css; charset=utf-8', CONFIRM_PAGE_CSS],
          },
          cancelled: { shown: false },
          onAnswer: (_args, finish) => finish({ shown: true }),
          describe: (answer) => `new secret: ${answer.shown ? 'shown and closed' : 'closed'}`,
        })
        .then((answer) => ({ shown: answer.shown || loaded }));
    },
    owns: pages.owns,
  };
};
