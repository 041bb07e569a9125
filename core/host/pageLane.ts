/**
 * The Chromium shell's direct channel, served by the core's own process (issue 26;
 * docs/security.md, "The Chromium shell's direct channel"): a WebSocket on 127.0.0.1 on which the
 * app's page calls the core without the shell's process in between. The shell chooses the port
 * (the page's CSP names it, and a restarted core listens on it again) and hands out the keys: only
 * after checking a document as ours (our origin, top-level frame, as the browser names it) does it
 * tell this process a key and who it is for, and give the document that key by evaluation.
 *
 * A connection must come from our origin (`Origin`, which a page cannot set) to this address by its
 * own name (`Host`: a DNS-rebinding page sends its own), and its first message must be a key the
 * shell told us about and nobody used; the key is then spent, and every call on the connection is
 * the call of the document it was handed to — the core's dispatcher checks that sender and
 * validates every payload as for any call. The core's first message is the key's proof, handed to
 * the page with it: the page sends no call before it reads the proof, so a process that took the
 * port first gets a spent key and nothing else. The shell closes the lane when that document goes.
 */
import type { IncomingMessage } from 'node:http';
import { type WebSocket, WebSocketServer } from 'ws';
import type { SenderInfo } from '../ipc/dispatcher';
import { BACKGROUND, type Scheduler } from '../scheduler';
import type { LaneKey, WindowPort } from './messages';

/** A message larger than this closes the lane (every input is capped far below). */
const MAX_LANE_MESSAGE_BYTES = 16 * 1024 * 1024;
/** How long a new connection has to name its key. */
const LANE_KEY_TIMEOUT_MS = 5_000;
/**
 * How long a key named before the shell's word of it may wait for that word. The shell tells the
 * core before it hands the key over, so it is normally here first; a key nobody was handed waits
 * this long and is refused.
 */
const UNTOLD_KEY_WAIT_MS = 1_000;
/** Calls a connection may send behind a key the core has not been told of yet. */
const MAX_WAITING_MESSAGES = 100;

export interface PageLanes {
  /** A key the shell handed to one document of ours: its connection's calls are `sender`'s. */
  expect(lane: LaneKey, windowId: number, sender: SenderInfo): void;
  /** That document is gone: its lane closes and its key, if unused, is void. */
  close(windowId: number): void;
  stop(): Promise<void>;
}

/**
 * A lane as the core's window channel sees a port: JSON text each way, one message per frame.
 * `received` are the messages that came before the lane was attached (right behind the key).
 */
const asWindowPort = (socket: WebSocket, received: readonly string[]): WindowPort => {
  let onMessage: ((event: { data: unknown }) => void) | undefined;
  const deliver = (text: string): void => {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      socket.terminate(); // not ours
      return;
    }
    onMessage?.({ data });
  };
  return {
    postMessage: (message) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
    },
    on: ((event: 'message' | 'close', listener: (event: { data: unknown }) => void) => {
      if (event === 'close') socket.on('close', () => (listener as () => void)());
      else onMessage = listener;
    }) as WindowPort['on'],
    start: () => {
      for (const text of received) deliver(text);
      socket.on('message', (data) => deliver(String(data)));
    },
    close: () => socket.terminate(),
  };
};

/**
 * Listens on `port` and attaches each keyed connection as a window of the core. Resolves with
 * undefined when the port cannot be had (the page's calls then keep the shell's relay).
 */
export const startPageLanes = async (options: {
  readonly port: number;
  readonly isTrustedOrigin: (origin: string) => boolean;
  readonly attach: (windowId: number, sender: SenderInfo, port: WindowPort) => void;
  /** The core's time (core/scheduler.ts): the waits for a connection's key. */
  readonly scheduler: Scheduler;
}): Promise<PageLanes | undefined> => {
  const { scheduler } = options;
  /** Keys told by the shell and not used yet → whose. */
  const keys = new Map<string, { readonly windowId: number; readonly sender: SenderInfo; readonly proof: string }>();
  /** Connections that named a key the shell has not told us of yet (its message may still be on its way). */
  const waiting = new Map<string, () => void>();
  const open = new Map<number, WebSocket>();
  const server = new WebSocketServer({
    host: '127.0.0.1',
    port: options.port,
    perMessageDeflate: false,
    maxPayload: MAX_LANE_MESSAGE_BYTES,
    verifyClient: ({ origin, req }: { origin: string; req: IncomingMessage }) =>
      req.headers.host === `127.0.0.1:${options.port}` && options.isTrustedOrigin(origin),
  });
  const listening = await new Promise<boolean>((resolve) => {
    server.once('listening', () => resolve(true));
    server.once('error', () => resolve(false));
  });
  if (!listening) return undefined;
  // Once listening, a failure to accept one connection (too many open files) refuses that
  // connection; unheard, the server's 'error' would end the core's process.
  server.on('error', () => {});

  /** Attaches a connection to the document its key was handed to (or drops it: no such key). */
  const take = (socket: WebSocket, key: string, received: readonly string[]): void => {
    const owner = keys.get(key);
    keys.delete(key); // one connection per key
    if (owner === undefined) {
      socket.terminate();
      return;
    }
    open.get(owner.windowId)?.terminate();
    open.set(owner.windowId, socket);
    // First, what tells the page it reached the core (it sends no call before).
    socket.send(owner.proof);
    socket.on('close', () => {
      if (open.get(owner.windowId) === socket) open.delete(owner.windowId);
    });
    options.attach(owner.windowId, owner.sender, asWindowPort(socket, received));
  };

  server.on('connection', (socket) => {
    socket.on('error', () => socket.terminate());
    // A connection that does not name a known key in time is not one of ours.
    // Background: the socket, not its deadline, is what keeps the process alive.
    const unnamed = scheduler.setTimeout(() => socket.terminate(), LANE_KEY_TIMEOUT_MS, BACKGROUND);
    socket.on('close', () => unnamed.cancel());
    /** Calls sent right behind the key, while the shell's word of it may still be on its way. */
    const received: string[] = [];
    let key: string | undefined;
    const collect = (data: unknown): void => {
      if (key !== undefined) {
        received.push(String(data));
        if (received.length > MAX_WAITING_MESSAGES) socket.terminate();
        return;
      }
      key = String(data);
      const named = key;
      const attach = () => {
        unnamed.cancel();
        socket.off('message', collect);
        take(socket, named, received);
      };
      if (keys.has(named)) attach();
      else if (waiting.has(named)) socket.terminate();
      else {
        unnamed.cancel();
        const refuse = scheduler.setTimeout(() => socket.terminate(), UNTOLD_KEY_WAIT_MS, BACKGROUND);
        socket.once('close', () => refuse.cancel());
        waiting.set(named, () => {
          refuse.cancel();
          attach();
        });
        socket.once('close', () => waiting.delete(named));
      }
    };
    socket.on('message', collect);
  });

  return {
    expect: ({ key, proof }, windowId, sender) => {
      keys.set(key, { windowId, sender, proof });
      const connection = waiting.get(key);
      waiting.delete(key);
      connection?.();
    },
    close: (windowId) => {
      for (const [key, owner] of keys) if (owner.windowId === windowId) keys.delete(key);
      open.get(windowId)?.terminate();
      open.delete(windowId);
    },
    stop: async () => {
      for (const socket of open.values()) socket.terminate();
      for (const socket of server.clients) socket.terminate();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
};
