/**
 * Test helper: the real core (through its dispatcher) against a test sandbox, with a temporary data
 * directory and an in-memory key store. `close()` stops the core and removes the directory. Used by
 * the core's integration tests (never by the app); `withSandboxCore` is their one set-up of a test
 * sandbox with a core for the whole file.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { SandboxOptions } from '../../sandbox/context';
import { control, type SandboxHandle, startTestSandbox, type TestSandbox } from '../../sandbox/testing/harness';
import type { Result } from '../../shared/ipc/result';
import { type Core, type CoreOptions, createCore } from '../core';
import type { DispatchOptions } from '../ipc/dispatcher';
import { MemoryKeyStore } from '../keychain/keyStore';
import { TEST_SCRYPT_COST } from '../operators';
import type { Confirm, ConfirmView } from '../policies/confirm';
import type { SecretView, ShowSecret } from '../policies/confirmPage';
import type { SandboxSource } from '../profiles/manager';

/** The client's rate-limit windows in tests, as a share of the platform's (CoreOptions.limiterScale). */
export const FAST_LIMITER_SCALE = 0.001;

/**
 * The trusted confirmation of a test core: a person who confirms everything and types the amount
 * each amount asked for (`confirmations` records each view). Tests about the confirmation pass their own.
 */
export const autoConfirm =
  (confirmations: ConfirmView[] = []): Confirm =>
  async (view) => {
    confirmations.push(view);
    return { accepted: true, ...(view.typedAmounts ? { typedAmounts: view.typedAmounts.map((t) => t.amount) } : {}) };
  };

/**
 * The shell's page for a new secret in a test core: a person who reads it and closes it
 * (`shown` records each view, the secrets among them, for the test to use).
 */
export const autoShowSecret =
  (shown: SecretView[] = []): ShowSecret =>
  async (view) => {
    shown.push(view);
    return { shown: true };
  };

/** The renderer's origin the test core trusts; `asRenderer` calls come from it. */
export const TEST_ORIGIN = 'app://desk';

/** The administrator every test core signs in at start (pass `bootstrapOperator: undefined` for none). */
export const TEST_ADMIN = { name: 'Test admin', passphrase: 'test admin passphrase 1' } as const;
export const asRenderer = { url: `${TEST_ORIGIN}/index.html`, isMainFrame: true } as const;

/**
 * The test cores' keychain: one in-memory key store per data directory, kept across restarts on
 * that directory as the OS keychain outlives the app (the audit log's key and head are in it), and
 * forgotten when the directory is removed.
 */
const keychains = new Map<string, MemoryKeyStore>();
const keychainOf = (dataDir: string): MemoryKeyStore => {
  let store = keychains.get(dataDir);
  if (store === undefined) {
    store = new MemoryKeyStore();
    keychains.set(dataDir, store);
  }
  return store;
};

/**
 * Any core option overrides the test default. `dataDir`: an existing data directory to open again
 * (a restart); `close()` removes it all the same.
 */
export type TestCoreOptions = Partial<Omit<CoreOptions, 'sandbox'>>;

export interface TestCore {
  readonly core: Core;
  readonly dataDir: string;
  close(): Promise<void>;
}

/**
 * `sandbox`: a running test sandbox (the core connects with its seeded main account's key) or any
 * other sandbox source (another account's key, a control URL, the embedded sandbox).
 */
export const startTestCore = async (
  sandbox: SandboxHandle | SandboxSource,
  options: TestCoreOptions = {},
): Promise<TestCore> => {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'td-core-')));
  const core = await createCore({
    shell: 'chromium',
    trustedOrigins: [TEST_ORIGIN],
    emit: () => {},
    keyStore: keychainOf(dataDir),
    sandbox:
      'mode' in sandbox
        ? sandbox
        : { mode: 'external', baseUrl: sandbox.baseUrl, key: sandbox.key, secret: sandbox.secret },
    watchIntervalMs: 0,
    confirm: autoConfirm(),
    showSecret: autoShowSecret(),
    // No test waits on a real rate-limit window: the client's windows are 1/1000 of the platform's.
    // The sandbox still enforces its own; a test skips one with POST /sandbox/advance (it moves the
    // sandbox's limiter time), and a test about the client's limiter passes `limiterScale: 1`.
    limiterScale: FAST_LIMITER_SCALE,
    bootstrapOperator: TEST_ADMIN,
    scryptCost: TEST_SCRYPT_COST,
    ...options,
    dataDir,
  });
  return {
    core,
    dataDir,
    close: async () => {
      await core.close();
      await rm(dataDir, { recursive: true, force: true });
      keychains.delete(dataDir);
    },
  };
};

