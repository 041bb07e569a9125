/**
 * The shell's side of a core running in its own process: the same `dispatch` as an in-process core,
 * plus supervision. Calls, the core's calls back into the shell and events share one channel
 * (shared/ipc/channel.ts: ids, cancellation, a timeout per call); the shell serves the shell
 * contract (shared/contract/shell.ts) with the handlers it was given, validated like any call.
 *
 * When the core process dies, every call it was running is answered OUTCOME_UNKNOWN (a movement
 * among them was journaled before it was sent; the new core reconciles it with the platform and
 * never resends it blindly), a new core starts on the same data folder, the window gets a notice
 * saying what happened, and calls made meanwhile wait for it.
 */
import type { EventName } from '../../shared/contract';
import { type ShellContract, shellContract } from '../../shared/contract/shell';
import {
  ChannelClient,
  type ChannelMessage,
  ChannelPort,
  ChannelServer,
  type EventEntry,
  isChannelMessage,
} from '../../shared/ipc/channel';
import type { Handlers } from '../../shared/ipc/define';
import { CORE_NOT_RUNNING, CORE_STOPPED, coreDidNotAnswer, DESK_CALL_TIMEOUT_MS } from '../../shared/ipc/deskCalls';
import { fail, type IpcError, type Result } from '../../shared/ipc/result';
import { createContractServer, type DispatchOptions, type SenderInfo } from '../ipc/dispatcher';
import { MemoryKeyStore } from '../keychain/keyStore';
import type { SandboxAddress } from '../profiles/manager';
import { BACKGROUND, type Scheduler, systemScheduler, type Timer } from '../scheduler';
import type { CoreChannel, CoreProcessOptions, FromCore, LaneKey, LaunchCore, ShellOperation } from './messages';
import { nodeTimers } from './timers';

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

/** What a shell does for the core: one handler per shell operation it offers. */
export type ShellHandlers = Partial<Handlers<ShellContract>['shell']>;

export interface RemoteCoreOptions {
  readonly launch: LaunchCore;
  /**
   * The core's options (which shell operations are offered is added from `shell`). A promise lets
   * the process start (Node, the core's code) while what it needs is still being prepared — the
   * sandbox's address comes from the sandbox's own process, started at the same time.
   */
  readonly options: Omit<CoreProcessOptions, 'shellOffers'> | Promise<Omit<CoreProcessOptions, 'shellOffers'>>;
  /**
   * The built-in sandbox starting in its own process, when the shell starts one: the core starts at
   * once (its options say `sandbox: announced`) and is sent the address when this resolves (after
   * every restart, too). Only its connection to the sandbox waits; the journal, the keychain and a
   * sign-in do not.
   */
  readonly sandboxAddress?: Promise<SandboxAddress>;
  /** Events from the core, already checked against the contract there, in the batches they came in. */
  readonly emit: (events: readonly EventEntry[]) => void;
  /**
   * Chromium shell: the direct channel of document `windowId` (offerLane) is open, and the core's
   * events for it go there from now on; every event before this one came through `emit`.
   */
  readonly eventsOnLane?: (windowId: number) => void;
  /** The shell's side of the shell contract; an operation without a handler is not offered. */
  readonly shell?: ShellHandlers;
  readonly log?: (line: string) => void;
  /** After every start of a core process (the first and each restart), once it is ready. */
  readonly onStart?: () => void;
  /** When a running core process ends unexpectedly (before it is restarted). */
  readonly onStop?: () => void;
  /** More restarts than this within a minute and the shell stops trying (the window says so). */
  readonly maxRestartsPerMinute?: number;
  /** How long a start may take, ms (default 60 000). */
  readonly startTimeoutMs?: number;
  /**
   * The supervisor's time: the pause between restart attempts, the crash count's minute, the start
   * and close timeouts. Default: the system's clocks; tests pass a manual one.
   */
  readonly scheduler?: Scheduler;
}

/** Dispatch as the shell offers it: with a timeout per call on top of cancellation. */
export interface RemoteDispatchOptions extends DispatchOptions {
  /** How long to wait for the core's answer (default DESK_CALL_TIMEOUT_MS); then OUTCOME_UNKNOWN. */
  readonly timeoutMs?: number;
}

