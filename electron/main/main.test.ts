/**
 * The Electron glue, run against a stand-in 'electron' module (the real one would try to download
 * its binary): one handler per contract operation, the real sender reaches the dispatcher, the
 * hardening applies to every web contents, and the preload exposes exactly the contract.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { contract } from '../../shared/contract';
import { operationNames } from '../../shared/ipc/define';

type Listener = (...args: unknown[]) => unknown;

const fake = vi.hoisted(() => {
  const handlers = new Map<string, (event: unknown, payload: unknown) => Promise<unknown>>();
  const appListeners = new Map<string, ((...args: unknown[]) => unknown)[]>();
  let ready: () => void = () => {};
  const whenReady = new Promise<void>((resolve) => {
    ready = resolve;
  });
  const exposed: Record<string, unknown> = {};
  const invoked: [string, unknown][] = [];
  const sent: [string, ...unknown[]][] = [];
  const calls = {
    sandbox: 0,
    schemes: [] as unknown[],
    permission: undefined as undefined | ((...a: unknown[]) => void),
  };
  /** Every BrowserWindow created (the app's window first). */
  const windows: {
    options: Record<string, unknown>;
    webContents: { mainFrame: { url: string } };
    emit(name: string): void;
    close(): void;
    loadURL: (url: string) => Promise<void>;
    closed: boolean;
  }[] = [];
  /** ipcMain.on listeners, per channel. */
  const ipcOn = new Map<string, (event: unknown, ...args: unknown[]) => void>();
  /** The confirmation's own session: its protocol handler and request filter. */
  const partitions = new Map<
    string,
    { protocol?: (request: Request) => Promise<Response>; beforeRequest?: (...a: unknown[]) => void }
  >();
  /** What main passed to startRemoteCore (the confirm callback among them). */
  const remote = {
    options: undefined as unknown,
    confirm: undefined as undefined | ((view: unknown) => Promise<unknown>),
    showSecret: undefined as undefined | ((view: unknown) => Promise<unknown>),
  };
  return {
    handlers,
    appListeners,
    whenReady,
    ready: () => ready(),
    exposed,
    invoked,
    sent,
    calls,
    windows,
    ipcOn,
    partitions,
    remote,
  };
});

