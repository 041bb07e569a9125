import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHROME_ARGS, findChrome, hasDisplay, loadChromium } from './chrome';
import { browserLaunchOptions } from './shell';

describe('findChrome', () => {
  const only =
    (...paths: string[]) =>
    (path: string) =>
      paths.includes(path);

  it('uses CHROME_PATH when it exists, and nothing else when it does not', () => {
    expect(findChrome({ CHROME_PATH: '/opt/c/chrome' }, 'linux', only('/opt/c/chrome', '/usr/bin/chromium'))).toBe(
      '/opt/c/chrome',
    );
    // A wrong CHROME_PATH is an error to report, not something to silently replace.
    expect(findChrome({ CHROME_PATH: '/nope' }, 'linux', only('/usr/bin/chromium'))).toBeUndefined();
  });

  it('prefers Debian’s binary over the wrapper script, then other installs', () => {
    expect(findChrome({}, 'linux', only('/usr/bin/chromium', '/usr/lib/chromium/chromium'))).toBe(
      '/usr/lib/chromium/chromium',
    );
    expect(findChrome({}, 'linux', only('/usr/bin/google-chrome'))).toBe('/usr/bin/google-chrome');
    expect(findChrome({}, 'linux', only())).toBeUndefined();
  });

  it('knows the macOS and Windows install paths', () => {
    const mac = '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';
    expect(findChrome({}, 'darwin', only(mac))).toBe(mac);
    const user = 'C:\\Users\\a\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe';
    expect(findChrome({ LOCALAPPDATA: 'C:\\Users\\a\\AppData\\Local' }, 'win32', only(user))).toBe(user);
  });
});

describe('hasDisplay', () => {
  it('needs X11 or Wayland on Linux only', () => {
    expect(hasDisplay({}, 'linux')).toBe(false);
    expect(hasDisplay({ DISPLAY: ':99' }, 'linux')).toBe(true);
    expect(hasDisplay({ WAYLAND_DISPLAY: 'wayland-0' }, 'linux')).toBe(true);
    expect(hasDisplay({}, 'darwin')).toBe(true);
  });
});

describe('CHROME_ARGS', () => {
  it('disables features in one flag (Chromium reads only the last), keeping start-up traffic and paint holding off', () => {
    const flags = CHROME_ARGS.filter((arg) => arg.startsWith('--disable-features='));
    expect(flags).toHaveLength(1);
    const disabled = flags[0]!.slice('--disable-features='.length).split(',');
    expect(disabled).toEqual(
      expect.arrayContaining(['NetworkTimeServiceQuerying', 'PreconnectToSearch', 'AimEnabled', 'PaintHolding']),
    );
  });
});

describe.skipIf(findChrome() === undefined)('the browser the shell launches', () => {
  it('builds no page of its own UI in the background (the address bar’s pop-ups cost a renderer per start)', async () => {
    const profile = mkdtempSync(join(tmpdir(), 'td-chrome-args-'));
    const context = await loadChromium().launchPersistentContext(profile, {
      ...browserLaunchOptions({ executablePath: findChrome()!, headless: true }),
    });
    try {
      const session = await context.browser()!.newBrowserCDPSession();
      // Chromium builds them as it starts: by the time the first page has loaded, they exist or never will.
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto('about:blank');
      const { targetInfos } = (await session.send('Target.getTargets')) as {
        targetInfos: { type: string; url: string }[];
      };
      expect(targetInfos.filter((target) => target.type !== 'page').map((target) => target.url)).toEqual([]);
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });
});
