/**
 * The fallback shell's `window.desk`: the same named operations the Electron preload exposes,
 * backed by the same core. The page reaches this process through one DevTools-protocol binding
 * (`Runtime.addBinding` on the app page's own session) that the page script captures in a closure
 * and removes from `window`, so page code sees only `window.desk`; answers and events go back by
 * evaluating a call in that document. Once our own document has said hello, it also gets a direct
 * channel to the core's process — a WebSocket on loopback that skips this process and the DevTools
 * protocol (core/host/pageLane.ts; see "The direct channel" below) — and its calls and their
 * answers take it from then on. On the binding, answers are JSON text made once, in the core's
 * process: this process hands the string on without parsing it.
 *
 * Trust: who calls is what the browser says, never what the page says — the execution context the
 * call came from, its frame, whether that is the top-level frame and the frame's URL, all tracked
 * from the protocol's own events; a direct channel belongs to the one document it was handed to,
 * and the core takes its calls as that document's.
 * Only the app's page gets the binding (the trusted confirmation and the save dialog are other
 * pages); every frame of it has `window.desk`, and the core refuses any that is not our own
 * top-level document.
 */
import { randomBytes } from 'node:crypto';
import type { CDPSession, Page } from 'playwright-core';
import type { RemoteCore } from '../core/host/remoteCore';
import type { SenderInfo } from '../core/ipc/dispatcher';
import type { EventEntry } from '../shared/ipc/channel';
import {
  CORE_NOT_RUNNING,
  CORE_STOPPED,
  coreDidNotAnswer,
  DESK_CALL_TIMEOUT_MS,
  readCallOptions,
} from '../shared/ipc/deskCalls';
import { fail } from '../shared/ipc/result';

export const BRIDGE_BINDING = '__treasuryDeskBridge';
/** Events kept for a document that is not there right now (e.g. while it reloads). */
const MAX_QUEUED_EVENTS = 500;

/**
 * The page-side script, as text: it must not depend on anything the bundler adds. `deliver` names
 * the function this process calls with answers and events (random per start, not enumerable).
 */
