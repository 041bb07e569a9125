/**
 * The app:// protocol: serves the built renderer from disk. GET only, no path outside the
 * renderer folder, the strict CSP on every response. Same rules as the fallback shell
 * (core/ipc/rendererPolicy.ts).
 */
import { readFile } from 'node:fs/promises';
import { protocol } from 'electron';
import { contentTypeOf, rendererHeaders, resolveAsset } from '../../core/ipc/rendererPolicy';
import { CONFIRM_SCHEME_PRIVILEGES } from './confirmWindow';

export const APP_SCHEME = 'app';
export const APP_HOST = 'desk';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_URL = `${APP_ORIGIN}/index.html`;

/**
 * Must run before `app` is ready, once: a standard, secure scheme gets a real origin and
 * localStorage. With it, the shell-owned pages' own scheme (confirmWindow.ts: another site).
 */
export const registerAppScheme = (): void => {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: false, corsEnabled: false } },
    CONFIRM_SCHEME_PRIVILEGES,
  ]);
};

const plain = (status: number, body: string) =>
  new Response(body, { status, headers: rendererHeaders('text/plain; charset=utf-8') });

export const serveAppProtocol = (rendererDir: string): void => {
  protocol.handle(APP_SCHEME, async (request) => {
    if (request.method !== 'GET') return plain(405, 'Method not allowed');
    const url = new URL(request.url);
    if (url.host !== APP_HOST) return plain(404, 'Not found');
    const file = resolveAsset(rendererDir, url.pathname);
    if (file === undefined) return plain(403, 'Forbidden');
    try {
      return new Response(await readFile(file), { status: 200, headers: rendererHeaders(contentTypeOf(file)) });
    } catch {
      return plain(404, 'Not found');
    }
  });
};
