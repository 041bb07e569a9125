/**
 * Electron main, kept thin: hardening, the app:// protocol, one window, and the shell's side of the
 * core. The core (core) runs in its own utility process, restarted if it dies
 * (core/host/remoteCore.ts), and the built-in sandbox exchange in another: nothing but
 * windows and the shell's capabilities run on this event loop. The window talks to the core over a
 * MessagePort of its own (windowPorts.ts): its calls and events skip main.
 *
 * Start-up runs in parallel: the window opens (and paints its frame) while the sandbox and the core
 * start; the core starts (journal, keychain, sign-in) while the sandbox starts, and is sent the
 * sandbox's address when it is ready: only its connection to the sandbox waits for it.
 */
import { join, resolve } from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, shell } from 'electron';
import { checkExternalUrl } from '../../core/app/externalUrl';
import type { SandboxProcess } from '../../core/host/nodeLauncher';
import { CoreStartFailed, type RemoteCore, startRemoteCore } from '../../core/host/remoteCore';
import { createSenderCheck } from '../../core/ipc/dispatcher';
import { teamUrlArgument } from '../../core/teamDesk/teamUrlArgument';
import { CONNECT_CHANNEL } from './channels';
import { createConfirmWindow } from './confirmWindow';
import { electronCoreLauncher, startElectronSandbox } from './coreLauncher';
import { installMenu } from './menu';
import { createElectronNotifications } from './notifications';
import { APP_ORIGIN, APP_URL, registerAppScheme, serveAppProtocol } from './protocol';
import { createChooseSavePath } from './saveDialog';
import { installSecurity } from './security';
import { createWindowPorts } from './windowPorts';
import { loadWindowState, trackWindowState } from './windowState';

/**
 * Set by `electron-vite dev` only; packaged and `npm start` builds load app://. A packaged app
 * ignores it: otherwise anyone who starts it with that variable would make any origin trusted.
 */
const devServerUrl = app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL;
const devOrigin = devServerUrl ? new URL(devServerUrl).origin : undefined;
const trustedOrigins = devOrigin ? [APP_ORIGIN, devOrigin] : [APP_ORIGIN];
const isOwnUrl = (url: string): boolean => {
  try {
    const parsed = new URL(url);
    return trustedOrigins.includes(`${parsed.protocol}//${parsed.host}`);
  } catch {
    return false;
  }
};

/** `--data-dir DIR` / `--data-dir=DIR` (as the fallback shell takes it), else TREASURY_DESK_DATA_DIR. */
const dataDirArgument = (argv: readonly string[]): string | undefined => {
  const index = argv.findIndex((a) => a === '--data-dir' || a.startsWith('--data-dir='));
  if (index < 0) return process.env.TREASURY_DESK_DATA_DIR || undefined;
  const arg = argv[index]!;
  return arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[index + 1];
};

/** A team database Settings → Team offers to join (`--team URL`, TREASURY_DESK_TEAM_URL; docs/team.md). */
const teamUrl = teamUrlArgument(process.argv, process.env);

// Tests and portable set-ups choose the data folder; it must be set before anything reads it.
const chosenDataDir = dataDirArgument(process.argv);
if (chosenDataDir) app.setPath('userData', resolve(chosenDataDir));

app.enableSandbox();
registerAppScheme();
installSecurity(isOwnUrl);

let window: BrowserWindow | undefined;
let core: RemoteCore | undefined;
/** The built-in sandbox's process, once started (or starting). */
let sandbox: Promise<SandboxProcess> | undefined;
const closeSandbox = (): Promise<void> =>
  sandbox
    ? sandbox.then(
        (s) => s.close(),
        () => {},
      )
    : Promise.resolve();

const createWindow = (dataDir: string): BrowserWindow => {
  const state = loadWindowState(dataDir);
  const win = new BrowserWindow({
    ...state.bounds,
    minWidth: 980,
    minHeight: 600,
    show: false,
    title: 'Treasury Desk',
    backgroundColor: '#0e1116',
    webPreferences: {
      preload: join(import.meta.dirname, '../preload/index.cjs'),
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      spellcheck: false,
      navigateOnDragDrop: false,
    },
  });
  if (state.maximized) win.maximize();
  trackWindowState(win, dataDir);
  win.once('ready-to-show', () => win.show());
  void win.loadURL(devServerUrl ?? APP_URL);
  return win;
};

// The window asks for its port to the core on every load; main checks the frame first.
const windowPorts = createWindowPorts({
  core: () => core,
  isTrustedSender: createSenderCheck(trustedOrigins),
  log: (line) => console.error(line),
});
ipcMain.on(CONNECT_CHANNEL, (event) => windowPorts.onConnect(event));

