/**
 * Child processes the benchmarks measure against: the sandbox started from its CLI (as
 * `node --import tsx`, so the measured pid is the server itself) and its one ready line.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The sandbox's ready line (docs/sandbox.md, "Starting it"). */
export interface SandboxReady {
  readonly base_url: string;
  readonly control_url: string;
  /** Sent as X-Sandbox-Token with every control request. */
  readonly control_token: string;
  readonly user_id: number;
  readonly key: string;
  readonly secret: string;
}

/** The first line a child prints on stdout (its ready line); rejects if it exits or is silent for 30 s. */
export const firstLine = (child: ChildProcess): Promise<string> =>
  new Promise((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => reject(new Error('the process did not start within 30 s')), 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const nl = buffer.indexOf('\n');
      if (nl !== -1) {
        clearTimeout(timer);
        resolve(buffer.slice(0, nl));
      }
    });
    child.on('exit', (code) => reject(new Error(`the process exited with ${code}`)));
  });

/** Starts `npm run sandbox -- <args>` as a child and waits for its ready line. */
export const spawnSandbox = async (args: readonly string[]): Promise<{ child: ChildProcess; ready: SandboxReady }> => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'sandbox/cli.ts', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return { child, ready: JSON.parse(await firstLine(child)) as SandboxReady };
};
