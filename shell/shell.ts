/**
 * The Chromium fallback shell: the same built renderer, the same `window.desk` and the same core
 * as the Electron app, in the system's Chromium driven by playwright-core over a pipe (no TCP
 * port). Used by `npm start` where Electron's binary is unavailable, and by the end-to-end tests.
 *
 * Three processes, as under Electron: this one serves the window (bridge, renderer files, OS
 * notifications), the core runs in its own child process (core/host) and is restarted if it
 * dies, and the built-in sandbox exchange, when it is the profile's platform, runs in a third.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { CoreChannel, CoreProcessOptions, LaunchCore } from '../core/host/messages';
import { entryFor, nodeCoreLauncher, type SandboxProcess, startSandboxProcess } from '../core/host/nodeLauncher';
import type { RemoteCore } from '../core/host/remoteCore';
import { lockDataDir } from '../core/journal/dataDirLock';
import type { Bridge } from './bridge';
import { CHROME_ARGS, findChrome, hasDisplay, loadChromium, NO_CHROME_ADVICE } from './chrome';
import type { ConfirmWindow } from './confirmWindow';
import type { SaveWindow } from './saveWindow';
import type { SecretWindow } from './secretWindow';

/** A problem the person can fix; the CLI prints its message without a stack trace. */
export class ShellError extends Error {
  override readonly name = 'ShellError';
}

export const NO_DISPLAY_ADVICE =
  'No display found (DISPLAY/WAYLAND_DISPLAY are not set). Run it under a virtual display: ' +
  '`xvfb-run npm start`, or take a headless screenshot: `npm start -- --headless --screenshot app.png`.';

/**
 * The renderer built beside this code: built, this file is <out>/main/shell.js (npm start); from
 * source (tests, tsx), shell/shell.ts and the default build in out/.
 */
export const DEFAULT_RENDERER_DIR = import.meta.filename.endsWith('.ts')
  ? resolve(import.meta.dirname, '../out/renderer')
  : resolve(import.meta.dirname, '../renderer');

/** Core options the shell decides itself; everything else (profiles, sandbox, …) passes through. */
type ShellDecidedCoreOptions = 'dataDir' | 'shell' | 'trustedOrigins' | 'osNotificationsUnavailable' | 'directWindows';

export interface ShellOptions {
  /** App data (core state and the browser profile, which keeps the UI preferences). */
  readonly dataDir: string;
  readonly headless: boolean;
  /** The built renderer (electron-vite's out/renderer). */
  readonly rendererDir?: string;
  /** Defaults to CHROME_PATH or the usual install paths. */
  readonly chromePath?: string;
  /** Further options for the core, e.g. which sandbox or profile to use. */
  readonly core?: Partial<Omit<CoreProcessOptions, ShellDecidedCoreOptions | 'shellOffers'>>;
  readonly viewport?: { readonly width: number; readonly height: number };
  /** How long to wait for the renderer's readiness marker. */
  readonly readyTimeoutMs?: number;
  readonly log?: (line: string) => void;
  /**
   * Runs once the bridge's binding exists and before the page script that hides it is added.
   * Security tests use it to keep a handle on the raw binding.
   */
  readonly beforeBridgeScript?: (context: BrowserContext) => Promise<void>;
  /**
   * Benchmarks only: start the sandbox, then the core, then the browser, each once the one before is
   * ready (the start as it was before it ran in parallel; `npm run bench:startup` compares them).
   */
  readonly serialStart?: boolean;
  /** How long the trusted confirmation waits for the person before it counts as cancelled (default 120 s). */
  readonly confirmTimeoutMs?: number;
  /**
   * Exports ask where to save in the shell's own save dialog (./saveWindow.ts). Default: yes with a
   * window, no headless — a headless run (tests, scripts) writes into the core's `downloadsDir`
   * (default ~/Downloads) under a new name without asking. Tests of the dialog set it to true.
   */
  readonly askWhereToSave?: boolean;
  /**
   * Tests only: open the window in a new context of this running browser instead of launching one
   * on the data folder's profile (the end-to-end tests share one browser per worker); close() then
   * closes that context, not the browser. UI preferences last as long as the context.
   */
  readonly browser?: Browser;
  /**
   * Tests only: how the core's process is started (default: a fork of the built core). The
   * end-to-end tests hand over a process they forked ahead, while the test before ran.
   */
  readonly launchCore?: LaunchCore;
}

