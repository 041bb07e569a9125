/**
 * The sandbox's WebSocket API v4 (spot) at ws://127.0.0.1:PORT/ws/v4/ on the HTTP server's own port
 * (api-facts §8). One `ws` WebSocketServer in noServer mode takes the HTTP server's `upgrade` events
 * for that path; everything else is refused with 404.
 *
 * Requests: `{time, id?, channel, event: "subscribe"|"unsubscribe", payload, auth?}` and
 * `{time, channel: "spot.ping"}`. Answers: `{time, time_ms, id?, channel, event, result}`, an
 * error adds `error: {code, message}` (1 not a JSON object, 2 bad argument/unknown channel,
 * 4/6/11 authentication, see auth.ts). Garbage never closes the socket; a frame over MAX_FRAME
 * bytes, a flood of requests, a client too far behind to read or one that misses a ping period does.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import type { SandboxContext } from '../context';
import type { StreamFaults } from '../http/faults';
import type { SpotModule } from '../spot/index';
import { authenticateChannel, channelAuthErrorMessage } from './auth';
import { BAD_REQUEST, Channels, isChannel, isPrivateChannel, type Subscriber } from './channels';

export const WS_PATH = '/ws/v4/';
/** Largest request frame accepted (a subscribe is well under 1 KiB). */
export const MAX_FRAME = 16 * 1024;
const BAD_FORMAT = 1;
/** Requests per connection and second before the connection is closed. */
const MAX_REQUESTS_PER_SECOND = 100;
/** A client this many bytes behind in reading is dropped (it would only grow). */
const MAX_BUFFERED = 16 * 1024 * 1024;
const MAX_CONNECTIONS = 2_000;

export interface StreamServerOptions {
  /** Server ping period; a connection that answered neither of two pings is closed. Default 20 s. */
  readonly pingMs?: number;
}

interface Connection extends Subscriber {
  /** The connection's id in every answer: 16 hex digits, as the platform's `conn_id` is. */
  readonly connId: string;
  readonly ws: WebSocket;
  readonly ip: string;
  alive: boolean;
  windowStart: number;
  requests: number;
  /** The user of the last authenticated private subscription (unsubscribe may omit auth). */
  userId: number | undefined;
}

export class StreamServer {
  private readonly wss: WebSocketServer;
  private readonly channels: Channels | undefined;
  private readonly connections = new Set<Connection>();
  private readonly pingTimer: NodeJS.Timeout;
  private nextId = 1;
  private closed = false;
  private server: Server | undefined;

