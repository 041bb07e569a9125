/**
 * The platform's WebSocket API v4 (spot), as main uses it: one socket per profile connection,
 * opened on the first subscription, kept alive with `spot.ping`, re-opened with backoff after a
 * cut, and every subscription sent again on each (re)open. Private channels are signed with the
 * profile's key (`SIGN = HMAC-SHA512(secret, "channel=…&event=…&time=…")`, api-facts §8) in main;
 * the renderer never sees the socket.
 *
 * A subscription learns when it is (re)subscribed — a book must then be rebuilt from a REST
 * snapshot, since updates may have been missed while the socket was down — and when the stream
 * stops, so its user can fall back to REST polling.
 */
import WebSocket from 'ws';
import { BACKGROUND, type Scheduler, systemScheduler, type Timer } from '../scheduler';
import type { Credentials } from './client';
import type { PlatformClock } from './clock';
import { signChannel } from './sign';

export type StreamState = 'connecting' | 'open' | 'closed';

export interface StreamMessage {
  readonly time?: number;
  readonly time_ms?: number;
  readonly id?: number;
  readonly channel: string;
  readonly event: string;
  readonly result?: unknown;
  readonly error?: { readonly code: number; readonly message: string } | null;
}

export interface SubscriptionHandlers {
  /** Every `update` / `all` message of the channel (filter by pair yourself: one channel, many payloads). */
  readonly onUpdate: (result: unknown, message: StreamMessage) => void;
  /** The platform acknowledged the subscription (again, after a reconnect). */
  readonly onSubscribed?: () => void;
  /** The socket closed or the platform refused the subscription: updates stop until onSubscribed. */
  readonly onDown?: (reason: string) => void;
}

export interface StreamOptions {
  /** e.g. wss://api.gateio.ws/ws/v4/ */
  readonly url: string;
  readonly clock: PlatformClock;
  /** The keep-alive period and the reconnect backoff run on its monotonic clock (default: the system's). */
  readonly scheduler?: Scheduler;
  readonly credentials?: () => Credentials | undefined;
  readonly onState?: (state: StreamState, reason?: string) => void;
  readonly log?: (line: string) => void;
  /** Keep-alive period (default 10 s); the socket is dropped after 3 periods without a message. */
  readonly pingMs?: number;
  /** Reconnect backoff (default 500 ms doubling to 15 s). */
  readonly minBackoffMs?: number;
  readonly maxBackoffMs?: number;
}

interface Subscription {
  readonly channel: string;
  readonly payload: readonly string[];
  readonly private: boolean;
  readonly handlers: SubscriptionHandlers;
  /** Request id of the last subscribe sent, to match its answer. */
  requestId: number;
}

export class PlatformStream {
  private socket: WebSocket | undefined;
  private state: StreamState = 'closed';
  private readonly subscriptions = new Set<Subscription>();
  private nextId = 1;
  private backoff: number;
  private reconnectTimer: Timer | undefined;
  private pingTimer: Timer | undefined;
  private lastMessageAt = 0;
  private closed = false;

  private readonly scheduler: Scheduler;

  constructor(private readonly options: StreamOptions) {
    this.scheduler = options.scheduler ?? systemScheduler();
    this.backoff = options.minBackoffMs ?? 500;
  }

  get current(): StreamState {
    return this.state;
  }

  /** Subscribes (opening the socket if needed); the returned function unsubscribes. */
  subscribe(
    channel: string,
    payload: readonly string[],
    handlers: SubscriptionHandlers,
    options: { readonly private?: boolean } = {},
  ): () => void {
    const subscription: Subscription = {
      channel,
      payload,
      private: options.private === true,
      handlers,
      requestId: 0,
    };
    this.subscriptions.add(subscription);
    if (this.state === 'open') this.sendSubscribe(subscription);
    else this.connect();
    return () => {
      if (!this.subscriptions.delete(subscription)) return;
      if (this.state === 'open') this.send(this.request(channel, 'unsubscribe', payload, subscription.private));
      if (this.subscriptions.size === 0) this.disconnect('no subscriptions left');
    };
  }

  close(): void {
    this.closed = true;
    for (const subscription of this.subscriptions) subscription.handlers.onDown?.('the stream was closed');
    this.subscriptions.clear();
    this.disconnect('closed');
  }

  // ---------------------------------------------------------------------------------------------

