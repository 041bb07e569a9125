/**
 * The HTTP layer: a Fastify instance that turns RouteDefs into handlers with authentication,
 * permissions, rate limits, fault injection, the common headers and the label→status error mapping.
 * Nothing here knows about wallets or orders.
 */
import { timingSafeEqual } from 'node:crypto';
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { RATE_LIMIT_HEADERS, RATE_LIMITS, type RateLimitKey, rateLimitKeyFor } from '../../shared/platform/limits';
import { type SandboxClock, TIMESTAMP_WINDOW_S } from '../clock';
import type { ApiKeyRecord, UserRecord } from '../store/users';
import { Users } from '../store/users';
import { ApiFailure } from './errors';
import type { FaultRule, Faults } from './faults';
import { parseQuery } from './params';
import type { RateLimiter, RateState } from './rate-limit';
import type { Caller, HttpMethod, PrivateRoute, PrivateRouteRequest, RouteDef } from './route';
import { bodyHash, decodeQueryForSigning, signatureValid } from './signature';

export const API_PREFIX = '/api/v4';
export const CONTROL_PREFIX = '/sandbox';
const BODY_LIMIT = 64 * 1024;
/** A batch counts against at most this many markets (batch_orders allows 4 pairs). */
const MAX_BATCH_MARKETS = 16;
const MAX_MARKET_LENGTH = 40;
const MAX_PARAM_LENGTH = 256;

/** Per-request state kept by the framework. */
interface RequestState {
  inTime: number;
  rawBody: Buffer | undefined;
  badContentType: boolean;
  rate: RateState | undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    sbx: RequestState;
  }
}

/**
 * What the API and control handlers read of a request: a Fastify request has it, and so has the
 * lean path's own request (see `leanRequest`), which hot routes take without going through Fastify.
 */
interface ApiRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly ip: string;
  body: unknown;
  readonly query: unknown;
  readonly params: unknown;
  readonly raw: IncomingMessage;
  sbx: RequestState;
}

/** What the handlers need of a reply: take the response over from the framework, then write it raw. */
interface ApiReply {
  hijack(): void;
  readonly raw: ServerResponse;
}

/** A route of the control plane (/sandbox/*): unsigned, loopback only, with the control token. */
export interface ControlRoute {
  readonly method: HttpMethod;
  /** Path after /sandbox. */
  readonly path: string;
  readonly status?: number;
  handler(req: { body: unknown; query: Readonly<Record<string, string>>; params: Record<string, string> }): unknown;
}

export interface HttpDeps {
  /**
   * The control plane's token (X-Sandbox-Token): generated at start, handed only to who started the
   * sandbox (startSandbox's `controlToken`, the CLI's ready line). Every /sandbox/* call must carry it.
   */
  readonly controlToken: string;
  readonly users: Users;
  readonly clock: SandboxClock;
  readonly limiter: RateLimiter;
  readonly faults: Faults;
  readonly log: (message: string, fields?: Record<string, unknown>) => void;
  /**
   * Settles once everything written so far is committed (undefined: nothing waits). Every answer
   * waits for it, so no client learns of a write that a crash could still undo (store/ledger.ts,
   * group commit).
   */
  readonly committed?: () => Promise<void> | undefined;
}

const TIME_ORIGIN = performance.timeOrigin;
const nowMicros = (): number => Math.floor((TIME_ORIGIN + performance.now()) * 1000);

/**
 * The request's framework state, created on first use (body parser or handler) rather than in an
 * onRequest hook: hooks cost on every request. X-In-Time is taken then.
 */