export const bridgeScript = (operations: readonly string[], deliver: string): string => `(() => {
  const send = globalThis[${JSON.stringify(BRIDGE_BINDING)}];
  if (typeof send !== 'function') return;
  // Page code gets the named operations only, never the raw binding.
  try { delete globalThis[${JSON.stringify(BRIDGE_BINDING)}]; } catch {}
  const operations = ${JSON.stringify(operations)};
  const pending = new Map();
  const listeners = new Map();
  let last = 0;
  const emit = (batch) => {
    for (const [name, payload] of batch) {
      for (const listener of listeners.get(name) ?? []) {
        try { listener(payload); } catch (error) { console.error(error); }
      }
    }
  };
  const answered = (id, text) => {
    const resolve = pending.get(id);
    if (resolve === undefined) return;
    pending.delete(id);
    resolve(JSON.parse(text));
  };
  // The direct channel to the core's process, once the shell handed this document its key (only our
  // own top-level document gets one); until it is open, calls go through the binding. It speaks the
  // core's channel protocol (shared/ipc/channel.ts): each call has an id, a cancel names it, and the
  // page waits DESK_CALL_TIMEOUT_MS at most, as on Electron's port.
  let lane;
  let opening = false;
  // Once a lane is open the core's events come on it, right behind the answers of the calls that
  // caused them; those the core emitted before went through the shell, which says (-2) when the
  // last of them is delivered. The lane's wait for that word, so that none overtakes an older one.
  let laneEventsHeld = [];
  let bindingCaughtUp = true;
  const releaseLaneEvents = () => {
    bindingCaughtUp = true;
    const held = laneEventsHeld;
    laneEventsHeld = [];
    for (const batch of held) emit(batch);
  };
  /** Calls a lane carries: message id → { socket, callId, timer }. */
  const onLane = new Map();
  /** Named calls (desk.cancel) on a lane: call id → message id. */
  const namedOnLane = new Map();
  const stopped = ${JSON.stringify(fail(CORE_STOPPED))};
  const didNotAnswer = ${coreDidNotAnswer.toString()};
  const settle = (id, result) => {
    const call = onLane.get(id);
    if (call === undefined) return;
    onLane.delete(id);
    clearTimeout(call.timer);
    if (call.callId !== undefined && namedOnLane.get(call.callId) === id) namedOnLane.delete(call.callId);
    const resolve = pending.get(id);
    pending.delete(id);
    resolve?.(result);
  };
  const openLane = ({ port, key, proof }) => {
    if (lane !== undefined || opening) return;
    opening = true;
    bindingCaughtUp = false;
    const socket = new WebSocket('ws://127.0.0.1:' + port);
    let proven = false;
    socket.onopen = () => { socket.send(key); };
    socket.onmessage = (event) => {
      // The core's first message is the proof handed with the key: only then is it the core.
      if (!proven) {
        if (String(event.data) !== proof) { socket.close(); return; }
        proven = true; lane = socket; opening = false;
        return;
      }
      const message = JSON.parse(String(event.data));
      if (message.k === 'result') settle(message.id, message.result);
      else if (message.k === 'events') {
        if (bindingCaughtUp) emit(message.events);
        else laneEventsHeld.push(message.events);
      }
    };
    socket.onclose = () => {
      opening = false;
      // What came on it is shown rather than lost, should the shell's word never come.
      releaseLaneEvents();
      if (lane === socket) lane = undefined;
      // What it carried was the core's to answer, and that core stopped: it may have gone through.
      for (const [id, call] of onLane) if (call.socket === socket) settle(id, stopped);
      // A lane the core proved closes when that core stops: ask for the next core's (at most once
      // each), for calls and events alike.
      if (proven) send(JSON.stringify([0, 'hello']));
    };
  };
  const callOnLane = (socket, id, name, input, options) => {
    const callId = options === undefined || options.callId === undefined ? undefined : String(options.callId);
    const ms = options !== undefined && typeof options.timeoutMs === 'number' && options.timeoutMs > 0
      ? options.timeoutMs : ${DESK_CALL_TIMEOUT_MS};
    const timer = setTimeout(() => {
      if (socket.readyState === 1) socket.send(JSON.stringify({ k: 'cancel', id }));
      settle(id, { ok: false, error: didNotAnswer(name, ms) });
    }, ms);
    onLane.set(id, { socket, callId, timer });
    if (callId !== undefined) namedOnLane.set(callId, id);
    const message = { k: 'call', id, op: name };
    if (input !== undefined) message.input = input;
    socket.send(JSON.stringify(message));
  };
  // Answers on the binding arrive as JSON text (made once, in the core); 0 carries a batch of events,
  // -1 the lane's key, -2 the word that the core's events now come on the lane.
  Object.defineProperty(globalThis, ${JSON.stringify(deliver)}, {
    value: (id, text) => {
      if (id === 0) { emit(JSON.parse(text)); return; }
      if (id === -1) { openLane(JSON.parse(text)); return; }
      if (id === -2) { releaseLaneEvents(); return; }
      answered(id, text);
    },
  });
  const call = (name, input, options) => new Promise((resolve) => {
    const id = ++last;
    pending.set(id, resolve);
    if (lane !== undefined) { callOnLane(lane, id, name, input, options); return; }
    // Options are plain data: a call id (for cancel) and a timeout. No input is left out (not null).
    const message = [id, 'call', name, options === undefined ? null : { callId: options.callId, timeoutMs: options.timeoutMs }];
    if (input !== undefined) message.push(input);
    send(JSON.stringify(message));
  });
  const areas = {};
  for (const name of operations) {
    const dot = name.indexOf('.');
    const area = name.slice(0, dot);
    if (!Object.hasOwn(areas, area)) areas[area] = {};
    areas[area][name.slice(dot + 1)] = (input, options) => call(name, input, options);
  }
  const desk = {};
  for (const [area, ops] of Object.entries(areas)) desk[area] = Object.freeze(ops);
  desk.on = (name, listener) => {
    if (typeof listener !== 'function') throw new TypeError('listener must be a function');
    let set = listeners.get(name);
    if (!set) { set = new Set(); listeners.set(name, set); }
    set.add(listener);
    return () => { set.delete(listener); };
  };
  desk.cancel = (callId) => {
    const id = namedOnLane.get(String(callId));
    const call = id === undefined ? undefined : onLane.get(id);
    if (call !== undefined) { if (call.socket.readyState === 1) call.socket.send(JSON.stringify({ k: 'cancel', id })); }
    else send(JSON.stringify([0, 'cancel', String(callId)]));
  };
  Object.defineProperty(globalThis, 'desk', { value: Object.freeze(desk), enumerable: true });
  send(JSON.stringify([0, 'hello']));
})();`;

export interface Bridge {
  /** Sends (already validated) events, in order, to our own document. */
  send(events: readonly EventEntry[]): void;
  /**
   * The core's events for this document now take its direct channel: the page shows those that
   * came on it once every event sent here before has been delivered.
   */
  eventsOnLane(contextId: number): void;
  /** The direct channel's address, for the page's CSP (`connect-src`): nothing else is reachable. */
  readonly laneAddress: string | undefined;
}

