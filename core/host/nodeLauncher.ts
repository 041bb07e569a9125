/**
 * Starting the core (and the embedded sandbox) as Node child processes: how the Chromium shell,
 * the tests and the benchmarks run them. A built copy (`out/main/core.js`, `out/main/sandbox.js`)
 * starts in plain Node; from source, the TypeScript file runs under tsx's loader.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { ChannelMessage } from '../../shared/ipc/channel';
import type { CoreChannel, FromCore, LaunchCore } from './messages';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const CORE_SOURCE = join(ROOT, 'core/host/coreProcess.ts');
export const SANDBOX_SOURCE = join(ROOT, 'sandbox/cli.ts');

/** The built entry next to a built renderer (`<out>/renderer` → `<out>/main/<name>.js`), else the source. */
export const entryFor = (name: 'core' | 'sandbox', rendererDir: string | undefined): string => {
  if (rendererDir !== undefined) {
    const built = join(rendererDir, '..', 'main', `${name}.js`);
    if (existsSync(built)) return built;
  }
  return name === 'core' ? CORE_SOURCE : SANDBOX_SOURCE;
};

/**
 * Node's flags for an entry: TypeScript sources get tsx's loader; a built entry gets the code cache
 * built beside it (./compileCache.ts), when there is one.
 */
export const execArgvFor = (entry: string): string[] => {
  if (entry.endsWith('.ts')) return ['--import', import.meta.resolve('tsx')];
  const compileCache = join(dirname(entry), 'compileCache.js');
  return existsSync(compileCache) ? ['--import', compileCache] : [];
};

const channelOf = (child: ChildProcess): CoreChannel => ({
  // No ports to transfer: the Chromium shell's window reaches the core through this process.
  send: (message) => {
    // A core killed a moment ago may still count as connected: the send then fails (EPIPE). With a
    // callback the failure comes here instead of as an 'error' event nobody listens to (an uncaught
    // exception in the shell's process); the core's exit is what reports it.
    if (child.connected) child.send(message, () => undefined);
  },
  onMessage: (listener) => child.on('message', (message) => listener(message as FromCore | ChannelMessage)),
  onExit: (listener) => child.once('exit', (code, signal) => listener(code, signal)),
  get pid() {
    return child.pid;
  },
  kill: () => {
    child.kill('SIGKILL');
  },
});

export const nodeCoreLauncher =
  (entry: string = CORE_SOURCE): LaunchCore =>
  () =>
    channelOf(
      fork(entry, [], {
        execArgv: execArgvFor(entry),
        env: { ...process.env, TREASURY_DESK_CORE_PROCESS: '1' },
        serialization: 'advanced',
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      }),
    );

/** What the sandbox's CLI prints once it listens (sandbox/cli.ts). */
export interface SandboxReady {
  readonly baseUrl: string;
  readonly controlUrl: string;
  /** The control plane's token (`control_token`): X-Sandbox-Token on every /sandbox/* request. */
  readonly controlToken: string;
  readonly key: string;
  readonly secret: string;
}

export interface SandboxProcess extends SandboxReady {
  readonly pid: number | undefined;
  close(): Promise<void>;
}

/**
 * Starts the built-in sandbox exchange in its own process on `dataDir` and waits for its ready
 * line. Its key is the sandbox's own paper-money key; it travels on the child's stdout pipe only.
 */
export const startSandboxProcess = async (options: {
  readonly entry?: string;
  readonly dataDir: string;
  readonly clock?: 'real' | 'manual';
  readonly market?: 'on' | 'off';
  readonly log?: (line: string) => void;
}): Promise<SandboxProcess> => {
  const entry = options.entry ?? SANDBOX_SOURCE;
  const args = ['--data', options.dataDir, '--port', '0', '--clock', options.clock ?? 'real'];
  args.push('--market', options.market ?? 'on');
  const child = fork(entry, args, {
    execArgv: execArgvFor(entry),
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: { ...process.env },
  });
  const errors: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    if (errors.join('').length < 4000) errors.push(text);
    for (const line of text.split('\n')) if (line.trim() !== '') options.log?.(`sandbox: ${line}`);
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const ready = await new Promise<SandboxReady>((resolveReady, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => {
      try {
        const parsed = JSON.parse(line) as {
          base_url: string;
          control_url: string;
          control_token: string;
          key: string;
          secret: string;
        };
        resolveReady({
          baseUrl: parsed.base_url,
          controlUrl: parsed.control_url,
          controlToken: parsed.control_token,
          key: parsed.key,
          secret: parsed.secret,
        });
      } catch (error) {
        reject(error);
      }
    });
    child.once('exit', (code) =>
      reject(new Error(`The built-in sandbox did not start (code ${code}): ${errors.join('').trim()}`)),
    );
  });
  return {
    ...ready,
    pid: child.pid,
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
};
