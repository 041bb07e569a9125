/**
 * Electron main, kept thin: hardening, the app:// protocol, one window, and one ipcMain.handle
 * per contract operation relayed to the core's dispatcher. The core (electron/core) runs in its own
 * utility process, restarted if it dies (electron/core/host/remoteCore.ts), and the built-in sandbox
 * exchange in another: nothing but window and IPC handling runs on this event loop.
 */
import { join, resolve } from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, shell } from 'electron';
import { contract } from '../../shared/contract';
import { operationNames } from '../../shared/ipc/define';
import type { SandboxProcess } from '../core/host/nodeLauncher';
import { CoreStartFailed, type RemoteCore, startRemoteCore } from '../core/host/remoteCore';
import { checkExternalUrl } from '../core/services/externalUrl';
import { eventChannel, operationChannel } from './channels';
import { createConfirmWindow } from './confirmWindow';
import { electronCoreLauncher, startElectronSandbox } from './coreLauncher';
import { installMenu } from './menu';
import { createElectronNotifications } from './notifications';
import { APP_ORIGIN, APP_URL, registerAppScheme, serveAppProtocol } from './protocol';
import { createChooseSavePath } from './saveDialog';
import { installSecurity } from './security';
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

// Tests and portable set-ups choose the data folder; it must be set before anything reads it.
const chosenDataDir = dataDirArgument(process.argv);
if (chosenDataDir) app.setPath('userData', resolve(chosenDataDir));

app.enableSandbox();
registerAppScheme();
installSecurity(isOwnUrl);

let window: BrowserWindow | undefined;
let core: RemoteCore | undefined;
let sandbox: SandboxProcess | undefined;

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

const registerIpc = (target: RemoteCore): void => {
  for (const name of operationNames(contract)) {
    ipcMain.handle(operationChannel(name), (event, payload: unknown) =>
      target.dispatch(name, payload, {
        // A frame that is gone or navigated has no trustworthy URL: the dispatcher refuses ''.
        url: event.senderFrame?.url ?? '',
        isMainFrame: event.senderFrame !== null && event.senderFrame === event.sender.mainFrame,
      }),
    );
  }
};

const start = async (): Promise<void> => {
  const dataDir = app.getPath('userData');
  serveAppProtocol(join(import.meta.dirname, '../renderer'));
  // Windows shows an app's notifications only under its AppUserModelID (electron-builder.yml's appId).
  if (process.platform === 'win32') app.setAppUserModelId('com.treasurydesk.app');
  // The built-in sandbox (the default profile's platform) in its own process, data in <userData>/sandbox.
  sandbox = await startElectronSandbox(join(import.meta.dirname, 'sandbox.js'), join(dataDir, 'sandbox'));
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
    options: {
      dataDir,
      shell: 'electron',
      trustedOrigins,
      sandbox: { mode: 'external', baseUrl: sandbox.baseUrl, key: sandbox.key, secret: sandbox.secret },
      // Exports: the person picks the file in the native dialog (the core writes it).
      saveDialog: true,
      // Explorer links open in the system browser (the window itself never navigates away).
      openExternal: true,
      // Withdrawals, pushes, transfers above the threshold, key and policy changes, approvals:
      // the core asks this shell's own confirmation window first.
      confirmWindow: true,
      // A new API key's secret: shown once in that window too, never sent to the app's window.
      secretWindow: true,
      osNotifications: notifications.unavailableReason
        ? { available: false, reason: notifications.unavailableReason }
        : { available: true },
    },
    // Already checked against the contract in the core's process.
    emit: (name, payload) => window?.webContents.send(eventChannel(name), payload),
    chooseSavePath,
    confirm: (view) => confirmWindow.confirm(view),
    showSecret: (view) => confirmWindow.showSecret(view),
    // Only https explorer pages (checked by the core, by remoteCore and here once more).
    openExternal: async (url) => {
      await shell.openExternal(checkExternalUrl(url), { activate: true });
      return true;
    },
    // Deposit/withdrawal changes as OS notifications; a click brings the window forward.
    showOsNotification: (notification) => notifications.showOsNotification(notification),
    log: (line) => console.error(line),
  });
  registerIpc(core);
  installMenu({ dev: devServerUrl !== undefined });
  window = createWindow(dataDir);
  window.on('closed', () => {
    window = undefined;
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
      void sandbox?.close();
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
      .then(() => sandbox?.close())
      .finally(() => app.quit());
  });
}
