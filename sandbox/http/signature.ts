/**
 * APIv4 request signing (spec "Authentication" 6–7, api-facts §6): lower-case hex HMAC-SHA512 with
 * the secret over METHOD \n PATH \n QUERY \n hex(SHA512(body)) \n Timestamp.
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

export function sign(
  secret: string,
  method: string,
  path: string,
  query: string,
  bodySha512: string,
  timestamp: string,
): string {
  return createHmac('sha512', secret)
    .update(signatureString(method, path, query, bodySha512, timestamp))
    .digest('hex');
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
  if (!SIGN_RE.test(received)) return false;
  const expected = createHmac('sha512', secret)
    .update(signatureString(method, path, query, bodySha512, timestamp))
    .digest();
  return timingSafeEqual(expected, Buffer.from(received, 'hex'));
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