/** Calls through a core's dispatcher as the renderer. */
export interface RendererCalls {
  /** The operation's Result as the renderer gets it (`options.signal`: the renderer cancels it). */
  call(operation: string, input?: unknown, options?: DispatchOptions): Promise<Result<unknown>>;
  /** The operation's value; a failure throws, its IpcError as `ipc`. */
  value<T = unknown>(operation: string, input?: unknown): Promise<T>;
}

/** `call`/`value` on whichever core `core()` returns at the time of the call (it may be restarted). */
export const rendererCalls = (core: () => Core): RendererCalls => {
  const call = (operation: string, input: unknown = {}, options?: DispatchOptions) =>
    core().dispatch(operation, input, asRenderer, options);
  return {
    call,
    value: async <T>(operation: string, input: unknown = {}): Promise<T> => {
      const result = await call(operation, input);
      if (!result.ok) {
        throw Object.assign(new Error(`${operation}: ${JSON.stringify(result.error)}`), { ipc: result.error });
      }
      return result.value as T;
    },
  };
};

export interface SandboxCoreSetup {
  /** The test sandbox's options (startTestSandbox's defaults otherwise: market off, seed 7). */
  readonly sandbox?: SandboxOptions;
  /**
   * Whose key the core connects with: `main` (default), the seeded main account's (it has
   * sub-accounts, saved addresses, history); `fresh`, a new main account the core asks the
   * sandbox's control plane for (an external sandbox by control URL), with nothing but what the
   * test funds.
   */
  readonly account?: 'main' | 'fresh';
  /** Runs on the started sandbox before the core starts (control-plane set-up the core needs). */
  readonly beforeCore?: (sandbox: TestSandbox) => Promise<unknown>;
  /** Spot balances the core's account is given once the core is connected (e.g. `{ USDT: '1000' }`). */
  readonly spot?: Readonly<Record<string, string>>;
  /** The core's options (see startTestCore); the same again on every `restart()`. */
  readonly core?: TestCoreOptions;
  /** A temporary downloads folder for the core's exports (`downloadsDir`), removed in afterAll. */
  readonly downloads?: boolean;
}

/** The file's sandbox and core; read its fields inside hooks and tests (they are set in beforeAll). */
export interface SandboxCore extends RendererCalls {
  readonly sandbox: TestSandbox;
  readonly testCore: TestCore;
  readonly core: Core;
  /** The core's downloads folder (with `downloads: true`). */
  readonly downloadsDir: string;
  /**
   * Stops the core and starts it again on the same data directory, with the same options (with
   * `account: 'fresh'` the restarted core asks the sandbox for another account).
   */
  restart(): Promise<Core>;
}

/**
 * One test sandbox and one core against it for a whole test file: started in beforeAll, closed
 * (the core's data directory removed) in afterAll. Call it at the top of the file.
 */
export const withSandboxCore = (setup: SandboxCoreSetup = {}): SandboxCore => {
  let sandbox: TestSandbox | undefined;
  let testCore: TestCore | undefined;
  let downloadsDir: string | undefined;
  const options = (): TestCoreOptions => ({ ...(downloadsDir ? { downloadsDir } : {}), ...setup.core });
  const started = <T>(what: string, value: T | undefined): T => {
    if (value === undefined) throw new Error(`withSandboxCore: the ${what} is not started (read it in a hook or test)`);
    return value;
  };
  const source = (s: TestSandbox): SandboxHandle | SandboxSource =>
    setup.account === 'fresh'
      ? { mode: 'external-control', controlUrl: s.controlUrl, controlToken: s.controlToken }
      : s;

  beforeAll(async () => {
    sandbox = await startTestSandbox(setup.sandbox);
    await setup.beforeCore?.(sandbox);
    if (setup.downloads) downloadsDir = await mkdtemp(join(tmpdir(), 'td-downloads-'));
    testCore = await startTestCore(source(sandbox), options());
    const userId = testCore.core.ctx.activeProfile()?.userId;
    for (const [currency, amount] of Object.entries(setup.spot ?? {})) {
      await control(sandbox, '/balances', { user_id: userId, account: 'spot', currency, amount });
    }
  });
  afterAll(async () => {
    await testCore?.close();
    await sandbox?.close();
    if (downloadsDir) await rm(downloadsDir, { recursive: true, force: true });
  });

  const core = () => started('core', testCore).core;
  return {
    get sandbox() {
      return started('sandbox', sandbox);
    },
    get testCore() {
      return started('core', testCore);
    },
    get core() {
      return core();
    },
    get downloadsDir() {
      return started('downloads folder', downloadsDir);
    },
    ...rendererCalls(core),
    restart: async () => {
      const { core: stopped, dataDir } = started('core', testCore);
      await stopped.close();
      testCore = await startTestCore(source(started('sandbox', sandbox)), { ...options(), dataDir });
      return testCore.core;
    },
  };
};