interface FrameInfo {
  url: string;
  readonly parentId: string | undefined;
}

interface FrameTree {
  readonly frame: { readonly id: string; readonly parentId?: string; readonly url: string };
  readonly childFrames?: readonly FrameTree[];
}

/** Which frame each document's main world is, and each frame's URL: what the browser says, kept current. */
const trackFrames = async (session: CDPSession) => {
  const frames = new Map<string, FrameInfo>();
  /** Execution context id → frame id, main worlds only (isolated worlds are never callers). */
  const contexts = new Map<number, string>();
  session.on('Page.frameNavigated', ({ frame }) => {
    frames.set(frame.id, { url: frame.url, parentId: frame.parentId });
  });
  session.on('Page.navigatedWithinDocument', ({ frameId, url }) => {
    const frame = frames.get(frameId);
    if (frame) frame.url = url;
  });
  session.on('Page.frameDetached', ({ frameId }) => {
    frames.delete(frameId);
  });
  session.on('Runtime.executionContextCreated', ({ context }) => {
    const aux = context.auxData as { isDefault?: boolean; frameId?: string } | undefined;
    if (aux?.isDefault === true && typeof aux.frameId === 'string') contexts.set(context.id, aux.frameId);
  });
  session.on('Runtime.executionContextDestroyed', ({ executionContextId }) => {
    contexts.delete(executionContextId);
  });
  session.on('Runtime.executionContextsCleared', () => contexts.clear());
  await session.send('Page.enable');
  const walk = (tree: FrameTree): void => {
    frames.set(tree.frame.id, { url: tree.frame.url, parentId: tree.frame.parentId });
    for (const child of tree.childFrames ?? []) walk(child);
  };
  walk((await session.send('Page.getFrameTree')).frameTree as FrameTree);
  await session.send('Runtime.enable');
  return {
    /** Who a call from this execution context is (an unknown context is nobody: url ''). */
    senderOf: (contextId: number): SenderInfo => {
      const frameId = contexts.get(contextId);
      const frame = frameId === undefined ? undefined : frames.get(frameId);
      return { url: frame?.url ?? '', isMainFrame: frame !== undefined && frame.parentId === undefined };
    },
  };
};

/**
 * Installs the bridge on the app's page. Call before it loads our origin: the script applies to
 * new documents only.
 */