function stateOf(req: ApiRequest): RequestState {
  let state = req.sbx;
  if (!state) {
    state = { inTime: nowMicros(), rawBody: undefined, badContentType: false, rate: undefined };
    req.sbx = state;
  }
  return state;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
/** The header that carries the control plane's token. */
export const CONTROL_TOKEN_HEADER = 'x-sandbox-token';

/**
 * Whether a Host header names this server on loopback: 127.0.0.1:PORT, localhost:PORT or
 * [::1]:PORT, nothing else. A web page that reached the port through DNS rebinding sends its own
 * name (evil.example:PORT), so checking the Host is what stops it.
 */
export const hostAllowed = (host: string | undefined, port: number): boolean => {
  if (host === undefined) return false;
  const h = host.toLowerCase();
  return h === `127.0.0.1:${port}` || h === `localhost:${port}` || h === `[::1]:${port}`;
};

const sameSecret = (given: string | undefined, expected: string): boolean => {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};
const normaliseIp = (ip: string): string => (ip.startsWith('::ffff:') ? ip.slice(7) : ip);
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH']);
/** Methods that need only read permission (HEAD is a GET without the body). */
const READ_METHODS = new Set(['GET', 'HEAD']);

/** True when an Accept header admits JSON (absent, *\/*, application/*, application/json). */
function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept === '' || accept === 'application/json') return true;
  for (const part of accept.split(',')) {
    const type = part.split(';')[0]!.trim().toLowerCase();
    if (type === '*/*' || type === 'application/*' || type === 'application/json' || type === '') return true;
  }
  return false;
}

function headerString(req: ApiRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Fastify's schema compilers, for a route that brings a schema: refused (see `schemaController` below). */
const noRouteSchemas = (): never => {
  throw new Error('The sandbox checks requests in its handlers (zod, the spec labels): no Fastify route schemas.');
};
/** A JSON body as the API reads it: empty is no body; anything but JSON is INVALID_REQUEST_BODY. */
function parseJsonBody(body: Buffer): unknown {
  if (body.length === 0) return undefined;
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw new ApiFailure('INVALID_REQUEST_BODY', 'Request body is not valid JSON');
  }
}