export interface RemoteCore {
  readonly dispatch: (
    operation: string,
    payload: unknown,
    sender: SenderInfo,
    options?: RemoteDispatchOptions,
  ) => Promise<Result<unknown>>;
  /** The same call answered as the Result's JSON text: a relay hands it to the page without parsing it. */
  readonly dispatchText: (
    operation: string,
    payload: unknown,
    sender: SenderInfo,
    options?: RemoteDispatchOptions,
  ) => Promise<string>;
  /**
   * Electron: hands the current core one end of a window's MessagePort pair; that window's calls
   * and events then skip this process. `sender` is what the shell checked of the window. False when
   * no core is running (call again from `onStart`).
   */
  connectWindow(windowId: number, sender: SenderInfo, port: unknown): boolean;
  /**
   * Chromium shell: tells the core (the current one, or the next once it is ready) a key the shell
   * is about to hand to one document of ours, for the page's direct channel (core/host/pageLane.ts).
   * False when there is no core to tell: the key is not handed out.
   */
  offerLane(windowId: number, sender: SenderInfo, lane: LaneKey): Promise<boolean>;
  /** That document is gone: the core closes its direct channel. */
  closeLane(windowId: number): void;
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

const restartNotice = (restarts: number): string =>
  `The app’s core stopped unexpectedly and was restarted${restarts > 1 ? ` (${restarts} times so far)` : ''}. Anything in flight is being checked with the platform; nothing is sent twice. See Activity for the outcome.`;

/** The pause before restart attempt `attempt` + 1 after attempt `attempt` (0-based) failed: 250 ms, doubling. */
export const restartPauseMs = (attempt: number): number => 250 * 2 ** attempt;
/** Start attempts after a crash before the shell gives up (the window says so). */
const RESTART_ATTEMPTS = 5;

/** One running core process and the channel to it. */
interface Session {
  readonly child: CoreChannel;
  readonly calls: ChannelClient;
  readonly served: ChannelServer;
}

export const startRemoteCore = async (o: RemoteCoreOptions): Promise<RemoteCore> => {
  const maxRestarts = o.maxRestartsPerMinute ?? 5;
  const startTimeoutMs = o.startTimeoutMs ?? 60_000;
  const timers = nodeTimers();
  const scheduler = o.scheduler ?? systemScheduler();
  // A sandbox that fails is reported to the core when it starts; never an unhandled rejection here.
  o.sandboxAddress?.catch(() => {});
  // The memory key store of tests lives here, in the shell, so that a restarted core finds what the
  // one before it stored (the audit log's key and head among it), as it would in the OS keychain.
  // Offered only to a core started with `keyStore: 'memory'` (offersFor).
  const memoryKeys = new MemoryKeyStore();
  const shellHandlers: ShellHandlers = {
    ...o.shell,
    keyStore: async (request) => {
      if (request.op === 'get') {
        const value = await memoryKeys.get(request.entry);
        return value === undefined ? {} : { value };
      }
      if (request.op === 'delete') return { removed: await memoryKeys.delete(request.entry) };
      await memoryKeys.set(request.entry, request.value);
      return {};
    },
  };
  const serveShell = createContractServer(
    shellContract,
    { shell: shellHandlers },
    { logError: (operation, error) => o.log?.(`shell: ${operation} failed: ${String(error)}`) },
  );
  /** The shell operations a core started with these options may call. */
  const offersFor = (options: Omit<CoreProcessOptions, 'shellOffers'>): ShellOperation[] =>
    (Object.keys(shellHandlers) as (keyof ShellHandlers)[])
      .filter((name) => shellHandlers[name] !== undefined && (name !== 'keyStore' || options.keyStore === 'memory'))
      .map((name): ShellOperation => `shell.${name}`);
  let session: Session | undefined;
  let pid: number | undefined;
  let restarts = 0;
  const recentCrashes: number[] = [];
  let closing = false;
  let gaveUp = false;
  let readyPromise: Promise<void> = Promise.resolve();
  let closedResolve: (() => void) | undefined;
  /** Resolved when the current core process's exit has been handled (crash() waits for it). */
  const exitWaiters: (() => void)[] = [];
  const notice = (level: 'warning' | 'error', message: string) =>
    o.emit([['app.notice' satisfies EventName, { level, message }]]);

  const sessionFor = (child: CoreChannel): Session => {
    const port = new ChannelPort((message) => child.send(message), timers);
    return {
      child,
      calls: new ChannelClient(port, { timers, defaultTimeoutMs: DESK_CALL_TIMEOUT_MS, timedOut: coreDidNotAnswer }),
      served: new ChannelServer(
        port,
        (operation, input, { signal }) => serveShell(operation, input, { signal }),
        timers,
      ),
    };
  };

  const onMessage = (from: Session, message: FromCore | ChannelMessage): void => {
    if (from !== session) return; // a late message of a core already replaced
    if (isChannelMessage(message)) {
      if (message.k === 'events') o.emit(message.events);
      else if (!from.calls.receive(message)) from.served.receive(message);
      return;
    }
    switch (message.type) {
      case 'log':
        o.log?.(message.line);
        return;
      case 'error':
        o.log?.(`core: ${message.operation} failed: ${message.message}`);
        return;
      case 'closed':
        closedResolve?.();
        return;
      case 'eventsOnLane':
        o.eventsOnLane?.(message.windowId);
        return;
      default:
        return; // ready / startFailed are handled by launchOnce
    }
  };

  /** Starts one core process and waits until it is ready. */
  const launchOnce = (): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const child = o.launch();
      const started = sessionFor(child);
      session = started;
      let settled = false;
      const timer = scheduler.setTimeout(() => {
        if (settled) return;
        settled = true;
        child.kill();
        reject(new CoreStartFailed(`The app’s core did not start within ${startTimeoutMs / 1000} s.`, false));
      }, startTimeoutMs);
      child.onMessage((message) => {
        if (!settled && !isChannelMessage(message) && message.type === 'ready') {
          settled = true;
          timer.cancel();
          pid = message.pid;
          resolve();
          return;
        }
        if (!settled && !isChannelMessage(message) && message.type === 'startFailed') {
          settled = true;
          timer.cancel();
          if (started === session) session = undefined;
          reject(new CoreStartFailed(message.message, message.busy));
          return;
        }
        onMessage(started, message);
      });
      child.onExit((code, signal) => {
        if (!settled) {
          // A start that fails is the starter's to handle (the first start throws, a restart retries).
          settled = true;
          timer.cancel();
          if (started === session) session = undefined;
          reject(new CoreStartFailed(`The app’s core exited while starting (${signal ?? `code ${code}`}).`, false));
          return;
        }
        if (started === session) onCoreExit(started, code, signal);
      });
      Promise.resolve(o.options).then(
        (started) => {
          if (settled) return;
          child.send({ type: 'start', options: { ...started, shellOffers: offersFor(started) } });
          o.sandboxAddress?.then(
            (address) => child.send({ type: 'sandbox', address }),
            (error: unknown) => child.send({ type: 'sandbox', failed: (error as Error).message }),
          );
        },
        (error: unknown) => {
          if (settled) return;
          settled = true;
          timer.cancel();
          if (started === session) session = undefined;
          child.kill();
          reject(error);
        },
      );
    });

  const onCoreExit = (ended: Session, code: number | null, signal: string | null): void => {
    session = undefined;
    pid = undefined;
    ended.calls.close(CORE_STOPPED);
    ended.served.close();
    closedResolve?.();
    for (const waiter of exitWaiters.splice(0)) waiter();
    if (closing) return;
    o.log?.(`core process ended unexpectedly (${signal ?? `code ${code}`}); restarting it`);
    o.onStop?.();
    const now = scheduler.now();
    recentCrashes.push(now);
    while (recentCrashes.length > 0 && recentCrashes[0]! < now - 60_000) recentCrashes.shift();
    if (recentCrashes.length > maxRestarts) {
      gaveUp = true;
      notice(
        'error',
        `The app’s core keeps stopping (${recentCrashes.length} times in a minute), so it was not restarted again. Close and reopen Treasury Desk; anything in flight is checked when it starts.`,
      );
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
          notice('warning', restartNotice(restarts));
          o.onStart?.();
          return;
        } catch (error) {
          if (closing || attempt >= RESTART_ATTEMPTS - 1) throw error;
          await scheduler.sleep(restartPauseMs(attempt));
        }
      }
    })();
    readyPromise.catch((error: unknown) => {
      gaveUp = true;
      notice(
        'error',
        `The app’s core could not be restarted: ${(error as Error).message} Close and reopen Treasury Desk.`,
      );
    });
  };

  readyPromise = launchOnce();
  await readyPromise;
  o.onStart?.();

  /** The running core's channel once it is ready, or why there is none. */
  const current = async (): Promise<Session | IpcError> => {
    if (closing) return { code: 'INTERNAL', message: 'Treasury Desk is closing.' };
    try {
      await readyPromise;
    } catch {
      return CORE_NOT_RUNNING;
    }
    return session === undefined || gaveUp ? CORE_NOT_RUNNING : session;
  };
  const callOptions = (sender: SenderInfo, options: RemoteDispatchOptions) => ({
    meta: sender,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  });

  return {
    dispatch: async (operation, payload, sender, options = {}) => {
      const target = await current();
      if (!('calls' in target)) return fail(target);
      return target.calls.call(operation, payload, callOptions(sender, options));
    },
    dispatchText: async (operation, payload, sender, options = {}) => {
      const target = await current();
      if (!('calls' in target)) return JSON.stringify(fail(target));
      return target.calls.callText(operation, payload, callOptions(sender, options));
    },
    connectWindow: (windowId, sender, port) => {
      if (session === undefined || closing) return false;
      session.child.send({ type: 'window', windowId, sender }, [port]);
      return true;
    },
    offerLane: async (windowId, sender, lane) => {
      const target = await current();
      if (!('child' in target)) return false;
      target.child.send({ type: 'laneKey', windowId, sender, ...lane });
      return true;
    },
    closeLane: (windowId) => {
      if (session !== undefined && !closing) session.child.send({ type: 'laneClose', windowId });
    },
    get pid() {
      return pid;
    },
    get restarts() {
      return restarts;
    },
    ready: () => readyPromise,
    crash: () => {
      const target = session;
      if (target === undefined) return Promise.resolve();
      const noticed = new Promise<void>((resolve) => exitWaiters.push(resolve));
      target.child.kill();
      return noticed;
    },
    close: async () => {
      if (closing) return;
      closing = true;
      const target = session;
      if (target === undefined) return;
      // The core finishes what it is doing, closes its journal and releases the data folder.
      let timeout: Timer | undefined;
      await new Promise<void>((resolve) => {
        closedResolve = resolve;
        timeout = scheduler.setTimeout(
          () => {
            target.child.kill();
            resolve();
          },
          15_000,
          BACKGROUND,
        );
        target.child.send({ type: 'close' });
      });
      timeout?.cancel();
      target.calls.close(CORE_STOPPED);
      target.served.close();
    },
  };
};