const start = async (): Promise<void> => {
  const dataDir = app.getPath('userData');
  serveAppProtocol(join(import.meta.dirname, '../renderer'));
  // Windows shows an app's notifications only under its AppUserModelID (electron-builder.yml's appId).
  if (process.platform === 'win32') app.setAppUserModelId('com.treasurydesk.app');
  installMenu({ dev: devServerUrl !== undefined });
  // The window first: it paints its frame while the sandbox and the core start.
  window = createWindow(dataDir);
  window.on('closed', () => {
    window = undefined;
  });
  // The built-in sandbox (the default profile's platform) in its own process, data in <userData>/sandbox.
  const sandboxReady = startElectronSandbox(join(import.meta.dirname, 'sandbox.js'), join(dataDir, 'sandbox'));
  sandbox = sandboxReady;
  const notifications = createElectronNotifications(() => window);
  const chooseSavePath = createChooseSavePath(() => window);
  // The trusted confirmation: its own window, preload, session and origin (confirmWindow.ts).
  const confirmWindow = createConfirmWindow({
    parent: () => window,
    preload: join(import.meta.dirname, '../preload/confirm.cjs'),
    log: (line) => console.error(line),
  });
  core = await startRemoteCore({
    launch: electronCoreLauncher(join(import.meta.dirname, 'core.js')),
    // The core starts now (journal, keychain, sign-in); only its connection to the built-in sandbox
    // waits for the sandbox's address.
    options: {
      dataDir,
      shell: 'electron' as const,
      trustedOrigins,
      sandbox: { mode: 'announced' as const },
      ...(teamUrl ? { team: { url: teamUrl } } : {}),
      // Calls and events go straight between the window and the core (windowPorts.ts).
      directWindows: true,
      ...(notifications.unavailableReason ? { osNotificationsUnavailable: notifications.unavailableReason } : {}),
    },
    sandboxAddress: sandboxReady.then(({ baseUrl, key, secret }) => ({ baseUrl, key, secret })),
    // Only main's own notices come this way (the core's events go to the window's port).
    emit: (events) => windowPorts.send(events),
    // What this shell does for the core (shared/contract/shell.ts).
    shell: {
      // Exports: the person picks the file in the native dialog (the core writes it).
      chooseSavePath: async ({ suggestedName }) => {
        const path = await chooseSavePath(suggestedName);
        return path === undefined ? {} : { path };
      },
      // Explorer links open in the system browser (the window itself never navigates away); only
      // https explorer pages (checked by the core and here once more).
      openExternal: async ({ url }) => {
        await shell.openExternal(checkExternalUrl(url), { activate: true });
        return { opened: true };
      },
      // Withdrawals, pushes, transfers above the threshold, key and policy changes, approvals:
      // the core asks this shell's own confirmation window first.
      confirm: async ({ view }) => confirmWindow.confirm(view),
      // A new API key's secret: shown once in that window too, never sent to the app's window.
      showSecret: async ({ view }) => confirmWindow.showSecret(view),
      // Deposit/withdrawal changes as OS notifications; a click brings the window forward.
      ...(notifications.unavailableReason === undefined
        ? {
            notify: async ({ notification }) => {
              notifications.showOsNotification(notification);
              return {};
            },
          }
        : {}),
    },
    onStart: () => windowPorts.coreStarted(),
    onStop: () => windowPorts.coreStopped(),
    log: (line) => console.error(line),
  });
};

if (!app.requestSingleInstanceLock()) {
  // Another Treasury Desk is running: it gets focused (below) and this one leaves.
  app.quit();
} else {
  app.on('second-instance', () => {
    if (window) {
      if (window.isMinimized()) window.restore();
      window.focus();
    }
  });
  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      // The fallback shell (or another copy with another single-instance scope) holds this data
      // folder: say which process, change nothing.
      if (error instanceof CoreStartFailed && error.busy) {
        dialog.showErrorBox('Treasury Desk is already running', error.message);
      }
      void closeSandbox();
      console.error(error);
      app.exit(1);
    });
  app.on('window-all-closed', () => app.quit());
  // Close the core (journal, watchers) and the sandbox before the process goes away.
  let closing = false;
  app.on('before-quit', (event) => {
    if (closing || core === undefined) return;
    event.preventDefault();
    closing = true;
    void core
      .close()
      .then(closeSandbox)
      .finally(() => app.quit());
  });
}
