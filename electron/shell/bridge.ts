/**
 * The fallback shell's `window.desk`: the same named operations the Electron preload exposes,
 * backed by the same core dispatcher. Calls cross one Playwright binding that the page script
 * captures in a closure and removes from `window`, so page code sees only `window.desk`.
 * Events travel back through the same binding (a long poll), never through a global hook.
 */
import type { BrowserContext, Frame, Page } from 'playwright-core';
import type { EventName } from '../../shared/contract';
import type { Dispatch, SenderInfo } from '../core/ipc/dispatcher';

export const BRIDGE_BINDING = '__treasuryDeskBridge';
const BINDING = BRIDGE_BINDING;
/** Events kept for a page that is not polling right now (e.g. while it reloads). */
const MAX_QUEUED_EVENTS = 500;

type QueuedEvent = readonly [EventName, unknown];

interface EventQueue {
  items: QueuedEvent[];
  waiter: ((batch: QueuedEvent[]) => void) | undefined;
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
    // Answers cross as JSON text: one string is far cheaper to pass than a deep object graph.
    areas[area][name.slice(dot + 1)] = async (input) => JSON.parse(await invoke('call', name, input));
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
  /** Sends an (already validated) event to every page of the context. */
  send(name: EventName, payload: unknown): void;
}

/**
 * Installs the bridge on a context. Call before the first page loads our origin: init scripts
 * apply to new documents only.
 */
export const installBridge = async (
  context: BrowserContext,
  options: {
    readonly dispatch: Dispatch;
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
      queue = { items: [], waiter: undefined };
      queues.set(page, queue);
      pages.add(page);
      page.once('close', () => {
        pages.delete(page);
        queue?.waiter?.([]);
      });
    }
    return queue;
  };

  await context.exposeBinding(BINDING, async (source, kind: unknown, operation: unknown, payload: unknown) => {
    const sender = senderOf(source);
    if (kind === 'call') {
      // IPC results are plain, validated data: JSON text (parsed by the page script) passes 1,000
      // rows in one string instead of Playwright serialising every object.
      return JSON.stringify(
        await options.dispatch(typeof operation === 'string' ? operation : String(operation), payload, sender),
      );
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
        await new Promise<QueuedEvent[]>((resolve) => {
          queue.waiter = resolve;
        }),
      );
    }
    throw new Error('Unknown bridge request');
  });
  await options.beforeScript?.();
  await context.addInitScript({ content: bridgeScript(options.operations) });

  return {
    send(name, payload) {
      for (const page of pages) {
        const queue = queueOf(page);
        if (queue.waiter) {
          const resolve = queue.waiter;
          queue.waiter = undefined;
          resolve([[name, payload]]);
        } else {
          queue.items.push([name, payload]);
          if (queue.items.length > MAX_QUEUED_EVENTS) queue.items.splice(0, queue.items.length - MAX_QUEUED_EVENTS);
        }
      }
    },
  };
};
