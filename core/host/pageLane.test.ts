/**
 * The direct channel's waits for a connection's key (pageLane.ts), in manual time: a connection
 * has 5 s to name a key, and a key named before the shell's word of it waits 1 s for that word.
 * (The whole lane in a real Chromium page: shell/bridge.test.ts.)
 */

import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { ManualScheduler } from '../testing/scheduler';
import { waitUntil } from '../testing/waitUntil';
import { type PageLanes, startPageLanes } from './pageLane';

const ORIGIN = 'https://lane-test.invalid';
const SENDER = { url: `${ORIGIN}/`, isMainFrame: true };

const freeLoopbackPort = async (): Promise<number> => {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
};

describe('the direct channel’s waits for a key, on the core’s scheduler', () => {
  let scheduler: ManualScheduler;
  let lanes: PageLanes;
  let port: number;
  /** The delays of the timers the lanes armed, in order. */
  let armed: number[];
  const attached: number[] = [];
  const clients: WebSocket[] = [];

  beforeEach(async () => {
    scheduler = new ManualScheduler();
    armed = [];
    attached.length = 0;
    const setTimeout = scheduler.setTimeout.bind(scheduler);
    vi.spyOn(scheduler, 'setTimeout').mockImplementation((callback, delayMs, options) => {
      armed.push(delayMs);
      return setTimeout(callback, delayMs, options);
    });
    port = await freeLoopbackPort();
    const started = await startPageLanes({
      port,
      isTrustedOrigin: (origin) => origin === ORIGIN,
      attach: (windowId) => attached.push(windowId),
      scheduler,
    });
    if (started === undefined) throw new Error(`port ${port} taken`);
    lanes = started;
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.terminate();
    await lanes.stop();
  });

  /** A page's connection, open; `messages` are what the core sent it, `closed` whether it was closed. */
  const connect = async () => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}`, { origin: ORIGIN });
    clients.push(socket);
    const connection = { socket, messages: [] as string[], closed: false };
    socket.on('message', (data) => connection.messages.push(String(data)));
    socket.on('close', () => {
      connection.closed = true;
    });
    // A connection the core cuts may end with a reset: that is its close, not an error of the test.
    socket.on('error', () => undefined);
    await once(socket, 'open');
    return connection;
  };
  /** Waits until the lanes armed `count` timers of `delayMs` (the connection's message arrived). */
  const armedTimers = (delayMs: number, count = 1) =>
    waitUntil(() => armed.filter((ms) => ms === delayMs).length >= count, {
      what: `${count} timer(s) of ${delayMs} ms`,
    });

  it('closes a connection that names no key within 5 s, and attaches one that names its key in time', async () => {
    const silent = await connect();
    await armedTimers(5_000);
    const late = await connect();
    await armedTimers(5_000, 2);

    await scheduler.advance(4_999);
    lanes.expect({ key: 'k-late', proof: 'proof-late' }, 7, SENDER);
    late.socket.send('k-late');
    await waitUntil(() => late.messages.length > 0, { what: 'the proof' });
    expect(late.messages).toEqual(['proof-late']);
    expect(attached).toEqual([7]);

    await scheduler.advance(1);
    await waitUntil(() => silent.closed, { what: 'the silent connection to be closed' });
    // The attached one's deadline was cancelled with its key.
    expect(late.closed).toBe(false);
    expect(scheduler.pendingTimers()).toBe(0);
  });

  it('lets a key named before the shell’s word of it wait 1 s for that word, then refuses it', async () => {
    const early = await connect();
    early.socket.send('k-early');
    const unknown = await connect();
    unknown.socket.send('k-nobody-was-handed');
    await armedTimers(1_000, 2);

    await scheduler.advance(999);
    lanes.expect({ key: 'k-early', proof: 'proof-early' }, 3, SENDER);
    await waitUntil(() => early.messages.length > 0, { what: 'the proof' });
    expect(early.messages).toEqual(['proof-early']);
    expect(attached).toEqual([3]);

    await scheduler.advance(1);
    await waitUntil(() => unknown.closed, { what: 'the connection with an untold key to be closed' });
    expect(unknown.messages).toEqual([]);
    expect(early.closed).toBe(false);
  });
});
