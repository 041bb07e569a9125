/**
 * The Electron glue, run against a stand-in 'electron' module (the real one would try to download
 * its binary): the window gets a MessagePort to the core only for our own top-level document, calls
 * on it reach the dispatcher as that sender, the hardening applies to every web contents, and the
 * preload exposes exactly the contract.
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
  /** What main passed to startRemoteCore (the shell's confirm among them), and the ports it handed over. */
  const remote = {
    options: undefined as unknown,
    offers: [] as string[],
    confirm: undefined as undefined | ((view: unknown) => Promise<unknown>),
    showSecret: undefined as undefined | ((view: unknown) => Promise<unknown>),
    connected: [] as { windowId: number; sender: { url: string; isMainFrame: boolean } }[],
  };
  /** A stand-in MessagePort: Electron's (on/start/close) and the DOM's (onmessage) in one. */
  class FakePort {
    other: FakePort | undefined;
    readonly listeners: ((event: { data: unknown }) => void)[] = [];
    onmessage: ((event: { data: unknown }) => void) | undefined;
    closed = false;
    postMessage(data: unknown) {
      const target = this.other;
      if (this.closed || target === undefined) return;
      const copy = structuredClone(data);
      setImmediate(() => {
        if (target.closed) return;
        for (const listener of target.listeners) listener({ data: copy });
        target.onmessage?.({ data: copy });
      });
    }
    on(event: string, listener: (event: { data: unknown }) => void) {
      if (event === 'message') this.listeners.push(listener);
    }
    start() {}
    close() {
      this.closed = true;
    }
  }
  /** Ports main posted to a frame: [frame url, channel, ports]. */
  const posted: [string, string, FakePort[]][] = [];
  /** The preload's ipcRenderer.on listeners, per channel. */
  const rendererOn = new Map<string, (event: unknown, ...args: unknown[]) => void>();
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
    FakePort,
    posted,
    rendererOn,
  };
});

