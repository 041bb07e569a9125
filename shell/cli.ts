/**
 * `node out/main/shellCli.js [--headless] [--screenshot FILE] [--data-dir DIR]`
 * Opens Treasury Desk in the system's Chromium (see shell.ts). `npm start` runs this when the
 * Electron binary is unavailable.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DataDirBusy } from '../core/journal/dataDirLock';
import { teamUrlArgument } from '../core/teamDesk/teamUrlArgument';
import { defaultDataDir } from './dataDir';
import { openShell, ShellError } from './shell';

const main = async (): Promise<number> => {
  const { values } = parseArgs({
    options: {
      headless: { type: 'boolean', default: false },
      screenshot: { type: 'string' },
      'data-dir': { type: 'string' },
      team: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(
      'Usage: npm start -- [--headless] [--screenshot FILE] [--data-dir DIR] [--team URL]\n' +
        '  --headless          run without a window (needs --screenshot)\n' +
        '  --screenshot FILE   save a screenshot of the app once it is ready, then exit\n' +
        '  --data-dir DIR      where the app keeps its data (default: per-user data folder)\n' +
        '  --team URL          a team database (postgres://…) Settings → Team offers to join\n' +
        '                      (default: TREASURY_DESK_TEAM_URL; a password in it goes to the keychain)\n' +
        '  --rebuild           (npm start) build the app even if nothing changed since the last build',
    );
    return 0;
  }
  if (values.headless && !values.screenshot) {
    console.error('--headless needs --screenshot FILE (there is no window to use otherwise).');
    return 2;
  }
  const teamUrl = teamUrlArgument(process.argv.slice(2), process.env);
  const shell = await openShell({
    dataDir: resolve(values['data-dir'] ?? defaultDataDir()),
    ...(teamUrl ? { core: { team: { url: teamUrl } } } : {}),
    headless: values.headless,
    log: (line) => {
      if (process.env.TREASURY_DESK_DEBUG) console.error(`[shell] ${line}`);
    },
  });
  if (values.screenshot) {
    // Let the first profile connect and the first screen load, so the picture shows the app in
    // use rather than spinners (bounded: a failing connection is worth a picture too).
    const settle = async (selector: string, state: 'attached' | 'detached', timeout: number) =>
      shell.page
        .locator(selector)
        .first()
        .waitFor({ state, timeout })
        .catch(() => {});
    // Ready is either the app connected, or the first start's set-up (nothing connects before it).
    await settle(
      '[data-testid="connection-state"]:not([data-state="connecting"]), [data-testid="create-administrator"]',
      'attached',
      15_000,
    );
    await settle('[data-testid="loading"]', 'detached', 10_000);
    const file = resolve(values.screenshot);
    await shell.page.screenshot({ path: file });
    console.log(`Screenshot saved to ${file}`);
    if ((await shell.page.getByTestId('create-administrator').count()) > 0) {
      await shell.close();
      console.log('The app is ready: it shows the first start, where the administrator is created.');
      return 0;
    }
    // A smoke check must not pass on an app that could not reach its platform: say why, exit 1.
    const state = await shell.page
      .locator('[data-testid="connection-state"]')
      .first()
      .getAttribute('data-state', { timeout: 1_000 })
      .catch(() => null);
    await shell.close();
    if (state !== 'connected') {
      console.error(
        `The app is not connected to its platform (connection state: ${state ?? 'unknown'}); the screenshot shows what it says.`,
      );
      return 1;
    }
    return 0;
  }
  console.log('Treasury Desk is open in Chromium. Close its window (or press Ctrl+C here) to quit.');
  const stop = () => void shell.close();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await shell.closed;
  await shell.close();
  return 0;
};

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    // Another Treasury Desk on this data folder: say which process, change nothing.
    if (error instanceof ShellError || error instanceof DataDirBusy) console.error(error.message);
    else console.error(error);
    process.exit(1);
  },
);
