/**
 * The sandbox answers only its own loopback names (a page that reached the port through DNS
 * rebinding sends its own Host), and its control plane only who holds the token and is not a page.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { SandboxHandle } from '../server';
import { startTestSandbox } from '../testing/harness';

let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startTestSandbox({ seed: 3 });
});
afterAll(async () => {
  await sandbox.close();
});

/** A raw HTTP request (fetch does not let a caller set Host). */
const raw = (
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: { label?: string; message?: string } & Record<string, unknown> }> =>
  new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: sandbox.port, method, path, headers, setHost: headers.host === undefined },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8');
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : {} }));
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.end(body);
    else req.end();
  });

const token = () => ({ 'x-sandbox-token': sandbox.controlToken });

describe('Host header (DNS rebinding)', () => {
  it('accepts 127.0.0.1, localhost and [::1] with the port', async () => {
    for (const host of [`127.0.0.1:${sandbox.port}`, `localhost:${sandbox.port}`, `[::1]:${sandbox.port}`]) {
      expect((await raw('GET', '/api/v4/spot/time', { host })).status).toBe(200);
      expect((await raw('GET', '/sandbox/health', { host, ...token() })).status).toBe(200);
    }
  });

  it('refuses another name, another port or no port, on the API and the control plane (403 FORBIDDEN)', async () => {
    for (const host of [`evil.example:${sandbox.port}`, 'localhost', `127.0.0.1:${sandbox.port + 1}`, '127.0.0.1']) {
      const api = await raw('GET', '/api/v4/spot/time', { host });
      expect(api.status).toBe(403);
      expect(api.body.label).toBe('FORBIDDEN');
      // A plain JSON POST (the lean path that skips Fastify, http/app.ts) is checked the same.
      const post = await raw('POST', '/api/v4/wallet/transfers', { host, 'content-type': 'application/json' }, '{}');
      expect([post.status, post.body.label]).toEqual([403, 'FORBIDDEN']);
      const control = await raw(
        'POST',
        '/sandbox/keys',
        { host, 'content-type': 'application/json', ...token() },
        '{}',
      );
      expect(control.status).toBe(403);
      expect(control.body.message).toContain('Host');
      // An unknown path too: nothing tells a rebinding page what exists.
      expect((await raw('GET', '/nothing', { host })).status).toBe(403);
    }
  });

  it('refuses a WebSocket upgrade with another Host', async () => {
    const refused = await new Promise<number>((resolve) => {
      const ws = new WebSocket(sandbox.wsUrl, { headers: { host: `evil.example:${sandbox.port}` } });
      ws.on('unexpected-response', (_req, res) => {
        resolve(res.statusCode ?? 0);
        ws.terminate();
      });
      ws.on('open', () => {
        resolve(101);
        ws.close();
      });
      ws.on('error', () => {});
    });
    expect(refused).toBe(403);
  });
});

describe('control token and Origin', () => {
  const host = () => ({ host: `127.0.0.1:${sandbox.port}` });

  it('refuses a control request without the token or with a wrong one; nothing is created', async () => {
    const before = await raw('GET', '/sandbox/health', { ...host(), ...token() });
    expect(before.status).toBe(200);
    const attempts: Record<string, string>[] = [
      {},
      { 'x-sandbox-token': 'wrong' },
      { 'x-sandbox-token': `${sandbox.controlToken}x` },
    ];
    for (const headers of attempts) {
      const answer = await raw(
        'POST',
        '/sandbox/users',
        { ...host(), 'content-type': 'application/json', ...headers },
        '{}',
      );
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject({ label: 'FORBIDDEN' });
      expect(answer.body.message).toContain('X-Sandbox-Token');
      expect(answer.body.key).toBeUndefined();
    }
  });

  it('works with the right token', async () => {
    const answer = await raw(
      'POST',
      '/sandbox/users',
      { ...host(), 'content-type': 'application/json', ...token() },
      '{}',
    );
    expect(answer.status).toBe(200);
    expect(answer.body.key).toEqual(expect.any(String));
  });

  it('refuses a control request from a web page (an Origin header), even with the token; "null" is allowed', async () => {
    const page = await raw(
      'POST',
      '/sandbox/users',
      { ...host(), 'content-type': 'application/json', origin: 'http://evil.example', ...token() },
      '{}',
    );
    expect(page.status).toBe(403);
    expect(page.body.message).toContain('Origin');
    const opaque = await raw('GET', '/sandbox/health', { ...host(), origin: 'null', ...token() });
    expect(opaque.status).toBe(200);
  });

  it('a new sandbox has a new token', async () => {
    const other = await startTestSandbox({ seed: 4 });
    try {
      expect(other.controlToken).not.toBe(sandbox.controlToken);
      expect(other.controlToken.length).toBeGreaterThanOrEqual(32);
    } finally {
      await other.close();
    }
  });
});
