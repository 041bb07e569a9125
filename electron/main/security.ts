/**
 * One global hardening for every window and web contents the app ever creates: no navigation
 * away, no redirects, no new windows, no webviews, no permissions, no downloads, no network.
 * Registered before the first window exists.
 */
import { app, type Session, session, type WebContents } from 'electron';

/** Whether a URL is one of ours (the app:// origin, or the dev server during `electron-vite dev`). */
export type IsOwnUrl = (url: string) => boolean;

const hardenContents = (contents: WebContents, isOwnUrl: IsOwnUrl) => {
  // A link or script cannot take the window to another page.
  contents.on('will-navigate', (event, url) => {
    if (!isOwnUrl(url)) event.preventDefault();
  });
  contents.on('will-frame-navigate', (event) => {
    if (!isOwnUrl(event.url)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isOwnUrl(url)) event.preventDefault();
  });
  // The app has one window: popups and window.open are refused.
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  // No <webview>: it could host arbitrary content with its own preferences.
  contents.on('will-attach-webview', (event) => event.preventDefault());
};

const hardenSession = (target: Session, isOwnUrl: IsOwnUrl) => {
  // No permission at all: OS notifications are shown by main (notifications.ts), never by the page,
  // and the app needs no camera, geolocation, clipboard read or anything else a page may ask for.
  target.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  target.setPermissionCheckHandler(() => false);
  target.on('will-download', (event) => event.preventDefault());
  // The renderer reaches no network: only main talks to the platform (the CSP says the same).
  // data: stays allowed for images the renderer draws itself (QR codes); the CSP limits it to img-src.
  target.webRequest.onBeforeRequest((details, callback) => {
    const local = /^(devtools|data):/.test(details.url);
    callback({ cancel: !isOwnUrl(details.url) && !local });
  });
};

export const installSecurity = (isOwnUrl: IsOwnUrl): void => {
  app.on('web-contents-created', (_event, contents) => hardenContents(contents, isOwnUrl));
  app.whenReady().then(() => hardenSession(session.defaultSession, isOwnUrl));
};
