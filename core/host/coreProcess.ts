/**
 * The core's own process. A shell starts this file (Electron: utilityProcess.fork; the Chromium
 * shell and tests: child_process.fork) and sends `start`; from then on the window's calls arrive on
 * one request/response channel (shared/ipc/channel.ts) and the core's questions to the shell (where
 * to save, open a link, confirm, notify) leave on the same channel as calls of the shell contract
 * (shared/contract/shell.ts). The window's process therefore never runs a journal write, a
 * signature, a history sync or the market feed on its own event loop, and a core that dies can be
 * restarted without the window noticing more than a notice (remoteCore.ts).
 *
 * Under Electron each window also gets a port of its own (`window` message, a MessagePort from main):
 * its calls and the events for it then skip main altogether.
 */

import type { shellContract } from '../../shared/contract/shell';
import {
  ChannelClient,
  type ChannelMessage,
  ChannelPort,
  ChannelServer,
  isChannelMessage,
  type Serve,
} from '../../shared/ipc/channel';
import type { InputOf, OutputOf } from '../../shared/ipc/define';
import { fail, type Result } from '../../shared/ipc/result';
import { type Core, type CoreOptions, createCore } from '../core';
import { createSenderCheck, type SenderInfo } from '../ipc/dispatcher';
import { createEmitter } from '../ipc/events';
import { DataDirBusy } from '../journal/dataDirLock';
import { type KeyStore, MEMORY_BACKEND } from '../keychain/keyStore';
import { CONFIRM_TIMEOUT_MS } from '../policies/confirm';
import type { SandboxAddress, SandboxSource } from '../profiles/manager';
import type { CoreProcessOptions, FromCore, ShellOperation, ToCore, WindowPort } from './messages';
import { type PageLanes, startPageLanes } from './pageLane';
import { nodeTimers } from './timers';

export type { WindowPort } from './messages';

export interface ParentPort {
  post(message: FromCore | ChannelMessage): void;
  /** `ports`: MessagePorts transferred with the message (Electron's `window` message). */
  onMessage(listener: (message: ToCore | ChannelMessage, ports: readonly WindowPort[]) => void): void;
  /** Called when the parent goes away (Node's IPC channel closes). */
  onGone(listener: () => void): void;
}

/** Electron's utility process has `process.parentPort`; a Node child has `process.send`. */
const parentPort = (): ParentPort => {
  const electronPort = (
    process as unknown as {
      parentPort?: {
        postMessage(m: unknown): void;
        on(e: 'message', l: (ev: { data: unknown; ports?: WindowPort[] }) => void): void;
      };
    }
  ).parentPort;
  if (electronPort) {
    return {
      post: (message) => electronPort.postMessage(message),
      onMessage: (listener) =>
        electronPort.on('message', (event) => listener(event.data as ToCore | ChannelMessage, event.ports ?? [])),
      onGone: () => {}, // Electron ends its utility processes with the app.
    };
  }
  if (typeof process.send !== 'function') throw new Error('coreProcess must be started with an IPC channel');
  return {
    post: (message) => {
      if (process.connected) process.send?.(message);
    },
    onMessage: (listener) => process.on('message', (message) => listener(message as ToCore | ChannelMessage, [])),
    onGone: (listener) => process.once('disconnect', listener),
  };
};

/** How long the core waits for the shell to answer each of its calls before taking it as "no". */
const SHELL_TIMEOUTS_MS: Record<ShellOperation, number> = {
  // The person picks a file; long, but not for ever (a dialog left open is then a cancel).
  'shell.chooseSavePath': 30 * 60_000,
  'shell.openExternal': 30_000,
  // requireConfirmation waits CONFIRM_TIMEOUT_MS; the call outlives it a little so the core's own timer decides.
  'shell.confirm': CONFIRM_TIMEOUT_MS + 30_000,
  'shell.notify': 30_000,
  // The person reads and copies the secret, then closes the page.
  'shell.showSecret': 30 * 60_000,
  'shell.keyStore': 30_000,
};