export interface Shell {
  readonly context: BrowserContext;
  readonly page: Page;
  /** The core, in its own process. */
  readonly core: RemoteCore;
  /** The built-in sandbox's process, when the shell started one. */
  readonly sandbox: SandboxProcess | undefined;
  readonly origin: string;
  readonly url: string;
  /** The origin of the trusted confirmation page (tests find it by this). */
  readonly confirmOrigin: string;
  /** The origin of the save dialog's page (tests find it by this). */
  readonly saveOrigin: string;
  /** The origin of the page that shows a new secret once (tests find it by this). */
  readonly secretOrigin: string;
  /** Resolves when the window is closed (by the person or by close()). */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

const isRoot = (): boolean => typeof process.getuid === 'function' && process.getuid() === 0;

/** How the shell launches Chromium; the end-to-end tests launch their shared browser the same way. */
export const browserLaunchOptions = (o: { readonly executablePath: string; readonly headless: boolean }) => ({
  executablePath: o.executablePath,
  headless: o.headless,
  // Chromium refuses to start as root with its sandbox on (CI containers run as root).
  chromiumSandbox: !isRoot(),
  args: [...CHROME_ARGS, ...(o.headless ? ['--disable-gpu'] : ['--app=about:blank', '--window-size=1360,860'])],
  // No accessibility-bus activation over D-Bus (noise on headless machines; not needed).
  env: { ...process.env, NO_AT_BRIDGE: '1' },
});

/** Waits for the renderer's readiness marker (set once the bridge has answered). */
export const waitForReady = async (page: Page, timeoutMs = 20_000): Promise<void> => {
  // A selector, not waitForFunction: the CSP forbids the eval a string predicate needs.
  const root = await page.waitForSelector('html[data-desk-ready]', { state: 'attached', timeout: timeoutMs });
  const state = await root.getAttribute('data-desk-ready');
  if (state !== 'true') throw new ShellError(`The app did not start: readiness marker is “${String(state)}”.`);
};

export const openShell = async (options: ShellOptions): Promise<Shell> => {
  // Another Treasury Desk on this data folder is the first thing to say (the core takes the lock
  // for good below): nothing else is checked, started or written then.
  lockDataDir(options.dataDir, 'chromium').release();
  const log = options.log ?? (() => {});
  const executablePath = options.chromePath ?? findChrome();
  if (executablePath === undefined) throw new ShellError(NO_CHROME_ADVICE);
  if (!options.headless && !hasDisplay()) throw new ShellError(NO_DISPLAY_ADVICE);
  const rendererDir = options.rendererDir ?? DEFAULT_RENDERER_DIR;
  if (!existsSync(join(rendererDir, 'index.html'))) {
    throw new ShellError(`The renderer is not built (${rendererDir} has no index.html). Run \`npm run build\`.`);
  }
  await mkdir(options.dataDir, { recursive: true });

  // Three processes start at once, the slowest first, and nothing waits on what it does not need
  // (issue 26). Up to here the shell has loaded only what starts them (Node's own modules, the
  // launchers): the sandbox's and the core's processes are forked (a few ms of this process; each
  // then boots on its own), the browser is launched (playwright-core is the one large module it
  // needs first), and the rest of the shell (./windowSide.ts: the core's supervisor, the bridge,
  // the contract) loads while all three start; then the core is told to start. The core builds its
  // journal and keychain and signs in meanwhile; only its connection waits for the sandbox's
  // address. The page's first calls wait for the core. `serialStart` (benchmarks) starts them one
  // after the other, as before.
  const serial = options.serialStart === true;
  // The built-in sandbox (the default profile's platform) runs in its own process, on its data in
  // <data dir>/sandbox; the core reaches it over loopback like any platform.
  const requested = options.core?.sandbox ?? { mode: 'embedded' as const };
  const sandboxStart: Promise<SandboxProcess | undefined> =
    requested.mode === 'embedded'
      ? startSandboxProcess({
          entry: entryFor('sandbox', rendererDir),
          dataDir: join(options.dataDir, 'sandbox'),
          ...(requested.clock ? { clock: requested.clock } : {}),
          ...(requested.market ? { market: requested.market } : {}),
          log,
        })
      : Promise.resolve(undefined);
  void sandboxStart.then((sandbox) => sandbox && log(`sandbox ready (pid ${sandbox.pid})`)).catch(() => {});
  if (serial) await sandboxStart.catch(() => {});
  // The core's process boots now; the supervisor below takes it over as its first launch.
  const launchCore = options.launchCore ?? nodeCoreLauncher(entryFor('core', rendererDir));
  let booting: CoreChannel | undefined = launchCore();
  const launch: LaunchCore = () => {
    const first = booting;
    booting = undefined;
    return first ?? launchCore();
  };
  const contextOptions = {
    acceptDownloads: false,
    serviceWorkers: 'block',
    viewport: options.headless ? (options.viewport ?? { width: 1360, height: 860 }) : null,
  } as const;
  /** playwright-core is loaded here (./chrome.ts, loadChromium), not at all for a browser the caller brings (tests). */
  const launchBrowser = async (): Promise<BrowserContext> => {
    if (options.browser) return options.browser.newContext(contextOptions);
    return loadChromium().launchPersistentContext(join(options.dataDir, 'chromium-profile'), {
      ...browserLaunchOptions({ executablePath, headless: options.headless }),
      ...contextOptions,
    });
  };
  // Serial (benchmarks): the browser once the core is ready, below.
  const browserStart = serial ? undefined : launchBrowser();
  browserStart?.catch(() => {});
  let side: typeof import('./windowSide');
  try {
    side = await import('./windowSide');
  } catch (error) {
    booting?.kill();
    await browserStart?.then((context) => context.close()).catch(() => {});
    await sandboxStart.then((sandbox) => sandbox?.close()).catch(() => {});
    throw error;
  }
  const {
    CONFIRM_ORIGIN,
    CoreStartFailed,
    SAVE_ORIGIN,
    SECRET_ORIGIN,
    SHELL_ORIGIN,
    SHELL_URL,
    contract,
    createConfirmWindow,
    createSaveWindow,
    createSecretWindow,
    createSenderCheck,
    createShellNotifications,
    createShellOpenExternal,
    defaultDownloadsDir,
    installBridge,
    operationNames,
    reserveLoopbackPort,
    serveRenderer,
    startRemoteCore,
  } = side;
  const notifications = options.headless ? undefined : createShellNotifications({ log });

  // The bridge exists only once the browser does; events emitted before that have no page anyway.
  let bridge: Bridge | undefined;
  // The trusted confirmation is a page of the browser too; before it exists, nothing is confirmed.
  let confirmWindow: ConfirmWindow | undefined;
  // The page that shows a new API secret once, likewise.
  let secretWindow: SecretWindow | undefined;
  // The save dialog, likewise; only when exports ask where to save (see ShellOptions.askWhereToSave).
  const askWhereToSave = options.askWhereToSave ?? !options.headless;
  let saveWindow: SaveWindow | undefined;
  const openExternal = createShellOpenExternal({ headless: options.headless, log });
  // A headless run is automation (tests, scripts): nobody to tell, and no notification popping up
  // on the desktop of whoever runs the tests.
  const notificationsUnavailable = notifications
    ? notifications.unavailableReason
    : 'The app runs headless: no OS notifications.';
  // The page's direct channel to the core: its port, chosen now (the CSP names it; shell/bridge.ts).
  const lanePort = reserveLoopbackPort();
  const coreStart = startRemoteCore({
    launch,
    // The core starts as soon as the direct channel's port is chosen (journal, keychain, sign-in);
    // only its connection to the built-in sandbox waits for the sandbox's address.
    options: lanePort.then((pageLanePort) => ({
      ...options.core,
      pageLanePort,
      ...(requested.mode === 'embedded' ? { sandbox: { mode: 'announced' as const } } : {}),
      dataDir: options.dataDir,
      shell: 'chromium' as const,
      trustedOrigins: [SHELL_ORIGIN],
      ...(notificationsUnavailable !== undefined ? { osNotificationsUnavailable: notificationsUnavailable } : {}),
    })),
    ...(requested.mode === 'embedded'
      ? {
          sandboxAddress: sandboxStart.then((sandbox) => {
            if (sandbox === undefined) throw new Error('the shell started no sandbox');
            return { baseUrl: sandbox.baseUrl, key: sandbox.key, secret: sandbox.secret };
          }),
        }
      : {}),
    emit: (events) => bridge?.send(events),
    eventsOnLane: (windowId) => bridge?.eventsOnLane(windowId),
    // What this shell does for the core (shared/contract/shell.ts).
    shell: {
      confirm: async ({ view }) => (confirmWindow ? confirmWindow.confirm(view) : { accepted: false }),
      // A new API key's secret: shown once in the shell's own page, never sent to the app's window.
      showSecret: async ({ view }) => (secretWindow ? secretWindow.show(view) : { shown: false }),
      ...(askWhereToSave
        ? {
            chooseSavePath: async ({ suggestedName }) => {
              const path = saveWindow ? await saveWindow.choose(suggestedName) : undefined;
              return path === undefined ? {} : { path };
            },
          }
        : {}),
      // Explorer links: the person's browser (headless: not opened, the window copies the link).
      openExternal: async ({ url }) => ({ opened: await openExternal(url).catch(() => false) }),
      ...(notifications && notificationsUnavailable === undefined
        ? {
            notify: async ({ notification }) => {
              notifications.showOsNotification(notification);
              return {};
            },
          }
        : {}),
    },
    log,
  });
  // Whatever fails, what did start is stopped again.
  coreStart.then((core) => log(`core ready (pid ${core.pid})`)).catch(() => {});
  const closeProcesses = async (): Promise<void> => {
    await coreStart.then((core) => core.close()).catch(() => {});
    await sandboxStart.then((sandbox) => sandbox?.close()).catch(() => {});
  };
  /** The core once started; a data folder another Treasury Desk took meanwhile is the person's to fix. */
  const startedCore = async (): Promise<RemoteCore> => {
    try {
      return await coreStart;
    } catch (error) {
      // Another Treasury Desk took the folder between the check above and the core's own lock.
      if (error instanceof CoreStartFailed && error.busy) throw new ShellError(error.message);
      throw error;
    }
  };
  if (serial) await startedCore().catch(() => {});
  let context: BrowserContext;
  try {
    context = await (browserStart ?? launchBrowser());
  } catch (error) {
    await closeProcesses();
    throw new ShellError(`Could not start Chromium at ${executablePath}: ${(error as Error).message}`);
  }

  log('browser ready');
  try {
    await serveRenderer(context, {
      root: rendererDir,
      onRefused: (url, why) => log(`refused ${why} to ${url}`),
      // The page may reach the bridge's direct channel and nothing else (installed below, before the page loads).
      connectTo: () => bridge?.laneAddress,
    });
    const page = context.pages()[0] ?? (await context.newPage());
    // The bridge's direct channel is a WebSocket on loopback, which Chromium refuses to a page of a
    // public origin unless allowed: allowed for our origin only (the CSP names the one port). A
    // browser too old to know the permission has no such check; should the channel still not
    // open, calls keep the DevTools binding.
    await context
      .grantPermissions(['local-network-access'], { origin: SHELL_ORIGIN })
      .catch((error: unknown) => log(`direct channel not allowed: ${(error as Error).message}`));
    bridge = await installBridge(page, {
      // Calls made before the core is ready wait for it.
      core: {
        dispatchText: async (...call) => (await startedCore()).dispatchText(...call),
        offerLane: async (...offer) => (await startedCore()).offerLane(...offer),
        closeLane: (windowId) => void coreStart.then((core) => core.closeLane(windowId)).catch(() => {}),
      },
      lanePort: await lanePort,
      operations: operationNames(contract),
      isTrustedSender: createSenderCheck([SHELL_ORIGIN]),
      ...(options.beforeBridgeScript ? { beforeScript: () => options.beforeBridgeScript!(context) } : {}),
    });
    const confirmer = createConfirmWindow(context, {
      log,
      ...(options.confirmTimeoutMs ? { timeoutMs: options.confirmTimeoutMs } : {}),
    });
    confirmWindow = confirmer;
    const secrets = createSecretWindow(context, { log });
    secretWindow = secrets;
    const saver = createSaveWindow(context, { defaultDir: options.core?.downloadsDir ?? defaultDownloadsDir(), log });
    if (askWhereToSave) saveWindow = saver;
    // Popups and new windows are refused: the app has exactly one window, plus the trusted
    // confirmation, the new secret's page and the save dialog, which only the shell opens.
    context.on('page', (other) => {
      if (other === page) return;
      void Promise.all([confirmer.owns(other), secrets.owns(other), saver.owns(other)]).then((mine) => {
        if (mine.includes(true)) return;
        log(`refused new window ${other.url()}`);
        void other.close();
      });
    });
    page.on('download', (download) => void download.cancel());
    // The page loads while the core may still be starting; a core that cannot start ends it all.
    const [core, sandbox] = await Promise.all([
      startedCore(),
      sandboxStart,
      page.goto(SHELL_URL).then(() => waitForReady(page, options.readyTimeoutMs)),
    ]);

    let closing: Promise<void> | undefined;
    const closed = new Promise<void>((done) => context.once('close', () => done()));
    const close = () => {
      closing ??= (async () => {
        await context.close().catch(() => {});
        await closeProcesses();
      })();
      return closing;
    };
    // The person closing the window ends the shell.
    page.once('close', () => void close());
    return {
      context,
      page,
      core,
      sandbox,
      origin: SHELL_ORIGIN,
      url: SHELL_URL,
      closed,
      close,
      confirmOrigin: CONFIRM_ORIGIN,
      saveOrigin: SAVE_ORIGIN,
      secretOrigin: SECRET_ORIGIN,
    };
  } catch (error) {
    await context.close().catch(() => {});
    await closeProcesses();
    throw error;
  }
};