export const installBridge = async (
  page: Page,
  options: {
    readonly core: Pick<RemoteCore, 'dispatchText' | 'offerLane' | 'closeLane'>;
    /** The port the core's process takes the page's direct channel on (reserveLoopbackPort); absent: none. */
    readonly lanePort?: number;
    readonly operations: readonly string[];
    /** The same check the dispatcher makes, for events (which are not an operation). */
    readonly isTrustedSender: (sender: SenderInfo) => boolean;
    /** Runs between adding the binding and adding the page script (tests hook in here). */
    readonly beforeScript?: () => Promise<void>;
  },
): Promise<Bridge> => {
  const session = await page.context().newCDPSession(page);
  const frames = await trackFrames(session);
  const deliver = `__desk_${randomBytes(12).toString('hex')}`;
  /** Calls each document named (`callId`), so that its `desk.cancel(callId)` can stop them. */
  const named = new Map<number, Map<string, AbortController>>();
  /** Our own documents whose script runs (they said hello): where events go. Normally one. */
  const ours = new Set<number>();
  let queued: EventEntry[] = [];

  const answer = (contextId: number, id: number, text: string): void => {
    // A string literal: the page parses the JSON inside it (cheaper than a JS object literal).
    session
      .send('Runtime.evaluate', {
        expression: `${deliver}(${id},${JSON.stringify(text)})`,
        contextId,
        silent: true,
      })
      .catch(() => {}); // the document is gone: nobody waits for the answer
  };
  const flush = (): void => {
    if (queued.length === 0 || ours.size === 0) return; // kept for the next document of ours
    const batch = JSON.stringify(queued);
    queued = [];
    for (const contextId of ours) answer(contextId, 0, batch);
  };

  /** How an answer goes back to the document that called: by evaluation, or on its lane. */
  type Reply = (id: number, text: string) => void;

  const serve = async (contextId: number, message: unknown[], reply: Reply): Promise<void> => {
    const [id, kind] = message;
    const sender = frames.senderOf(contextId);
    if (kind === 'hello') {
      // A new document of ours, its script ready: events that waited for it, and the key to its lane.
      if (!options.isTrustedSender(sender)) return;
      ours.add(contextId);
      flush();
      await offerLane(contextId);
      return;
    }
    if (kind === 'cancel') {
      // Only the calls this document named; the core decides what stopping means for each.
      const callId = message[2];
      if (typeof callId === 'string') named.get(contextId)?.get(callId)?.abort();
      return;
    }
    if (kind !== 'call' || typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) return;
    const [, , operation, rawOptions, ...input] = message;
    const payload = input[0]; // absent: the page passed no input
    const name = typeof operation === 'string' ? operation : String(operation);
    const { callId, timeoutMs } = readCallOptions(rawOptions);
    // Only our own document's calls can be named (anything else is refused by the core anyway).
    if (callId === undefined || !options.isTrustedSender(sender)) {
      reply(id, await options.core.dispatchText(name, payload, sender, timeoutMs ? { timeoutMs } : {}));
      return;
    }
    let calls = named.get(contextId);
    if (calls === undefined) {
      calls = new Map();
      named.set(contextId, calls);
    }
    const controller = new AbortController();
    calls.get(callId)?.abort(); // a reused id names the newest call
    calls.set(callId, controller);
    try {
      reply(
        id,
        await options.core.dispatchText(name, payload, sender, {
          signal: controller.signal,
          ...(timeoutMs ? { timeoutMs } : {}),
        }),
      );
    } finally {
      if (calls.get(callId) === controller) calls.delete(callId);
    }
  };

  /** One message from a document, whichever way it came; who sent it is the context the browser named. */
  const receive = (contextId: number, text: string, reply: Reply): void => {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return; // not ours
    }
    if (!Array.isArray(message)) return;
    serve(contextId, message, reply).catch(() => {
      // No core to ask (it could not start): the call still gets an answer.
      const [id] = message;
      if (typeof id === 'number' && id > 0) reply(id, JSON.stringify(fail(CORE_NOT_RUNNING)));
    });
  };
  session.on('Runtime.bindingCalled', ({ name, payload, executionContextId }) => {
    if (name !== BRIDGE_BINDING) return;
    receive(executionContextId, payload, (id, text) => answer(executionContextId, id, text));
  });

  // The direct channel (issue 26; docs/security.md): a round trip through the DevTools protocol and
  // this process costs about a millisecond, a WebSocket on loopback straight to the core's process
  // a fraction of it. The core serves it (core/host/pageLane.ts); this process decides who gets
  // one: a key, good for one connection, and the proof the core answers it with, told to the core
  // with the document it is for (as the browser names it) and handed by evaluation to that document alone.
  const { lanePort } = options;
  /** Documents that were handed a key (their lane is closed when they go). */
  const offered = new Set<number>();
  const offerLane = async (contextId: number): Promise<void> => {
    if (lanePort === undefined) return;
    const lane = { key: randomBytes(24).toString('base64url'), proof: randomBytes(24).toString('base64url') };
    const told = await options.core.offerLane(contextId, frames.senderOf(contextId), lane);
    if (!told) return;
    // The document went while the core was being told: its key is void.
    if (!ours.has(contextId)) {
      options.core.closeLane(contextId);
      return;
    }
    offered.add(contextId);
    answer(contextId, -1, JSON.stringify({ port: lanePort, ...lane }));
  };

  const forget = (contextId: number): void => {
    // The document is gone: what it named can stop, and events wait for the next one.
    for (const controller of named.get(contextId)?.values() ?? []) controller.abort();
    named.delete(contextId);
    ours.delete(contextId);
    if (offered.delete(contextId)) options.core.closeLane(contextId);
  };
  session.on('Runtime.executionContextDestroyed', ({ executionContextId }) => forget(executionContextId));
  session.on('Runtime.executionContextsCleared', () => {
    for (const contextId of [...named.keys(), ...ours, ...offered]) forget(contextId);
  });
  await session.send('Runtime.addBinding', { name: BRIDGE_BINDING });
  await options.beforeScript?.();
  await session.send('Page.addScriptToEvaluateOnNewDocument', {
    source: bridgeScript(options.operations, deliver),
  });

  return {
    send(events) {
      queued.push(...events);
      if (queued.length > MAX_QUEUED_EVENTS) queued.splice(0, queued.length - MAX_QUEUED_EVENTS);
      flush();
    },
    eventsOnLane(contextId) {
      flush();
      // Evaluations in one document run in the order sent: this one comes after every batch above.
      if (ours.has(contextId)) answer(contextId, -2, '');
    },
    laneAddress: lanePort === undefined ? undefined : `ws://127.0.0.1:${lanePort}`,
  };
};
