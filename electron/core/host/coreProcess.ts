/**
 * The core's own process. A shell starts this file (Electron: utilityProcess.fork; the Chromium
 * shell and tests: child_process.fork) and sends `start`; from then on every IPC call arrives as a
 * `call` message and its result goes back as `result`. The window's process therefore never runs a
 * journal write, a signature, a history sync or the market feed on its own event loop, and a core
 * that dies can be restarted without the window noticing more than a notice (remoteCore.ts).
 */

import { type Core, createCore } from '../core';
import { createEmitter } from '../ipc/events';
import { DataDirBusy } from '../journal/dataDirLock';
import type { KeyStore, StoredKey } from '../keychain/keyStore';
import type { CoreProcessOptions, FromCore, ToCore } from './messages';

interface ParentPort {
  post(message: FromCore): void;
  onMessage(listener: (message: ToCore) => void): void;
  /** Called when the parent goes away (Node's IPC channel closes). */
  onGone(listener: () => void): void;
}

/** Electron's utility process has `process.parentPort`; a Node child has `process.send`. */
const parentPort = (): ParentPort => {
  const electronPort = (
    process as unknown as {
      parentPort?: { postMessage(m: unknown): void; on(e: 'message', l: (ev: { data: unknown }) => void): void };
    }
  ).parentPort;
  if (electronPort) {
    return {
      post: (message) => electronPort.postMessage(message),
      onMessage: (listener) => electronPort.on('message', (event) => listener(event.data as ToCore)),
      onGone: () => {}, // Electron ends its utility processes with the app.
    };
  }
  if (typeof process.send !== 'function') throw new Error('coreProcess must be started with an IPC channel');
  return {
    post: (message) => {
      if (process.connected) process.send?.(message);
    },
    onMessage: (listener) => process.on('message', (message) => listener(message as ToCore)),
    onGone: (listener) => process.once('disconnect', listener),
  };
};

