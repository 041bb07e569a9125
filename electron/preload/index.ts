/**
 * The preload: exposes exactly the contract as `window.desk` (one named function per operation
 * plus `on` for events). No ipcRenderer, no generic invoke reaches the page. It is a convenience,
 * not the trust boundary: main validates the sender and every payload again.
 */
import { contextBridge, type IpcRendererEvent, ipcRenderer } from 'electron';
import { contract, events } from '../../shared/contract';
import { operationNames } from '../../shared/ipc/define';
import { eventChannel, operationChannel } from '../main/channels';

type Invoke = (input: unknown) => Promise<unknown>;

const areas: Record<string, Record<string, Invoke>> = {};
for (const name of operationNames(contract)) {
  const dot = name.indexOf('.');
  const area = name.slice(0, dot);
  areas[area] ??= {};
  const channel = operationChannel(name);
  areas[area][name.slice(dot + 1)] = (input) => ipcRenderer.invoke(channel, input);
}

const on = (name: string, listener: (payload: unknown) => void): (() => void) => {
  // Only the contract's events; a page cannot listen on arbitrary channels.
  if (!Object.hasOwn(events, name)) throw new Error(`Unknown event “${name}”`);
  if (typeof listener !== 'function') throw new TypeError('listener must be a function');
  const channel = eventChannel(name);
  const forward = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
  ipcRenderer.on(channel, forward);
  return () => {
    ipcRenderer.removeListener(channel, forward);
  };
};

contextBridge.exposeInMainWorld('desk', { ...areas, on });
