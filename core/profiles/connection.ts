/**
 * One live connection to a platform address with one key: keep-alive transport, clock, rate
 * limiter, signed client and the typed PlatformApi. A profile switch closes it and builds a new
 * one, so nothing (limiter budget, clock offset, sockets) leaks between profiles.
 */
import { ApiClient, type RequestRecord } from '../api/client';
import { PlatformClock } from '../api/clock';
import { RateLimiter } from '../api/limiter';
import { createPlatformApi, type PlatformApi } from '../api/platform';
import { classifyRequest } from '../api/rateRules';
import { PlatformStream, type StreamState } from '../api/stream';
import { createTransport, type Transport } from '../api/transport';
import type { StoredKey } from '../keychain/keyStore';
import { type Scheduler, systemScheduler } from '../scheduler';

export interface ConnectionOptions {
  readonly baseUrl: string;
  readonly credentials: StoredKey | undefined;
  /**
   * The core's time: the limiter's windows, the platform clock's monotonic reference, the stream's
   * backoff (default: the system's, for a connection outside a core).
   */
  readonly scheduler?: Scheduler;
  readonly timeoutMs?: number;
  /** Tests only: multiplies every rate-limit window (e.g. 0.01 with a sandbox that does not enforce). */
  readonly limiterScale?: number;
  readonly onRequest?: (record: RequestRecord) => void;
  readonly onLimiterChange?: () => void;
  readonly onClockResync?: (offsetMs: number) => void;
  /** The address's WebSocket API (undefined: it has none the app knows of; REST only). */
  readonly streamUrl?: string;
  readonly onStreamState?: (state: StreamState, reason?: string) => void;
  readonly log?: (line: string) => void;
}

export class PlatformConnection {
  readonly clock: PlatformClock;
  readonly limiter: RateLimiter;
  readonly client: ApiClient;
  readonly api: PlatformApi;
  private readonly transport: Transport;
  private credentials: StoredKey | undefined;
  private streamInstance: PlatformStream | undefined;
  private readonly scheduler: Scheduler;

  constructor(private readonly options: ConnectionOptions) {
    this.credentials = options.credentials ? { ...options.credentials } : undefined;
    this.transport = createTransport();
    this.scheduler = options.scheduler ?? systemScheduler();
    this.clock = new PlatformClock(this.scheduler);
    const scale = options.limiterScale ?? 1;
    this.limiter = new RateLimiter({
      scheduler: this.scheduler,
      ...(options.onLimiterChange ? { onChange: options.onLimiterChange } : {}),
      // Scaled windows are for a sandbox that does not enforce limits: the jitter margin (150 ms,
      // meant for real windows) would otherwise become the whole window and cap the rate.
      ...(scale === 1 ? {} : { marginMs: () => 0 }),
    });
    this.client = new ApiClient({
      baseUrl: options.baseUrl,
      credentials: () => this.credentials,
      transport: this.transport,
      limiter: this.limiter,
      classify: (method, path, query, body, isPublic) => {
        const rule = classifyRequest(method, path, query, body, isPublic);
        return scale === 1 ? rule : { ...rule, windowMs: Math.max(1, Math.round(rule.windowMs * scale)) };
      },
      clock: this.clock,
      scheduler: this.scheduler,
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.onRequest ? { onRequest: options.onRequest } : {}),
      ...(options.onClockResync ? { onClockResync: options.onClockResync } : {}),
    });
    this.api = createPlatformApi(this.client);
  }

  get hasKey(): boolean {
    return this.credentials !== undefined;
  }

  /** The app lock: forgets the key and secret; signed requests fail with NO_KEY until restored. */
  forgetCredentials(): void {
    this.credentials = undefined;
  }

  /** After unlocking: the key as read again from the keychain. */
  restoreCredentials(credentials: StoredKey | undefined): void {
    this.credentials = credentials ? { ...credentials } : undefined;
  }

  /** The WebSocket stream of this address (opened by its first subscription), when it has one. */
  stream(): PlatformStream | undefined {
    const url = this.options.streamUrl;
    if (url === undefined) return undefined;
    this.streamInstance ??= new PlatformStream({
      url,
      clock: this.clock,
      scheduler: this.scheduler,
      // Read at each (re)subscription: the lock's forgetCredentials applies to the stream too.
      credentials: () => this.credentials,
      ...(this.options.onStreamState ? { onState: this.options.onStreamState } : {}),
      ...(this.options.log ? { log: this.options.log } : {}),
    });
    return this.streamInstance;
  }

  close(): void {
    this.streamInstance?.close();
    this.limiter.clear('the profile was switched or the app is closing');
    this.transport.close();
  }
}
