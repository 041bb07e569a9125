/**
 * The app as the benchmarks drive it: the real renderer and core in headless Chromium (the fallback
 * shell) at 1440×900, pointed at a benchmark's own sandbox with its key kept in memory (a benchmark
 * must not depend on a desktop keychain).
 */

import type { CoreProcessOptions } from '../core/host/messages';
import type { SandboxHandle } from '../sandbox/testing/harness';
import { openShell, type Shell, type ShellOptions } from '../shell/shell';
import { BENCH_ADMIN } from './admin';

export { BENCH_ADMIN };

/** The window's origin and sender, for benchmarks that call a core without a window. */
export const BENCH_ORIGIN = 'https://treasury-desk.invalid';
export const BENCH_SENDER = { url: `${BENCH_ORIGIN}/`, isMainFrame: true } as const;

/** A core in its own process against a benchmark's sandbox: key in memory, its administrator signed in, no watchers. */
export const remoteBenchCoreOptions = (
  sandbox: { readonly baseUrl: string; readonly key: string; readonly secret: string },
  dataDir: string,
): CoreProcessOptions => ({
  dataDir,
  shell: 'chromium',
  trustedOrigins: [BENCH_ORIGIN],
  keyStore: 'memory',
  sandbox: { mode: 'external', baseUrl: sandbox.baseUrl, key: sandbox.key, secret: sandbox.secret },
  watchIntervalMs: 0,
  bootstrapOperator: BENCH_ADMIN,
});

export const openBenchApp = (
  sandbox: SandboxHandle,
  dataDir: string,
  core: NonNullable<ShellOptions['core']> = {},
  /** The shell's log lines, with the core's request lines when `core.log` is set. */
  log?: (line: string) => void,
) =>
  openShell({
    dataDir,
    headless: true,
    viewport: { width: 1440, height: 900 },
    ...(log ? { log } : {}),
    core: {
      sandbox: { mode: 'external', baseUrl: sandbox.baseUrl, key: sandbox.key, secret: sandbox.secret },
      keyStore: 'memory',
      // A benchmark starts on the app: its administrator is created and signed in at start.
      bootstrapOperator: BENCH_ADMIN,
      ...core,
    },
  });

/** Calls one operation of the app's core as its window would (the benchmark drives what a screen would ask). */
export const callCore = async <T>(shell: Shell, operation: string, payload: unknown): Promise<T> => {
  const result = await shell.core.dispatch(operation, payload, { url: shell.url, isMainFrame: true });
  if (!result.ok) throw new Error(`${operation}: ${result.error.code} ${result.error.message}`);
  return result.value as T;
};

/** Starts a history sync through the core and waits until it ends. */
export const syncHistory = async (
  shell: Shell,
  request: { kinds: string[]; from: number; to: number },
): Promise<{ state: string; records: number; requests: number; error?: string }> => {
  await callCore(shell, 'activity.startHistorySync', request);
  for (;;) {
    const status = await callCore<{ state: string; records: number; requests: number; error?: string } | null>(
      shell,
      'activity.historyStatus',
      {},
    );
    if (status && status.state !== 'running') return status;
    await new Promise((r) => setTimeout(r, 200));
  }
};

/** Runs a benchmark's main: an error is printed and the process exits 1 (a benchmark that could not run). */
export const runBench = (main: () => Promise<void>): void => {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
};
