/**
 * The signed request pipeline: limiter slot → sign with the platform's time → send over keep-alive
 * → parse and validate the answer (zod) → typed result or ApiError. Every request carries an
 * X-Client-Request-Id that ends up in logs, the audit log and error details.
 *
 * Automatic retries only where the request certainly did nothing: a REQUEST_EXPIRED (clock
 * re-measured, once), a 429 (after the platform's reset time), and reads (GET) that were cut or
 * got a 5xx. Writes with an unknown outcome are never resent here; the movements journal resolves
 * them by asking the platform.
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { PlatformErrorBody } from '../../shared/platform/api/common';
import { ServerTime } from '../../shared/platform/api/spot';
import { type Scheduler, systemScheduler } from '../scheduler';
import { ApiError } from './apiError';
import type { PlatformClock } from './clock';
import { type RateLimiter, type RateRule, SlotWaitTooLong } from './limiter';
import { buildQuery, sign } from './sign';
import { type ResponseHeaders, type Transport, TransportError } from './transport';

export type QueryParams = Readonly<Record<string, string | number | boolean | undefined>>;

export interface Credentials {
  readonly key: string;
  readonly secret: string;
}

export interface RequestSpec<S extends z.ZodType | undefined> {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path after /api/v4, e.g. "/wallet/deposits". */
  readonly path: string;
  readonly query?: QueryParams;
  readonly body?: unknown;
  /** Private operations are signed. */
  readonly auth: boolean;
  /** Schema of a 2xx answer; undefined for answers without body (204). */
  readonly schema: S;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  /** X-Client-Request-Id to use (default: a new one). */
  readonly requestId?: string;
  /** Why the app sent it, when not on a person's behalf (e.g. "connection check"), for the audit log. */
  readonly purpose?: string;
  /** Extra headers (never part of the signature). */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * A read whose answer the app is about to ask for again (the connection check's read probes: the
   * screens read the same balances and rules as the profile connects): the next identical read
   * within this many ms after the answer takes it instead of asking the platform again — once; any
   * write drops it. Reads only.
   */
  readonly keepAnswerMs?: number;
  /**
   * The other way round: a read that an identical answer received within this many ms serves as
   * well (the connection check's read probes, which only need to know the key may read, after a
   * screen that asked first): it takes that answer instead of asking the platform again. Reads only;
   * any write drops the answers it could take.
   */
  readonly reuseAnswerWithinMs?: number;
  /**
   * Whether a 429 is retried once the platform's window reopens (default true). Order placement
   * and amendment say false: an order that goes out seconds after the trader chose its price is
   * worse than a clear "too many requests".
   */
  readonly retryThrottled?: boolean;
  /**
   * Called with the Timestamp header (platform seconds) of every signed attempt, after signing and
   * before the request leaves; if it throws, that attempt is not sent. The movements journal records
   * the earliest one: the platform refuses a Timestamp more than 60 s from its own time, so a record
   * of this request cannot be older than that minus 60 s, whatever our clock did since.
   */
  readonly onSigned?: (timestampSec: number) => void;
}

export type ResultOf<S extends z.ZodType | undefined> = S extends z.ZodType ? z.output<S> : undefined;

/** One finished request, for the request log and the audit log (never contains secrets). */
export interface RequestRecord {
  readonly requestId: string;
  readonly method: string;
  readonly path: string;
  readonly query: string;
  /** JSON of the body as sent, with secret-like fields redacted. */
  readonly body: string | undefined;
  readonly status: number;
  readonly label?: string;
  readonly durationMs: number;
  readonly attempt: number;
  readonly purpose?: string;
}