vi.mock('electron', () => {
  class BrowserWindow {
    readonly webContents = {
      send: vi.fn(),
      on: vi.fn(),
      setWindowOpenHandler: vi.fn(),
      mainFrame: { url: '' },
    };
    readonly listeners = new Map<string, Listener[]>();
    closed = false;
    constructor(readonly options: Record<string, unknown>) {
      fake.windows.push(this as never);
    }
    on(name: string, listener: Listener) {
      this.listeners.set(name, [...(this.listeners.get(name) ?? []), listener]);
    }
    once(name: string, listener: Listener) {
      this.on(name, listener);
    }
    emit(name: string) {
      for (const listener of this.listeners.get(name) ?? []) listener();
    }
    close() {
      if (this.closed) return;
      this.closed = true;
      this.emit('closed');
    }
    isDestroyed() {
      return this.closed;
    }
    show() {}
    focus() {}
    maximize() {}
    loadURL = vi.fn(async (url: string) => {
      this.webContents.mainFrame.url = url;
    });
    getNormalBounds() {
      return { x: 0, y: 0, width: 1, height: 1 };
    }
    isMaximized() {
      return false;
    }
  }
  return {
    app: {
      enableSandbox: () => {
        fake.calls.sandbox += 1;
      },
      setPath: vi.fn(),
      getPath: () => process.env.TREASURY_DESK_DATA_DIR,
      requestSingleInstanceLock: () => true,
      whenReady: () => fake.whenReady,
      on: (name: string, listener: Listener) => {
        fake.appListeners.set(name, [...(fake.appListeners.get(name) ?? []), listener]);
      },
      quit: vi.fn(),
      exit: vi.fn(),
    },
    BrowserWindow,
    dialog: {
      showSaveDialog: vi.fn(async (..._args: unknown[]) => ({ canceled: false, filePath: '/chosen/by/person.csv' })),
    },
    ipcMain: {
      handle: (channel: string, handler: (event: unknown, payload: unknown) => Promise<unknown>) => {
        fake.handlers.set(channel, handler);
      },
      on: (channel: string, listener: (event: unknown, ...args: unknown[]) => void) => {
        fake.ipcOn.set(channel, listener);
      },
    },
    protocol: {
      registerSchemesAsPrivileged: (schemes: unknown[]) => fake.calls.schemes.push(...schemes),
      handle: vi.fn(),
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (h: (...a: unknown[]) => void) => {
          fake.calls.permission = h;
        },
        setPermissionCheckHandler: vi.fn(),
        on: vi.fn(),
        webRequest: { onBeforeRequest: vi.fn() },
      },
      fromPartition: (name: string) => {
        const partition: { protocol?: (r: Request) => Promise<Response>; beforeRequest?: Listener } = {};
        fake.partitions.set(name, partition);
        return {
          setPermissionRequestHandler: vi.fn(),
          setPermissionCheckHandler: vi.fn(),
          on: vi.fn(),
          webRequest: {
            onBeforeRequest: (h: Listener) => {
              partition.beforeRequest = h;
            },
          },
          protocol: {
            handle: (_scheme: string, h: (r: Request) => Promise<Response>) => {
              partition.protocol = h;
            },
          },
        };
      },
    },
    Notification: { isSupported: () => true },
    Menu: { setApplicationMenu: vi.fn(), buildFromTemplate: vi.fn(() => ({})) },
    screen: { getAllDisplays: () => [] },
    shell: { openPath: vi.fn() },
    contextBridge: {
      exposeInMainWorld: (name: string, api: unknown) => {
        fake.exposed[name] = api;
      },
    },
    ipcRenderer: {
      invoke: vi.fn(async (channel: string, payload: unknown) => {
        fake.invoked.push([channel, payload]);
        return { ok: true, value: null };
      }),
      on: vi.fn(),
      removeListener: vi.fn(),
      send: vi.fn((channel: string, ...args: unknown[]) => {
        fake.sent.push([channel, ...args]);
      }),
    },
  };
});

// The core (its own process, supervised by remoteCore) is the core's business and has its own tests:
// here a light one in-process with the real dispatcher, and no sandbox process.
vi.mock('./coreLauncher', () => ({
  electronCoreLauncher: () => () => {
    throw new Error('not in this test');
  },
  startElectronSandbox: async () => ({
    baseUrl: 'http://127.0.0.1:9/api/v4',
    controlUrl: 'http://127.0.0.1:9/sandbox',
    key: 'k',
    secret: 's',
    pid: undefined,
    close: async () => {},
  }),
}));
vi.mock('../core/host/remoteCore', async () => {
  const { createDispatcher } = await import('../core/ipc/dispatcher');
  const { createAppHandlers } = await import('../core/services/app');
  return {
    CoreStartFailed: class CoreStartFailed extends Error {},
    startRemoteCore: async (o: {
      options: { trustedOrigins: readonly string[] };
      emit: unknown;
      confirm?: (view: unknown) => Promise<unknown>;
      showSecret?: (view: unknown) => Promise<unknown>;
    }) => {
      fake.remote.options = o.options;
      fake.remote.confirm = o.confirm;
      fake.remote.showSecret = o.showSecret;
      const app = createAppHandlers({ shell: 'electron', emit: o.emit } as never);
      const handlers = new Proxy({ app } as Record<string, unknown>, {
        get: (target, area: string) => target[area] ?? {},
      });
      return {
        dispatch: createDispatcher(contract, handlers as never, { trustedOrigins: o.options.trustedOrigins }),
        close: async () => {},
      };
    },
  };
});

const dataDir = mkdtempSync(join(tmpdir(), 'main-test-'));

