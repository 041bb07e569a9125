/**
 * `npm start [-- --headless --screenshot FILE | --chromium] [--rebuild]`: builds the app when its
 * sources changed since the last build (`--rebuild` builds anyway), then starts it in Electron when
 * Electron's binary is present, otherwise (one line says so) in the system's Chromium through the
 * fallback shell. Never triggers Electron's binary download.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execArgvFor } from '../core/host/nodeLauncher';
import { defaultDataDir } from '../shell/dataDir';
import { buildIfNeeded } from './buildStamp';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Where Electron's executable is, without `require('electron')` (which downloads it when
 * missing): its own path.txt under ELECTRON_OVERRIDE_DIST_PATH or node_modules/electron/dist.
 */
export const electronBinary = (env: NodeJS.ProcessEnv = process.env, root = ROOT): string | undefined => {
  const pkg = join(root, 'node_modules', 'electron');
  const pathFile = join(pkg, 'path.txt');
  const executable = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : undefined;
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    const candidate = join(env.ELECTRON_OVERRIDE_DIST_PATH, executable ?? 'electron');
    return existsSync(candidate) ? candidate : undefined;
  }
  if (executable === undefined) return undefined;
  const candidate = join(pkg, 'dist', executable);
  return existsSync(candidate) ? candidate : undefined;
};

/**
 * On a Linux machine without a D-Bus session (a server, CI, a container) the OS keychain cannot
 * be reached; run the shell inside a private, unlocked keyring instead of failing to connect.
 */
const needsPrivateKeyring = (): boolean => {
  if (process.platform !== 'linux' || process.env.DBUS_SESSION_BUS_ADDRESS) return false;
  if (!existsSync(join(ROOT, 'scripts/with-keychain.sh'))) return false;
  const onPath = (tool: string) =>
    (process.env.PATH ?? '').split(':').some((dir) => dir !== '' && existsSync(join(dir, tool)));
  return onPath('dbus-run-session') && onPath('gnome-keyring-daemon');
};

const main = (): void => {
  const args = process.argv.slice(2);
  const forceChromium = args.includes('--chromium');
  // --chromium and --rebuild are this script's own options, not the shells'.
  const shellArgs = args.filter((a) => a !== '--chromium' && a !== '--rebuild');
  const headless = shellArgs.includes('--headless');

  if (!buildIfNeeded(ROOT, args.includes('--rebuild'))) console.log('Build is up to date; starting.');

  const electron = forceChromium || headless ? undefined : electronBinary();
  const child =
    electron !== undefined
      ? spawn(electron, [ROOT, ...shellArgs], { stdio: 'inherit', cwd: ROOT })
      : (() => {
          if (!forceChromium && !headless) {
            console.log(
              'Electron is unavailable (its binary is not downloaded here); opening Treasury Desk in Chromium.',
            );
          }
          // The built shell (electron.vite.config.ts), plain Node: no TypeScript loader on the start's
          // path, and the code cache its CommonJS modules compile from (core/host/compileCache.ts).
          const shellEntry = join(ROOT, 'out/main/shellCli.js');
          const command = [process.execPath, ...execArgvFor(shellEntry), shellEntry, ...shellArgs];
          if (!needsPrivateKeyring()) return spawn(command[0]!, command.slice(1), { stdio: 'inherit', cwd: ROOT });
          // The keyring wrapper changes XDG_DATA_HOME: fix the data folder first so it stays the usual one.
          if (!shellArgs.includes('--data-dir')) command.push('--data-dir', defaultDataDir());
          console.log(
            'No D-Bus session: using a temporary keyring for this run (keys added now are forgotten on exit).',
          );
          return spawn('sh', [join(ROOT, 'scripts/with-keychain.sh'), ...command], { stdio: 'inherit', cwd: ROOT });
        })();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
};

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
