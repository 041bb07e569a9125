/**
 * Explorer links in the Chromium shell. The window never navigates away (serve.ts answers other
 * origins with 204 and popups are closed), so a link is opened by this process, in the person's own
 * browser: `xdg-open` on Linux, `open` on macOS, `start` on Windows. A headless run (tests,
 * automation) has nobody to show a browser to: it logs the link and answers "not opened", and the
 * renderer copies the link instead and says so.
 *
 * Only URLs that `checkExternalUrl` accepts reach here (the core checked; remoteCore checks again);
 * the URL is one argument of a program started without a shell, so nothing in it is interpreted.
 */
import { type ChildProcess, spawn as nodeSpawn, type SpawnOptions } from 'node:child_process';
import { checkExternalUrl, type OpenExternal } from '../core/app/externalUrl';

type Spawn = (command: string, args: readonly string[], options: SpawnOptions) => ChildProcess;

/** The program and arguments that open a URL in the default browser on this platform. */
export const openerFor = (platform: NodeJS.Platform, url: string): { command: string; args: string[] } => {
  if (platform === 'darwin') return { command: 'open', args: [url] };
  // `start` is a cmd built-in; the empty "" is its window title, so the URL is never taken for it.
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""', url] };
  return { command: 'xdg-open', args: [url] };
};

export const createShellOpenExternal = (options: {
  readonly headless: boolean;
  readonly log: (line: string) => void;
  readonly platform?: NodeJS.Platform;
  readonly spawn?: Spawn;
}): OpenExternal => {
  const spawn = options.spawn ?? (nodeSpawn as Spawn);
  const platform = options.platform ?? process.platform;
  return async (raw) => {
    const url = checkExternalUrl(raw);
    if (options.headless) {
      options.log(`headless: not opening ${url} (the window copies the link instead)`);
      return false;
    }
    const { command, args } = openerFor(platform, url);
    return new Promise<boolean>((resolve) => {
      let child: ChildProcess;
      try {
        child = spawn(command, args, { detached: true, stdio: 'ignore', shell: false, windowsHide: true });
      } catch (error) {
        options.log(`could not start ${command}: ${(error as Error).message}`);
        resolve(false);
        return;
      }
      child.once('error', (error) => {
        options.log(`could not start ${command}: ${error.message}`);
        resolve(false);
      });
      child.once('spawn', () => {
        options.log(`opened ${url} with ${command}`);
        child.unref();
        resolve(true);
      });
    });
  };
};
