import http from 'node:http';
import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SandboxHandle } from '../server';
import {
  api,
  type Credentials,
  control,
  controlAnswer,
  mainCreds,
  signedHeaders,
  startTestSandbox,
} from '../testing/harness';

let sb: SandboxHandle;
let main: Credentials;
type Err = { label: string; message: string };

beforeAll(async () => {
  sb = await startTestSandbox({ seed: 1 });
  main = mainCreds(sb);
});
afterAll(() => sb.close());

const spotUsdt = async (creds: Credentials = main) => {
  const res = await api<{ available: string }[]>(sb, creds, 'GET', '/spot/accounts?currency=USDT');
  return res.body[0]?.available;
};
const optionsTransfer = { currency: 'USDT', from: 'spot', to: 'options', amount: '1' };

describe('errors', () => {
  it('unknown path → 404 NOT_FOUND, wrong method → 405 METHOD_NOT_ALLOWED', async () => {
    const nf = await api<Err>(sb, main, 'GET', '/wallet/nothing_here');
    expect([nf.status, nf.body.label]).toEqual([404, 'NOT_FOUND']);
    const na = await api<Err>(sb, main, 'DELETE', '/wallet/fee');
    expect([na.status, na.body.label]).toEqual([405, 'METHOD_NOT_ALLOWED']);
  });

  it('bad JSON → INVALID_REQUEST_BODY; non-JSON body → INVALID_CONTENT_TYPE; Accept mismatch → NOT_ACCEPTABLE', async () => {
    const body = '{"currency": "USDT",';
    const h = signedHeaders(main, 'POST', '/api/v4/wallet/transfers', '', body);
    const bad = await fetch(`${sb.baseUrl}/wallet/transfers`, {
      method: 'POST',
      headers: { ...h, 'Content-Type': 'application/json' },
      body,
    });
    expect([bad.status, ((await bad.json()) as Err).label]).toEqual([400, 'INVALID_REQUEST_BODY']);
    const text = 'currency=USDT';
    const h2 = signedHeaders(main, 'POST', '/api/v4/wallet/transfers', '', text);
    const ct = await fetch(`${sb.baseUrl}/wallet/transfers`, {
      method: 'POST',
      headers: { ...h2, 'Content-Type': 'text/plain' },
      body: text,
    });
    expect([ct.status, ((await ct.json()) as Err).label]).toEqual([400, 'INVALID_CONTENT_TYPE']);
    const na = await api<Err>(sb, main, 'GET', '/wallet/fee', undefined, { Accept: 'text/html' });
    expect([na.status, na.body.label]).toEqual([406, 'NOT_ACCEPTABLE']);
  });

  it('a body over 64 KiB → INVALID_REQUEST_BODY; a trailing slash is another path', async () => {
    const body = JSON.stringify({ currency: 'USDT', pad: 'x'.repeat(70_000) });
    const h = signedHeaders(main, 'POST', '/api/v4/wallet/transfers', '', body);
    const big = await fetch(`${sb.baseUrl}/wallet/transfers`, {
      method: 'POST',
      headers: { ...h, 'Content-Type': 'application/json' },
      body,
    });
    expect([big.status, ((await big.json()) as Err).label]).toEqual([400, 'INVALID_REQUEST_BODY']);
    expect((await api<Err>(sb, main, 'GET', '/wallet/fee/')).body.label).toBe('NOT_FOUND');
  });

  it('a malformed URL → BAD_REQUEST, an over-long path parameter → INVALID_PARAM_VALUE, with the usual headers', async () => {
    const origin = sb.baseUrl.replace('/api/v4', '');
    for (const [path, label] of [
      ['/api/v4/wallet/%ff', 'BAD_REQUEST'],
      ['/api/v4/sub_accounts/%zz', 'BAD_REQUEST'],
      ['/sandbox/%ff', 'BAD_REQUEST'],
      [`/api/v4/sub_accounts/${'9'.repeat(300)}`, 'INVALID_PARAM_VALUE'],
    ] as const) {
      const res = await fetch(`${origin}${path}`, { headers: { 'X-Client-Request-Id': 'req-bad' } });
      expect([res.status, ((await res.json()) as Err).label], path).toEqual([400, label]);
      expect(res.headers.get('x-in-time')).toMatch(/^\d{16}$/);
      expect(res.headers.get('x-out-time')).toMatch(/^\d{16}$/);
      expect(res.headers.get('x-svc-trace-id')).toBeTruthy();
      expect(res.headers.get('x-client-request-id')).toBe('req-bad');
      // Rate-limit headers belong to the API, not to the control plane.
      expect(res.headers.has('x-gate-ratelimit-limit'), path).toBe(path.startsWith('/api/v4'));
    }
  });

  it('HEAD on a GET route answers its status and headers without the body, and needs only read permission', async () => {
    const get = await api(sb, main, 'GET', '/wallet/fee');
    const head = await api(sb, main, 'HEAD', '/wallet/fee');
    expect([head.status, head.body]).toEqual([200, undefined]);
    expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'));
    expect(head.headers.get('x-svc-trace-id')).toBeTruthy();
    const reader = (
      await controlAnswer<Credentials>(sb, 'POST', '/keys', {
        user_id: sb.userId,
        perms: [{ name: 'wallet', read_only: true }],
      })
    ).body;
    expect((await api(sb, reader, 'HEAD', '/wallet/fee')).status).toBe(200);
    expect((await api(sb, main, 'HEAD', '/wallet/nothing_here')).status).toBe(404);
    expect((await api(sb, main, 'HEAD', '/wallet/transfers')).status).toBe(405);
  });

  it('MISSING_REQUIRED_PARAM, INVALID_PARAM_VALUE and INVALID_PRECISION change nothing', async () => {
    const before = await spotUsdt();
    const missing = await api<Err>(sb, main, 'POST', '/wallet/transfers', {
      currency: 'USDT',
      from: 'spot',
      amount: '1',
    });
    expect([missing.status, missing.body.label]).toEqual([400, 'MISSING_REQUIRED_PARAM']);
    const invalid = await api<Err>(sb, main, 'POST', '/wallet/transfers', { ...optionsTransfer, amount: '-1' });
    expect(invalid.body.label).toBe('INVALID_PARAM_VALUE');
    const precise = await api<Err>(sb, main, 'POST', '/wallet/transfers', {
      ...optionsTransfer,
      amount: '0.000000001',
    });
    expect(precise.body.label).toBe('INVALID_PRECISION');
    expect(await spotUsdt()).toBe(before);
  });
});

