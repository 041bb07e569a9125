/**
 * Test helper: the real core (through its dispatcher) against a test sandbox, with a temporary data
 * directory and an in-memory key store. `close()` stops the core and removes the directory. Used by
 * the core's integration tests (never by the app).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SandboxHandle } from '../../../sandbox/testing/harness';
import { type Core, type CoreOptions, createCore } from '../core';
import { MemoryKeyStore } from '../keychain/keyStore';
import { TEST_SCRYPT_COST } from '../operators';
import type { Confirm, ConfirmView } from '../policies/confirm';
import type { SandboxSource } from '../profiles/manager';

/** The client's rate-limit windows in tests, as a share of the platform's (CoreOptions.limiterScale). */
export const FAST_LIMITER_SCALE = 0.001;

/**
 * The trusted confirmation of a test core: a person who confirms everything and types the amount
 * when asked (`confirmations` records each view). Tests about the confirmation pass their own.
 */
export const autoConfirm =
  (confirmations: ConfirmView[] = []): Confirm =>
  async (view) => {
    confirmations.push(view);
    return { accepted: true, ...(view.typedAmount ? { typedAmount: view.typedAmount.amount } : {}) };
  };

/** The renderer's origin the test core trusts; `asRenderer` calls come from it. */
export const TEST_ORIGIN = 'app://desk';

/** The administrator every test core signs in at start (pass `bootstrapOperator: undefined` for none). */
export const TEST_ADMIN = { name: 'Test admin', passphrase: 'test admin passphrase 1' } as const;
export const asRenderer = { url: `${TEST_ORIGIN}/index.html`, isMainFrame: true } as const;

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
    keyStore: new MemoryKeyStore(),
    sandbox:
      'mode' in sandbox
        ? sandbox
        : { mode: 'external', baseUrl: sandbox.baseUrl, key: sandbox.key, secret: sandbox.secret },
    watchIntervalMs: 0,
    confirm: autoConfirm(),
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
    },
  };
};