export function buildHttp(
  deps: HttpDeps,
  routes: readonly RouteDef[],
  control: readonly ControlRoute[],
): FastifyInstance {
  const { users, clock, limiter, faults } = deps;
  let traceCounter = 0;
  const tracePrefix = `${Date.now().toString(16)}-`;

  /** Hot routes the lean path serves (see leanRequest): the API URL → the same handler as its Fastify route. */
  const leanRoutes = new Map<string, (req: ApiRequest, reply: ApiReply) => ApiReply | Promise<ApiReply>>();

  // Fastify is CommonJS: require() compiles it alone, where an ES import would first scan its entry
  // for its exports (35-45 ms more CPU per start, measured alone at load 16-20).
  const Fastify = createRequire(import.meta.url)('fastify') as typeof import('fastify').default;
  const app = Fastify({
    logger: false,
    // Requests are checked by each handler (zod, answering the spec's labels), never by a Fastify
    // route schema: so Fastify's schema compilers (ajv, fast-json-stringify), which it would otherwise
    // load as it is created, are never loaded (35–80 ms of CPU on every start of the sandbox). A route
    // that brings a schema anyway is refused as it is added.
    schemaController: { compilersFactory: { buildValidator: noRouteSchemas, buildSerializer: noRouteSchemas } },
    // The same server Fastify would create (its timeouts included), with the lean path in front.
    serverFactory: (fastifyHandler, options) => {
      const server = http.createServer((req, res) => {
        if (!leanRequest(req, res)) fastifyHandler(req, res);
      });
      // Fastify has filled in its defaults by now; its option types do not say so.
      const timeouts = options as { keepAliveTimeout: number; requestTimeout: number; connectionTimeout: number };
      server.keepAliveTimeout = timeouts.keepAliveTimeout;
      server.requestTimeout = timeouts.requestTimeout;
      server.setTimeout(timeouts.connectionTimeout);
      return server;
    },
    bodyLimit: BODY_LIMIT,
    // HEAD on a GET route answers the GET's status and headers without the body: RFC 9110 asks every
    // general-purpose server for HEAD wherever GET is, and clients probe with it.
    exposeHeadRoutes: true,
    return503OnClosing: false,
    forceCloseConnections: true,
    routerOptions: { querystringParser: parseQuery, ignoreDuplicateSlashes: false, maxParamLength: MAX_PARAM_LENGTH },
    // Malformed HTTP never reaches a route; answer it with a spec label too.
    clientErrorHandler: (_error, socket) => {
      if (!socket.writable) return socket.destroy();
      const body = JSON.stringify({ label: 'BAD_REQUEST', message: 'Malformed HTTP request' });
      socket.end(
        `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
    // The router refuses these before any route or error handler runs (a path that does not
    // percent-decode, a path parameter over maxParamLength): answer them like every other error.
    frameworkErrors: (error, req, reply) => {
      const failure =
        error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? new ApiFailure('INVALID_PARAM_VALUE', `A path parameter is longer than ${MAX_PARAM_LENGTH} characters`)
          : new ApiFailure('BAD_REQUEST', 'Malformed URL');
      send(req, reply, failure.status, JSON.stringify(failure.toBody()));
    },
  });
  app.decorateRequest('sbx', null as unknown as RequestState);

  /** The port the server listens on (known once it listens; every request comes after that). */
  let boundPort = -1;
  const listeningPort = (): number => {
    if (boundPort === -1) {
      const address = app.server.address();
      if (typeof address === 'object' && address) boundPort = address.port;
    }
    return boundPort;
  };
  /** Refuses a request whose Host is not this server on loopback (DNS rebinding): 403 FORBIDDEN. */
  const checkHost = (req: ApiRequest): void => {
    if (!hostAllowed(headerString(req, 'host'), listeningPort())) {
      throw new ApiFailure('FORBIDDEN', 'Host not allowed: use 127.0.0.1, localhost or [::1] with this port');
    }
  };

  // Bodies are read raw: the signature covers the exact bytes received.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body: Buffer, done) => {
    stateOf(req).rawBody = body;
    try {
      done(null, parseJsonBody(body));
    } catch (error) {
      done(error as ApiFailure, undefined);
    }
  });
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (req, body: Buffer, done) => {
    const state = stateOf(req);
    state.rawBody = body;
    state.badContentType = body.length > 0;
    done(null, undefined);
  });

  /**
   * Sends an answer with the common headers (one place, instead of an onSend hook: cheaper on the
   * hot path). X-Out-Time is taken last.
   */
  function send(req: ApiRequest, reply: ApiReply, status: number, payload: string | undefined): ApiReply {
    const headers: Record<string, string> = {
      'x-in-time': String(stateOf(req).inTime),
      'x-svc-trace-id': `${tracePrefix}${(++traceCounter).toString(16)}`,
    };
    const requestId = headerString(req, 'x-client-request-id');
    if (requestId !== undefined) headers['x-client-request-id'] = requestId;
    if (req.url.startsWith(API_PREFIX)) {
      // Answers that never reached a route (unknown path, bad auth, …) still carry the headers.
      const rate = stateOf(req).rate ?? limiter.hit('public', `ip:${normaliseIp(req.ip)}`, 'unrouted');
      headers[RATE_LIMIT_HEADERS.remain] = String(rate.remain);
      headers[RATE_LIMIT_HEADERS.limit] = String(rate.limit);
      headers[RATE_LIMIT_HEADERS.reset] = String(rate.reset);
    }
    if (payload !== undefined) headers['content-type'] = 'application/json';
    headers['content-length'] = payload === undefined ? '0' : String(Buffer.byteLength(payload));
    headers['x-out-time'] = String(nowMicros());
    // Written straight to the socket's response (one write of headers and body together): every
    // answer is a finished JSON string with its headers, so Fastify's reply pipeline (serializers,
    // onSend hooks, none used here) would only add work on the hot path. HEAD drops the body itself.
    reply.hijack();
    reply.raw.writeHead(status, headers);
    reply.raw.end(payload);
    return reply;
  }

  // --- authentication -----------------------------------------------------------------------
  function authenticate(req: ApiRequest, route: PrivateRoute, rawPath: string, rawQuery: string, ip: string): Caller {
    const keyHeader = headerString(req, 'key');
    const ts = headerString(req, 'timestamp');
    const signHeader = headerString(req, 'sign');
    if (!keyHeader || !ts || !signHeader) {
      throw new ApiFailure('MISSING_REQUIRED_HEADER', 'Missing required header: KEY, Timestamp and SIGN are needed');
    }
    if (!/^\d{1,12}(\.\d{1,9})?$/.test(ts)) {
      throw new ApiFailure('REQUEST_EXPIRED', 'Timestamp must be Unix seconds (integer or fractional)');
    }
    // The clock's one rule, the same as for the private WebSocket channels.
    if (!clock.timestampAccepted(Number(ts))) {
      throw new ApiFailure(
        'REQUEST_EXPIRED',
        `gap between request Timestamp and server time exceeds ${TIMESTAMP_WINDOW_S}`,
      );
    }
    const found = users.authLookup(keyHeader);
    if (!found) throw new ApiFailure('INVALID_KEY', 'Invalid key provided');
    const { key, user } = found;
    const hash = bodyHash(stateOf(req).rawBody);
    const query = decodeQueryForSigning(rawQuery);
    let ok = signatureValid(key.secret, req.method, rawPath, query, hash, ts, signHeader);
    if (!ok && rawPath.includes('%')) {
      // A client may sign the decoded path; accept both forms.
      try {
        ok = signatureValid(key.secret, req.method, decodeURIComponent(rawPath), query, hash, ts, signHeader);
      } catch {
        ok = false;
      }
    }
    if (!ok) throw new ApiFailure('INVALID_SIGNATURE', 'Signature mismatch');
    return authorise(req, route, key, user, ip);
  }

  function authorise(req: ApiRequest, route: PrivateRoute, key: ApiKeyRecord, user: UserRecord, ip: string): Caller {
    if (key.ipWhitelist.length > 0 && !key.ipWhitelist.includes(ip)) {
      throw new ApiFailure('IP_FORBIDDEN', `Request IP not in whitelist: ${ip}`);
    }
    if (key.state !== 1) throw new ApiFailure('INVALID_CREDENTIALS', 'API key is disabled');
    if (user.state !== 1) throw new ApiFailure('ACCOUNT_LOCKED', 'Account is locked');
    const isSub = user.parentId !== null;
    if (isSub) {
      // A frozen main account locks its sub-accounts out too.
      const main = users.authMainState(user.parentId!);
      if (main !== 1) throw new ApiFailure('ACCOUNT_LOCKED', 'Main account is locked');
    }
    if (route.mainOnly && isSub) throw new ApiFailure('FORBIDDEN', 'Sub-account keys cannot call this operation');
    if (isSub && user.disabledBusiness.includes(route.permission)) {
      throw new ApiFailure('FORBIDDEN', `The sub-account lacks the ${route.permission} business permission`);
    }
    const write = !READ_METHODS.has(req.method);
    const verdict = Users.permits(key, route.permission, write);
    if (verdict === 'missing') throw new ApiFailure('FORBIDDEN', `API key lacks the ${route.permission} permission`);
    if (verdict === 'read_only')
      throw new ApiFailure('READ_ONLY', `API key has read-only ${route.permission} permission`);
    users.touch(key, Math.floor(clock.now() / 1000));
    return { user, key, mainUserId: user.parentId ?? user.id, isSubAccount: isSub };
  }

  /**
   * Counts one request against its rule. Per-market rules (spot placement) count the market of an
   * object body or the query; a batch (array body) counts once against each distinct `currency_pair`
   * of its items, and the answer (refusal, headers) is the tightest of those counters.
   */
  function countRequest(
    rule: RateLimitKey,
    who: string,
    endpoint: string,
    body: unknown,
    query: Record<string, string>,
  ): RateState {
    if (!Array.isArray(body) || RATE_LIMITS[rule].scope !== 'group_market') {
      const fromBody =
        body && typeof body === 'object' && !Array.isArray(body)
          ? (body as Record<string, unknown>).currency_pair
          : undefined;
      return limiter.hit(rule, who, endpoint, typeof fromBody === 'string' ? fromBody : (query.currency_pair ?? ''));
    }
    const markets = new Set<string>();
    for (const item of body) {
      const pair = item && typeof item === 'object' ? (item as Record<string, unknown>).currency_pair : undefined;
      if (typeof pair === 'string' && pair.length <= MAX_MARKET_LENGTH) markets.add(pair);
      // A batch with more markets than any batch may hold is refused by its handler; do not let it
      // create counters without bound.
      if (markets.size >= MAX_BATCH_MARKETS) break;
    }
    if (markets.size === 0) markets.add('');
    let tightest: RateState | undefined;
    for (const market of markets) {
      const state = limiter.hit(rule, who, endpoint, market);
      if (
        tightest === undefined ||
        (state.exceeded && !tightest.exceeded) ||
        (state.exceeded === tightest.exceeded && state.remain < tightest.remain)
      ) {
        tightest = state;
      }
    }
    return tightest!;
  }

  async function applyFault(rule: FaultRule, req: ApiRequest, reply: ApiReply): Promise<'dropped' | 'continue'> {
    switch (rule.kind) {
      case 'drop_before':
        reply.hijack();
        req.raw.socket.destroy();
        return 'dropped';
      case 'status_500':
        throw new ApiFailure('INTERNAL', 'Injected fault: internal error');
      case 'status_429':
        throw new ApiFailure('TOO_MANY_REQUESTS', 'Injected fault: request rate limit exceeded');
      case 'delay':
        await new Promise((resolve) => setTimeout(resolve, rule.ms ?? 1000));
        return 'continue';
      case 'hold':
        await faults.hold(rule.ms ?? 60_000);
        return 'continue';
      default:
        return 'continue';
    }
  }

  /**
   * The lean path: a POST to an API route without path parameters (a transfer, an order, a
   * withdrawal) skips Fastify's routing, hooks and body parsing, which cost a tenth of a transfer's
   * CPU (docs/sandbox.md, "Tests and benchmark"), and runs the very same handler as its Fastify route
   * (host check, faults, authentication, limits, the handler, the answer after its commit). It takes
   * only requests whose every part is plain: no query, `Content-Type: application/json` exactly, a
   * Content-Length within the body limit, no fault armed. Everything else (another media type, a
   * chunked or oversized body, a query string, …) goes through Fastify, which decides those cases.
   * Returns false when the request is not for it.
   */
  function leanRequest(raw: IncomingMessage, res: ServerResponse): boolean {
    if (raw.method !== 'POST' || faults.active) return false;
    const handle = leanRoutes.get(raw.url ?? '');
    if (handle === undefined) return false;
    const headers = raw.headers;
    if (headers['content-type'] !== 'application/json' || headers['transfer-encoding'] !== undefined) return false;
    const length = Number(headers['content-length']);
    if (!(length > 0 && length <= BODY_LIMIT)) return false;
    const chunks: Buffer[] = [];
    raw.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A client that goes away mid-body: nothing to answer (and no unhandled stream error).
    raw.on('error', () => undefined);
    raw.on('end', () => {
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      const state: RequestState = { inTime: nowMicros(), rawBody: body, badContentType: false, rate: undefined };
      const reply: ApiReply = { raw: res, hijack: () => undefined };
      const req: ApiRequest = {
        method: 'POST',
        url: raw.url!,
        headers,
        ip: raw.socket.remoteAddress ?? '',
        body: undefined,
        query: parseQuery(''),
        params: {},
        raw,
        sbx: state,
      };
      try {
        req.body = parseJsonBody(body);
        const answered = handle(req, reply);
        if (answered instanceof Promise) answered.catch((error: unknown) => answerError(error, req, reply));
      } catch (error) {
        answerError(error, req, reply);
      }
    });
    return true;
  }

  // --- API routes ---------------------------------------------------------------------------
  const known: { re: RegExp; methods: Set<string> }[] = [];
  const remember = (url: string, method: string): void => {
    const source = `^${url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_][A-Za-z0-9_]*/g, '[^/]+')}$`;
    let entry = known.find((k) => k.re.source === source);
    if (!entry) {
      entry = { re: new RegExp(source), methods: new Set() };
      known.push(entry);
    }
    entry.methods.add(method);
  };

  for (const route of routes) {
    const url = `${API_PREFIX}${route.path}`;
    remember(url, route.method);
    const rule = route.rateLimit ?? rateLimitKeyFor(route.method, route.path, route.auth === 'public');
    const endpoint = `${route.method} ${route.path}`;
    const status = route.status ?? 200;
    const handle = (req: ApiRequest, reply: ApiReply): ApiReply | Promise<ApiReply> => {
      checkHost(req);
      if (faults.active) {
        const fault = faults.take(req.method, req.url.split('?', 1)[0]!);
        if (fault?.kind === 'drop_after') return serve(req, reply, fault);
        if (fault)
          return applyFault(fault, req, reply).then((next) => (next === 'dropped' ? reply : serve(req, reply)));
      }
      return serve(req, reply);
    };
    app.route({ method: route.method, url, handler: handle });
    if (route.method === 'POST' && !route.path.includes(':')) leanRoutes.set(url, handle);

    /** Synchronous unless the route handler returns a promise: no microtask on the hot path. */
    function serve(req: ApiRequest, reply: ApiReply, fault?: FaultRule): ApiReply | Promise<ApiReply> {
      const state = stateOf(req);
      if (!acceptsJson(headerString(req, 'accept')))
        throw new ApiFailure('NOT_ACCEPTABLE', 'Only application/json is served');
      const q = req.url.indexOf('?');
      const rawPath = q === -1 ? req.url : req.url.slice(0, q);
      const rawQuery = q === -1 ? '' : req.url.slice(q + 1);
      const query = req.query as Record<string, string>;
      const ip = normaliseIp(req.ip);
      let caller: Caller | undefined;
      if (route.auth === 'private') {
        caller = authenticate(req, route, rawPath, rawQuery, ip);
        state.rate = countRequest(rule, `u:${caller.user.id}`, endpoint, req.body, query);
      } else {
        state.rate = countRequest(rule, `ip:${ip}`, endpoint, req.body, query);
      }
      if (state.rate.exceeded) throw new ApiFailure('TOO_MANY_REQUESTS', 'Request rate limit exceeded');
      if (state.badContentType && WRITE_METHODS.has(req.method)) {
        throw new ApiFailure('INVALID_CONTENT_TYPE', 'Request body must be application/json');
      }
      // One object per request: a private request's fields are a public one's plus the caller.
      const routeRequest = {
        // The route's own method: a HEAD runs its GET route unchanged.
        method: route.method,
        path: rawPath,
        params: req.params as Record<string, string>,
        query,
        body: route.method === 'GET' || route.method === 'DELETE' ? undefined : req.body,
        headers: req.headers,
        ip,
        now: clock.now(),
        caller,
        user: caller?.user,
      };
      // A private route always has its caller here: authenticate() throws otherwise.
      const result =
        route.auth === 'private' ? route.handler(routeRequest as PrivateRouteRequest) : route.handler(routeRequest);
      if (result instanceof Promise) return result.then((value: unknown) => finish(req, reply, value, fault));
      return finish(req, reply, result, fault);
    }

    function finish(
      req: ApiRequest,
      reply: ApiReply,
      result: unknown,
      fault?: FaultRule,
    ): ApiReply | Promise<ApiReply> {
      const committing = deps.committed?.();
      if (committing !== undefined) return committing.then(() => answer(req, reply, result, fault), commitFailed);
      return answer(req, reply, result, fault);
    }

    function answer(req: ApiRequest, reply: ApiReply, result: unknown, fault?: FaultRule): ApiReply {
      if (fault?.kind === 'drop_after') {
        // The operation is committed; the client never learns it.
        reply.hijack();
        req.raw.socket.destroy();
        return reply;
      }
      return send(req, reply, status, status === 204 || result === undefined ? undefined : JSON.stringify(result));
    }
  }

  /** The commit of what a request wrote failed (a full disk): nothing of it was kept. */
  function commitFailed(error: unknown): never {
    deps.log('commit failed', { error: String((error as Error)?.message ?? error) });
    throw new ApiFailure('INTERNAL', 'Internal error: the change was not saved');
  }

  // --- control plane ------------------------------------------------------------------------
  for (const route of control) {
    const url = `${CONTROL_PREFIX}${route.path}`;
    remember(url, route.method);
    app.route({
      method: route.method,
      url,
      handler: async (req, reply) => {
        // The control plane moves money without signatures: loopback callers only.
        if (!LOOPBACK.has(req.ip)) throw new ApiFailure('FORBIDDEN', 'Control API is loopback only');
        checkHost(req);
        // A browser adds Origin to a cross-site request (and to every POST): a page must never drive
        // the control plane, even one that guessed the token. Absent or "null" only.
        const origin = headerString(req, 'origin');
        if (origin !== undefined && origin !== 'null') {
          throw new ApiFailure('FORBIDDEN', 'Control API refuses requests from web pages (Origin header)');
        }
        if (!sameSecret(headerString(req, CONTROL_TOKEN_HEADER), deps.controlToken)) {
          throw new ApiFailure('FORBIDDEN', 'Control API needs the X-Sandbox-Token of this sandbox');
        }
        if (stateOf(req).badContentType)
          throw new ApiFailure('INVALID_CONTENT_TYPE', 'Request body must be application/json');
        const result = await route.handler({
          body: req.body,
          query: req.query as Record<string, string>,
          params: req.params as Record<string, string>,
        });
        await deps.committed?.()?.catch(commitFailed);
        const status = route.status ?? 200;
        return send(req, reply, status, status === 204 || result === undefined ? undefined : JSON.stringify(result));
      },
    });
  }

  // --- errors -------------------------------------------------------------------------------
  app.setNotFoundHandler((req, reply) => {
    if (!hostAllowed(headerString(req, 'host'), listeningPort())) {
      const failure = new ApiFailure('FORBIDDEN', 'Host not allowed: use 127.0.0.1, localhost or [::1] with this port');
      send(req, reply, failure.status, JSON.stringify(failure.toBody()));
      return;
    }
    const path = req.url.split('?', 1)[0]!;
    const match = known.find((k) => k.re.test(path));
    const failure = match
      ? new ApiFailure('METHOD_NOT_ALLOWED', `Method ${req.method} is not allowed on ${path}`)
      : new ApiFailure('NOT_FOUND', `Not found: ${path}`);
    send(req, reply, failure.status, JSON.stringify(failure.toBody()));
  });

  /** Answers an error with its label (ApiFailure) or the label of a framework error; logs the unexpected. */
  function answerError(error: unknown, req: ApiRequest, reply: ApiReply): void {
    let failure: ApiFailure;
    if (error instanceof ApiFailure) failure = error;
    else {
      const e = error as { code?: string; statusCode?: number; message?: string };
      if (e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || e.code === 'FST_ERR_CTP_INVALID_CONTENT_TYPE') {
        failure = new ApiFailure('INVALID_CONTENT_TYPE', 'Unsupported content type');
      } else if (e.code?.startsWith('FST_ERR_CTP_') || e.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        failure = new ApiFailure('INVALID_REQUEST_BODY', e.message ?? 'Invalid request body');
      } else if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
        failure = new ApiFailure('BAD_REQUEST', e.message ?? 'Bad request');
      } else {
        deps.log('internal error', {
          method: req.method,
          url: req.url.split('?', 1)[0],
          error: String((error as Error)?.stack ?? error),
        });
        failure = new ApiFailure('INTERNAL', 'Internal error');
      }
    }
    send(req, reply, failure.status, JSON.stringify(failure.toBody()));
  }
  app.setErrorHandler((error: unknown, req, reply) => answerError(error, req, reply));

  return app;
}
