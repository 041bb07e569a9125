/**
 * The sandbox's own verifier of the platform's signatures (spec "Authentication" 6–7, api-facts §6
 * and §8), written apart from the app's signer on purpose: both are checked against the same vectors
 * (shared/platform/signingVectors.ts), so a mistake in one is not copied into the other. Lower-case
 * hex HMAC-SHA512 with the secret over
 *   REST:      METHOD \n PATH \n QUERY \n hex(SHA512(body)) \n Timestamp
 *   WebSocket: channel=<channel>&event=<event>&time=<time>   (a private channel request)
 * The signing halves (`sign`, `signChannel`) are for the sandbox's own test clients.
 */
import { createHmac, hash, timingSafeEqual } from 'node:crypto';

export const EMPTY_BODY_SHA512 = hash('sha512', '');

/** Hex SHA-512 of a request body (one-shot `crypto.hash`: half the cost of a Hash object per request). */
export function bodyHash(body: Buffer | string | undefined): string {
  if (body === undefined || body.length === 0) return EMPTY_BODY_SHA512;
  return hash('sha512', body);
}

export function signatureString(
  method: string,
  path: string,
  query: string,
  bodySha512: string,
  timestamp: string,
): string {
  return `${method.toUpperCase()}\n${path}\n${query}\n${bodySha512}\n${timestamp}`;
}

/** What a private channel request signs. */
export function channelSignatureString(channel: string, event: string, time: number | string): string {
  return `channel=${channel}&event=${event}&time=${time}`;
}

export function sign(
  secret: string,
  method: string,
  path: string,
  query: string,
  bodySha512: string,
  timestamp: string,
): string {
  return hmac(secret, signatureString(method, path, query, bodySha512, timestamp)).toString('hex');
}

/** The `auth.SIGN` a client sends for `channel`/`event` at `time` (seconds). */
export function signChannel(secret: string, channel: string, event: string, time: number | string): string {
  return hmac(secret, channelSignatureString(channel, event, time)).toString('hex');
}

const SIGN_RE = /^[0-9a-fA-F]{128}$/;

/**
 * Whether a received SIGN (hex, any case) is the signature of the request, compared in constant
 * time on the raw digest bytes (no hex string of the expected value is built: this runs on every
 * signed request).
 */
export function signatureValid(
  secret: string,
  method: string,
  path: string,
  query: string,
  bodySha512: string,
  timestamp: string,
  received: string,
): boolean {
  return hmacMatches(secret, signatureString(method, path, query, bodySha512, timestamp), received);
}

/** Whether a received channel `auth.SIGN` is the signature of `channel`/`event`/`time`. */
export function channelSignatureValid(
  secret: string,
  channel: string,
  event: string,
  time: number,
  received: string,
): boolean {
  return hmacMatches(secret, channelSignatureString(channel, event, time), received);
}

function hmacMatches(secret: string, payload: string, received: string): boolean {
  if (!SIGN_RE.test(received)) return false;
  return timingSafeEqual(hmac(secret, payload), Buffer.from(received, 'hex'));
}

function hmac(secret: string, payload: string): Buffer {
  return createHmac('sha512', secret).update(payload).digest();
}

/**
 * The query string as the SDKs sign it: form-decoded (`+` → space, %XX decoded), order kept.
 * A malformed escape is left as received (the signature will then simply not match).
 */
export function decodeQueryForSigning(rawQuery: string): string {
  if (rawQuery === '') return '';
  const spaced = rawQuery.includes('+') ? rawQuery.replace(/\+/g, ' ') : rawQuery;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}
