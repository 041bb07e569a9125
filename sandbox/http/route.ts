/**
 * Route definitions: how a sandbox module (wallet, withdrawals, sub-accounts, spot, …) declares an
 * operation of the API. STABLE EXTENSION POINT — sandbox/spot codes against it.
 *
 *     ctx.addRoutes([
 *       {
 *         method: 'GET', path: '/spot/accounts', auth: 'private', permission: 'spot',
 *         handler: (req) => listAccounts(ctx, req.user.id, req.query.currency),
 *       },
 *     ]);
 *
 * The framework (sandbox/http/app.ts) does, in this order: fault injection, Accept check,
 * authentication (KEY/Timestamp/SIGN, IP whitelist, locked accounts, permission: GET (and HEAD) = read, anything
 * else = write; `mainOnly` refuses sub-account keys), rate limiting (`rateLimit`, or the bucket
 * `rateLimitKeyFor(method, path)` of shared/platform/limits.ts when omitted), the content-type rule for
 * bodies, then calls `handler`. What the handler returns is sent as JSON with `status` (default 200);
 * return `undefined` with status 204 for an empty answer. Throw `ApiFailure(label, message)` (errors.ts)
 * for any failure. Common headers (X-In-Time, X-Out-Time, X-Svc-Trace-ID, X-Client-Request-Id echo,
 * rate-limit headers) are added to every answer. A handler is not wrapped in a transaction: run each
 * money movement inside `ctx.tx(() => …)` so it commits whole or not at all. Handlers may be sync or
 * return a promise (sync is cheaper).
 */
import type { RateLimitKey } from '../../shared/platform/limits';
import type { PermissionName } from '../../shared/platform/statuses';
import type { ApiKeyRecord, UserRecord } from '../store/users';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The authenticated caller of a private route. */
export interface Caller {
  /** The user whose key signed the request (a main account or a sub-account). */
  readonly user: UserRecord;
  readonly key: ApiKeyRecord;
  /** The main account the caller belongs to (the user itself when it is a main account). */
  readonly mainUserId: number;
  /** True when the key belongs to a sub-account. */
  readonly isSubAccount: boolean;
}

export interface RouteRequest<P extends Record<string, string> = Record<string, string>> {
  readonly method: HttpMethod;
  /** Path as received, e.g. `/api/v4/spot/orders/123`. */
  readonly path: string;
  /** Path parameters named in the route's path (`:order_id` → params.order_id), URL-decoded. */
  readonly params: P;
  /** Query parameters, URL-decoded; the first value wins when a name repeats. Never undefined values. */
  readonly query: Readonly<Record<string, string>>;
  /** Parsed JSON body (undefined when there is none). GET and DELETE bodies are never read. */
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** Client IP as seen on the socket. */
  readonly ip: string;
  /** Business time now, Unix milliseconds (moves with POST /sandbox/advance in manual clock mode). */
  readonly now: number;
}

export interface PrivateRouteRequest<P extends Record<string, string> = Record<string, string>>
  extends RouteRequest<P> {
  readonly caller: Caller;
  /** Shortcut for caller.user. */
  readonly user: UserRecord;
}

interface RouteCommon {
  readonly method: HttpMethod;
  /** Path after `/api/v4`, Fastify syntax for parameters: `/withdrawals/:withdrawal_id`. */
  readonly path: string;
  /** Rate-limit bucket (shared/platform/limits.ts); computed from method and path when omitted. */
  readonly rateLimit?: RateLimitKey;
  /** Success status (200 unless stated: 201 created, 202 accepted, 204 no content). */
  readonly status?: number;
}

export interface PublicRoute extends RouteCommon {
  readonly auth: 'public';
  handler(req: RouteRequest): unknown;
}

export interface PrivateRoute extends RouteCommon {
  readonly auth: 'private';
  /** Permission group the key needs (read for GET, read-write otherwise). */
  readonly permission: PermissionName;
  /** Refuse sub-account keys with FORBIDDEN (main↔sub transfers, withdrawals, sub-account management). */
  readonly mainOnly?: boolean;
  handler(req: PrivateRouteRequest): unknown;
}

export type RouteDef = PublicRoute | PrivateRoute;

/** Identity helper that keeps literal types and checks the shape at the definition site. */
export const defineRoutes = (routes: RouteDef[]): RouteDef[] => routes;
