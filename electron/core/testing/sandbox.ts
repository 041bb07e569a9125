/**
 * Test helpers: an in-process sandbox on a free port and a small client for its control plane.
 * Used by the core's integration, fault and leak tests (never by the app).
 */
import { startSandbox } from '../../../sandbox/server';

export type SandboxHandle = Awaited<ReturnType<typeof startSandbox>>;

export const startTestSandbox = (options: Parameters<typeof startSandbox>[0] = {}) =>
  startSandbox({ memory: true, clock: 'manual', market: 'off', port: 0, log: false, seed: 7, ...options });

/** POST/DELETE to the control plane (/sandbox/…); throws with the body on non-2xx. */
export const control = async <T = unknown>(
  sandbox: { controlUrl: string; controlToken: string },
  path: string,
  body?: unknown,
  method: 'POST' | 'DELETE' | 'GET' = 'POST',
): Promise<T> => {
  const response = await fetch(`${sandbox.controlUrl}${path}`, {
    method,
    headers: {
      'x-sandbox-token': sandbox.controlToken,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`control ${method} ${path}: HTTP ${response.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
};