export const runCoreProcess = (port: ParentPort = parentPort()): void => {
  let core: Core | undefined;
  let nextSaveId = 1;
  const saveWaiters = new Map<number, (path: string | undefined) => void>();
  let nextConfirmId = 1;
  let nextOpenId = 1;
  const openWaiters = new Map<number, (opened: boolean) => void>();
  const confirmWaiters = new Map<number, (answer: { accepted: boolean; typedAmount?: string }) => void>();
  let nextKeyStoreId = 1;
  const keyStoreWaiters = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  /** The shell's memory key store (tests): it outlives this process, as the OS keychain would. */
  const shellKeyStore: KeyStore = (() => {
    const ask = <T>(op: 'get' | 'set' | 'delete', entry: string, value?: StoredKey) =>
      new Promise<T>((resolve, reject) => {
        const id = nextKeyStoreId++;
        keyStoreWaiters.set(id, { resolve: resolve as (value: unknown) => void, reject });
        port.post({ type: 'keyStore', id, op, entry, ...(value ? { value } : {}) });
      });
    return {
      backend: 'memory (tests only)',
      get: (entry) => ask<StoredKey | undefined>('get', entry),
      set: (entry, value) => ask<void>('set', entry, value),
      delete: (entry) => ask<boolean>('delete', entry),
    };
  })();
  let nextSecretId = 1;
  const secretWaiters = new Map<number, (answer: { shown: boolean }) => void>();
  let closing: Promise<void> | undefined;

  const close = (code: number): Promise<void> => {
    closing ??= (async () => {
      try {
        await core?.close();
      } finally {
        port.post({ type: 'closed' });
        // Give the message a turn to leave, then go.
        setTimeout(() => process.exit(code), 20);
      }
    })();
    return closing;
  };

  const start = async (options: CoreProcessOptions): Promise<void> => {
    const { keyStore, saveDialog, osNotifications, log, confirmWindow, secretWindow, openExternal, ...rest } = options;
    try {
      core = await createCore({
        ...rest,
        emit: createEmitter(
          (name, payload) => port.post({ type: 'event', name, payload }),
          (name, error) => port.post({ type: 'error', operation: `event ${name}`, message: String(error) }),
        ),
        logError: (operation, error) =>
          port.post({ type: 'error', operation, message: error instanceof Error ? error.message : String(error) }),
        ...(log ? { log: (line: string) => port.post({ type: 'log', line }) } : {}),
        ...(keyStore === 'memory' ? { keyStore: shellKeyStore } : {}),
        ...(saveDialog
          ? {
              chooseSavePath: (suggestedName: string) =>
                new Promise<string | undefined>((resolve) => {
                  const id = nextSaveId++;
                  saveWaiters.set(id, resolve);
                  port.post({ type: 'chooseSavePath', id, suggestedName });
                }),
            }
          : {}),
        ...(openExternal
          ? {
              openExternal: (url: string) =>
                new Promise<boolean>((resolve) => {
                  const id = nextOpenId++;
                  openWaiters.set(id, resolve);
                  port.post({ type: 'openExternal', id, url });
                }),
            }
          : {}),
        ...(confirmWindow
          ? {
              confirm: (view) =>
                new Promise((resolve) => {
                  const id = nextConfirmId++;
                  confirmWaiters.set(id, resolve);
                  port.post({ type: 'confirm', id, view });
                }),
            }
          : {}),
        ...(secretWindow
          ? {
              showSecret: (view) =>
                new Promise<{ shown: boolean }>((resolve) => {
                  const id = nextSecretId++;
                  secretWaiters.set(id, resolve);
                  port.post({ type: 'showSecret', id, view });
                }),
            }
          : {}),
        ...(osNotifications
          ? {
              osNotifications: {
                showOsNotification: (notification) => port.post({ type: 'notify', notification }),
                ...(osNotifications.available ? {} : { unavailableReason: osNotifications.reason }),
              },
            }
          : {}),
      });
      port.post({ type: 'ready', pid: process.pid });
    } catch (error) {
      port.post({
        type: 'startFailed',
        message: error instanceof Error ? error.message : String(error),
        busy: error instanceof DataDirBusy,
      });
      setTimeout(() => process.exit(error instanceof DataDirBusy ? 3 : 1), 20);
    }
  };

  port.onMessage((message) => {
    switch (message.type) {
      case 'start':
        void start(message.options);
        return;
      case 'call': {
        const target = core;
        if (target === undefined) return; // the shell only calls after `ready`
        void target.dispatch(message.operation, message.payload, message.sender).then((result) => {
          port.post({ type: 'result', id: message.id, result });
        });
        return;
      }
      case 'savePath': {
        const resolve = saveWaiters.get(message.id);
        saveWaiters.delete(message.id);
        resolve?.(message.path);
        return;
      }
      case 'externalOpened': {
        const resolve = openWaiters.get(message.id);
        openWaiters.delete(message.id);
        resolve?.(message.opened === true);
        return;
      }
      case 'confirmAnswer': {
        const resolve = confirmWaiters.get(message.id);
        confirmWaiters.delete(message.id);
        resolve?.({
          accepted: message.accepted === true,
          ...(typeof message.typedAmount === 'string' ? { typedAmount: message.typedAmount } : {}),
        });
        return;
      }
      case 'keyStoreAnswer': {
        const waiter = keyStoreWaiters.get(message.id);
        keyStoreWaiters.delete(message.id);
        if (message.ok) waiter?.resolve(message.value);
        else waiter?.reject(new Error(message.error ?? 'the key store failed'));
        return;
      }
      case 'secretShown': {
        const resolve = secretWaiters.get(message.id);
        secretWaiters.delete(message.id);
        resolve?.({ shown: message.shown === true });
        return;
      }
      case 'close':
        void close(0);
        return;
    }
  });
  // A shell that dies must not leave a core holding the data folder's lock.
  port.onGone(() => void close(0));
};

// Started as a process (not imported by a test): serve the parent.
const isEntry = (process as unknown as { parentPort?: unknown }).parentPort !== undefined || process.send !== undefined;
if (isEntry && process.env.TREASURY_DESK_CORE_PROCESS === '1') runCoreProcess();