type ShellOp<N extends ShellOperation> = ShellContract['shell'][N extends `shell.${infer O}` ? O : never];
type ShellContract = typeof shellContract;

/** The core's options that call the shell, for the operations the shell offers. */
const shellOptions = (
  offers: readonly ShellOperation[],
  osNotificationsUnavailable: string | undefined,
  client: ChannelClient,
): Pick<CoreOptions, 'chooseSavePath' | 'openExternal' | 'confirm' | 'showSecret' | 'osNotifications'> => {
  const offered = new Set(offers);
  /** The shell's answer, or undefined when there is none (a failure, no answer in time). */
  const ask = async <N extends ShellOperation>(
    operation: N,
    input: InputOf<ShellOp<N>>,
  ): Promise<OutputOf<ShellOp<N>> | undefined> => {
    const result = (await client.call(operation, input, { timeoutMs: SHELL_TIMEOUTS_MS[operation] })) as Result<
      OutputOf<ShellOp<N>>
    >;
    return result.ok ? result.value : undefined;
  };
  return {
    ...(offered.has('shell.chooseSavePath')
      ? { chooseSavePath: async (suggestedName) => (await ask('shell.chooseSavePath', { suggestedName }))?.path }
      : {}),
    ...(offered.has('shell.openExternal')
      ? { openExternal: async (url) => (await ask('shell.openExternal', { url }))?.opened === true }
      : {}),
    // No answer (the shell's window failed, the call timed out) is a cancel: nothing is sent.
    ...(offered.has('shell.confirm')
      ? { confirm: async (view) => (await ask('shell.confirm', { view })) ?? { accepted: false } }
      : {}),
    // No answer: the secret was not on screen (the app then says so and keeps nothing).
    ...(offered.has('shell.showSecret')
      ? { showSecret: async (view) => (await ask('shell.showSecret', { view })) ?? { shown: false } }
      : {}),
    ...(offered.has('shell.notify') || osNotificationsUnavailable !== undefined
      ? {
          osNotifications: {
            showOsNotification: (notification) => void ask('shell.notify', { notification }),
            ...(osNotificationsUnavailable !== undefined ? { unavailableReason: osNotificationsUnavailable } : {}),
          },
        }
      : {}),
  };
};

/**
 * Events that follow a batch within this long leave together at its end (shared/ipc/channel.ts):
 * half a frame, so a burst (a history sync's pages, a stream's rush) costs the window a message per
 * half frame at most, and no event waits longer than the frame it would be drawn in anyway.
 */
const EVENT_BURST_WINDOW_MS = 8;

/** The test key store the shell holds (`keyStore: 'memory'`), as the core's KeyStore. */
const shellKeyStore = (client: ChannelClient): KeyStore => {
  const ask = async (input: InputOf<ShellOp<'shell.keyStore'>>) => {
    const result = (await client.call('shell.keyStore', input, {
      timeoutMs: SHELL_TIMEOUTS_MS['shell.keyStore'],
    })) as Result<OutputOf<ShellOp<'shell.keyStore'>>>;
    if (!result.ok) throw new Error(`the shell's key store failed: ${result.error.message}`);
    return result.value;
  };
  return {
    backend: MEMORY_BACKEND,
    get: async (entry) => (await ask({ op: 'get', entry })).value,
    set: async (entry, value) => {
      await ask({ op: 'set', entry, value: { ...value } });
    },
    delete: async (entry) => (await ask({ op: 'delete', entry })).removed === true,
  };
};

const CORE_CLOSED = {
  code: 'INTERNAL' as const,
  message: 'The app’s core is closing.',
};

export interface CoreProcessHost {
  /** Ends the process (default process.exit); tests running a core in-process pass their own. */
  readonly exit?: (code: number) => void;
}

/** A core process running in this process (tests): `abandon` drops it as a crash would, then closes it. */
export interface RunningCore {
  abandon(): Promise<void>;
}

