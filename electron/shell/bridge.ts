/**
 * The fallback shell's `window.desk`: the same named operations the Electron preload exposes,
 * backed by the same core. Calls cross one Playwright binding that the page script captures in a
 * closure and removes from `window`, so page code sees only `window.desk`. Events travel back
 * through the same binding (a long poll, a batch per answer), never through a global hook.
 *
 * Answers cross as JSON text made once, in the core's process: this process hands the string on
 * without parsing it, and the page parses it (one string is far cheaper to pass than an object graph).
 */
import type { BrowserContext, Frame, Page } from 'playwright-core';
import type { EventEntry } from '../../shared/ipc/channel';
import { readCallOptions } from '../../shared/ipc/deskCalls';
import type { RemoteCore } from '../core/host/remoteCore';
import type { SenderInfo } from '../core/ipc/dispatcher';

export const BRIDGE_BINDING = '__treasuryDeskBridge';
const BINDING = BRIDGE_BINDING;
/** Events kept for a page that is not polling right now (e.g. while it reloads). */
const MAX_QUEUED_EVENTS = 500;

interface EventQueue {
  items: EventEntry[];
  waiter: ((batch: readonly EventEntry[]) => void) | undefined;
}

/** The page-side script, as text: it must not depend on anything the bundler adds. */
export const bridgeScript = (operations: readonly string[]): string => `(() => {
  const invoke = globalThis[${JSON.stringify(BINDING)}];
  if (typeof invoke !== 'function') return;
  // Page code gets the named operations only, never the raw binding.
  try { delete globalThis[${JSON.stringify(BINDING)}]; } catch {}
  const operations = ${JSON.stringify(operations)};
  const areas = {};
  for (const name of operations) {
    const dot = name.indexOf('.');
    const area = name.slice(0, dot);
    if (!Object.hasOwn(areas, area)) areas[area] = {};
    // Answers arrive as JSON text (see bridge.ts); options are plain data: a call id, a timeout.
    areas[area][name.slice(dot + 1)] = async (input, options) =>
      JSON.parse(await invoke('call', name, input, options === undefined ? undefined : { callId: options.callId, timeoutMs: options.timeoutMs }));
  }
  const listeners = new Map();
  const desk = {};
  for (const [area, ops] of Object.entries(areas)) desk[area] = Object.freeze(ops);
  desk.on = (name, listener) => {
    if (typeof listener !== 'function') throw new TypeError('listener must be a function');
    let set = listeners.get(name);
    if (!set) { set = new Set(); listeners.set(name, set); }
    set.add(listener);
    return () => { set.delete(listener); };
  };
  desk.cancel = (callId) => { invoke('cancel', String(callId)).catch(() => {}); };
  Object.defineProperty(globalThis, 'desk', { value: Object.freeze(desk), enumerable: true });
  (async () => {
    for (;;) {
      let batch;
      try { batch = JSON.parse(await invoke('events')); } catch { return; }
      for (const [name, payload] of batch) {
        for (const listener of listeners.get(name) ?? []) {
          try { listener(payload); } catch (error) { console.error(error); }
        }
      }
    }
  })();
})();`;

/** What Playwright tells a binding about its caller. */
interface BindingSource {
  readonly page: Page;
  readonly frame: Frame;
}

const senderOf = (source: BindingSource): SenderInfo => ({
  url: source.frame.url(),
  isMainFrame: source.frame === source.page.mainFrame(),
});

export interface Bridge {
  /** Sends (already validated) events, in order, to every page of the context. */
  send(events: readonly EventEntry[]): void;
}

/**
 * Installs the bridge on a context. Call before the first page loads our origin: init scripts
 * apply to new documents only.
 */
export const installBridge = async (
  context: BrowserContext,
  options: {
    readonly core: Pick<RemoteCore, 'dispatchText'>;
    readonly operations: readonly string[];
    /** The same check the dispatcher makes, for the event stream (which is not an operation). */
    readonly isTrustedSender: (sender: SenderInfo) => boolean;
    /** Runs between exposing the binding and adding the page script (tests hook in here). */
    readonly beforeScript?: () => Promise<void>;
  },
): Promise<Bridge> => {
  const queues = new WeakMap<Page, EventQueue>();
  const pages = new Set<Page>();
  const queueOf = (page: Page): EventQueue => {
    let queue = queues.get(page);
    if (queue === undefined) {
      const created: EventQueue = { items: [], waiter: undefined };
      queue = created;
      queues.set(page, created);
      pages.add(page);
      page.once('close', () => {
        pages.delete(page);
        created.waiter?.([]);
      });
    }
    return queue;
  };
  /** Calls each page named (`callId`), so that its `desk.cancel(callId)` can stop them. */
  const named = new WeakMap<Page, Map<string, AbortController>>();
  const namedOf = (page: Page): Map<string, AbortController> => {
    let calls = named.get(page);
    if (calls === undefined) {
      const created = new Map<string, AbortController>();
      calls = created;
      named.set(page, created);
      page.once('close', () => {
        for (const controller of created.values()) controller.abort();
      });
    }
    return calls;
  };

  await context.exposeBinding(
    BINDING,
    async (source, kind: unknown, operation: unknown, payload: unknown, rawOptions: unknown) => {
      const sender = senderOf(source);
      if (kind === 'call') {
        const { callId, timeoutMs } = readCallOptions(rawOptions);
        const name = typeof operation === 'string' ? operation : String(operation);
        // Only our own document's calls can be named (anything else is refused by the core anyway).
        if (callId === undefined || !options.isTrustedSender(sender)) {
          return options.core.dispatchText(name, payload, sender, timeoutMs ? { timeoutMs } : {});
        }
        const cancellable = namedOf(source.page);
        const controller = new AbortController();
        cancellable.get(callId)?.abort(); // a reused id names the newest call
        cancellable.set(callId, controller);
        try {
          return await options.core.dispatchText(name, payload, sender, {
            signal: controller.signal,
            ...(timeoutMs ? { timeoutMs } : {}),
          });
        } finally {
          if (cancellable.get(callId) === controller) cancellable.delete(callId);
        }
      }
      if (kind === 'cancel') {
        // Only the calls this page named; the core decides what stopping means for each.
        if (typeof operation === 'string') named.get(source.page)?.get(operation)?.abort();
        return undefined;
      }
      if (kind === 'events') {
        // Events are for our own top-level document only; anything else gets no stream.
        if (!options.isTrustedSender(sender)) throw new Error('Not allowed');
        const queue = queueOf(source.page);
        // A newer poll (e.g. after a reload) replaces an older one, whose document is gone.
        queue.waiter?.([]);
        queue.waiter = undefined;
        if (queue.items.length > 0) return JSON.stringify(queue.items.splice(0));
        return JSON.stringify(
          await new Promise<readonly EventEntry[]>((resolve) => {
            queue.waiter = resolve;
          }),
        );
      }
      throw new Error('Unknown bridge request');
    },
  );
  await options.beforeScript?.();
  await context.addInitScript({ content: bridgeScript(options.operations) });

  return {
    send(events) {
      for (const page of pages) {
        const queue = queueOf(page);
        queue.items.push(...events);
        if (queue.items.length > MAX_QUEUED_EVENTS) queue.items.splice(0, queue.items.length - MAX_QUEUED_EVENTS);
        const resolve = queue.waiter;
        if (resolve === undefined) continue;
        queue.waiter = undefined;
        resolve(queue.items.splice(0));
      }
    },
  };
};