export interface ApiClientOptions {
  /** e.g. "http://127.0.0.1:4010/api/v4": scheme, host, port and the /api/v4 prefix. */
  readonly baseUrl: string;
  readonly credentials?: () => Credentials | undefined;
  readonly transport: Transport;
  readonly limiter: RateLimiter;
  readonly classify: (
    method: string,
    path: string,
    query: QueryParams | undefined,
    body: unknown,
    isPublic: boolean,
  ) => RateRule;
  readonly clock: PlatformClock;
  /** The pauses between retries of a read, durations (default: the system's; give the limiter's). */
  readonly scheduler?: Scheduler;
  readonly timeoutMs?: number;
  /** Called after every attempt (success or failure). */
  readonly onRequest?: (record: RequestRecord) => void;
  /** Called when the clock was re-measured because of REQUEST_EXPIRED. */
  readonly onClockResync?: (offsetMs: number) => void;
  /** Makes request ids (tests pin them). */
  readonly newRequestId?: () => string;
}

/** Request ids: short, unique, recognisable as ours in the platform's logs. */
export const newRequestId = (): string => `td-${randomUUID()}`;

const MAX_429_RETRIES = 3;
const MAX_READ_RETRIES = 2;
/** How many reads' last answers are remembered for reuseAnswerWithinMs: the probes' few, with room. */
const RECENT_ANSWERS = 16;
/** Field names whose values are secrets: never in a log line, the audit log or an error. */
export const SECRET_FIELDS = /^(password|secret|passphrase|sign|key_secret)$/i;

/** JSON with secret-like fields replaced, for logs and the audit log. */
export const redactBody = (body: unknown): string | undefined => {
  if (body === undefined) return undefined;
  return JSON.stringify(body, (k, v) => (SECRET_FIELDS.test(k) ? '[redacted]' : v));
};

const headerValue = (headers: ResponseHeaders, suffix: string): string | undefined => {
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase().endsWith(suffix)) return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
};

/**
 * The platform's time when it answered, ms: its clock as measured, or — before the first
 * measurement (a 429 may answer that very measurement) — the answer's own `Date` header (HTTP: the
 * server's clock, whole seconds; it errs towards a longer pause, never a shorter one). NaN when
 * neither is known. Never this computer's wall clock: minutes off, it turned a 429 into a minute's
 * pause of every lookup and movement waiting for the clock's first reading.
 */
const platformTimeOf = (response: { readonly headers: ResponseHeaders }, clock: PlatformClock): number => {
  const measured = clock.measuredNow();
  if (measured !== undefined) return measured;
  const date = response.headers.date;
  return Date.parse((Array.isArray(date) ? date[0] : date) ?? '');
};

/** Answer timeout of a request that names none (RequestSpec.timeoutMs, ApiClientOptions.timeoutMs). */
export const DEFAULT_TIMEOUT_MS = 15_000;
/** The longest pause a 429 imposes (its reset time is at most a window away; a wrong one must not stall). */
const MAX_THROTTLE_PAUSE_MS = 60_000;

/** "250 ms", "3 s", "1.5 s", "10 min": a duration for a message. */
const formatSeconds = (ms: number): string => {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  if (seconds >= 120) return `${Math.round(seconds / 60)} min`;
  return `${Number(seconds.toFixed(seconds < 10 ? 1 : 0))} s`;
};

export class ApiClient {
  readonly baseUrl: URL;
  private readonly basePath: string;
  /** Reads under way, by what they ask (see request()). */
  private readonly readsInFlight = new Map<string, { readonly schema: unknown; readonly answer: Promise<unknown> }>();
  /** Answers kept for a moment (RequestSpec.keepAnswerMs), by what they answered. */
  private readonly keptAnswers = new Map<
    string,
    { readonly schema: unknown; readonly until: number; readonly value: unknown }
  >();
  /** The last answers of shareable reads, newest last, for reuseAnswerWithinMs (bounded: RECENT_ANSWERS). */
  private readonly recentAnswers = new Map<
    string,
    { readonly schema: unknown; readonly at: number; readonly value: unknown }
  >();

  private readonly scheduler: Scheduler;

  constructor(private readonly options: ApiClientOptions) {
    this.scheduler = options.scheduler ?? systemScheduler();
    this.baseUrl = new URL(options.baseUrl);
    this.basePath = this.baseUrl.pathname.replace(/\/+$/, '');
  }