export const runCoreProcess = (port: ParentPort = parentPort(), host: CoreProcessHost = {}): RunningCore => {
  const exit = host.exit ?? ((code: number) => process.exit(code));
  let core: Core | undefined;
  let closing: Promise<void> | undefined;
  const timers = nodeTimers();
  const toShell = new ChannelPort((message) => port.post(message), timers, EVENT_BURST_WINDOW_MS);
  const shell = new ChannelClient(toShell, {
    timers,
    defaultTimeoutMs: 60_000,
    timedOut: (operation, ms) => ({
      code: 'INTERNAL',
      message: `The shell did not answer ${operation} within ${ms} ms.`,
    }),
  });
  /** Windows with a port of their own (Electron); events go to them instead of the shell. */
  const windows = new Map<number, { readonly port: ChannelPort; readonly server: ChannelServer }>();
  let directWindows = false;
  /** The Chromium page's direct channels (pageLanePort), once listening; keys wait for it. */
  let pageLanes: Promise<PageLanes | undefined> = Promise.resolve(undefined);

  const serveAs =
    (sender: (meta: unknown) => SenderInfo): Serve =>
    (operation, input, { signal, meta }) => {
      const target = core;
      if (target === undefined) return Promise.resolve(fail(CORE_CLOSED));
      return target.dispatch(operation, input, sender(meta), { signal });
    };

  // The shell's relay (the Chromium shell, tests): it names the frame that called, as it saw it.
  const fromShell = new ChannelServer(
    toShell,
    serveAs((meta) => {
      const m = (typeof meta === 'object' && meta !== null ? meta : {}) as Partial<SenderInfo>;
      return { url: typeof m.url === 'string' ? m.url : '', isMainFrame: m.isMainFrame === true };
    }),
    timers,
  );

  const emitEvent = (name: string, payload: unknown): void => {
    // Electron's windows have ports of their own from the start; the Chromium page's direct channel
    // opens a moment after the page loads (and again after a restart): until then, the shell's relay.
    if (!directWindows && windows.size === 0) {
      toShell.emit(name, payload);
      return;
    }
    for (const window of windows.values()) window.port.emit(name, payload);
  };

  const attachWindow = (windowId: number, sender: SenderInfo, raw: WindowPort): void => {
    windows.get(windowId)?.server.close();
    const channelPort = new ChannelPort((message) => raw.postMessage(message), timers, EVENT_BURST_WINDOW_MS);
    // The sender is the one main checked when it handed the window this port, whatever a call says.
    const server = new ChannelServer(
      channelPort,
      serveAs(() => sender),
      timers,
    );
    windows.set(windowId, { port: channelPort, server });
    raw.on('message', (event) => {
      if (isChannelMessage(event.data)) server.receive(event.data);
    });
    raw.on('close', () => {
      if (windows.get(windowId)?.server !== server) return;
      server.close();
      windows.delete(windowId);
    });
    raw.start();
  };

  const close = (code: number): Promise<void> => {
    closing ??= (async () => {
      try {
        await core?.close();
      } finally {
        fromShell.close();
        for (const window of windows.values()) window.server.close();
        await pageLanes.then((lanes) => lanes?.stop());
        shell.close(CORE_CLOSED);
        toShell.flush();
        port.post({ type: 'closed' });
        // Give the message a turn to leave, then go.
        setTimeout(() => exit(code), 20);
      }
    })();
    return closing;
  };

  /** The announced sandbox's address (the `sandbox` message), which the core builds without. */
  let sandboxAnnounced: ((message: Extract<ToCore, { type: 'sandbox' }>) => void) | undefined;
  const announcedSandbox = (): SandboxSource => {
    const address = new Promise<SandboxAddress>((resolve, reject) => {
      sandboxAnnounced = (message) =>
        'address' in message
          ? resolve(message.address)
          : reject(new Error(`The built-in sandbox did not start: ${message.failed}`));
    });
    // Only the sandbox profile's connection reads it (and reports a failure there).
    address.catch(() => {});
    return { mode: 'external-later', address };
  };

  const start = async (options: CoreProcessOptions): Promise<void> => {
    const {
      keyStore,
      log,
      shellOffers,
      osNotificationsUnavailable,
      directWindows: direct,
      pageLanePort,
      sandbox,
      ...rest
    } = options;
    directWindows = direct === true;
    try {
      core = await createCore({
        ...rest,
        ...(sandbox === undefined ? {} : { sandbox: sandbox.mode === 'announced' ? announcedSandbox() : sandbox }),
        emit: createEmitter(emitEvent, (name, error) =>
          port.post({ type: 'error', operation: `event ${name}`, message: String(error) }),
        ),
        logError: (operation, error) =>
          port.post({ type: 'error', operation, message: error instanceof Error ? error.message : String(error) }),
        ...(log ? { log: (line: string) => port.post({ type: 'log', line }) } : {}),
        ...(keyStore === 'memory' ? { keyStore: shellKeyStore(shell) } : {}),
        ...shellOptions(shellOffers ?? [], osNotificationsUnavailable, shell),
      });
      if (pageLanePort !== undefined) {
        // The page's calls, and the events for it, then skip the shell's process.
        const isTrusted = createSenderCheck(rest.trustedOrigins);
        pageLanes = startPageLanes({
          port: pageLanePort,
          isTrustedOrigin: (origin) => isTrusted({ url: `${origin}/`, isMainFrame: true }),
          attach: (windowId, sender, lane) => {
            attachWindow(windowId, sender, lane);
            // Events take the lane from here on. Those emitted before went to the shell: they leave
            // now, and behind them the word that the rest come on the lane, which the page waits
            // for before it shows the lane's (the two paths are not ordered with each other).
            toShell.flush();
            port.post({ type: 'eventsOnLane', windowId });
          },
          scheduler: core.scheduler,
        });
        if ((await pageLanes) === undefined) {
          port.post({ type: 'log', line: `direct channel: port ${pageLanePort} unavailable, calls take the shell` });
        }
      }
      port.post({ type: 'ready', pid: process.pid });
    } catch (error) {
      port.post({
        type: 'startFailed',
        message: error instanceof Error ? error.message : String(error),
        busy: error instanceof DataDirBusy,
      });
      setTimeout(() => exit(error instanceof DataDirBusy ? 3 : 1), 20);
    }
  };

  port.onMessage((message, ports) => {
    if (isChannelMessage(message)) {
      // The shell's answers to the core's calls, or the window's calls relayed by the shell.
      if (!shell.receive(message)) fromShell.receive(message);
      return;
    }
    switch (message.type) {
      case 'start':
        void start(message.options);
        return;
      case 'sandbox':
        sandboxAnnounced?.(message);
        return;
      case 'window': {
        const raw = ports[0];
        if (raw !== undefined) attachWindow(message.windowId, message.sender, raw);
        return;
      }
      case 'laneKey': {
        const { key, proof, windowId, sender } = message;
        void pageLanes.then((lanes) => lanes?.expect({ key, proof }, windowId, sender));
        return;
      }
      case 'laneClose': {
        const { windowId } = message;
        void pageLanes.then((lanes) => lanes?.close(windowId));
        return;
      }
      case 'close':
        void close(0);
        return;
    }
  });
  // A shell that dies must not leave a core holding the data folder's lock.
  port.onGone(() => void close(0));
  return {
    abandon: async () => {
      fromShell.close();
      for (const window of windows.values()) window.server.close();
      await pageLanes.then((lanes) => lanes?.stop());
      await core?.close();
    },
  };
};

// Started as a process (not imported by a test): serve the parent.
const isEntry = (process as unknown as { parentPort?: unknown }).parentPort !== undefined || process.send !== undefined;
if (isEntry && process.env.TREASURY_DESK_CORE_PROCESS === '1') runCoreProcess();
