/**
 * Electron's shell-owned pages — the trusted confirmation, and the page that shows a new API
 * secret once: a dedicated BrowserWindow, modal to the app's window, that the renderer can neither
 * open, reach nor script.
 *
 * - Its own session (an in-memory partition): its own storage, its own hardening (no permission,
 *   no download, no request outside its origin), and the only session where its scheme is served.
 * - Its own site: the scheme `treasury-desk-trusted` (the renderer is `app://desk`; a different
 *   scheme is a different site whatever the host), registered as privileged with the app's scheme
 *   (protocol.ts). The pages are confirmPage.ts's escaped HTML, their script and style files, each
 *   with `trustedPageHeaders` (the CSP, `Origin-Agent-Cluster: ?1`), as in the Chromium shell.
 * - Its own preload (electron/preload/confirm.ts), which exposes only `answer(accepted,
 *   typedAmounts)` on its own IPC channel; main takes an answer only from this window's web
 *   contents, its top-level frame, at its origin. The renderer's preload has no such channel, and
 *   an answer from any other web contents is refused.
 * - Closing the window, or the time running out (2 minutes for a confirmation, 10 for a secret),
 *   is a cancel; one window at a time.
 *
 * The core builds the views and checks the typed amount itself (core/policies/confirm.ts);
 * this window only shows them and relays the person's answer. A secret shown here is in this
 * window's page only, never in the app's window, and is forgotten when the window closes.
 */
import { join } from 'node:path';
import { BrowserWindow, type IpcMainEvent, ipcMain, type Session, session } from 'electron';
import type { ConfirmAnswer, ConfirmView } from '../../core/policies/confirm';
import {
  CONFIRM_PAGE_CSS,
  CONFIRM_PAGE_SCRIPT,
  confirmPageHtml,
  SECRET_PAGE_SCRIPT,
  type SecretView,
  secretPageHtml,
  trustedPageHeaders,
} from '../../core/policies/confirmPage';
import { typedAmountsOf } from '../../shared/contract/shell';
import { CONFIRM_ANSWER_CHANNEL } from './channels';

/** The pages' own scheme: another site than the renderer's `app://desk`. */
export const CONFIRM_SCHEME = 'treasury-desk-trusted';
export const CONFIRM_HOST = 'page';
export const CONFIRM_ORIGIN = `${CONFIRM_SCHEME}://${CONFIRM_HOST}`;
export const CONFIRM_URL = `${CONFIRM_ORIGIN}/confirm.html`;
export const SECRET_URL = `${CONFIRM_ORIGIN}/secret.html`;
/** The in-memory session of the confirmation window (no `persist:` prefix: nothing on disk). */
export const CONFIRM_PARTITION = 'treasury-desk-confirm';
/** Registered with the app's scheme, before the app is ready (protocol.ts). */
export const CONFIRM_SCHEME_PRIVILEGES = {
  scheme: CONFIRM_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: false, corsEnabled: false },
} as const;
const CONFIRM_TIMEOUT_MS = 120_000;
const SECRET_TIMEOUT_MS = 10 * 60_000;

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
  /** Shows a new secret once; resolves when the window is closed (`shown`: it was on screen). */
  showSecret(view: SecretView): Promise<{ readonly shown: boolean }>;
}

const isConfirmUrl = (url: string): boolean => url.startsWith(`${CONFIRM_ORIGIN}/`);

/** The confirmation's session: serves its origin only, refuses everything else a page may ask for. */
const prepareSession = (current: () => Readonly<Record<string, readonly [string, string]>>): Session => {
  const ses = session.fromPartition(CONFIRM_PARTITION);
  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  ses.on('will-download', (event) => event.preventDefault());
  ses.webRequest.onBeforeRequest((details, callback) => {
    callback({ cancel: !isConfirmUrl(details.url) && !details.url.startsWith('devtools:') });
  });
  ses.protocol.handle(CONFIRM_SCHEME, async (request) => {
    const url = new URL(request.url);
    const none = (status: number) => new Response('', { status, headers: trustedPageHeaders('text/plain') });
    if (request.method !== 'GET') return none(405);
    if (url.host !== CONFIRM_HOST) return none(404);
    const files = current();
    const file = Object.hasOwn(files, url.pathname) ? files[url.pathname] : undefined;
    if (file === undefined) return none(404);
    return new Response(file[1], { status: 200, headers: trustedPageHeaders(file[0]) });
  });
  return ses;
};

