/**
 * What both shells enforce on the renderer they serve: the Content-Security-Policy and how a
 * request path maps to a file of the built renderer. Electron's app:// protocol and the Chromium
 * shell's request interception both use exactly this, so the two cannot drift apart.
 */
import { isAbsolute, relative, resolve } from 'node:path';

/**
 * No network origin anywhere: only main talks to the platform. Styles allow inline attributes
 * because React and the chart library set element styles; scripts are only our own files.
 */
export const RENDERER_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'none'",
  "media-src 'none'",
  "object-src 'none'",
  "frame-src 'none'",
  "worker-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The policy with one address the page may connect to: the Chromium shell's direct channel
 * (`ws://127.0.0.1:<port>` of this start; shell/bridge.ts), and nothing else.
 */
export const rendererCspConnectingTo = (address: string): string => {
  if (!/^ws:\/\/127\.0\.0\.1:\d{1,5}$/.test(address)) throw new Error(`not a loopback lane: ${address}`);
  return RENDERER_CSP.replace("connect-src 'none'", `connect-src ${address}`);
};

/** Headers on every file we serve to the renderer; `connectTo`: see rendererCspConnectingTo. */
export const rendererHeaders = (contentType: string, connectTo?: string): Record<string, string> => ({
  'Content-Type': contentType,
  'Content-Security-Policy': connectTo === undefined ? RENDERER_CSP : rendererCspConnectingTo(connectTo),
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cache-Control': 'no-store',
});

const CONTENT_TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  json: 'application/json; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  ico: 'image/x-icon',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  txt: 'text/plain; charset=utf-8',
  map: 'application/json; charset=utf-8',
  wasm: 'application/wasm',
};

export const contentTypeOf = (filePath: string): string => {
  const dot = filePath.lastIndexOf('.');
  return CONTENT_TYPES[dot < 0 ? '' : filePath.slice(dot + 1).toLowerCase()] ?? 'application/octet-stream';
};

/**
 * The file under `root` that a request path names, or undefined when the path is malformed or
 * escapes `root` (path traversal, encoded or not). "/" serves index.html.
 */
export const resolveAsset = (root: string, pathname: string): string | undefined => {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  // NUL bytes and backslashes have no business in our asset names; refusing them closes
  // Windows-style traversal ("..\\") and truncation tricks.
  if (decoded.includes('\0') || decoded.includes('\\')) return undefined;
  const rel = decoded.replace(/^\/+/, '');
  const wanted = rel === '' || rel.endsWith('/') ? `${rel}index.html` : rel;
  const base = resolve(root);
  const full = resolve(base, wanted);
  const inside = relative(base, full);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return undefined;
  return full;
};
