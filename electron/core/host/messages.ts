/**
 * The messages between a shell (the process that serves the window) and the core running in its
 * own process (electron/core/host/coreProcess.ts). Everything is plain, structured-cloneable data:
 * Electron's utilityProcess and Node's child-process channel both carry it as is.
 */
import type { EventName } from '../../../shared/contract';
import type { Result } from '../../../shared/ipc/result';
import type { CoreOptions } from '../core';
import type { SenderInfo } from '../ipc/dispatcher';
import type { StoredKey } from '../keychain/keyStore';
import type { OsNotification } from '../notifications/notifier';
import type { ConfirmView } from '../policies/confirm';
import type { SecretView } from '../policies/confirmPage';

/** The core's options that can cross a process boundary; the callbacks become messages. */
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
> & {
  /**
   * Whether the shell shows the trusted confirmation (its own window); the core then asks it with
   * `confirm` messages. Absent/false: everything that needs one is refused.
   */
  readonly confirmWindow?: boolean;
  /** Whether the shell shows new secrets in its own page; the core then asks it with `showSecret` messages. */
  readonly secretWindow?: boolean;
  /**
   * 'os' (default): the OS keychain. 'memory': a key store held by the shell's process (tests), so
   * that, like the OS keychain, it outlives a core that dies and is restarted (`keyStore` messages).
   */
  readonly keyStore?: 'os' | 'memory';
  /** Whether the shell offers a save dialog (Electron); the core then asks it for a path. */
  readonly saveDialog?: boolean;
  /** Whether the shell opens explorer links in the system browser; the core then asks it with `openExternal`. */
  readonly openExternal?: boolean;
  /** Whether the shell shows OS notifications, or why not. */
  readonly osNotifications?: { readonly available: true } | { readonly available: false; readonly reason: string };
  /** Forward request log lines to the shell (default false). */
  readonly log?: boolean;
};

/** Shell → core. */
export type ToCore =
  | { readonly type: 'start'; readonly options: CoreProcessOptions }
  | {
      readonly type: 'call';
      readonly id: number;
      readonly operation: string;
      readonly payload: unknown;
      readonly sender: SenderInfo;
    }
  | { readonly type: 'savePath'; readonly id: number; readonly path: string | undefined }
  /** Whether the shell opened the link it was asked to. */
  | { readonly type: 'externalOpened'; readonly id: number; readonly opened: boolean }
  /** The person's answer in the shell's trusted confirmation window. */
  | { readonly type: 'confirmAnswer'; readonly id: number; readonly accepted: boolean; readonly typedAmount?: string }
  /** The shell's answer to a `keyStore` request (memory key store, tests). */
  | {
      readonly type: 'keyStoreAnswer';
      readonly id: number;
      readonly ok: boolean;
      readonly value?: StoredKey | boolean | undefined;
      readonly error?: string;
    }
  /** The shell's page for a new secret was closed (`shown`: it was on screen). */
  | { readonly type: 'secretShown'; readonly id: number; readonly shown: boolean }
  | { readonly type: 'close' };

/** Core → shell. */
export type FromCore =
  | { readonly type: 'ready'; readonly pid: number }
  /** The core could not start; `busy`: another process holds the data folder (nothing was changed). */
  | { readonly type: 'startFailed'; readonly message: string; readonly busy: boolean }
  | { readonly type: 'result'; readonly id: number; readonly result: Result<unknown> }
  | { readonly type: 'event'; readonly name: EventName; readonly payload: unknown }
  | { readonly type: 'chooseSavePath'; readonly id: number; readonly suggestedName: string }
  /** Open this link (already checked by the core) in the system browser; answer `externalOpened`. */
  | { readonly type: 'openExternal'; readonly id: number; readonly url: string }
  /** Show the trusted confirmation (built by the core from the intent) and answer `confirmAnswer`. */
  | { readonly type: 'confirm'; readonly id: number; readonly view: ConfirmView }
  /** Show a new secret once in the shell's own page (never the window) and answer `secretShown`. */
  | { readonly type: 'showSecret'; readonly id: number; readonly view: SecretView }
  /** A request to the shell's memory key store (`keyStore: 'memory'`, tests only); answer `keyStoreAnswer`. */
  | {
      readonly type: 'keyStore';
      readonly id: number;
      readonly op: 'get' | 'set' | 'delete';
      readonly entry: string;
      readonly value?: StoredKey;
    }
  | { readonly type: 'notify'; readonly notification: OsNotification }
  | { readonly type: 'log'; readonly line: string }
  | { readonly type: 'error'; readonly operation: string; readonly message: string }
  | { readonly type: 'closed' };

/** One end of the pipe, whatever carries it (utilityProcess, child_process, a test double). */
export interface CoreChannel {
  send(message: ToCore): void;
  onMessage(listener: (message: FromCore) => void): void;
  /** Called once when the process ends, for whatever reason. */
  onExit(listener: (code: number | null, signal: string | null) => void): void;
  readonly pid: number | undefined;
  /** Ends the process at once (SIGKILL): what a crash looks like. */
  kill(): void;
}

/** Starts a fresh core process and returns its channel. */
export type LaunchCore = () => CoreChannel;
