/**
 * The app as the benchmarks drive it: the real renderer and core in headless Chromium (the fallback
 * shell) at 1440×900, pointed at a benchmark's own sandbox with its key kept in memory (a benchmark
 * must not depend on a desktop keychain).
 */
import type { CoreOptions } from '../electron/core/core';
import { MemoryKeyStore } from '../electron/core/keychain/keyStore';
import type { SandboxHandle } from '../electron/core/testing/sandbox';
import { openShell } from '../electron/shell/shell';

export const openBenchApp = (
  sandbox: SandboxHandle,
  dataDir: string,
  core: Partial<Omit<CoreOptions, 'dataDir' | 'shell' | 'trustedOrigins' | 'emit'>> = {},
) =>
  openShell({
    dataDir,
    headless: true,
    viewport: { width: 1440, height: 900 },
    core: {
      sandbox: { mode: 'external', baseUrl: sandbox.baseUrl, key: sandbox.key, secret: sandbox.secret },
      keyStore: new MemoryKeyStore(),
      ...core,
    },
  });
