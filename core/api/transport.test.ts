import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTransport, TransportError } from './transport';

/** A server whose behaviour each path chooses: answer, never answer, or cut the connection. */
let server: http.Server;
let base: string;
const received: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push(`${req.method} ${req.url} ${body}`);
      if (req.url === '/hang') return; // never answers
      if (req.url === '/cut') return req.socket.destroy(); // answer lost after the request arrived
      res.writeHead(201, { 'content-type': 'application/json', 'X-Gate-RateLimit-Reset-Timestamp': '1700000000' });
      res.end(JSON.stringify({ echo: body }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const failure = async (promise: Promise<unknown>): Promise<TransportError> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TransportError);
  return error as TransportError;
};

describe('transport', () => {
  it('sends the body once and returns status, lower-case headers and the body', async () => {
    const transport = createTransport();
    received.length = 0;
    const answer = await transport.send({
      method: 'POST',
      url: new URL(`${base}/ok`),
      headers: { 'content-type': 'application/json' },
      body: '{"amount":"1"}',
      timeoutMs: 5_000,
    });
    transport.close();
    expect(answer.status).toBe(201);
    expect(answer.headers['x-gate-ratelimit-reset-timestamp']).toBe('1700000000');
    expect(JSON.parse(answer.body)).toEqual({ echo: '{"amount":"1"}' });
    expect(received).toEqual(['POST /ok {"amount":"1"}']);
  });

  it('a refused connection is "connect": certainly not sent', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const transport = createTransport();
    const error = await failure(
      transport.send({
        method: 'POST',
        url: new URL(`http://127.0.0.1:${port}/x`),
        headers: {},
        body: '{}',
        timeoutMs: 2_000,
      }),
    );
    transport.close();
    expect(error.phase).toBe('connect');
  });

  it('a connection cut after the request arrived is "exchange": outcome unknown, never resent', async () => {
    const transport = createTransport();
    received.length = 0;
    const error = await failure(
      transport.send({ method: 'POST', url: new URL(`${base}/cut`), headers: {}, body: '{"n":1}', timeoutMs: 5_000 }),
    );
    transport.close();
    expect(error.phase).toBe('exchange');
    expect(received).toEqual(['POST /cut {"n":1}']);
  });

  it('no answer in time is "exchange" and says how long it waited', async () => {
    const transport = createTransport();
    const error = await failure(
      transport.send({ method: 'GET', url: new URL(`${base}/hang`), headers: {}, timeoutMs: 300 }),
    );
    transport.close();
    expect(error.phase).toBe('exchange');
    expect(error.message).toBe('no answer within 300 ms');
  });

  it('cancelled before sending is "aborted"; cancelled in flight is "exchange"', async () => {
    const transport = createTransport();
    const before = new AbortController();
    before.abort();
    received.length = 0;
    const early = await failure(
      transport.send({
        method: 'POST',
        url: new URL(`${base}/ok`),
        headers: {},
        body: '{}',
        timeoutMs: 5_000,
        signal: before.signal,
      }),
    );
    expect(early.phase).toBe('aborted');
    expect(received).toEqual([]);

    const during = new AbortController();
    const pending = transport.send({
      method: 'GET',
      url: new URL(`${base}/hang`),
      headers: {},
      timeoutMs: 5_000,
      signal: during.signal,
    });
    setTimeout(() => during.abort(), 100);
    expect((await failure(pending)).phase).toBe('exchange');
    transport.close();
  });

  it('a closed transport sends nothing', async () => {
    const transport = createTransport();
    transport.close();
    received.length = 0;
    const error = await failure(
      transport.send({ method: 'POST', url: new URL(`${base}/ok`), headers: {}, body: '{}', timeoutMs: 1_000 }),
    );
    expect(error.phase).toBe('connect');
    expect(received).toEqual([]);
  });
});