describe('headers', () => {
  it('every answer carries gateway times, a trace id, the echoed request id and rate-limit headers', async () => {
    for (const [path, status] of [
      ['/wallet/fee', 200],
      ['/wallet/unknown', 404],
    ] as const) {
      const res = await api(sb, main, 'GET', path, undefined, { 'X-Client-Request-Id': 'req-42' });
      expect(res.status).toBe(status);
      const inTime = Number(res.headers.get('x-in-time'));
      const outTime = Number(res.headers.get('x-out-time'));
      expect(String(inTime)).toMatch(/^\d{16}$/);
      expect(outTime).toBeGreaterThanOrEqual(inTime);
      expect(res.headers.get('x-svc-trace-id')).toBeTruthy();
      expect(res.headers.get('x-client-request-id')).toBe('req-42');
      expect(res.headers.get('x-gate-ratelimit-limit')).toMatch(/^\d+$/);
      expect(res.headers.get('x-gate-ratelimit-requests-remain')).toMatch(/^\d+$/);
      expect(res.headers.get('x-gate-ratelimit-reset-timestamp')).toMatch(/^\d{10}$/);
    }
  });
});

describe('the lean path and Fastify answer a POST alike', () => {
  /** A signed transfer sent raw over node:http, so its framing can vary (chunked: no Content-Length). */
  const rawTransfer = (contentType: string, chunked: boolean) =>
    new Promise<{ status: number; body: { tx_id?: number; label?: string }; traceId: unknown }>((resolve, reject) => {
      const body = JSON.stringify(optionsTransfer);
      const headers: Record<string, string> = {
        ...signedHeaders(main, 'POST', '/api/v4/wallet/transfers', '', body),
        'Content-Type': contentType,
      };
      if (!chunked) headers['Content-Length'] = String(Buffer.byteLength(body));
      const req = http.request(
        { host: '127.0.0.1', port: sb.port, method: 'POST', path: '/api/v4/wallet/transfers', headers },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => {
            text += chunk.toString('utf8');
          });
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text), traceId: res.headers['x-svc-trace-id'] }),
          );
        },
      );
      req.on('error', reject);
      if (chunked) {
        // Two writes without a length: the body goes chunked, which only Fastify takes.
        req.write(body.slice(0, 10));
        req.end(body.slice(10));
      } else req.end(body);
    });

  it('a transfer as plain JSON, JSON with a charset, or chunked: each moves the money once and answers the same', async () => {
    const before = new Decimal((await spotUsdt()) ?? '0');
    const answers = [
      await rawTransfer('application/json', false),
      await rawTransfer('application/json; charset=utf-8', false),
      await rawTransfer('application/json', true),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body.tx_id).toEqual(expect.any(Number));
      expect(answer.traceId).toBeTruthy();
    }
    expect(new Set(answers.map((a) => a.body.tx_id)).size).toBe(3);
    expect(await spotUsdt()).toBe(before.minus(3).toFixed());
  });
});

