/**
 * The stream client against a scripted WebSocket server on loopback: subscriptions are (re)sent on
 * every open, private ones signed; a cut or a silent server is noticed and the socket re-opened.
 */
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';
import { waitUntil } from '../testing/waitUntil';
import { PlatformClock } from './clock';
import { signChannel } from './sign';
import { PlatformStream } from './stream';

interface Request {
  time: number;
  id?: number;
  channel: string;
  event: string;
  payload?: string[];
  auth?: { method: string; KEY: string; SIGN: string };
}

const servers: WebSocketServer[] = [];
const streams: PlatformStream[] = [];

afterEach(async () => {
  for (const stream of streams.splice(0)) stream.close();
  for (const server of servers.splice(0)) {
    for (const client of server.clients) client.terminate();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A server that records requests; `answer` decides what it says (default: ack subscribes, pong pings). */
const startServer = async (answer?: (request: Request, socket: WebSocket) => boolean | undefined) => {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  const requests: Request[] = [];
  const sockets: WebSocket[] = [];
  server.on('connection', (socket) => {
    sockets.push(socket);
    socket.on('message', (data) => {
      const request = JSON.parse(data.toString()) as Request;
      requests.push(request);
      if (answer?.(request, socket)) return;
      if (request.channel === 'spot.ping') socket.send(JSON.stringify({ time: 1, channel: 'spot.pong', event: '' }));
      else if (request.event === 'subscribe')
        socket.send(
          JSON.stringify({
            time: 1,
            id: request.id,
            channel: request.channel,
            event: 'subscribe',
            result: { status: 'success' },
          }),
        );
    });
  });
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws/v4/`;
  return { server, url, requests, sockets };
};

const until = (condition: () => boolean) => waitUntil(condition, { timeoutMs: 3_000 });

const newStream = (url: string, extra: Partial<ConstructorParameters<typeof PlatformStream>[0]> = {}) => {
  const stream = new PlatformStream({ url, clock: new PlatformClock(), minBackoffMs: 20, maxBackoffMs: 40, ...extra });
  streams.push(stream);
  return stream;
};

describe('PlatformStream', () => {
  it('subscribes on open, passes updates of its channel, and unsubscribes', async () => {
    const { url, requests, sockets } = await startServer();
    const stream = newStream(url);
    const updates: unknown[] = [];
    let acks = 0;
    const off = stream.subscribe('spot.trades', ['BTC_USDT'], {
      onUpdate: (result) => updates.push(result),
      onSubscribed: () => acks++,
    });
    await until(() => acks === 1);
    expect(requests[0]).toMatchObject({ channel: 'spot.trades', event: 'subscribe', payload: ['BTC_USDT'] });
    expect(requests[0]?.auth).toBeUndefined();
    sockets[0]?.send(JSON.stringify({ channel: 'spot.trades', event: 'update', result: { id: 7 } }));
    sockets[0]?.send(JSON.stringify({ channel: 'spot.tickers', event: 'update', result: { id: 8 } }));
    await until(() => updates.length === 1);
    expect(updates).toEqual([{ id: 7 }]);
    off();
    await until(() => requests.some((r) => r.event === 'unsubscribe'));
  });

  it('signs private subscriptions with the key: HMAC-SHA512 of channel, event and time', async () => {
    const { url, requests } = await startServer();
    const stream = newStream(url, { credentials: () => ({ key: 'k1', secret: 's3cret' }) });
    let acked = false;
    stream.subscribe(
      'spot.orders',
      ['!all'],
      { onUpdate: () => {}, onSubscribed: () => (acked = true) },
      { private: true },
    );
    await until(() => acked);
    const [request] = requests;
    // The signer itself is checked against the shared vectors (sign.test.ts).
    const expected = signChannel('s3cret', 'spot.orders', 'subscribe', request?.time ?? 0);
    expect(request?.auth).toEqual({ method: 'api_key', KEY: 'k1', SIGN: expected });
    expect(JSON.stringify(requests)).not.toContain('s3cret');
  });

  it('after a cut it says the stream is down, reconnects and subscribes again', async () => {
    const { url, requests, sockets } = await startServer();
    const stream = newStream(url);
    const events: string[] = [];
    stream.subscribe('spot.order_book_update', ['BTC_USDT', '100ms'], {
      onUpdate: () => {},
      onSubscribed: () => events.push('subscribed'),
      onDown: () => events.push('down'),
    });
    await until(() => events.length === 1);
    sockets[0]?.terminate();
    await until(() => events.length === 3);
    expect(events).toEqual(['subscribed', 'down', 'subscribed']);
    expect(requests.filter((r) => r.event === 'subscribe')).toHaveLength(2);
    expect(stream.current).toBe('open');
  });

  it('a refused subscription is reported, not taken for a live one', async () => {
    const { url } = await startServer((request, socket) => {
      if (request.event !== 'subscribe') return false;
      socket.send(
        JSON.stringify({
          id: request.id,
          channel: request.channel,
          event: 'subscribe',
          error: { code: 4, message: 'invalid signature' },
        }),
      );
      return true;
    });
    const stream = newStream(url);
    const events: string[] = [];
    stream.subscribe('spot.balances', [], {
      onUpdate: () => {},
      onSubscribed: () => events.push('subscribed'),
      onDown: (why) => events.push(why),
    });
    await until(() => events.length === 1);
    expect(events[0]).toMatch(/refused: invalid signature/);
  });

  it('a server that stops answering is dropped after three pings and the socket re-opened', async () => {
    let silent = true;
    const { url, sockets } = await startServer((request) => silent && request.channel === 'spot.ping');
    const stream = newStream(url, { pingMs: 40 });
    const events: string[] = [];
    stream.subscribe('spot.trades', ['BTC_USDT'], {
      onUpdate: () => {},
      onSubscribed: () => events.push('subscribed'),
      onDown: (why) => events.push(why),
    });
    await until(() => events.includes('no answer to pings'));
    silent = false;
    await until(() => events.filter((e) => e === 'subscribed').length >= 2);
    expect(sockets.length).toBeGreaterThanOrEqual(2);
  });
});