  constructor(
    private readonly deps: {
      ctx: SandboxContext;
      spot: SpotModule | undefined;
      faults: StreamFaults;
      /** Refuses an upgrade whose Host header is not this server on loopback (absent: no check). */
      hostAllowed?: (host: string | undefined) => boolean;
    },
    options: StreamServerOptions = {},
  ) {
    this.wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME, perMessageDeflate: false });
    const { ctx, spot } = deps;
    this.channels =
      spot === undefined
        ? undefined
        : new Channels({
            exchange: spot.exchange,
            market: spot.market,
            ledger: ctx.ledger,
            clock: ctx.clock,
            faults: deps.faults,
          });
    this.pingTimer = setInterval(() => this.heartbeat(), options.pingMs ?? 20_000);
    this.pingTimer.unref();
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  attach(server: Server): void {
    this.server = server;
    server.on('upgrade', this.onUpgrade);
  }

  /** Cuts every connection at once, as a network failure would (control API POST /sandbox/stream/cut). */
  cut(): number {
    const n = this.connections.size;
    for (const conn of [...this.connections]) conn.ws.terminate();
    return n;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.pingTimer);
    this.server?.off('upgrade', this.onUpgrade);
    for (const conn of [...this.connections]) conn.ws.close(1001, 'server shutting down');
    // Give close frames a moment, then make sure nothing stays open.
    await new Promise((resolve) => setTimeout(resolve, this.connections.size > 0 ? 50 : 0));
    for (const conn of [...this.connections]) conn.ws.terminate();
    this.channels?.close();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  // ---------------------------------------------------------------------------------------------

  private readonly onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', () => socket.destroy());
    const path = (req.url ?? '').split('?')[0];
    const refuse = (status: string) => {
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      socket.destroy();
    };
    if (this.deps.hostAllowed && !this.deps.hostAllowed(req.headers.host)) refuse('403 Forbidden');
    else if (path !== WS_PATH && path !== '/ws/v4') refuse('404 Not Found');
    else if (this.closed || this.connections.size >= MAX_CONNECTIONS) refuse('503 Service Unavailable');
    else this.wss.handleUpgrade(req, socket, head, (ws) => this.onConnection(ws, req));
  };

  private onConnection(ws: WebSocket, req: IncomingMessage): void {
    const raw = req.socket.remoteAddress ?? '';
    const id = this.nextId++;
    const conn: Connection = {
      id,
      connId: randomBytes(8).toString('hex'),
      ws,
      ip: raw.startsWith('::ffff:') ? raw.slice(7) : raw,
      alive: true,
      windowStart: Date.now(),
      requests: 0,
      userId: undefined,
      send: (text: string) => {
        if (ws.readyState !== WebSocket.OPEN) return;
        if (ws.bufferedAmount > MAX_BUFFERED) {
          this.deps.ctx.log('stream client too slow, dropped', { conn: conn.id });
          ws.terminate();
          return;
        }
        ws.send(text);
      },
    };
    this.connections.add(conn);
    ws.on('pong', () => {
      conn.alive = true;
    });
    ws.on('message', (data, isBinary) => {
      conn.alive = true;
      try {
        this.onMessage(conn, data, isBinary);
      } catch (error) {
        // A bug answering one request must not take the sandbox down.
        this.deps.ctx.log('stream request failed', { error: (error as Error).message });
        this.reply(conn, {}, { error: { code: 3, message: 'server error' } });
      }
    });
    ws.on('error', () => ws.terminate());
    ws.on('close', () => {
      this.connections.delete(conn);
      this.channels?.drop(conn);
    });
  }

  private onMessage(conn: Connection, data: RawData, isBinary: boolean): void {
    const now = Date.now();
    if (now - conn.windowStart >= 1000) {
      conn.windowStart = now;
      conn.requests = 0;
    }
    if (++conn.requests > MAX_REQUESTS_PER_SECOND) {
      conn.ws.close(1008, 'too many requests');
      return;
    }
    let request: unknown;
    try {
      request = JSON.parse(isBinary ? Buffer.from(data as Buffer).toString('utf8') : data.toString());
    } catch {
      this.reply(conn, {}, { error: { code: BAD_FORMAT, message: 'Invalid request body format: not JSON' } });
      return;
    }
    if (typeof request !== 'object' || request === null || Array.isArray(request)) {
      this.reply(conn, {}, { error: { code: BAD_FORMAT, message: 'Invalid request body format: not an object' } });
      return;
    }
    const r = request as Record<string, unknown>;
    const head = {
      id: typeof r.id === 'number' || typeof r.id === 'string' ? r.id : undefined,
      channel: typeof r.channel === 'string' ? r.channel.slice(0, 64) : '',
      event: typeof r.event === 'string' ? r.event.slice(0, 32) : '',
    };
    if (head.channel === 'spot.ping') {
      this.reply(conn, { ...head, channel: 'spot.pong', event: '' }, { result: null });
      return;
    }
    const fail = (code: number, message: string) => this.reply(conn, head, { error: { code, message } });
    if (head.channel === '') {
      fail(BAD_REQUEST, 'channel is required');
      return;
    }
    if (!isChannel(head.channel) || this.channels === undefined) {
      fail(BAD_REQUEST, `Invalid argument: unknown channel ${head.channel}`);
      return;
    }
    if (head.event !== 'subscribe' && head.event !== 'unsubscribe') {
      fail(BAD_REQUEST, 'Invalid argument: event must be subscribe or unsubscribe');
      return;
    }
    // The market's history and simulation start before anyone reads them (a no-op once started).
    this.deps.spot?.start();
    let userId: number | undefined;
    if (isPrivateChannel(head.channel)) {
      if (head.event === 'unsubscribe' && r.auth === undefined && conn.userId !== undefined) {
        userId = conn.userId;
      } else {
        const auth = authenticateChannel(
          { users: this.deps.ctx.users, clock: this.deps.ctx.clock },
          { channel: head.channel, event: head.event, time: r.time, auth: r.auth },
          conn.ip,
        );
        if (!auth.ok) {
          fail(auth.code, channelAuthErrorMessage(auth));
          return;
        }
        userId = auth.caller.userId;
        conn.userId = userId;
      }
    }
    const outcome =
      head.event === 'subscribe'
        ? this.channels.subscribe(conn, head.channel, r.payload, userId)
        : this.channels.unsubscribe(conn, head.channel, r.payload, userId);
    if (!outcome.ok) {
      fail(outcome.code, outcome.message);
      return;
    }
    this.reply(conn, head, { result: { status: 'success' } });
    outcome.afterAck?.();
  }

  private reply(
    conn: Connection,
    head: { id?: unknown; channel?: string; event?: string },
    body: { result?: unknown; error?: { code: number; message: string } },
  ): void {
    const ms = this.deps.ctx.clock.now();
    const message: Record<string, unknown> = { time: Math.floor(ms / 1000), time_ms: ms };
    if (head.id !== undefined) message.id = head.id;
    message.conn_id = conn.connId;
    message.channel = head.channel ?? '';
    message.event = head.event ?? '';
    if (body.error !== undefined) {
      message.error = body.error;
      message.result = { status: 'fail' };
    } else {
      message.result = body.result;
    }
    conn.send(JSON.stringify(message));
  }

  private heartbeat(): void {
    for (const conn of this.connections) {
      if (!conn.alive) {
        conn.ws.terminate();
        continue;
      }
      conn.alive = false;
      if (conn.ws.readyState === WebSocket.OPEN) conn.ws.ping();
    }
  }
}