vi.mock('electron', () => {
  class BrowserWindow {
    static nextId = 1;
    readonly webContents = {
      id: BrowserWindow.nextId++,
      send: vi.fn(),
      on: vi.fn(),
      once: vi.fn(),
      setWindowOpenHandler: vi.fn(),
      mainFrame: {
        url: '',
        postMessage(channel: string, _message: unknown, ports: InstanceType<typeof fake.FakePort>[]) {
          fake.posted.push([this.url, channel, ports]);
        },
      },
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
    MessageChannelMain: class {
      readonly port1 = new fake.FakePort();
      readonly port2 = new fake.FakePort();
      constructor() {
        this.port1.other = this.port2;
        this.port2.other = this.port1;
      }
    },
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
      on: vi.fn((channel: string, listener: (event: unknown, ...args: unknown[]) => void) => {
        fake.rendererOn.set(channel, listener);
      }),
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
vi.mock('../../core/host/remoteCore', async () => {
  const { createDispatcher } = await import('../../core/ipc/dispatcher');
  const { createAppHandlers } = await import('../../core/app/handlers');
  const { ChannelPort, ChannelServer, isChannelMessage } = await import('../../shared/ipc/channel');
  const { nodeTimers } = await import('../../core/host/timers');
  return {
    CoreStartFailed: class CoreStartFailed extends Error {},
    startRemoteCore: async (o: {
      options: Promise<{ trustedOrigins: readonly string[] }>;
      emit: unknown;
      shell: Record<string, (input: unknown, ctx: unknown) => Promise<unknown>>;
      onStart?: () => void;
    }) => {
      const options = await o.options;
      fake.remote.options = options;
      fake.remote.offers = Object.keys(o.shell);
      fake.remote.confirm = (view) => o.shell.confirm!({ view }, { operation: 'shell.confirm' });
      fake.remote.showSecret = (view) => o.shell.showSecret!({ view }, { operation: 'shell.showSecret' });
      const app = createAppHandlers({ shell: 'electron', emit: o.emit } as never);
      const handlers = new Proxy({ app } as Record<string, unknown>, {
        get: (target, area: string) => target[area] ?? {},
      });
      const dispatch = createDispatcher(contract, handlers as never, { trustedOrigins: options.trustedOrigins });
      const core = {
        dispatch,
        // As the core's process does (coreProcess.ts): every call on a window's port is that sender's.
        connectWindow: (windowId: number, sender: { url: string; isMainFrame: boolean }, raw: unknown) => {
          fake.remote.connected.push({ windowId, sender });
          const port = raw as InstanceType<typeof fake.FakePort>;
          const timers = nodeTimers();
          const server = new ChannelServer(
            new ChannelPort((message) => port.postMessage(message), timers),
            (operation, input) => dispatch(operation, input, sender),
            timers,
          );
          port.on('message', (event) => {
            if (isChannelMessage(event.data)) server.receive(event.data);
          });
          return true;
        },
        close: async () => {},
      };
      setImmediate(() => o.onStart?.());
      return core;
    },
  };
});

const dataDir = mkdtempSync(join(tmpdir(), 'main-test-'));

beforeAll(async () => {
  process.env.TREASURY_DESK_DATA_DIR = dataDir;
  await import('./index');
  fake.ready();
  // Let start() run: the core is up once main passed it its options.
  await vi.waitFor(() => expect(fake.remote.options).toBeDefined());
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

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

  it('registers no handler for operations: the window’s calls go to the core on a port of its own', () => {
    expect([...fake.handlers.keys()]).toEqual([]);
    expect(fake.ipcOn.has('desk:connect')).toBe(true);
    expect(fake.remote.options).toMatchObject({ directWindows: true, trustedOrigins: ['app://desk'] });
  });

  it('hands a port to the core only for our own top-level document, with the sender it checked', async () => {
    const connect = fake.ipcOn.get('desk:connect')!;
    const contents = fake.windows[0]!.webContents as unknown as {
      id: number;
      once: unknown;
      mainFrame: { url: string };
    };
    const asked = (frame: { url: string } | null) => connect({ sender: contents, senderFrame: frame });
    const before = fake.remote.connected.length;
    // A subframe, or a document at another origin, gets nothing.
    asked({ url: 'app://desk/index.html' });
    contents.mainFrame.url = 'https://evil.example/';
    asked(contents.mainFrame);
    asked(null);
    expect(fake.remote.connected.length).toBe(before);
    expect(fake.posted.filter(([url]) => url === 'https://evil.example/')).toEqual([]);
    // Our own document at the top: one pair, one end to the core as this sender, the other to the frame.
    contents.mainFrame.url = 'app://desk/index.html';
    asked(contents.mainFrame);
    expect(fake.remote.connected.slice(before)).toEqual([
      { windowId: contents.id, sender: { url: 'app://desk/index.html', isMainFrame: true } },
    ]);
    expect(fake.posted.at(-1)).toEqual(['app://desk/index.html', 'desk:port', [expect.any(fake.FakePort)]]);
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
  it('exposes exactly the contract as window.desk, and calls the core on the port main hands it', async () => {
    await import('../preload/index');
    // It asks for its port at once.
    expect(fake.sent).toContainEqual(['desk:connect']);
    const desk = fake.exposed.desk as Record<
      string,
      Record<string, (input: unknown, options?: unknown) => Promise<unknown>> | Listener
    >;
    const names = Object.entries(desk).flatMap(([area, ops]) =>
      typeof ops === 'function' ? [area] : Object.keys(ops).map((op) => `${area}.${op}`),
    );
    expect(names.sort()).toEqual([...operationNames(contract), 'cancel', 'on'].sort());
    const ping = (desk.app as Record<string, (input: unknown, options?: unknown) => Promise<unknown>>).ping!;
    // A call made before the port arrives waits for it.
    const early = ping({ text: 'before the port' });
    const contents = fake.windows[0]!.webContents as unknown as { mainFrame: { url: string } };
    contents.mainFrame.url = 'app://desk/index.html';
    fake.ipcOn.get('desk:connect')!({ sender: contents, senderFrame: contents.mainFrame });
    const [, , ports] = fake.posted.at(-1)!;
    fake.rendererOn.get('desk:port')!({ ports });
    expect(await early).toMatchObject({ ok: true, value: { text: 'before the port' } });
    expect(await ping({ text: 'x' })).toMatchObject({ ok: true, value: { text: 'x' } });
    // Nothing went through main's IPC: no invoke, no handler.
    expect(fake.invoked).toEqual([]);
    // A call that gets no answer in time ends with OUTCOME_UNKNOWN, not a promise that never settles.
    (ports[0] as unknown as { closed: boolean }).closed = true;
    expect(await ping({ text: 'lost' }, { timeoutMs: 50 })).toMatchObject({
      ok: false,
      error: { code: 'OUTCOME_UNKNOWN' },
    });
    // The core stopped: the window is told, and the next port serves again.
    fake.rendererOn.get('desk:core-stopped')!({});
    fake.ipcOn.get('desk:connect')!({ sender: contents, senderFrame: contents.mainFrame });
    fake.rendererOn.get('desk:port')!({ ports: fake.posted.at(-1)![2] });
    expect(await ping({ text: 'again' })).toMatchObject({ ok: true, value: { text: 'again' } });
    expect(() => (desk.on as Listener)('no.suchEvent', () => {})).toThrow(/Unknown event/);
    fake.sent.length = 0; // what the confirmation's preload sends is checked on its own below
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
    typedAmounts: [{ amount: '100', currency: 'USDT' }],
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

  it('main asks the core to use it: confirm and showSecret offered in the shell contract', async () => {
    const { CONFIRM_ANSWER_CHANNEL } = await import('./channels');
    expect(CONFIRM_ANSWER_CHANNEL).toBe(answerChannel);
    expect(fake.remote.offers).toEqual(expect.arrayContaining(['confirm', 'showSecret']));
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
    fake.ipcOn.get(answerChannel)!(from(win.webContents), true, ['100']);
    await expect(answer).resolves.toEqual({ accepted: true, typedAmounts: ['100'] });
    expect(win.closed).toBe(true);
  });

  it('an answer from another web contents (the app window, a subframe, another page) is refused', async () => {
    const appWindow = fake.windows[0]!;
    const { win, answer } = await open();
    const listener = fake.ipcOn.get(answerChannel)!;
    // The app's own window (a compromised renderer) cannot answer…
    appWindow.webContents.mainFrame.url = 'app://desk/index.html';
    listener(from(appWindow.webContents), true, ['100']);
    // …nor a frame inside the confirmation, nor the window once it is elsewhere.
    listener(from(win.webContents, { url: 'treasury-desk-trusted://page/confirm.html' }), true, ['100']);
    listener({ sender: win.webContents, senderFrame: null }, true, ['100']);
    const settled = vi.fn();
    void answer.then(settled);
    // Whatever those answers set off has run by the next turn of the event loop.
    await new Promise((r) => setImmediate(r));
    expect(settled).not.toHaveBeenCalled();
    expect(win.closed).toBe(false);
    win.webContents.mainFrame.url = 'https://evil.example/';
    listener(from(win.webContents), true, ['100']);
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
    fake.ipcOn.get(answerChannel)!(from(win.webContents), true, ['100']);
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
    answer(true, ['1,000.5', '7']);
    answer('yes', { not: 'a list' });
    answer(true, [{ not: 'a string' }, 'x'.repeat(150)]);
    expect(fake.sent).toEqual([
      [answerChannel, true, ['1,000.5', '7']],
      [answerChannel, false, undefined],
      [answerChannel, true, ['', 'x'.repeat(100)]],
    ]);
  });
});
