import { type FileHandle, mkdir, open } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, extname, join } from 'node:path';
import type { DeskHandlers } from '../../shared/contract';
import type { ServiceContext } from '../context';
import { DeskFailure } from '../errors';
import type { AppLock } from '../ipc/appLock';
import type { FundingNotifier } from '../notifications/notifier';
import type { Session } from '../operators/handlers';
import { checkExternalUrl, type OpenExternal } from './externalUrl';

const APP_NAME = 'Treasury Desk';
const APP_VERSION = '0.1.0';

/** Asks the person where to save (Electron's native dialog); undefined when they cancel. */
export type ChooseSavePath = (suggestedName: string) => Promise<string | undefined>;

/** What the `app` area needs beyond the shared context. */
export interface AppDeps {
  /** Electron only. Without it (the Chromium shell) files go into `downloadsDir` under a new name. */
  readonly chooseSavePath?: ChooseSavePath;
  /** Default: ~/Downloads (created when missing). */
  readonly downloadsDir?: string;
  readonly lock?: AppLock;
  /** Who is signed in; unlocking checks their passphrase (operators/handlers.ts). */
  readonly session?: Session;
  /** OS notifications of funding changes (their settings live here, with the app's). */
  readonly notifier?: FundingNotifier;
  /** Opens explorer links in the system browser; absent: links are never opened (the renderer copies them). */
  readonly openExternal?: OpenExternal;
}

export const defaultDownloadsDir = (): string => join(homedir(), 'Downloads');

/** Creates "name.csv", else "name (2).csv", "name (3).csv", …: an existing file is never overwritten. */
const createNewFile = async (dir: string, name: string): Promise<{ path: string; file: FileHandle }> => {
  await mkdir(dir, { recursive: true });
  const extension = extname(name);
  const stem = name.slice(0, name.length - extension.length);
  for (let n = 1; n <= 1_000; n++) {
    const candidate = join(dir, n === 1 ? name : `${stem} (${n})${extension}`);
    try {
      // 'wx': created by this call or not at all (no race with another writer).
      return { path: candidate, file: await open(candidate, 'wx', 0o600) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  throw DeskFailure.precondition(`The Downloads folder already holds too many files named like ${name}.`);
};

export const cannotWrite = (where: string, error: unknown): DeskFailure =>
  DeskFailure.precondition(
    `The file could not be saved to ${where} (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
    'Check that the folder exists and that you may write to it, then export again.',
  );

/**
 * Opens the file an export is written to: the path the person picked in the native save dialog
 * (Electron; it asked before replacing a file), or a new file in the Downloads folder (the Chromium
 * shell). Undefined when the person cancelled. The caller writes and closes it.
 */
export const openExportFile = async (
  deps: AppDeps,
  suggestedName: string,
): Promise<{ path: string; file: FileHandle } | undefined> => {
  // suggestedName is already a plain, safe name (the contract sanitises it); basename once more
  // so that no future change of the schema can turn it into a path.
  const name = basename(suggestedName);
  if (deps.chooseSavePath) {
    const chosen = await deps.chooseSavePath(name);
    if (chosen === undefined) return undefined;
    try {
      return { path: chosen, file: await open(chosen, 'w', 0o600) };
    } catch (error) {
      throw cannotWrite(chosen, error);
    }
  }
  const dir = deps.downloadsDir ?? defaultDownloadsDir();
  try {
    return await createNewFile(dir, name);
  } catch (error) {
    if (error instanceof DeskFailure) throw error;
    throw cannotWrite(dir, error);
  }
};

/** Handlers of the `app` area: liveness, facts about the running app, saving exports, the lock. */
export const createAppHandlers = (ctx: ServiceContext, deps: AppDeps = {}): DeskHandlers['app'] => {
  const lockOf = (): AppLock => {
    if (!deps.lock) throw DeskFailure.precondition('This build of the app has no lock.');
    return deps.lock;
  };
  const notifierOf = (): FundingNotifier => {
    if (!deps.notifier) throw DeskFailure.precondition('This build of the app has no OS notifications.');
    return deps.notifier;
  };
  return {
    ping: async ({ text }) => ({ text, receivedAt: Date.now() }),
    info: async () => ({ name: APP_NAME, version: APP_VERSION, shell: ctx.shell, platform: process.platform }),

    saveFile: async ({ suggestedName, content }) => {
      const target = await openExportFile(deps, suggestedName);
      if (target === undefined) return { cancelled: true as const };
      const { path, file } = target;
      try {
        await file.writeFile(content, 'utf8');
      } catch (error) {
        throw cannotWrite(path, error);
      } finally {
        await file.close();
      }
      ctx.audit.record({
        action: 'app.saveFile',
        params: { name: basename(path), characters: content.length },
        outcome: 'ok',
      });
      return { path };
    },

    lock: async ({ reason }) => {
      if (deps.session) return deps.session.lock(reason);
      const lock = lockOf();
      const wasOpen = !lock.closed;
      const state = await lock.lock(reason);
      if (wasOpen) ctx.audit.record({ action: 'app.lock', params: { reason }, outcome: 'ok' });
      return state;
    },
    unlock: async ({ operator, passphrase }) => {
      // The passphrase is checked in main, always: the lock screen only collects it.
      if (!deps.session) throw DeskFailure.precondition('This build of the app has no operators.');
      return deps.session.unlock(passphrase, operator);
    },
    lockState: async () => deps.session?.lockView() ?? lockOf().view(),

    notificationSettings: async () => notifierOf().view(),
    setNotificationSettings: async (settings) => {
      const view = notifierOf().setSettings(settings);
      ctx.audit.record({ action: 'app.setNotificationSettings', params: settings, outcome: 'ok' });
      return view;
    },

    openExternal: async ({ url }) => {
      const href = checkExternalUrl(url);
      if (!deps.openExternal) return { opened: false as const, reason: 'This window cannot open a browser.' };
      const opened = await deps.openExternal(href).catch(() => false);
      return opened
        ? { opened: true as const }
        : { opened: false as const, reason: 'The system did not open a browser (no display, or it refused).' };
    },
  };
};
