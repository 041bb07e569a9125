/**
 * Electron's way to run the core and the built-in sandbox in their own processes: utility
 * processes (Node without Electron's APIs, started and ended with the app). The Chromium shell and
 * the tests use core/host/nodeLauncher.ts instead; both speak core/host/messages.ts.
 * Both are started at once (index.ts): neither waits for the other to boot.
 */
import { createInterface } from 'node:readline';
import { type MessagePortMain, utilityProcess } from 'electron';
import type { CoreChannel, FromCore, LaunchCore } from '../../core/host/messages';
import type { SandboxProcess } from '../../core/host/nodeLauncher';
import type { ChannelMessage } from '../../shared/ipc/channel';

export const electronCoreLauncher =
  (entry: string): LaunchCore =>
  (): CoreChannel => {
    const child = utilityProcess.fork(entry, [], {
      serviceName: 'Treasury Desk core',
      env: { ...process.env, TREASURY_DESK_CORE_PROCESS: '1' },
      stdio: 'inherit',
    });
    return {
      // A window's MessagePort goes with its `window` message (windowPorts.ts).
      send: (message, transfer) => child.postMessage(message, transfer as MessagePortMain[] | undefined),
      onMessage: (listener) =>
        child.on('message', (message: unknown) => listener(message as FromCore | ChannelMessage)),
      onExit: (listener) => child.once('exit', (code: number) => listener(code, null)),
      get pid() {
        return child.pid;
      },
      kill: () => {
        child.kill();
      },
    };
  };

export const startElectronSandbox = async (entry: string, dataDir: string): Promise<SandboxProcess> => {
  const child = utilityProcess.fork(entry, ['--data', dataDir, '--port', '0'], {
    serviceName: 'Treasury Desk sandbox',
    stdio: 'pipe',
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const ready = await new Promise<{
    base_url: string;
    control_url: string;
    control_token: string;
    key: string;
    secret: string;
  }>((resolve, reject) => {
    if (!child.stdout) {
      reject(new Error('The built-in sandbox has no output pipe.'));
      return;
    }
    createInterface({ input: child.stdout }).once('line', (line) => {
      try {
        resolve(JSON.parse(line));
      } catch (error) {
        reject(error);
      }
    });
    child.once('exit', (code: number) => reject(new Error(`The built-in sandbox did not start (code ${code}).`)));
  });
  return {
    baseUrl: ready.base_url,
    controlUrl: ready.control_url,
    controlToken: ready.control_token,
    key: ready.key,
    secret: ready.secret,
    pid: child.pid,
    close: async () => {
      child.kill();
      await exited;
    },
  };
};
