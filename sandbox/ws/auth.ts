/**
 * Authentication of private channel requests (api-facts §8):
 * `auth: {method: "api_key", KEY, SIGN}` with SIGN = hex HMAC-SHA512(secret, "channel=<ch>&event=<ev>&time=<time>"),
 * `time` the request's own field (Unix seconds). The key is checked like a signed HTTP request
 * (sandbox/http/app.ts): known, enabled, owner not locked, IP whitelist, and the `spot` permission
 * (read is enough: the private channels only tell).
 *
 * Error codes (the platform's documentation does not list them per cause; CCXT treats 4, 6 and 11
 * as authentication failures — this split is the sandbox's choice, written down in docs/sandbox.md):
 *   4  missing auth, unknown KEY, wrong SIGN
 *   6  `time` too far from the server's time (more than 60 s)
 *   11 the key may not read spot: disabled, IP not whitelisted, account locked, no spot permission
 * Each failure also names the REST label of the same cause (INVALID_KEY, INVALID_SIGNATURE,
 * REQUEST_EXPIRED, IP_FORBIDDEN, …): the platform's error message is that JSON error as text
 * (`channelAuthErrorMessage`).
 */
import { type SandboxClock, TIMESTAMP_WINDOW_S } from '../clock';
import { channelSignatureValid } from '../http/signature';
import { Users } from '../store/users';

export const AUTH_FAILED = 4;
export const AUTH_EXPIRED = 6;
export const AUTH_FORBIDDEN = 11;

export interface ChannelCaller {
  readonly userId: number;
}

export type AuthOutcome =
  | { readonly ok: true; readonly caller: ChannelCaller }
  | { readonly ok: false; readonly code: number; readonly label: string; readonly message: string };

export function authenticateChannel(
  deps: { users: Users; clock: SandboxClock },
  request: { channel: string; event: string; time: unknown; auth: unknown },
  ip: string,
): AuthOutcome {
  const fail = (code: number, label: string, message: string): AuthOutcome => ({ ok: false, code, label, message });
  const auth = request.auth;
  if (typeof auth !== 'object' || auth === null)
    return fail(AUTH_FAILED, 'MISSING_REQUIRED_HEADER', 'Authentication required: auth is missing');
  const { method, KEY, SIGN } = auth as Record<string, unknown>;
  if (method !== 'api_key') return fail(AUTH_FAILED, 'INVALID_PARAM_VALUE', 'auth.method must be api_key');
  if (typeof KEY !== 'string' || KEY === '' || typeof SIGN !== 'string')
    return fail(AUTH_FAILED, 'MISSING_REQUIRED_HEADER', 'auth.KEY and auth.SIGN are required');
  const time = request.time;
  if (typeof time !== 'number' || !Number.isFinite(time))
    return fail(AUTH_FAILED, 'MISSING_REQUIRED_HEADER', 'time (Unix seconds) is required');
  if (!deps.clock.timestampAccepted(time))
    return fail(AUTH_EXPIRED, 'REQUEST_EXPIRED', `time differs from server time by more than ${TIMESTAMP_WINDOW_S} s`);
  const found = deps.users.authLookup(KEY);
  if (!found) return fail(AUTH_FAILED, 'INVALID_KEY', 'Invalid key provided');
  const { key, user } = found;
  if (!channelSignatureValid(key.secret, request.channel, request.event, time, SIGN))
    return fail(AUTH_FAILED, 'INVALID_SIGNATURE', 'Signature mismatch');
  if (key.ipWhitelist.length > 0 && !key.ipWhitelist.includes(ip))
    return fail(AUTH_FORBIDDEN, 'IP_FORBIDDEN', `Request IP not in whitelist: ${ip}`);
  if (key.state !== 1) return fail(AUTH_FORBIDDEN, 'INVALID_CREDENTIALS', 'API key is disabled');
  if (user.state !== 1) return fail(AUTH_FORBIDDEN, 'ACCOUNT_LOCKED', 'Account is locked');
  if (user.parentId !== null) {
    if (deps.users.authMainState(user.parentId) !== 1)
      return fail(AUTH_FORBIDDEN, 'ACCOUNT_LOCKED', 'Main account is locked');
    if (user.disabledBusiness.includes('spot'))
      return fail(AUTH_FORBIDDEN, 'FORBIDDEN', 'The sub-account lacks the spot business permission');
  }
  if (Users.permits(key, 'spot', false) !== 'ok')
    return fail(AUTH_FORBIDDEN, 'FORBIDDEN', 'API key lacks the spot permission');
  return { ok: true, caller: { userId: user.id } };
}

/**
 * The `error.message` of a refused private subscription, as the platform sends it: the REST error
 * body `{"label","message"}` as a JSON text (with the trailing newline of its encoder), e.g.
 * `{"label":"INVALID_KEY","message":"Invalid key provided"}\n`.
 */
export function channelAuthErrorMessage(outcome: { label: string; message: string }): string {
  return `${JSON.stringify({ label: outcome.label, message: outcome.message })}\n`;
}
