/**
 * Electron's trusted confirmation: a dedicated BrowserWindow, modal to the app's window, that the
 * renderer can neither open, reach nor script.
 *
 * - Its own session (an in-memory partition): its own storage, its own hardening (no permission,
 *   no download, no request outside its origin), and the only session where its origin is served.
 * - Its own origin, `app://confirm` (the renderer is `app://desk`): the page is confirmPage.ts's
 *   escaped HTML, its script and style files, each with the same CSP as the Chromium shell's
 *   confirmation page.
 * - Its own preload (electron/preload/confirm.ts), which exposes only `answer(accepted,
 *   typedAmount)` on its own IPC channel; main takes an answer only from this window's web
 *   contents, its top-level frame, at the confirmation origin. The renderer's preload has no such
 *   channel, and an answer from any other web contents is refused.
 * - Closing the window, or 2 minutes without an answer, is a cancel; one confirmation at a time.
 *
 * The core builds the view from the intent and checks the typed amount itself
 * (electron/core/policies/confirm.ts); this window only shows it and relays the person's answer.
 */
import { join } from 'node:path';
import { BrowserWindow, type IpcMainEvent, ipcMain, type Session, session } from 'electron';
import type { ConfirmAnswer, ConfirmView } from '../core/policies/confirm';
import { CONFIRM_PAGE_CSP, CONFIRM_PAGE_CSS, CONFIRM_PAGE_SCRIPT, confirmPageHtml } from '../core/policies/confirmPage';
import { CONFIRM_ANSWER_CHANNEL } from './channels';

export const CONFIRM_SCHEME = 'app';
export const CONFIRM_HOST = 'confirm';
/** The confirmation's own origin: not the renderer's (app://desk). */
export const CONFIRM_ORIGIN = `${CONFIRM_SCHEME}://${CONFIRM_HOST}`;
export const CONFIRM_URL = `${CONFIRM_ORIGIN}/confirm.html`;
/** The in-memory session of the confirmation window (no `persist:` prefix: nothing on disk). */
export const CONFIRM_PARTITION = 'treasury-desk-confirm';
const DEFAULT_TIMEOUT_MS = 120_000;

export interface ConfirmWindowOptions {
  /** The app's window, which the confirmation is modal to (undefined: a window of its own). */
  readonly parent: () => BrowserWindow | undefined;
  /** The built preload of the confirmation window (out/preload/confirm.cjs). */
  readonly preload?: string;
  readonly timeoutMs?: number;
  readonly log?: (line: string) => void;
}

export interface ElectronConfirmWindow {
  confirm(view: ConfirmView): Promise<ConfirmAnswer>;
}

const headers = (contentType: string): Record<string, string> => ({
  'Content-Type': contentType,
  'Content-Security-Policy': CONFIRM_PAGE_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
});

const isConfirmUrl = (url: string): boolean => url.startsWith(`${CONFIRM_ORIGIN}/`);

/** The confirmation's session: serves its origin only, refuses everything else a page may ask for. */
const prepareSession = (current: () => string | undefined): Session => {
  const ses = session.fromPartition(CONFIRM_PARTITION);
  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  ses.on('will-download', (event) => event.preventDefault());
  ses.webRequest.onBeforeRequest((details, callback) => {
    callback({ cancel: !isConfirmUrl(details.url) && !details.url.startsWith('devtools:') });
  });
  ses.protocol.handle(CONFIRM_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (request.method !== 'GET') return new Response('', { status: 405, headers: headers('text/plain') });
    if (url.host !== CONFIRM_HOST) return new Response('', { status: 404, headers: headers('text/plain') });
    const html = current();
    if (url.pathname === '/confirm.html' && html !== undefined)
      return new Response(html, { status: 200, headers: headers('text/html; charset=utf-8') });
    if (url.pathname === '/confirm.js')
      return new Response(CONFIRM_PAGE_SCRIPT, { status: 200, headers: headers('text/javascript; charset=utf-8') });
    if (url.pathname === '/confirm.css')
      return new Response(CONFIRM_PAGE_CSS, { status: 200, headers: headers('text/css; charset=utf-8') });
    return new Response('', { status: 404, headers: headers('text/plain') });
  });
  return ses;
};

/** Call once the app is ready (it needs the session). */
export const createConfirmWindow = (options: ConfirmWindowOptions): ElectronConfirmWindow => {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const preload = options.preload ?? join(import.meta.dirname, '../preload/confirm.cjs');
  /** The page of the confirmation on screen (undefined: none). */
  let html: string | undefined;
  let active: { readonly window: BrowserWindow; readonly finish: (answer: ConfirmAnswer) => void } | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  const ses = prepareSession(() => html);

  // One channel, for this window's answers only: any other sender is refused (and logged).
  ipcMain.on(CONFIRM_ANSWER_CHANNEL, (event: IpcMainEvent, accepted: unknown, typed: unknown) => {
    const current = active;
    const contents = current?.window.webContents;
    const frame = event.senderFrame;
    if (
      current === undefined ||
      contents === undefined ||
      event.sender !== contents ||
      frame === null ||
      frame === undefined ||
      frame !== event.sender.mainFrame ||
      !isConfirmUrl(frame.url)
    ) {
      options.log?.('trusted confirmation: an answer from another sender was refused');
      return;
    }
    current.finish({
      accepted: accepted === true,
      ...(typeof typed === 'string' ? { typedAmount: typed.slice(0, 100) } : {}),
    });
  });

  const show = (view: ConfirmView): Promise<ConfirmAnswer> =>
    new Promise<ConfirmAnswer>((resolve) => {
      const parent = options.parent();
      const window = new BrowserWindow({
        ...(parent ? { parent, modal: true } : {}),
        width: 600,
        height: 640,
        minWidth: 420,
        minHeight: 420,
        show: false,
        minimizable: false,
        fullscreenable: false,
        title: 'Treasury Desk — confirm',
        backgroundColor: '#0e1116',
        autoHideMenuBar: true,
        webPreferences: {
          preload,
          session: ses,
          sandbox: true,
          contextIsolation: true,
          nodeIntegration: false,
          nodeIntegrationInSubFrames: false,
          webviewTag: false,
          spellcheck: false,
          navigateOnDragDrop: false,
          devTools: false,
        },
      });
      let done = false;
      const finish = (answer: ConfirmAnswer): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        if (active?.window === window) active = undefined;
        html = undefined;
        options.log?.(`trusted confirmation ${view.action}: ${answer.accepted ? 'confirmed' : 'cancelled'}`);
        resolve(answer);
        if (!window.isDestroyed()) window.close();
      };
      const timer = setTimeout(() => finish({ accepted: false }), timeoutMs);
      active = { window, finish };
      html = confirmPageHtml(view);
      window.on('closed', () => finish({ accepted: false }));
      // The confirmation never navigates and opens nothing (security.ts refuses both for every
      // web contents; this says it again for this window).
      window.webContents.on('will-navigate', (event) => event.preventDefault());
      window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
      window.once('ready-to-show', () => {
        window.show();
        window.focus();
      });
      window.loadURL(CONFIRM_URL).catch((error: unknown) => {
        options.log?.(`trusted confirmation could not be shown: ${String(error)}`);
        finish({ accepted: false });
      });
    });

  return {
    confirm: (view) => {
      const run = queue.then(() => show(view));
      queue = run.catch(() => {});
      return run;
    },
  };
};