/** Call once the app is ready (it needs the session). */
export const createConfirmWindow = (options: ConfirmWindowOptions): ElectronConfirmWindow => {
  const preload = options.preload ?? join(import.meta.dirname, '../preload/confirm.cjs');
  /** The files of the page on screen (none: nothing is served). */
  let files: Readonly<Record<string, readonly [string, string]>> = {};
  let active: { readonly window: BrowserWindow; readonly answered: (answer: ConfirmAnswer) => void } | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  const ses = prepareSession(() => files);

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
      options.log?.('trusted window: an answer from another sender was refused');
      return;
    }
    const typedAmounts = typedAmountsOf(typed);
    current.answered({ accepted: accepted === true, ...(typedAmounts ? { typedAmounts } : {}) });
  });

  /** Opens the window on `url` with `pageFiles`; resolves with the answer, or the cancel on close or timeout. */
  const open = (
    url: string,
    pageFiles: Record<string, readonly [string, string]>,
    timeoutMs: number,
    describe: (answer: ConfirmAnswer, shown: boolean) => string,
  ): Promise<{ answer: ConfirmAnswer; shown: boolean }> =>
    new Promise((resolve) => {
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
        title: 'Treasury Desk',
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
      let shown = false;
      const finish = (answer: ConfirmAnswer): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        if (active?.window === window) active = undefined;
        // Nothing of the page (a secret among it) is served again.
        files = {};
        options.log?.(describe(answer, shown));
        resolve({ answer, shown });
        if (!window.isDestroyed()) window.close();
      };
      const timer = setTimeout(() => finish({ accepted: false }), options.timeoutMs ?? timeoutMs);
      active = { window, answered: finish };
      files = pageFiles;
      window.on('closed', () => finish({ accepted: false }));
      // The window never navigates and opens nothing (security.ts refuses both for every web
      // contents; this says it again for this window).
      window.webContents.on('will-navigate', (event) => event.preventDefault());
      window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
      window.once('ready-to-show', () => {
        shown = true;
        window.show();
        window.focus();
      });
      window.loadURL(url).catch((error: unknown) => {
        options.log?.(`trusted window could not be shown: ${String(error)}`);
        finish({ accepted: false });
      });
    });

  /** One window at a time, whichever page. */
  const queued = <T>(run: () => Promise<T>): Promise<T> => {
    const next = queue.then(run);
    queue = next.catch(() => {});
    return next;
  };

  return {
    confirm: (view) =>
      queued(async () => {
        const { answer } = await open(
          CONFIRM_URL,
          {
            '/confirm.html': ['text/html; charset=utf-8', confirmPageHtml(view)],
            '/confirm.js': ['text/javascript; charset=utf-8', CONFIRM_PAGE_SCRIPT],
            '/confirm.css': ['text/css; charset=utf-8', CONFIRM_PAGE_CSS],
          },
          CONFIRM_TIMEOUT_MS,
          (a) => `trusted confirmation ${view.action}: ${a.accepted ? 'confirmed' : 'cancelled'}`,
        );
        return answer;
      }),
    showSecret: (view) =>
      queued(async () => {
        const { answer, shown } = await open(
          SECRET_URL,
          {
            '/secret.html': ['text/html; charset=utf-8', secretPageHtml(view)],
            '/secret.js': ['text/javascript; charset=utf-8', SECRET_PAGE_SCRIPT],
            '/confirm.css': ['text/css; charset=utf-8', CONFIRM_PAGE_CSS],
          },
          SECRET_TIMEOUT_MS,
          (_a, wasShown) => `new secret: ${wasShown ? 'shown and closed' : 'closed before it was shown'}`,
        );
        return { shown: shown || answer.accepted };
      }),
  };
};