beforeAll(async () => {
  process.env.TREASURY_DESK_DATA_DIR = dataDir;
  await import('./index');
  fake.ready();
  // Let start() run: it registers the handlers once the (fake) app is ready.
  await vi.waitFor(() => expect(fake.handlers.size).toBeGreaterThan(0));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const frame = (url: string) => ({ url });

describe('Electron main', () => {
  it('turns the sandbox on for every renderer and registers app:// and the trusted pages’ own scheme as secure standard schemes', () => {
    expect(fake.calls.sandbox).toBe(1);
    expect(fake.calls.schemes).toEqual([
      expect.objectContaining({ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) }),
      expect.objectContaining({
        scheme: 'treasury-desk-trusted',
        privileges: expect.objectContaining({ standard: true, secure: true }),
      }),
    ]);
  });

  it('registers exactly one handler per contract operation, and nothing generic', () => {
    expect([...fake.handlers.keys()].sort()).toEqual(
      operationNames(contract)
        .map((n) => `desk:${n}`)
        .sort(),
    );
  });

  it('passes the real sender to the dispatcher: our main frame is served, anything else refused', async () => {
    const handle = fake.handlers.get('desk:app.ping')!;
    const main = frame('app://desk/index.html');
    expect(await handle({ senderFrame: main, sender: { mainFrame: main } }, { text: 'hi' })).toMatchObject({
      ok: true,
      value: { text: 'hi' },
    });
    const child = frame('app://desk/index.html');
    expect(await handle({ senderFrame: child, sender: { mainFrame: main } }, { text: 'hi' })).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN_SENDER' },
    });
    const elsewhere = frame('https://evil.example/');
    expect(await handle({ senderFrame: elsewhere, sender: { mainFrame: elsewhere } }, { text: 'hi' })).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN_SENDER' },
    });
    expect(await handle({ senderFrame: null, sender: { mainFrame: main } }, { text: 'hi' })).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN_SENDER' },
    });
  });

  it('hardens every web contents: no navigation away, no popups, no webviews', () => {
    const created = fake.appListeners.get('web-contents-created')![0]!;
    const events = new Map<string, Listener>();
    let openHandler: (() => unknown) | undefined;
    created(
      {},
      {
        on: (name: string, listener: Listener) => events.set(name, listener),
        setWindowOpenHandler: (h: () => unknown) => {
          openHandler = h;
        },
      },
    );
    const away = { preventDefault: vi.fn() };
    events.get('will-navigate')!(away, 'https://evil.example/');
    expect(away.preventDefault).toHaveBeenCalled();
    const home = { preventDefault: vi.fn() };
    events.get('will-navigate')!(home, 'app://desk/index.html');
    expect(home.preventDefault).not.toHaveBeenCalled();
    const redirect = { preventDefault: vi.fn() };
    events.get('will-redirect')!(redirect, 'https://evil.example/');
    expect(redirect.preventDefault).toHaveBeenCalled();
    const webview = { preventDefault: vi.fn() };
    events.get('will-attach-webview')!(webview);
    expect(webview.preventDefault).toHaveBeenCalled();
    expect(openHandler?.()).toEqual({ action: 'deny' });
  });

  it('denies every permission, notifications included (main shows those itself)', () => {
    const decide = (permission: string, url: string) => {
      let granted: boolean | undefined;
      fake.calls.permission!({ getURL: () => url }, permission, (answer: boolean) => {
        granted = answer;
      });
      return granted;
    };
    expect(decide('media', 'app://desk/index.html')).toBe(false);
    expect(decide('geolocation', 'app://desk/index.html')).toBe(false);
    expect(decide('notifications', 'app://desk/index.html')).toBe(false);
    expect(decide('notifications', 'https://evil.example/')).toBe(false);
  });
});

describe('save dialog (exports)', () => {
  it('asks the person where to save, starting in Downloads with the suggested name; cancel writes nothing', async () => {
    const { dialog } = await import('electron');
    const { createChooseSavePath } = await import('./saveDialog');
    const choose = createChooseSavePath(() => undefined);
    expect(await choose('deposits.csv')).toBe('/chosen/by/person.csv');
    expect(dialog.showSaveDialog).toHaveBeenCalledWith(
      expect.objectContaining({
        defaultPath: join(dataDir, 'deposits.csv'),
        filters: [{ name: 'CSV', extensions: ['csv'] }],
      }),
    );
    vi.mocked(dialog.showSaveDialog).mockResolvedValueOnce({ canceled: true, filePath: '' });
    expect(await choose('deposits.csv')).toBeUndefined();
  });
});

