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
  const calls = {
    sandbox: 0,
    schemes: [] as unknown[],
    permission: undefined as undefined | ((...a: unknown[]) => void),
  };
  return { handlers, appListeners, whenReady, ready: () => ready(), exposed, invoked, calls };
});

vi.mock('electron', () => {
  class BrowserWindow {
    readonly webContents = { send: vi.fn() };
    constructor(readonly options: unknown) {}
    on() {}
    once() {}
    maximize() {}
    loadURL = vi.fn(async () => {});
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
    startRemoteCore: async (o: { options: { trustedOrigins: readonly string[] }; emit: unknown }) => {
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
  it('turns the sandbox on for every renderer and registers app:// as a secure standard scheme', () => {
    expect(fake.calls.sandbox).toBe(1);
    expect(fake.calls.schemes).toEqual([
      expect.objectContaining({ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) }),
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
