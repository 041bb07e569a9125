/**
 * The preload: exposes exactly the contract as `window.desk` (one named function per operation,
 * `on` for events, `cancel` for a named call). No ipcRenderer, no generic invoke reaches the page.
 * It is a convenience, not the trust boundary: the core validates every payload again, and takes
 * every call on this window's port as the sender main checked when it handed the port over.
 *
 * Calls and events travel on a MessagePort straight to the core's process (main hands it over on
 * load and after a core restart, electron/main/windowPorts.ts), over the one channel protocol
 * (shared/ipc/channel.ts): an id per call, cancellation, a timeout per call.
 */
import { contextBridge, type IpcRendererEvent, ipcRenderer } from 'electron';
import { contract, events } from '../../shared/contract';
import {
  ChannelClient,
  ChannelPort,
  type ChannelTimers,
  type EventEntry,
  isChannelMessage,
} from '../../shared/ipc/channel';
import { operationNames } from '../../shared/ipc/define';
import { CORE_STOPPED, coreDidNotAnswer, DESK_CALL_TIMEOUT_MS, readCallOptions } from '../../shared/ipc/deskCalls';
import { fail } from '../../shared/ipc/result';
import { CONNECT_CHANNEL, CORE_STOPPED_CHANNEL, EVENTS_CHANNEL, PORT_CHANNEL } from '../main/channels';

const timers: ChannelTimers = {
  now: () => performance.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  defer: (run) => setTimeout(run, 0),
  cancellation: () => new AbortController(),
};

const listeners = new Map<string, Set<(payload: unknown) => void>>();
const deliver = (batch: readonly EventEntry[]): void => {
  for (const [name, payload] of batch) {
    for (const listener of listeners.get(name) ?? []) {
      try {
        listener(payload);
      } catch (error) {
        console.error(error);
      }
    }
  }
};

/** The channel to the core, once main has handed over a port (calls made before wait for it). */
let client: ChannelClient | undefined;
let connected!: Promise<ChannelClient>;
let onConnected!: (client: ChannelClient) => void;
const awaitPort = () => {
  connected = new Promise((resolve) => {
    onConnected = resolve;
  });
};
awaitPort();

ipcRenderer.on(PORT_CHANNEL, (event: IpcRendererEvent) => {
  const port = event.ports[0];
  if (port === undefined) return;
  // A new port means a new core: calls on the old one will never be answered.
  client?.close(CORE_STOPPED);
  const next = new ChannelClient(new ChannelPort((message) => port.postMessage(message), timers), {
    timers,
    defaultTimeoutMs: DESK_CALL_TIMEOUT_MS,
    timedOut: coreDidNotAnswer,
  });
  port.onmessage = (message) => {
    if (!isChannelMessage(message.data)) return;
    if (message.data.k === 'events') deliver(message.data.events);
    else next.receive(message.data);
  };
  client = next;
  onConnected(next);
});
ipcRenderer.on(CORE_STOPPED_CHANNEL, () => {
  client?.close(CORE_STOPPED);
  client = undefined;
  awaitPort();
});
// Events main emits itself (the supervisor's notices about the core).
ipcRenderer.on(EVENTS_CHANNEL, (_event: IpcRendererEvent, batch: unknown) => {
  if (Array.isArray(batch)) deliver(batch as EventEntry[]);
});
ipcRenderer.send(CONNECT_CHANNEL);

/** Calls the page named, so that `cancel(callId)` can stop them. */
const named = new Map<string, AbortController>();

/** Waits for main to hand over a port, not longer than `ms`; undefined when none came. */
const portWithin = async (ms: number): Promise<ChannelClient | undefined> => {
  if (client !== undefined) return client;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const answer = await Promise.race([
    connected,
    new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), ms);
    }),
  ]);
  clearTimeout(timer);
  return answer;
};

const invoke = async (operation: string, input: unknown, rawOptions: unknown) => {
  const { callId, timeoutMs = DESK_CALL_TIMEOUT_MS } = readCallOptions(rawOptions);
  // Named at once, so a cancel made while the call still waits for a port is not lost.
  const controller = callId === undefined ? undefined : new AbortController();
  if (callId !== undefined && controller !== undefined) {
    named.get(callId)?.abort(); // a reused id names the newest call
    named.set(callId, controller);
  }
  try {
    // No core yet (starting, or restarting): wait for its port, not longer than the call would.
    const target = await portWithin(timeoutMs);
    if (target === undefined) return fail(coreDidNotAnswer(operation, timeoutMs));
    return await target.call(operation, input, { timeoutMs, ...(controller ? { signal: controller.signal } : {}) });
  } finally {
    if (callId !== undefined && named.get(callId) === controller) named.delete(callId);
  }
};

const areas: Record<string, Record<string, (input: unknown, options?: unknown) => Promise<unknown>>> = {};
for (const name of operationNames(contract)) {
  const dot = name.indexOf('.');
  const area = name.slice(0, dot);
  areas[area] ??= {};
  areas[area][name.slice(dot + 1)] = (input, options) => invoke(name, input, options);
}

const on = (name: string, listener: (payload: unknown) => void): (() => void) => {
  // Only the contract's events; a page cannot listen on arbitrary names.
  if (!Object.hasOwn(events, name)) throw new Error(`Unknown event “${name}”`);
  if (typeof listener !== 'function') throw new TypeError('listener must be a function');
  let set = listeners.get(name);
  if (set === undefined) {
    set = new Set();
    listeners.set(name, set);
  }
  set.add(listener);
  return () => {
    set.delete(listener);
  };
};

const cancel = (callId: unknown): void => {
  if (typeof callId === 'string') named.get(callId)?.abort();
};

contextBridge.exposeInMainWorld('desk', { ...areas, on, cancel });