describe('preload', () => {
  it('exposes exactly the contract as window.desk, each operation on its own channel', async () => {
    await import('../preload/index');
    const desk = fake.exposed.desk as Record<string, Record<string, (input: unknown) => Promise<unknown>> | Listener>;
    const names = Object.entries(desk).flatMap(([area, ops]) =>
      typeof ops === 'function' ? [area] : Object.keys(ops).map((op) => `${area}.${op}`),
    );
    expect(names.sort()).toEqual([...operationNames(contract), 'on'].sort());
    await (desk.app as Record<string, (input: unknown) => Promise<unknown>>).ping!({ text: 'x' });
    expect(fake.invoked).toContainEqual(['desk:app.ping', { text: 'x' }]);
    expect(() => (desk.on as Listener)('no.suchEvent', () => {})).toThrow(/Unknown event/);
  });
});

describe('trusted confirmation window', () => {
  const view = {
    action: 'withdrawal',
    title: 'Withdraw 100 USDT <b>',
    rows: [
      { label: 'Address', value: 'TAddr<script>alert(1)</script>' },
      { label: 'Memo', value: 'TXYZ\u202Eabc' },
    ],
    typedAmount: { amount: '100', currency: 'USDT' },
    confirmLabel: 'Withdraw',
  };
  const answerChannel = 'desk-confirm:answer';
  /** Opens a confirmation and returns its window and the pending answer. */
  const open = async () => {
    const before = fake.windows.length;
    const answer = fake.remote.confirm!(view);
    await vi.waitFor(() => expect(fake.windows.length).toBe(before + 1));
    const win = fake.windows.at(-1)!;
    await vi.waitFor(() => expect(win.loadURL).toHaveBeenCalled());
    return { win, answer };
  };
  const from = (contents: { mainFrame: { url: string } }, frame = contents.mainFrame) => ({
    sender: contents,
    senderFrame: frame,
  });

  it('main asks the core to use it: confirmWindow and secretWindow on, a confirm and a showSecret callback', async () => {
    const { CONFIRM_ANSWER_CHANNEL } = await import('./channels');
    expect(CONFIRM_ANSWER_CHANNEL).toBe(answerChannel);
    expect(fake.remote.options).toMatchObject({ confirmWindow: true, secretWindow: true });
    expect(typeof fake.remote.confirm).toBe('function');
    expect(typeof fake.remote.showSecret).toBe('function');
    expect(fake.ipcOn.has(answerChannel)).toBe(true);
  });

  it('a confirm request opens a modal, sandboxed window with its own preload, session and origin', async () => {
    const appWindow = fake.windows[0]!;
    const { win, answer } = await open();
    expect(win.options).toMatchObject({ parent: appWindow, modal: true });
    const prefs = win.options.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({ sandbox: true, contextIsolation: true, nodeIntegration: false, webviewTag: false });
    expect(String(prefs.preload)).toMatch(/preload[\\/]confirm\.cjs$/);
    expect(prefs.session).toBeDefined();
    // Its own site: another scheme than the renderer's app://desk.
    expect(win.loadURL).toHaveBeenCalledWith('treasury-desk-trusted://page/confirm.html');

    // Its session serves the view as escaped, isolated text with the confirmation's CSP, in an
    // agent cluster of its own origin, and nothing else.
    const partition = fake.partitions.get('treasury-desk-confirm')!;
    const page = await partition.protocol!(new Request('treasury-desk-trusted://page/confirm.html'));
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('content-security-policy')).toContain("connect-src 'none'");
    expect(page.headers.get('origin-agent-cluster')).toBe('?1');
    const html = await page.text();
    expect(html).toContain('Withdraw 100 USDT &lt;b&gt;');
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).not.toContain('\u202E');
    expect(html).toContain('[U+202E]');
    expect((await partition.protocol!(new Request('treasury-desk-trusted://page/other.js'))).status).toBe(404);
    expect((await partition.protocol!(new Request('app://desk/index.html'))).status).toBe(404);
    const decide = (url: string) => {
      let cancel: boolean | undefined;
      partition.beforeRequest!({ url }, (r: { cancel: boolean }) => {
        cancel = r.cancel;
      });
      return cancel;
    };
    expect(decide('treasury-desk-trusted://page/confirm.js')).toBe(false);
    expect(decide('app://desk/index.html')).toBe(true);
    expect(decide('https://evil.example/')).toBe(true);

    // The right window answers: confirmed with the typed amount, and the window closes.
    fake.ipcOn.get(answerChannel)!(from(win.webContents), true, '100');
    await expect(answer).resolves.toEqual({ accepted: true, typedAmount: '100' });
    expect(win.closed).toBe(true);
  });

  it('an answer from another web contents (the app window, a subframe, another page) is refused', async () => {
    const appWindow = fake.windows[0]!;
    const { win, answer } = await open();
    const listener = fake.ipcOn.get(answerChannel)!;
    // The app's own window (a compromised renderer) cannot answer…
    appWindow.webContents.mainFrame.url = 'app://desk/index.html';
    listener(from(appWindow.webContents), true, '100');
    // …nor a frame inside the confirmation, nor the window once it is elsewhere.
    listener(from(win.webContents, { url: 'treasury-desk-trusted://page/confirm.html' }), true, '100');
    listener({ sender: win.webContents, senderFrame: null }, true, '100');
    const settled = vi.fn();
    void answer.then(settled);
    // Whatever those answers set off has run by the next turn of the event loop.
    await new Promise((r) => setImmediate(r));
    expect(settled).not.toHaveBeenCalled();
    expect(win.closed).toBe(false);
    win.webContents.mainFrame.url = 'https://evil.example/';
    listener(from(win.webContents), true, '100');
    await new Promise((r) => setImmediate(r));
    expect(settled).not.toHaveBeenCalled();
    // The person closes it: declined.
    win.close();
    await expect(answer).resolves.toEqual({ accepted: false });
  });

  it('closing the window is a cancel; an answer after that changes nothing', async () => {
    const { win, answer } = await open();
    win.close();
    await expect(answer).resolves.toEqual({ accepted: false });
    fake.ipcOn.get(answerChannel)!(from(win.webContents), true, '100');
    // The next confirmation is a new window with its own answer.
    const next = await open();
    expect(next.win).not.toBe(win);
    fake.ipcOn.get(answerChannel)!(from(next.win.webContents), false);
    await expect(next.answer).resolves.toEqual({ accepted: false });
  });

  it('a new secret is shown in the same kind of window, on its own page, and is served no more once it closes', async () => {
    const before = fake.windows.length;
    const secretView = {
      title: 'New API key for sub-account 7',
      rows: [{ label: 'Key', value: 'abcdef0123456789' }],
      secrets: [{ label: 'Secret', value: 'S3CRET-VALUE-0123456789' }],
    };
    const shown = fake.remote.showSecret!(secretView);
    await vi.waitFor(() => expect(fake.windows.length).toBe(before + 1));
    const win = fake.windows.at(-1)!;
    await vi.waitFor(() => expect(win.loadURL).toHaveBeenCalledWith('treasury-desk-trusted://page/secret.html'));
    const partition = fake.partitions.get('treasury-desk-confirm')!;
    const page = await partition.protocol!(new Request('treasury-desk-trusted://page/secret.html'));
    expect(page.headers.get('origin-agent-cluster')).toBe('?1');
    expect(await page.text()).toContain('S3CRET-VALUE-0123456789');
    // The app's window cannot close it on the person's behalf.
    fake.ipcOn.get(answerChannel)!(from(fake.windows[0]!.webContents), true);
    expect(win.closed).toBe(false);
    fake.ipcOn.get(answerChannel)!(from(win.webContents), true);
    await expect(shown).resolves.toEqual({ shown: true });
    expect(win.closed).toBe(true);
    expect((await partition.protocol!(new Request('treasury-desk-trusted://page/secret.html'))).status).toBe(404);
  });

  it('its preload exposes only the answer function, on its own channel', async () => {
    const before = Object.keys(fake.exposed);
    await import('../preload/confirm');
    const added = Object.keys(fake.exposed).filter((k) => !before.includes(k));
    expect(added).toEqual(['__deskConfirmAnswer']);
    const answer = fake.exposed.__deskConfirmAnswer as (accepted: unknown, typed: unknown) => void;
    answer(true, '1,000.5');
    answer('yes', { not: 'a string' });
    expect(fake.sent).toEqual([
      [answerChannel, true, '1,000.5'],
      [answerChannel, false, undefined],
    ]);
  });
});
