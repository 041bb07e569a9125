/** Finding a Chromium or Chrome to run the fallback shell in, and playwright-core's driver for it. */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { BrowserType } from 'playwright-core';

/**
 * playwright-core's Chromium driver, loaded when called (the one large module the shell needs first).
 * playwright-core is CommonJS: require() compiles it alone, where import() would first scan its files
 * for their exports (0.31–0.38 s of CPU against 0.53–0.57 s, measured at load 8).
 */
export const loadChromium = (): BrowserType =>
  (createRequire(import.meta.url)('playwright-core') as typeof import('playwright-core')).chromium;

/** Where Chromium and Chrome are usually installed, most specific first. */
export const CHROME_CANDIDATES: Readonly<Record<string, readonly string[]>> = {
  linux: [
    '/usr/lib/chromium/chromium', // Debian's `chromium` package (the /usr/bin wrapper prints a warning)
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/snap/bin/chromium',
    '/usr/bin/google-chrome-stable',
    '/usr/bin/google-chrome',
    '/opt/google/chrome/chrome',
  ],
  darwin: [
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
  ],
  win32: [
    'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
    'C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe',
  ],
};

/** CHROME_PATH when set (it must exist), else the first usual path that exists. */
export const findChrome = (
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  exists: (path: string) => boolean = existsSync,
): string | undefined => {
  if (env.CHROME_PATH) return exists(env.CHROME_PATH) ? env.CHROME_PATH : undefined;
  const candidates = [...(CHROME_CANDIDATES[platform] ?? [])];
  if (platform === 'win32' && env.LOCALAPPDATA) {
    candidates.push(`${env.LOCALAPPDATA}\\Google\\Chrome\\Application\\chrome.exe`);
  }
  return candidates.find((path) => exists(path));
};

/** What to tell a person who has no Chromium. */
export const NO_CHROME_ADVICE =
  'No Chromium or Chrome found. Install one (Debian/Ubuntu: `sudo apt-get install chromium`; ' +
  'macOS/Windows: Google Chrome) or set CHROME_PATH to its executable.';

/**
 * Chromium features the shell's browser runs without. Chromium reads only the last
 * `--disable-features` it is given, and this one comes after playwright-core's own: so it also
 * names those of playwright-core's that matter here — no traffic at start (network time, preconnect
 * to a search engine, AI mode's eligibility check) and no paint holding, which can keep the window's
 * first paint back until the page has content (issue 26). Nor the address bar's pop-ups, which
 * Chromium 156 builds ahead as pages of its own UI in a renderer of their own (chrome://omnibox-popup):
 * that renderer cost 0.45–0.6 s of CPU on every start, the browser process 0.1–0.15 s more, and the
 * app's window has no address bar.
 */
export const DISABLED_FEATURES: readonly string[] = [
  'Translate',
  'MediaRouter',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'PreconnectToSearch',
  'AimEnabled',
  'PaintHolding',
  'WebUIOmniboxPopup',
  'WebUIOmniboxAimPopup',
];

/** Flags for a quiet, local-only browser: no background traffic, no first-run UI. */
export const CHROME_ARGS: readonly string[] = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-quic',
  `--disable-features=${DISABLED_FEATURES.join(',')}`,
  '--deny-permission-prompts',
  '--disable-default-apps',
];

/** Whether a headed window can be shown (X11 or Wayland on Linux; always elsewhere). */
export const hasDisplay = (env: NodeJS.ProcessEnv = process.env, platform = process.platform): boolean =>
  platform !== 'linux' || Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