  private connect(): void {
    if (this.closed || this.socket !== undefined || this.reconnectTimer !== undefined) return;
    this.setState('connecting');
    const socket = new WebSocket(this.options.url, { handshakeTimeout: 10_000, perMessageDeflate: false });
    this.socket = socket;
    socket.on('open', () => {
      if (this.socket !== socket) return;
      this.backoff = this.options.minBackoffMs ?? 500;
      this.lastMessageAt = this.scheduler.now();
      this.setState('open');
      for (const subscription of this.subscriptions) this.sendSubscribe(subscription);
      this.startPing();
    });
    socket.on('message', (data) => {
      if (this.socket !== socket) return;
      this.lastMessageAt = this.scheduler.now();
      let message: StreamMessage;
      try {
        message = JSON.parse(data.toString()) as StreamMessage;
      } catch {
        this.options.log?.('stream: a message that is not JSON was ignored');
        return;
      }
      this.dispatch(message);
    });
    socket.on('close', () => this.dropped(socket, 'the connection closed'));
    socket.on('error', (error) => this.dropped(socket, error.message));
  }

  private dropped(socket: WebSocket, reason: string): void {
    if (this.socket !== socket) return;
    this.socket = undefined;
    this.stopPing();
    socket.removeAllListeners();
    socket.on('error', () => {}); // a late error of a dropped socket must not crash main
    socket.terminate();
    this.setState('closed', reason);
    for (const subscription of this.subscriptions) subscription.handlers.onDown?.(reason);
    if (this.closed || this.subscriptions.size === 0) return;
    const delay = this.backoff;
    this.backoff = Math.min(this.options.maxBackoffMs ?? 15_000, this.backoff * 2);
    this.reconnectTimer = this.scheduler.setTimeout(
      () => {
        this.reconnectTimer = undefined;
        this.connect();
      },
      delay,
      BACKGROUND,
    );
  }

  private disconnect(reason: string): void {
    this.reconnectTimer?.cancel();
    this.reconnectTimer = undefined;
    const socket = this.socket;
    if (socket === undefined) return;
    this.socket = undefined;
    this.stopPing();
    socket.removeAllListeners();
    socket.on('error', () => {});
    socket.close();
    this.setState('closed', reason);
  }

  private dispatch(message: StreamMessage): void {
    if (message.channel === 'spot.pong') return;
    const matching = [...this.subscriptions].filter((s) => s.channel === message.channel);
    if (message.event === 'subscribe') {
      for (const subscription of matching) {
        if (message.id !== undefined && message.id !== subscription.requestId) continue;
        if (message.error) subscription.handlers.onDown?.(`refused: ${message.error.message}`);
        else subscription.handlers.onSubscribed?.();
      }
      return;
    }
    if (message.error) {
      this.options.log?.(`stream: ${message.channel} error ${message.error.code} ${message.error.message}`);
      return;
    }
    if (message.event !== 'update' && message.event !== 'all') return;
    for (const subscription of matching) subscription.handlers.onUpdate(message.result, message);
  }

  private sendSubscribe(subscription: Subscription): void {
    const request = this.request(subscription.channel, 'subscribe', subscription.payload, subscription.private);
    subscription.requestId = request.id;
    this.send(request);
  }

  private request(channel: string, event: string, payload: readonly string[], signed: boolean) {
    const time = Math.floor(this.options.clock.now() / 1000);
    const id = this.nextId++;
    const credentials = signed ? this.options.credentials?.() : undefined;
    return {
      time,
      id,
      channel,
      event,
      payload,
      ...(credentials
        ? {
            auth: {
              method: 'api_key',
              KEY: credentials.key,
              SIGN: signChannel(credentials.secret, channel, event, time),
            },
          }
        : {}),
    };
  }

  private send(request: object): void {
    const socket = this.socket;
    if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(request));
  }

  private startPing(): void {
    const every = this.options.pingMs ?? 10_000;
    this.pingTimer = this.scheduler.setInterval(
      () => {
        const socket = this.socket;
        if (socket === undefined) return;
        // A socket that says nothing for three periods is dead even if TCP has not noticed.
        if (this.scheduler.now() - this.lastMessageAt > 3 * every) {
          this.dropped(socket, 'no answer to pings');
          return;
        }
        this.send({ time: Math.floor(this.options.clock.now() / 1000), channel: 'spot.ping' });
      },
      every,
      BACKGROUND,
    );
  }

  private stopPing(): void {
    this.pingTimer?.cancel();
    this.pingTimer = undefined;
  }

  private setState(state: StreamState, reason?: string): void {
    if (this.state === state) return;
    this.state = state;
    this.options.onState?.(state, reason);
  }
}