describe('rate limits', () => {
  it('POST /withdrawals allows 1 request per 3 s per user; the window reopens', async () => {
    const body = { currency: 'USDT', chain: 'TRX', address: 'nowhere', amount: '20' };
    const first = await api<Err>(sb, main, 'POST', '/withdrawals', body);
    expect(first.status).toBe(400); // ADDRESS_NOT_USED: counted all the same
    const second = await api<Err>(sb, main, 'POST', '/withdrawals', body);
    expect([second.status, second.body.label]).toEqual([429, 'TOO_MANY_REQUESTS']);
    expect(second.headers.get('x-gate-ratelimit-limit')).toBe('1');
    expect(second.headers.get('x-gate-ratelimit-requests-remain')).toBe('0');
    expect(Number(second.headers.get('x-gate-ratelimit-reset-timestamp'))).toBeGreaterThanOrEqual(
      Math.floor(Date.now() / 1000),
    );
    await control(sb, '/advance', { seconds: 3 });
    expect((await api<Err>(sb, main, 'POST', '/withdrawals', body)).status).toBe(400);
  });

  it('counts per endpoint and per user: a sub-account has its own 80/10 s on total_balance', async () => {
    await control(sb, '/advance', { seconds: 10 });
    const sub = (
      await controlAnswer<Credentials>(sb, 'POST', '/keys', {
        user_id: 10_000_002,
        perms: [{ name: 'wallet', read_only: true }],
      })
    ).body;
    const statuses: number[] = [];
    for (let i = 0; i < 81; i += 1) statuses.push((await api(sb, main, 'GET', '/wallet/total_balance')).status);
    expect(statuses.slice(0, 80).every((s) => s === 200)).toBe(true);
    expect(statuses[80]).toBe(429);
    expect((await api(sb, sub, 'GET', '/wallet/total_balance')).status).toBe(200);
    expect((await api(sb, main, 'GET', '/wallet/fee')).status).toBe(200);
  });

  it('public endpoints are counted per IP: 200 per 10 s', async () => {
    await control(sb, '/advance', { seconds: 10 });
    let last = 0;
    for (let i = 0; i < 201; i += 1) last = (await api(sb, null, 'GET', '/wallet/currency_chains?currency=BTC')).status;
    expect(last).toBe(429);
  });
});

describe('fault injection', () => {
  it('drop_before cuts the connection without doing the work', async () => {
    const before = await spotUsdt();
    await control(sb, '/faults', {
      rules: [{ method: 'POST', path: '/wallet/transfers', kind: 'drop_before', times: 1 }],
    });
    await expect(api(sb, main, 'POST', '/wallet/transfers', optionsTransfer)).rejects.toThrow();
    expect(await spotUsdt()).toBe(before);
  });

  it('drop_after commits the operation, then cuts the connection', async () => {
    const before = Number(await spotUsdt());
    await control(sb, '/faults', {
      rules: [{ method: 'POST', path: '/wallet/transfers', kind: 'drop_after', times: 1 }],
    });
    await expect(api(sb, main, 'POST', '/wallet/transfers', optionsTransfer)).rejects.toThrow();
    expect(Number(await spotUsdt())).toBe(before - 1);
    // times: 1 was consumed, the next request is normal
    expect((await api(sb, main, 'POST', '/wallet/transfers', optionsTransfer)).status).toBe(200);
  });

  it('status_500, status_429 and delay; DELETE /sandbox/faults clears the rules', async () => {
    await control(sb, '/faults', {
      rules: [
        { path: '/wallet/fee', kind: 'status_500', times: 1 },
        { path: '/wallet/fee', kind: 'status_429', times: 1 },
        { path: '/wallet/deposits', kind: 'delay', ms: 2_000 },
      ],
    });
    const e500 = await api<Err>(sb, main, 'GET', '/wallet/fee');
    expect([e500.status, e500.body.label]).toEqual([500, 'INTERNAL']);
    const e429 = await api<Err>(sb, main, 'GET', '/wallet/fee');
    expect([e429.status, e429.body.label]).toEqual([429, 'TOO_MANY_REQUESTS']);
    expect((await api(sb, main, 'GET', '/wallet/fee')).status).toBe(200);
    const t0 = Date.now();
    expect((await api(sb, main, 'GET', '/wallet/deposits')).status).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1_990);
    expect((await controlAnswer(sb, 'DELETE', '/faults')).status).toBe(200);
    const t1 = Date.now();
    await api(sb, main, 'GET', '/wallet/deposits');
    // Far below the 2 s delay even on a loaded machine: the rule is gone.
    expect(Date.now() - t1).toBeLessThan(1_000);
  });

  it('hold keeps a request in flight until DELETE /sandbox/faults, then it is answered as usual', async () => {
    await control(sb, '/faults', { rules: [{ path: '/wallet/deposits', kind: 'hold', times: 1 }] });
    let answered = false;
    const held = api(sb, main, 'GET', '/wallet/deposits').then((res) => {
      answered = true;
      return res;
    });
    await vi.waitFor(() => expect(sb.faults.holding).toBe(1));
    // Another request goes through meanwhile; the held one is still unanswered.
    expect((await api(sb, main, 'GET', '/wallet/fee')).status).toBe(200);
    expect(answered).toBe(false);
    expect((await controlAnswer(sb, 'DELETE', '/faults')).status).toBe(200);
    expect((await held).status).toBe(200);
    expect(sb.faults.holding).toBe(0);
  });

  it('rejects malformed fault rules', async () => {
    const res = await controlAnswer<Err>(sb, 'POST', '/faults', { rules: [{ path: '/x', kind: 'explode' }] });
    expect([res.status, res.body.label]).toEqual([400, 'INVALID_PARAM_VALUE']);
  });
});
