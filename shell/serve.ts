/**
 * Serves the built renderer to the fallback shell by answering requests in the browser itself
 * (`context.route`): no HTTP server, no port. Requests for any other origin are refused, which
 * also keeps the page from navigating away or reaching the network.
 */
import { readFile } from 'node:fs/promises';
import type { BrowserContext, Route } from 'playwright-core';
import { contentTypeOf, rendererHeaders, resolveAsset } from '../core/ipc/rendererPolicy';

/** Our fixed origin. `.invalid` never resolves, so nothing real can ever answer for it. */
export const SHELL_ORIGIN = 'https://treasury-desk.invalid';
export const SHELL_URL = `${SHELL_ORIGIN}/index.html`;

const plain = (status: number, body: string) => ({
  status,
  headers: rendererHeaders('text/plain; charset=utf-8'),
  body,
});

/** Answers one request for our origin from `root`. Exposed for tests. */
export const answer = async (
  root: string,
  method: string,
  url: string,
  /** The one address the page may connect to (the bridge's direct channel), if any. */
  connectTo?: string,
): Promise<{ status: number; headers: Record<string, string>; body: string | Buffer }> => {
  // The renderer only ever reads files; anything else is refused.
  if (method !== 'GET' && method !== 'HEAD') return plain(405, 'Method not allowed');
  const file = resolveAsset(root, new URL(url).pathname);
  if (file === undefined) return plain(403, 'Forbidden');
  try {
    return { status: 200, headers: rendererHeaders(contentTypeOf(file), connectTo), body: await readFile(file) };
  } catch {
    return plain(404, 'Not found');
  }
};

export const serveRenderer = async (
  context: BrowserContext,
  options: {
    readonly root: string;
    readonly onRefused?: (url: string, why: string) => void;
    /** The bridge's direct channel, once it exists: the only address the page's CSP lets it reach. */
    readonly connectTo?: () => string | undefined;
  },
): Promise<void> => {
  await context.route('**/*', async (route: Route) => {
    const request = route.request();
    const url = request.url();
    let origin: string | undefined;
    try {
      origin = new URL(url).origin;
    } catch {
      origin = undefined;
    }
    if (origin !== SHELL_ORIGIN) {
      if (request.isNavigationRequest()) {
        // "204 No Content" tells the browser to stay where it is: the app remains on screen
        // (an aborted navigation would replace it with an error page).
        options.onRefused?.(url, 'navigation');
        await route.fulfill({ status: 204, body: '' });
        return;
      }
      // No network for the renderer.
      options.onRefused?.(url, 'request');
      await route.abort('blockedbyclient');
      return;
    }
    await route.fulfill(await answer(options.root, request.method(), url, options.connectTo?.()));
  });
};
