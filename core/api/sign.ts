/**
 * The platform's request signing, built in this one place for REST and the WebSocket's private
 * channels (spec "Authentication"; api-facts §6.1 and §8); both are lower-case hex HMAC-SHA512 with
 * the secret's UTF-8 bytes as key. Checked against the shared vectors
 * (shared/platform/signingVectors.ts), which the sandbox's own verifier is checked against too.
 *
 * REST: the signature covers exactly what is sent: the method, the path with /api/v4, the query
 * string as it appears in the URL but URL-decoded (same parameter order), the SHA-512 of the exact
 * body bytes and the Timestamp header text. Signing a different string than the one sent is the most
 * common cause of INVALID_SIGNATURE (users.md §3.1), so the caller passes the final query and body,
 * never a model.
 */
import { createHash, createHmac } from 'node:crypto';

export interface SignInput {
  readonly method: string;
  /** Path including the /api/v4 prefix, no scheme, host or query. */
  readonly path: string;
  /** The query string exactly as put in the URL (URL-encoded, without "?"); "" when none. */
  readonly query: string;
  /** The exact body text sent; "" when there is no body. */
  readonly body: string;
  /** The Timestamp header value, verbatim. */
  readonly timestamp: string;
}

export const EMPTY_BODY_SHA512 = createHash('sha512').update('').digest('hex');

/** The query as the platform verifies it: URL-decoded (form style, "+" is a space), order kept. */
export const decodeQueryForSigning = (query: string): string =>
  query === '' ? '' : decodeURIComponent(query.replace(/\+/g, ' '));

export const signatureString = (input: SignInput): string =>
  [
    input.method.toUpperCase(),
    input.path,
    decodeQueryForSigning(input.query),
    input.body === '' ? EMPTY_BODY_SHA512 : createHash('sha512').update(input.body).digest('hex'),
    input.timestamp,
  ].join('\n');

const hmacSha512Hex = (secret: string, payload: string): string =>
  createHmac('sha512', secret).update(payload).digest('hex');

/** The SIGN header of a REST request. */
export const sign = (secret: string, input: SignInput): string => hmacSha512Hex(secret, signatureString(input));

/** What a private channel request signs: its channel, event and time (Unix seconds). */
export const channelSignatureString = (channel: string, event: string, time: number): string =>
  `channel=${channel}&event=${event}&time=${time}`;

/** The `auth.SIGN` of a private channel request. */
export const signChannel = (secret: string, channel: string, event: string, time: number): string =>
  hmacSha512Hex(secret, channelSignatureString(channel, event, time));

/**
 * Builds the query string sent in the URL from ordered pairs. Values are encoded with
 * encodeURIComponent so that decoding gives back exactly the raw values that were signed.
 * Undefined values are left out.
 */
export const buildQuery = (
  params: Readonly<Record<string, string | number | boolean | undefined>> | undefined,
): string => {
  if (params === undefined) return '';
  const parts: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  }
  return parts.join('&');
};
