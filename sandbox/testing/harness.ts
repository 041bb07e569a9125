/**
 * Test helpers for sandbox suites (also usable by sandbox/spot tests): start an in-memory sandbox on
 * a free port with the manual clock, and call it over real HTTP with correctly signed requests.
 */

import { bodyHash, sign } from '../http/signature';
import { type SandboxHandle, startSandbox } from '../server';

export interface Credentials {
  readonly key: string;
  readonly secret: string;
}

export interface ApiAnswer<T = unknown> {
  readonly status: number;
  readonly body: T;
  readonly headers: Headers;
}

export async function startTestSandbox(seed = 1): Promise<SandboxHandle> {
  return startSandbox({ memory: true, clock: 'manual', seed, market: 'off', port: 0 });
}

/** Builds the signing headers for a request (exported for tests that tamper with them). */
export function signedHeaders(
  creds: Credentials,
  method: string,
  path: string,
  query: string,
  body: string,
  timestamp = String(Math.floor(Date.now() / 1000)),
): Record<string, string> {
  return {
    KEY: creds.key,
    Timestamp: timestamp,
    SIGN: sign(creds.secret, method, path, query, bodyHash(body), timestamp),
  };
}

/**
 * A signed call. `pathAndQuery` is relative to /api/v4 (e.g. `/wallet/deposits?currency=BTC`);
 * the query is signed exactly as written (no encoding needed for plain values).
 */
export async function api<T = unknown>(
  sandbox: SandboxHandle,
  creds: Credentials | null,
  method: string,
  pathAndQuery: string,
  body?: unknown,
  extraHeaders: Record<string, string> = {},
): Promise<ApiAnswer<T>> {
  const [path, query = ''] = pathAndQuery.split('?', 2) as [string, string?];
  const text = body === undefined ? '' : JSON.stringify(body);
  const headers: Record<string, string> = { Accept: 'application/json', ...extraHeaders };
  if (text !== '') headers['Content-Type'] = 'application/json';
  if (creds) Object.assign(headers, signedHeaders(creds, method, `/api/v4${path}`, query, text));
  const res = await fetch(`${sandbox.baseUrl}${pathAndQuery}`, {
    method,
    headers,
    ...(text !== '' ? { body: text } : {}),
  });
  const raw = await res.text();
  return { status: res.status, body: (raw === '' ? undefined : JSON.parse(raw)) as T, headers: res.headers };
}

/** An unsigned control-plane call. */
export async function control<T = unknown>(
  sandbox: SandboxHandle,
  method: string,
  path: string,
  body?: unknown,
): Promise<ApiAnswer<T>> {
  const res = await fetch(`${sandbox.controlUrl}${path}`, {
    method,
    headers: {
      'X-Sandbox-Token': sandbox.controlToken,
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const raw = await res.text();
  return { status: res.status, body: (raw === '' ? undefined : JSON.parse(raw)) as T, headers: res.headers };
}

/** The seeded main account's credentials. */
export const mainCreds = (sandbox: SandboxHandle): Credentials => ({ key: sandbox.key, secret: sandbox.secret });
