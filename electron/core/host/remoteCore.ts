/**
 * The shell's side of a core running in its own process: the same `dispatch` as an in-process core,
 * plus supervision. When the core process dies, every call it was running is answered
 * OUTCOME_UNKNOWN (a movement among them was journaled before it was sent; the new core reconciles
 * it with the platform and never resends it blindly), a new core starts on the same data folder, the
 * window gets a notice saying what happened, and calls made meanwhile wait for it.
 */
import type { EventName } from '../../../shared/contract';
import { fail, type Result } from '../../../shared/ipc/result';
import type { Dispatch, SenderInfo } from '../ipc/dispatcher';
import { MemoryKeyStore, type StoredKey } from '../keychain/keyStore';
import type { OsNotification } from '../notifications/notifier';
import type { Confirm, ConfirmAnswer } from '../policies/confirm';
import type { ShowSecret } from '../policies/confirmPage';
import type { ChooseSavePath } from '../services/app';
import { checkExternalUrl, type OpenExternal } from '../services/externalUrl';
import type { CoreChannel, CoreProcessOptions, FromCore, LaunchCore } from './messages';

/** The core could not start; `busy`: another Treasury Desk holds the data folder (nothing changed). */
export class CoreStartFailed extends Error {
  override readonly name = 'CoreStartFailed';
  constructor(
    message: string,
    readonly busy: boolean,
  ) {
    super(message);
  }
}

export interface RemoteCoreOptions {
  readonly launch: LaunchCore;
  readonly options: CoreProcessOptions;
  /** Events from the core, already checked against the contract there. */
  readonly emit: (name: EventName, payload: unknown) => void;
  readonly chooseSavePath?: ChooseSavePath;
  /** Opens a link in the system browser (pass `options.openExternal: true` with it). */
  readonly openExternal?: OpenExternal;
  /** The shell's trusted confirmation window (pass `options.confirmWindow: true` with it). */
  readonly confirm?: Confirm;
  /** The shell's page for a new secret (pass `options.secretWindow: true` with it). */
  readonly showSecret?: ShowSecret;
  readonly showOsNotification?: (notification: OsNotification) => void;
  readonly log?: (line: string) => void;
  /** More restarts than this within a minute and the shell stops trying (the window says so). */
  readonly maxRestartsPerMinute?: number;
  /** How long a start may take, ms (default 60 000). */
  readonly startTimeoutMs?: number;
}

export interface RemoteCore {
  readonly dispatch: Dispatch;
  /** The current core process (undefined between a crash and the restart). */
  readonly pid: number | undefined;
  /** How many times the core was restarted after dying. */
  readonly restarts: number;
  /** Resolves once the current (or next) core is ready. */
  ready(): Promise<void>;
  /** Tests and benchmarks: kills the core process as a crash would (SIGKILL); resolves once noticed. */
  crash(): Promise<void>;
  close(): Promise<void>;
}

const CORE_STOPPED_MESSAGE =
  'The app’s core stopped while this was running. It has been restarted and checks with the platform whether it went through; nothing is sent again.';

const restartNotice = (restarts: number): string =>
  `The app’s core stopped unexpectedly and was restarted${restarts > 1 ? ` (${restarts} times so far)` : ''}. Anything in flight is being checked with the platform; nothing is sent twice. See Activity for the outcome.`;

interface Pending {
  readonly resolve: (result: Result<unknown>) => void;
}

