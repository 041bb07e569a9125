/**
 * The fallback shell's `window.desk`: the same named operations the Electron preload exposes,
 * backed by the same core. The page reaches this process through one DevTools-protocol binding
 * (`Runtime.addBinding` on the app page's own session) that the page script captures in a closure
 * and removes from `window`, so page code sees only `window.desk`; answers and events go back by
 * evaluating a call in that document. Once our own document has said hello, it also gets a direct
 * channel to this process — a WebSocket on loopback, a fraction of the DevTools round trip (see
 * "The direct channel" below) — and its calls and their answers take it from then on. Answers are
 * JSON text made once, in the core's process: this process hands the string on without parsing it.
 *
 * Trust: who calls is what the browser says, never what the page says — the execution context the
 * call came from, its frame, whether that is the top-level frame and the frame's URL, all tracked
 * from the protocol's own events; a direct channel belongs to the one document it was handed to.
 * Only the app's page gets the binding (the trusted confirmation and the save dialog are other
 * pages); every frame of it has `window.desk`, and the core refuses any that is not our own
 * top-level document.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CDPSession, Page } from 'playwright-core';
import { type WebSocket, WebSocketServer } from 'ws';
import type { RemoteCore } from '../core/host/remoteCore';
import type { SenderInfo } from '../core/ipc/dispatcher';
import type { EventEntry } from '../shared/ipc/channel';
import { CORE_NOT_RUNNING, readCallOptions } from '../shared/ipc/deskCalls';
import { fail } from '../shared/ipc/result';

export const BRIDGE_BINDING = '__treasuryDeskBridge';
/** Events kept for a document that is not there right now (e.g. while it reloads). */
const MAX_QUEUED_EVENTS = 500;
/** A message on the direct channel larger than this closes it (every input is capped far below). */
const MAX_LANE_MESSAGE_BYTES = 16 * 1024 * 1024;
/** How long a new connection to the direct channel has to name its key. */
const LANE_KEY_TIMEOUT_MS = 5_000;

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
  // The direct channel to the shell's process, once the shell handed this document its key (only
  // our own top-level document gets one); until it is open, messages go through the binding.
  let lane;
  const openLane = ({ port, key }) => {
    const socket = new WebSocket('ws://127.0.0.1:' + port);
    socket.onopen = () => { socket.send(key); lane = socket; };
    // An answer is its call's id, a space, and the answer's JSON text.
    socket.onmessage = (event) => {
      const text = String(event.data);
      const space = text.indexOf(' ');
      answered(Number(text.slice(0, space)), text.slice(space + 1));
    };
    socket.onclose = () => { if (lane === socket) lane = undefined; };
  };
  const post = (text) => { if (lane !== undefined) lane.send(text); else send(text); };
  // Answers arrive as JSON text (made once, in the core); 0 carries a batch of events, -1 the lane's key.
  Object.defineProperty(globalThis, ${JSON.stringify(deliver)}, {
    value: (id, text) => {
      if (id === 0) { emit(JSON.parse(text)); return; }
      if (id === -1) { openLane(JSON.parse(text)); return; }
      answered(id, text);
    },
  });
  const call = (name, input, options) => new Promise((resolve) => {
    const id = ++last;
    pending.set(id, resolve);
    // Options are plain data: a call id (for cancel) and a timeout. No input is left out (not null).
    const message = [id, 'call', name, options === undefined ? null : { callId: options.callId, timeoutMs: options.timeoutMs }];
    if (input !== undefined) message.push(input);
    post(JSON.stringify(message));
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
  desk.cancel = (callId) => { post(JSON.stringify([0, 'cancel', String(callId)])); };
  Object.defineProperty(globalThis, 'desk', { value: Object.freeze(desk), enumerable: true });
  send(JSON.stringify([0, 'hello']));
})();`;

export interface Bridge {
  /** Sends (already validated) events, in order, to our own document. */
  send(events: readonly EventEntry[]): void;
  /** The direct channel's address, for the page's CSP (`connect-src`): nothing else is reachable. */
  readonly laneAddress: string;
  /** Stops the direct channel (the shell is closing). */
  close(): Promise<void>;
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
    readonly core: Pick<RemoteCore, 'dispatchText'>;
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
      offerLane(contextId);
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

  // The direct channel (issue 26; docs/security.md): a round trip through the DevTools protocol costs about a
  // millisecond, a WebSocket on loopback a fraction of it. It carries the same messages as the
  // binding, and each lane belongs to one document the browser named: its calls are that
  // document's (frames.senderOf), as on the binding, whatever the page says. Only a page at our
  // origin can open one (the browser sets the Origin header, a page cannot), and only with a key
  // this process handed, by evaluation, to one document it had checked as ours — good for one
  // connection; a web page elsewhere, another frame or another process gets nothing.
  /** Keys handed out and not used yet → the document each was handed to. */
  const laneKeys = new Map<string, number>();
  /** Each document's open lane. */
  const lanes = new Map<number, WebSocket>();
  const laneServer = new WebSocketServer({
    host: '127.0.0.1',
    port: 0,
    perMessageDeflate: false,
    maxPayload: MAX_LANE_MESSAGE_BYTES,
    // Our origin (the Origin header), asked by this address's own name (a DNS-rebinding page sends its own).
    verifyClient: ({ origin, req }: { origin: string; req: IncomingMessage }) =>
      req.headers.host === `127.0.0.1:${port}` && options.isTrustedSender({ url: `${origin}/`, isMainFrame: true }),
  });
  await once(laneServer, 'listening');
  const { port } = laneServer.address() as AddressInfo;
  const offerLane = (contextId: number): void => {
    const key = randomBytes(24).toString('base64url');
    laneKeys.set(key, contextId);
    answer(contextId, -1, JSON.stringify({ port, key }));
  };
  laneServer.on('connection', (socket) => {
    let contextId: number | undefined;
    // A connection that does not name its key at once is not one of ours.
    const unnamed = setTimeout(() => socket.terminate(), LANE_KEY_TIMEOUT_MS);
    socket.on('message', (data) => {
      const text = String(data);
      if (contextId !== undefined) {
        const owner = contextId;
        receive(owner, text, (id, answerText) => {
          if (socket.readyState === socket.OPEN) socket.send(`${id} ${answerText}`);
        });
        return;
      }
      clearTimeout(unnamed);
      const keyOwner = laneKeys.get(text);
      laneKeys.delete(text); // one connection per key, right or wrong
      if (keyOwner === undefined || !ours.has(keyOwner)) {
        socket.terminate();
        return;
      }
      contextId = keyOwner;
      lanes.get(keyOwner)?.terminate();
      lanes.set(keyOwner, socket);
    });
    socket.on('close', () => {
      clearTimeout(unnamed);
      if (contextId !== undefined && lanes.get(contextId) === socket) lanes.delete(contextId);
    });
    socket.on('error', () => socket.terminate());
  });

  const forget = (contextId: number): void => {
    // The document is gone: what it named can stop, and events wait for the next one.
    for (const controller of named.get(contextId)?.values() ?? []) controller.abort();
    named.delete(contextId);
    ours.delete(contextId);
    lanes.get(contextId)?.terminate();
    lanes.delete(contextId);
    for (const [key, owner] of laneKeys) if (owner === contextId) laneKeys.delete(key);
  };
  session.on('Runtime.executionContextDestroyed', ({ executionContextId }) => forget(executionContextId));
  session.on('Runtime.executionContextsCleared', () => {
    for (const contextId of [...named.keys(), ...ours, ...lanes.keys()]) forget(contextId);
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
    laneAddress: `ws://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of lanes.values()) socket.terminate();
      await new Promise<void>((done) => laneServer.close(() => done()));
    },
  };
};
