/**
 * Test helper: the real core (through its dispatcher) against an in-process test sandbox, with a
 * temporary data directory and an in-memory key store. `close()` stops the core and removes the
 * directory. Used by the core's integration tests (never by the app).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Core, type CoreOptions, createCore } from '../core';
import { MemoryKeyStore } from '../keychain/keyStore';
import type { SandboxHandle } from './sandbox';

/** The renderer's origin the test core trusts; `asRenderer` calls come from it. */
export const TEST_ORIGIN = 'app://desk';
export const asRenderer = { url: `${TEST_ORIGIN}/index.html`, isMainFrame: true } as const;

export interface TestCore {
  readonly core: Core;
  readonly dataDir: string;
  close(): Promise<void>;
}

export const startTestCore = async (sandbox: SandboxHandle, options: Partial<CoreOptions> = {}): Promise<TestCore> => {
  const dataDir = await mkdtemp(join(tmpdir(), 'td-core-'));
  const core = await createCore({
    dataDir,
    shell: 'chromium',
    trustedOrigins: [TEST_ORIGIN],
    emit: () => {},
    keyStore: new MemoryKeyStore(),
    sandbox: { mode: 'external', baseUrl: sandbox.baseUrl, key: sandbox.key, secret: sandbox.secret },
    watchIntervalMs: 0,
    ...options,
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