export const startRemoteCore = async (o: RemoteCoreOptions): Promise<RemoteCore> => {
  // The memory key store of tests lives here, in the shell, so that a restarted core finds what the
  // one before it stored (the audit log's key and head among it), as it would in the OS keychain.
  const memoryKeys = o.options.keyStore === 'memory' ? new MemoryKeyStore() : undefined;
  const maxRestarts = o.maxRestartsPerMinute ?? 5;
  const startTimeoutMs = o.startTimeoutMs ?? 60_000;
  let channel: CoreChannel | undefined;
  let pid: number | undefined;
  let restarts = 0;
  const recentCrashes: number[] = [];
  let closing = false;
  let gaveUp = false;
  let nextId = 1;
  const pending = new Map<number, Pending>();
  let readyPromise: Promise<void> = Promise.resolve();
  let closedResolve: (() => void) | undefined;
  /** Resolved when the current core process's exit has been handled (crash() waits for it). */
  const exitWaiters: (() => void)[] = [];

  const onMessage = (from: CoreChannel, message: FromCore): void => {
    if (from !== channel) return; // a late message of a core already replaced
    switch (message.type) {
      case 'result': {
        const waiter = pending.get(message.id);
        pending.delete(message.id);
        waiter?.resolve(message.result);
        return;
      }
      case 'event':
        o.emit(message.name, message.payload);
        return;
      case 'chooseSavePath': {
        const choose = o.chooseSavePath;
        void (choose ? choose(message.suggestedName) : Promise.resolve(undefined)).then(
          (path) => from.send({ type: 'savePath', id: message.id, path }),
          () => from.send({ type: 'savePath', id: message.id, path: undefined }),
        );
        return;
      }
      case 'openExternal': {
        // Checked in the core already; checked again here, where the browser is opened.
        const open = o.openExternal;
        let url: string | undefined;
        try {
          url = checkExternalUrl(message.url);
        } catch {
          url = undefined;
        }
        void (open && url !== undefined ? open(url) : Promise.resolve(false)).then(
          (opened) => from.send({ type: 'externalOpened', id: message.id, opened }),
          () => from.send({ type: 'externalOpened', id: message.id, opened: false }),
        );
        return;
      }
      case 'confirm': {
        const confirm = o.confirm;
        void (confirm ? confirm(message.view) : Promise.resolve<ConfirmAnswer>({ accepted: false })).then(
          (answer) =>
            from.send({
              type: 'confirmAnswer',
              id: message.id,
              accepted: answer.accepted,
              ...(answer.typedAmount !== undefined ? { typedAmount: answer.typedAmount } : {}),
            }),
          () => from.send({ type: 'confirmAnswer', id: message.id, accepted: false }),
        );
        return;
      }
      case 'keyStore': {
        const store = memoryKeys;
        const answer = (ok: boolean, value?: StoredKey | boolean, error?: string) =>
          from.send({
            type: 'keyStoreAnswer',
            id: message.id,
            ok,
            ...(value !== undefined ? { value } : {}),
            ...(error ? { error } : {}),
          });
        if (store === undefined) {
          answer(false, undefined, 'This shell holds no key store (the core uses the OS keychain).');
          return;
        }
        const run =
          message.op === 'get'
            ? store.get(message.entry)
            : message.op === 'delete'
              ? store.delete(message.entry)
              : message.value
                ? store.set(message.entry, message.value).then(() => undefined)
                : Promise.reject(new Error('nothing to store'));
        void run.then(
          (value) => answer(true, value),
          (error: unknown) => answer(false, undefined, String(error)),
        );
        return;
      }
      case 'showSecret': {
        const show = o.showSecret;
        void (show ? show(message.view) : Promise.resolve({ shown: false })).then(
          (answer) => from.send({ type: 'secretShown', id: message.id, shown: answer.shown }),
          () => from.send({ type: 'secretShown', id: message.id, shown: false }),
        );
        return;
      }
      case 'notify':
        o.showOsNotification?.(message.notification);
        return;
      case 'log':
        o.log?.(message.line);
        return;
      case 'error':
        o.log?.(`core: ${message.operation} failed: ${message.message}`);
        return;
      case 'closed':
        closedResolve?.();
        return;
      default:
        return; // ready / startFailed are handled by launchOnce
    }
  };

  /** Starts one core process and waits until it is ready. */
  const launchOnce = (): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const child = o.launch();
      channel = child;
      let settled = false;
      const timer = setTimeout(() => {
        if (settled) return;
        settled = true;
        child.kill();
        reject(new CoreStartFailed(`The app’s core did not start within ${startTimeoutMs / 1000} s.`, false));
      }, startTimeoutMs);
      child.onMessage((message) => {
        if (!settled && message.type === 'ready') {
          settled = true;
          clearTimeout(timer);
          pid = message.pid;
          resolve();
          return;
        }
        if (!settled && message.type === 'startFailed') {
          settled = true;
          clearTimeout(timer);
          if (child === channel) channel = undefined;
          reject(new CoreStartFailed(message.message, message.busy));
          return;
        }
        onMessage(child, message);
      });
      child.onExit((code, signal) => {
        if (!settled) {
          // A start that fails is the starter's to handle (the first start throws, a restart retries).
          settled = true;
          clearTimeout(timer);
          if (child === channel) channel = undefined;
          reject(new CoreStartFailed(`The app’s core exited while starting (${signal ?? `code ${code}`}).`, false));
          return;
        }
        if (child === channel) onCoreExit(code, signal);
      });
      child.send({ type: 'start', options: o.options });
    });

  const failPending = (): void => {
    for (const [id, waiter] of pending) {
      pending.delete(id);
      waiter.resolve(
        fail({ code: 'OUTCOME_UNKNOWN', message: CORE_STOPPED_MESSAGE, advice: 'See Activity for the outcome.' }),
      );
    }
  };

  const onCoreExit = (code: number | null, signal: string | null): void => {
    channel = undefined;
    pid = undefined;
    failPending();
    closedResolve?.();
    for (const waiter of exitWaiters.splice(0)) waiter();
    if (closing) return;
    o.log?.(`core process ended unexpectedly (${signal ?? `code ${code}`}); restarting it`);
    const now = Date.now();
    recentCrashes.push(now);
    while (recentCrashes.length > 0 && recentCrashes[0]! < now - 60_000) recentCrashes.shift();
    if (recentCrashes.length > maxRestarts) {
      gaveUp = true;
      o.emit('app.notice', {
        level: 'error',
        message: `The app’s core keeps stopping (${recentCrashes.length} times in a minute), so it was not restarted again. Close and reopen Treasury Desk; anything in flight is checked when it starts.`,
      });
      readyPromise = Promise.reject(new CoreStartFailed('The core was not restarted.', false));
      readyPromise.catch(() => {});
      return;
    }
    restarts += 1;
    readyPromise = (async () => {
      // A core that dies while starting (e.g. the data folder is still being released) gets a few tries.
      for (let attempt = 0; ; attempt++) {
        try {
          await launchOnce();
          o.emit('app.notice', { level: 'warning', message: restartNotice(restarts) });
          return;
        } catch (error) {
          if (closing || attempt >= 4) throw error;
          await new Promise((r) => setTimeout(r, 250 * 2 ** attempt));
        }
      }
    })();
    readyPromise.catch((error: unknown) => {
      gaveUp = true;
      o.emit('app.notice', {
        level: 'error',
        message: `The app’s core could not be restarted: ${(error as Error).message} Close and reopen Treasury Desk.`,
      });
    });
  };

  readyPromise = launchOnce();
  await readyPromise;

  const dispatch: Dispatch = async (operation: string, payload: unknown, sender: SenderInfo) => {
    if (closing) return fail({ code: 'INTERNAL', message: 'Treasury Desk is closing.' });
    try {
      await readyPromise;
    } catch {
      return fail({ code: 'INTERNAL', message: 'The app’s core is not running. Close and reopen Treasury Desk.' });
    }
    const target = channel;
    if (target === undefined || gaveUp) {
      return fail({ code: 'INTERNAL', message: 'The app’s core is not running. Close and reopen Treasury Desk.' });
    }
    const id = nextId++;
    return new Promise<Result<unknown>>((resolve) => {
      pending.set(id, { resolve });
      target.send({ type: 'call', id, operation, payload, sender });
    });
  };

  return {
    dispatch,
    get pid() {
      return pid;
    },
    get restarts() {
      return restarts;
    },
    ready: () => readyPromise,
    crash: () => {
      const target = channel;
      if (target === undefined) return Promise.resolve();
      const noticed = new Promise<void>((resolve) => exitWaiters.push(resolve));
      target.kill();
      return noticed;
    },
    close: async () => {
      if (closing) return;
      closing = true;
      const target = channel;
      if (target === undefined) return;
      // The core finishes what it is doing, closes its journal and releases the data folder.
      await new Promise<void>((resolve) => {
        closedResolve = resolve;
        const timer = setTimeout(() => {
          target.kill();
          resolve();
        }, 15_000);
        timer.unref?.();
        target.send({ type: 'close' });
      });
      failPending();
    },
  };
};
