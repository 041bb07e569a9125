/**
 * What travels between a shell (the process that serves the window) and the core in its own
 * process (core/host/coreProcess.ts): the process's life (start, ready, close, logs) as a
 * few messages of its own, and everything else — the window's calls into the core, the core's
 * calls into the shell, events — as one request/response channel (shared/ipc/channel.ts) over
 * the same port. All plain, structured-cloneable data: Electron's utilityProcess and Node's child
 * process channel both carry it as is.
 */

import type { ShellContract } from '../../shared/contract/shell';
import type { ChannelMessage } from '../../shared/ipc/channel';
import type { OperationName } from '../../shared/ipc/define';
import type { CoreOptions } from '../core';
import type { SenderInfo } from '../ipc/dispatcher';
import type { SandboxAddress, SandboxSource } from '../profiles/manager';

/** One of the shell contract's operations ("shell.confirm", …). */
export type ShellOperation = OperationName<ShellContract>;

/** The core's options that can cross a process boundary; the callbacks become shell operations. */
export type CoreProcessOptions = Omit<
  CoreOptions,
  | 'emit'
  | 'logError'
  | 'log'
  | 'keyStore'
  | 'chooseSavePath'
  | 'osNotifications'
  | 'confirm'
  | 'operators'
  | 'openExternal'
  | 'showSecret'
  | 'sandbox'
> & {
  /**
   * As CoreOptions.sandbox, or 'announced': the built-in sandbox is starting in a process of the
   * shell's, which sends its address in a `sandbox` message once it listens (a promise cannot cross).
   */
  readonly sandbox?: Exclude<SandboxSource, { readonly mode: 'external-later' }> | { readonly mode: 'announced' };
  /**
   * 'os' (default): the OS keychain. 'memory': a key store held by the shell's process (tests), so
   * that, like the OS keychain, it outlives a core that dies and is restarted (`shell.keyStore`).
   */
  readonly keyStore?: 'os' | 'memory';
  /**
   * The shell operations this shell serves (set by remoteCore from the handlers it was given). The
   * core gives itself the matching option — a save dialog, opening links, the trusted confirmation,
   * the page for a new secret, OS notifications — and leaves the others absent (no confirmation: everything that needs one is
   * refused; no save dialog: exports go into `downloadsDir`).
   */
  readonly shellOffers?: readonly ShellOperation[];
  /** Why this shell cannot show OS notifications, when it cannot (Settings says so). */
  readonly osNotificationsUnavailable?: string;
  /** Forward request log lines to the shell (default false). */
  readonly log?: boolean;
  /**
   * Electron: every window gets a port of its own (`window` messages), so its calls and the events
   * for it skip main; events then go to the windows' ports only. Default: through the shell.
   */
  readonly directWindows?: boolean;
  /**
   * Chromium shell: the loopback port on which the page's direct channel reaches this process
   * (core/host/pageLane.ts). The shell chooses it: the page's CSP names it, and a restarted core
   * listens on it again. Absent: no direct channel (calls take the shell's relay).
   */
  readonly pageLanePort?: number;
};

/**
 * A window's own port as the core sees it: Electron's MessagePortMain, and the Chromium page's
 * direct channel (pageLane.ts), both fit.
 */
export interface WindowPort {
  postMessage(message: ChannelMessage): void;
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
  on(event: 'close', listener: () => void): void;
  start(): void;
  close(): void;
}

/**
 * What opens one direct channel (pageLane.ts), both one-use secrets made by the shell: `key`, which
 * the page names first, and `proof`, the core's first answer, by which the page knows it reached
 * the core and not whatever else took the port.
 */
export interface LaneKey {
  readonly key: string;
  readonly proof: string;
}

/** Shell → core, besides the channel. */
export type ToCore =
  | { readonly type: 'start'; readonly options: CoreProcessOptions }
  /**
   * Electron: a MessagePort to one window (transferred with this message), for calls and events
   * that skip main. `sender` is what main checked when it handed the window the other end; calls on
   * this port are that sender's, whatever they say.
   */
  | { readonly type: 'window'; readonly windowId: number; readonly sender: SenderInfo }
  /**
   * Where the announced sandbox listens, or why it did not start; sent after `start` (and again
   * after every restart), whenever the sandbox's process is ready.
   */
  | { readonly type: 'sandbox'; readonly address: SandboxAddress }
  | { readonly type: 'sandbox'; readonly failed: string }
  /**
   * Chromium shell: a key the shell handed to one document it checked as ours (`sender`, as the
   * browser names it); the page's direct channel that names it is that document's (pageLane.ts).
   */
  | ({ readonly type: 'laneKey'; readonly windowId: number; readonly sender: SenderInfo } & LaneKey)
  /** That document is gone: its direct channel closes. */
  | { readonly type: 'laneClose'; readonly windowId: number }
  | { readonly type: 'close' };

/** Core → shell, besides the channel. */
export type FromCore =
  | { readonly type: 'ready'; readonly pid: number }
  /** The core could not start; `busy`: another process holds the data folder (nothing was changed). */
  | { readonly type: 'startFailed'; readonly message: string; readonly busy: boolean }
  | { readonly type: 'log'; readonly line: string }
  /**
   * Chromium shell: the direct channel of document `windowId` is open, and every event after this
   * message goes on it; those before went to the shell (pageLane.ts, shell/bridge.ts).
   */
  | { readonly type: 'eventsOnLane'; readonly windowId: number }
  | { readonly type: 'error'; readonly operation: string; readonly message: string }
  | { readonly type: 'closed' };

/** One end of the pipe, whatever carries it (utilityProcess, child_process, an in-memory pair). */
export interface CoreChannel {
  /** `transfer`: MessagePorts that go with the message (Electron's `window` message). */
  send(message: ToCore | ChannelMessage, transfer?: readonly unknown[]): void;
  onMessage(listener: (message: FromCore | ChannelMessage) => void): void;
  /** Called once when the process ends, for whatever reason. */
  onExit(listener: (code: number | null, signal: string | null) => void): void;
  readonly pid: number | undefined;
  /** Ends the process at once (SIGKILL): what a crash looks like. */
  kill(): void;
}

/** Starts a fresh core process and returns its channel. */
export type LaunchCore = () => CoreChannel;