  get clock(): PlatformClock {
    return this.options.clock;
  }

  get limiter(): RateLimiter {
    return this.options.limiter;
  }

  /** Whether a key is configured (private operations possible). */
  hasCredentials(): boolean {
    return this.options.credentials?.() !== undefined;
  }

  /** Measures the clock offset against GET /spot/time. */
  async syncClock(signal?: AbortSignal): Promise<number> {
    const measurement = await this.options.clock.measure(async () => {
      const answer = await this.request({
        method: 'GET',
        path: '/spot/time',
        auth: false,
        schema: ServerTime,
        ...(signal ? { signal } : {}),
      });
      return answer.server_time;
    });
    return measurement.offsetMs;
  }

  /**
   * Sends one request. Two identical reads at once (same GET, path, query, signing and schema, with
   * no caller's own request id, signal or headers) share one request and its answer: the
   * connection check, the watchers and a screen asking for the same thing as the app starts cost
   * the platform one read. An answer kept on purpose (`keepAnswerMs`) serves the next identical
   * read within that time, once.
   */
  request<S extends z.ZodType | undefined>(spec: RequestSpec<S>): Promise<ResultOf<S>> {
    const shareable =
      spec.method === 'GET' &&
      spec.signal === undefined &&
      spec.requestId === undefined &&
      spec.headers === undefined &&
      spec.onSigned === undefined;
    // A write may change what a kept answer says: none is served after one.
    if (spec.method !== 'GET') {
      this.keptAnswers.clear();
      this.recentAnswers.clear();
    }
    // Every request is work in flight for the scheduler (core.idle() waits for it).
    if (!shareable) return this.scheduler.track(this.send(spec));
    const key = `${spec.auth ? 'signed' : 'public'} ${spec.path}?${buildQuery(spec.query)}`;
    const kept = this.keptAnswers.get(key);
    if (kept !== undefined) this.keptAnswers.delete(key);
    // Served once: the read that was about to come takes it; any later one asks the platform.
    if (kept !== undefined && kept.until >= this.scheduler.now() && kept.schema === spec.schema) {
      return Promise.resolve(kept.value as ResultOf<S>);
    }
    const recent = spec.reuseAnswerWithinMs === undefined ? undefined : this.recentAnswers.get(key);
    if (
      recent !== undefined &&
      recent.schema === spec.schema &&
      recent.at >= this.scheduler.now() - (spec.reuseAnswerWithinMs ?? 0)
    ) {
      return Promise.resolve(recent.value as ResultOf<S>);
    }
    const running = this.readsInFlight.get(key);
    if (running !== undefined && running.schema === spec.schema) return running.answer as Promise<ResultOf<S>>;
    const keepMs = spec.keepAnswerMs ?? 0;
    const answer = this.scheduler
      .track(this.send(spec))
      .then((value) => {
        const now = this.scheduler.now();
        if (keepMs > 0) this.keptAnswers.set(key, { schema: spec.schema, until: now + keepMs, value });
        this.recentAnswers.delete(key);
        this.recentAnswers.set(key, { schema: spec.schema, at: now, value });
        if (this.recentAnswers.size > RECENT_ANSWERS) {
          const oldest = this.recentAnswers.keys().next().value;
          if (oldest !== undefined) this.recentAnswers.delete(oldest);
        }
        return value;
      })
      .finally(() => {
        if (this.readsInFlight.get(key)?.answer === answer) this.readsInFlight.delete(key);
      });
    this.readsInFlight.set(key, { schema: spec.schema, answer });
    return answer;
  }

  private async send<S extends z.ZodType | undefined>(spec: RequestSpec<S>): Promise<ResultOf<S>> {
    const requestId = spec.requestId ?? this.options.newRequestId?.() ?? newRequestId();
    if (spec.auth && this.options.clock.last !== undefined && this.options.clock.needsMeasuring()) {
      // This computer's clock stepped (or it slept) since the platform's clock was read: read it
      // again before signing with it. Should that fail, the reading carried on the monotonic clock
      // stands, and a REQUEST_EXPIRED below would measure again.
      await this.syncClock(spec.signal)
        .then((offset) => this.options.onClockResync?.(offset))
        .catch(() => undefined);
    }
    let resynced = false;
    let throttled: ApiError | undefined;
    let throttledTimes = 0;
    let readRetries = 0;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.attempt(spec, requestId, attempt);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        // The platform said "too many" and its pause outlasts what this request may wait: that
        // refusal is the answer (nothing was done), not the limiter's.
        if (error.kind === 'held' && throttled !== undefined) throw throttled;
        if (error.label === 'REQUEST_EXPIRED' && !resynced && spec.auth) {
          resynced = true;
          const offset = await this.syncClock(spec.signal);
          this.options.onClockResync?.(offset);
          continue;
        }
        if (error.status === 429 && spec.retryThrottled !== false && throttledTimes < MAX_429_RETRIES) {
          throttled = error;
          throttledTimes++;
          continue; // attempt() already blocked the bucket until the platform's reset time
        }
        const retriableRead =
          spec.method === 'GET' && (error.kind === 'interrupted' || (error.kind === 'platform' && error.status >= 500));
        if (retriableRead && readRetries < MAX_READ_RETRIES) {
          readRetries++;
          await this.scheduler.sleep(100 * readRetries, spec.signal).catch(() => {
            throw error;
          });
          continue;
        }
        throw error;
      }
    }
  }

  private async attempt<S extends z.ZodType | undefined>(
    spec: RequestSpec<S>,
    requestId: string,
    attemptNo: number,
  ): Promise<ResultOf<S>> {
    const fullPath = `${this.basePath}${spec.path}`;
    const query = buildQuery(spec.query);
    const bodyText = spec.body === undefined ? '' : JSON.stringify(spec.body);
    const rule = this.options.classify(spec.method, spec.path, spec.query, spec.body, !spec.auth);
    const errorBase = { requestId, method: spec.method, path: spec.path };
    const timeoutMs = spec.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;

    // The slot counts until a window after the answer (limiter.ts): settled once the request ends.
    // The wait for it is bounded by the request's own timeout: beyond that it is refused, unsent.
    let settle: () => void;
    try {
      settle = await this.options.limiter.acquire(rule, {
        ...(spec.signal ? { signal: spec.signal } : {}),
        maxWaitMs: timeoutMs,
      });
    } catch (cause) {
      if (cause instanceof SlotWaitTooLong) {
        throw new ApiError({
          ...errorBase,
          kind: 'held',
          status: 0,
          label: 'RATE_LIMIT_WAIT',
          message: `the app's rate limit for ${rule.scope} (${rule.limit} per ${formatSeconds(rule.windowMs)}) ${
            cause.waitMs === undefined
              ? `had no free slot after ${formatSeconds(timeoutMs)} (the requests before it were not answered)`
              : `has no free slot for another ${formatSeconds(cause.waitMs)}, longer than a request may wait (${formatSeconds(timeoutMs)})`
          }`,
          cause,
        });
      }
      throw new ApiError({ ...errorBase, kind: 'aborted', status: 0, label: 'ABORTED', message: 'cancelled', cause });
    }

    const headers: Record<string, string> = {
      accept: 'application/json',
      'x-client-request-id': requestId,
      ...spec.headers,
    };
    if (bodyText !== '') headers['content-type'] = 'application/json';
    if (spec.auth) {
      // Nothing is sent when signing fails (no key, or `onSigned` could not journal the timestamp):
      // the slot is given back at once, never held for the limiter's `holdMs`.
      try {
        const credentials = this.options.credentials?.();
        if (credentials === undefined) {
          throw new ApiError({
            ...errorBase,
            kind: 'unreachable',
            status: 0,
            label: 'NO_KEY',
            message: 'no API key is configured for this profile',
          });
        }
        const timestamp = this.options.clock.timestampHeader();
        spec.onSigned?.(Number(timestamp));
        headers.KEY = credentials.key;
        headers.Timestamp = timestamp;
        headers.SIGN = sign(credentials.secret, {
          method: spec.method,
          path: fullPath,
          query,
          body: bodyText,
          timestamp,
        });
      } catch (error) {
        settle();
        throw error;
      }
    }

    const url = new URL(this.baseUrl.origin);
    url.pathname = fullPath;
    url.search = query;
    const started = this.scheduler.now();
    const record = (status: number, label?: string) =>
      this.options.onRequest?.({
        requestId,
        method: spec.method,
        path: spec.path,
        query,
        body: redactBody(spec.body),
        status,
        ...(label ? { label } : {}),
        durationMs: Math.round(this.scheduler.now() - started),
        attempt: attemptNo,
        ...(spec.purpose ? { purpose: spec.purpose } : {}),
      });

    let response: Awaited<ReturnType<Transport['send']>>;
    try {
      response = await this.options.transport.send({
        method: spec.method,
        url,
        headers,
        ...(bodyText !== '' ? { body: bodyText } : {}),
        timeoutMs,
        ...(spec.signal ? { signal: spec.signal } : {}),
      });
    } catch (cause) {
      settle();
      const phase = cause instanceof TransportError ? cause.phase : 'exchange';
      const kind = phase === 'connect' ? 'unreachable' : phase === 'aborted' ? 'aborted' : 'interrupted';
      const label =
        kind === 'unreachable' ? 'NETWORK_UNREACHABLE' : kind === 'aborted' ? 'ABORTED' : 'NETWORK_INTERRUPTED';
      record(0, label);
      throw new ApiError({ ...errorBase, kind, status: 0, label, message: (cause as Error).message, cause });
    }

    settle();
    if (response.status === 429) {
      // Pause the bucket until the platform's next window, at least a short moment. The header is
      // the platform's time (seconds): what is left of it at the platform's time of this answer
      // becomes a pause on the limiter's monotonic one (this computer's wall clock plays no part).
      const resetInMs =
        Number(headerValue(response.headers, 'ratelimit-reset-timestamp')) * 1000 -
        platformTimeOf(response, this.clock);
      const pauseMs = Number.isFinite(resetInMs) && resetInMs > 0 ? Math.min(resetInMs, MAX_THROTTLE_PAUSE_MS) : 1_000;
      this.options.limiter.block(rule, this.options.limiter.now() + pauseMs);
    }

    if (response.status < 200 || response.status >= 300) {
      let label =
        response.status >= 500 ? 'SERVER_ERROR' : response.status === 429 ? 'TOO_MANY_REQUESTS' : 'BAD_REQUEST';
      let message = `HTTP ${response.status}`;
      try {
        const parsed = PlatformErrorBody.safeParse(JSON.parse(response.body));
        if (parsed.success) {
          label = parsed.data.label;
          message = parsed.data.message ?? parsed.data.detail ?? message;
        }
      } catch {
        // Not JSON (a proxy's error page): keep the status-derived label.
      }
      record(response.status, label);
      throw new ApiError({ ...errorBase, kind: 'platform', status: response.status, label, message });
    }

    record(response.status);
    if (spec.schema === undefined) return undefined as ResultOf<S>;
    let json: unknown;
    try {
      json = response.body === '' ? undefined : JSON.parse(response.body);
    } catch (cause) {
      throw new ApiError({
        ...errorBase,
        kind: 'invalid-response',
        status: response.status,
        label: 'INVALID_RESPONSE',
        message: 'the answer is not JSON',
        cause,
      });
    }
    const parsed = (spec.schema as z.ZodType).safeParse(json);
    if (!parsed.success) {
      throw new ApiError({
        ...errorBase,
        kind: 'invalid-response',
        status: response.status,
        label: 'INVALID_RESPONSE',
        message: parsed.error.issues
          .slice(0, 3)
          .map((i) => `${i.path.join('.')}: ${i.message}`)
          .join('; '),
        cause: parsed.error,
      });
    }
    return parsed.data as ResultOf<S>;
  }
}
