/**
 * The fallback shell's bridge in a real Chromium page, with a stand-in core (the core process's
 * direct channel, core/host/pageLane.ts, in this process): who called is what the browser says
 * (frame, top level, URL), a named call can be cancelled from the page, answers go back to the
 * document that asked, events reach our own document.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { reserveLoopbackPort } from '../core/host/loopbackPort';
import { type PageLanes, startPageLanes } from '../core/host/pageLane';
import { nodeTimers } from '../core/host/timers';
import type { SenderInfo } from '../core/ipc/dispatcher';
import { systemScheduler } from '../core/scheduler';
import { ChannelPort, ChannelServer, isChannelMessage } from '../shared/ipc/channel';
import type { Result } from '../shared/ipc/result';
import { type Bridge, installBridge } from './bridge';
import { findChrome, loadChromium } from './chrome';

const ORIGIN = 'https://bridge-test.invalid';
const chrome = findChrome();

/** What the stand-in core saw of each call. */
interface Seen {
  readonly operation: string;
  readonly payload: unknown;
  readonly sender: SenderInfo;
  readonly signal: AbortSignal | undefined;
}

describe.skipIf(chrome === undefined)('the Chromium shell’s bridge', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let bridge: Bridge;
  let lanes: PageLanes | undefined;
  /** The documents that opened a lane, in order (a new one per lane). */
  const attached: number[] = [];
  const seen: Seen[] = [];
  /** Each open lane's channel port, by document: the stand-in core emits its events there. */
  const lanePorts = new Map<number, ChannelPort>();
  /** When set, the stand-in core does not tell the shell that a new lane carries the events (the test does). */
  let holdEventsOnLane = false;

  /**
   * The stand-in core: answers every call with what it was asked; holds an export until cancelled.
   * A ping that names `notices` emits them as events first (on the lane the call came by, if any).
   */
  const standIn = async (
    operation: string,
    payload: unknown,
    sender: SenderInfo,
    signal: AbortSignal | undefined,
    emit: (name: string, payload: unknown) => void = (name, payload) => bridge.send([[name, payload]]),
  ): Promise<Result<unknown>> => {
    seen.push({ operation, payload, sender, signal });
    const { notices } = (payload ?? {}) as { notices?: string[] };
    for (const message of notices ?? []) emit('app.notice', { level: 'info', message });
    if (operation === 'activity.exportHistoryCsv') {
      return new Promise((resolve) => {
        signal?.addEventListener('abort', () => resolve({ ok: true, value: { cancelled: true } }));
      });
    }
    return { ok: true, value: { operation, payload } };
  };

  beforeAll(async () => {
    browser = await loadChromium().launch({ executablePath: chrome!, headless: true, args: ['--no-sandbox'] });
    context = await browser.newContext();
    // As the shell does for its origin: the lane is a loopback WebSocket (Local Network Access).
    await context.grantPermissions(['local-network-access'], { origin: ORIGIN });
    await context.route(`${ORIGIN}/**`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: route.request().url().endsWith('/frame') ? '<p>inner</p>' : '<p>app</p>',
      }),
    );
    page = await context.newPage();
    const lanePort = await reserveLoopbackPort();
    const timers = nodeTimers();
    // As the core's process serves a lane: a channel server taking every call as the lane's sender.
    lanes = await startPageLanes({
      port: lanePort,
      isTrustedOrigin: (origin) => origin === ORIGIN,
      scheduler: systemScheduler(),
      attach: (windowId, sender, port) => {
        attached.push(windowId);
        const channelPort = new ChannelPort((message) => port.postMessage(message), timers);
        lanePorts.set(windowId, channelPort);
        const server = new ChannelServer(
          channelPort,
          (operation, input, { signal }) =>
            standIn(operation, input, sender, signal as AbortSignal, (name, payload) =>
              channelPort.emit(name, payload),
            ),
          timers,
        );
        port.on('message', ({ data }) => {
          if (isChannelMessage(data)) server.receive(data);
        });
        port.on('close', () => {
          server.close();
          if (lanePorts.get(windowId) === channelPort) lanePorts.delete(windowId);
        });
        port.start();
        if (!holdEventsOnLane) bridge.eventsOnLane(windowId);
      },
    });
    bridge = await installBridge(page, {
      core: {
        dispatchText: async (operation, payload, sender, options = {}) =>
          JSON.stringify(await standIn(operation, payload, sender, options.signal as AbortSignal | undefined)),
        offerLane: async (windowId, sender, lane) => {
          lanes?.expect(lane, windowId, sender);
          return lanes !== undefined;
        },
        closeLane: (windowId) => lanes?.close(windowId),
      },
      lanePort,
      operations: ['app.ping', 'activity.exportHistoryCsv'],
      isTrustedSender: (sender) => sender.isMainFrame && sender.url.startsWith(`${ORIGIN}/`),
    });
    await page.goto(`${ORIGIN}/`);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await lanes?.stop();
  });

  it('answers a call with the core’s answer, naming the caller as the browser does', async () => {
    const answer = await page.evaluate(() =>
      (window as unknown as { desk: { app: { ping(i: unknown): Promise<unknown> } } }).desk.app.ping({ text: 'hi' }),
    );
    expect(answer).toEqual({ ok: true, value: { operation: 'app.ping', payload: { text: 'hi' } } });
    expect(seen.at(-1)?.sender).toEqual({ url: `${ORIGIN}/`, isMainFrame: true });
    // The binding itself is gone from the page; only window.desk is there.
    expect(await page.evaluate(() => Object.keys(window).filter((k) => /bridge|desk_/i.test(k)))).toEqual([]);
  });

  it('once its lane is open, our document’s calls go over it, still named as the browser names the document', async () => {
    const sent: string[] = [];
    page.on('websocket', (socket) => socket.on('framesent', ({ payload }) => sent.push(String(payload))));
    await page.reload();
    await expect
      .poll(async () => {
        await page.evaluate(() =>
          (window as unknown as { desk: { app: { ping(i: unknown): Promise<unknown> } } }).desk.app.ping({ text: 'x' }),
        );
        return sent.some((frame) => frame.includes('"app.ping"'));
      })
      .toBe(true);
    const answer = await page.evaluate(() =>
      (window as unknown as { desk: { app: { ping(i: unknown): Promise<unknown> } } }).desk.app.ping({ text: 'lane' }),
    );
    expect(answer).toEqual({ ok: true, value: { operation: 'app.ping', payload: { text: 'lane' } } });
    expect(sent.some((frame) => frame.includes('"lane"'))).toBe(true);
    expect(seen.at(-1)?.sender).toEqual({ url: `${ORIGIN}/`, isMainFrame: true });
    expect(bridge.laneAddress).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
  });

  it('the lane refuses a page of another origin, and a connection without a key handed to one of our documents', async () => {
    const { WebSocket } = await import('ws');
    const calls = seen.length;
    const address = bridge.laneAddress!;
    const elsewhere = new WebSocket(address, { origin: 'https://elsewhere.invalid' });
    elsewhere.on('error', () => {}); // ended below, before it could open
    const refused = await new Promise<number>((done) =>
      elsewhere.on('unexpected-response', (_req, res) => done(res.statusCode ?? 0)),
    );
    expect(refused).toBe(401);
    elsewhere.terminate();
    // Our origin, but asked by another name (a DNS-rebinding page): refused as well.
    const rebound = new WebSocket(address, { origin: ORIGIN, headers: { host: 'rebound.example:80' } });
    rebound.on('error', () => {});
    expect(
      await new Promise<number>((done) => rebound.on('unexpected-response', (_req, res) => done(res.statusCode ?? 0))),
    ).toBe(401);
    rebound.terminate();
    // Our origin in the header (anything but a browser can write it), but a key nobody was handed.
    const forged = new WebSocket(address, { origin: ORIGIN });
    await new Promise((done) => forged.on('open', done));
    forged.send('not-a-key');
    forged.send(JSON.stringify({ k: 'call', id: 1, op: 'app.ping', input: { text: 'forged' } }));
    await new Promise((done) => forged.on('close', done));
    expect(seen.length).toBe(calls);
  });

  it('a process that took the channel’s port first gets the spent key and no call: the page waits for the core’s proof', async () => {
    const lanePort = await reserveLoopbackPort();
    const impostor = new WebSocketServer({ host: '127.0.0.1', port: lanePort });
    const received: string[] = [];
    impostor.on('connection', (socket) => {
      // It cannot answer with the proof: it keeps quiet, holding whatever it is sent.
      socket.on('message', (data) => received.push(String(data)));
    });
    const other = await context.newPage();
    try {
      const viaBinding: string[] = [];
      await installBridge(other, {
        core: {
          dispatchText: async (operation, payload) => {
            viaBinding.push(operation);
            return JSON.stringify({ ok: true, value: { operation, payload } });
          },
          offerLane: async () => true,
          closeLane: () => {},
        },
        lanePort,
        operations: ['app.ping'],
        isTrustedSender: (sender) => sender.isMainFrame && sender.url.startsWith(`${ORIGIN}/`),
      });
      await other.goto(`${ORIGIN}/`);
      await expect.poll(() => received.length).toBe(1);
      const answer = await other.evaluate(() =>
        (window as unknown as { desk: { app: { ping(i: unknown): Promise<unknown> } } }).desk.app.ping({ text: 'x' }),
      );
      // Answered by the core through the shell; the impostor saw the key and nothing else.
      expect(answer).toEqual({ ok: true, value: { operation: 'app.ping', payload: { text: 'x' } } });
      expect(viaBinding).toEqual(['app.ping']);
      expect(received).toHaveLength(1);
      expect(received[0]).not.toContain('app.ping');
    } finally {
      await other.close();
      await new Promise<void>((done) => impostor.close(() => done()));
    }
  });

  it('a call from a subframe is named as one, whatever the page says', async () => {
    await page.evaluate(async (origin) => {
      const frame = document.createElement('iframe');
      frame.src = `${origin}/frame`;
      document.body.append(frame);
      await new Promise((done) => frame.addEventListener('load', done));
    }, ORIGIN);
    const inner = page.frames().find((f) => f !== page.mainFrame())!;
    await inner.evaluate(() =>
      (window as unknown as { desk: { app: { ping(i: unknown): Promise<unknown> } } }).desk.app.ping({ text: 'in' }),
    );
    expect(seen.at(-1)?.sender).toEqual({ url: `${ORIGIN}/frame`, isMainFrame: false });
  });

  it('desk.cancel(callId) stops the named call: the core’s handler sees its signal abort, and its answer comes back', async () => {
    const pending = page.evaluate(() =>
      (
        window as unknown as {
          desk: { activity: { exportHistoryCsv(i: unknown, o: unknown): Promise<unknown> } };
        }
      ).desk.activity.exportHistoryCsv({ kinds: ['deposits'] }, { callId: 'export-1' }),
    );
    await expect.poll(() => seen.some((s) => s.operation === 'activity.exportHistoryCsv')).toBe(true);
    const call = seen.find((s) => s.operation === 'activity.exportHistoryCsv')!;
    expect(call.signal?.aborted).toBe(false);
    await page.evaluate(() => (window as unknown as { desk: { cancel(id: string): void } }).desk.cancel('export-1'));
    expect(await pending).toEqual({ ok: true, value: { cancelled: true } });
    expect(call.signal?.aborted).toBe(true);
  });

  it('a call in flight when its lane closes (the core stopped) ends OUTCOME_UNKNOWN, and the page gets a new lane', async () => {
    const exports = () => seen.filter((s) => s.operation === 'activity.exportHistoryCsv').length;
    const exportsBefore = exports();
    await expect.poll(() => attached.length).toBeGreaterThan(0);
    const lanesBefore = attached.length;
    const windowId = attached.at(-1)!;
    const pending = page.evaluate(() =>
      (
        window as unknown as {
          desk: { activity: { exportHistoryCsv(i: unknown, o: unknown): Promise<unknown> } };
        }
      ).desk.activity.exportHistoryCsv({ kinds: ['deposits'] }, { callId: 'export-2' }),
    );
    await expect.poll(exports).toBe(exportsBefore + 1);
    lanes?.close(windowId);
    // Never "failed" nor answered twice: it may have gone through, and the next core checks.
    expect(await pending).toMatchObject({ ok: false, error: { code: 'OUTCOME_UNKNOWN' } });
    await expect.poll(() => attached.length).toBe(lanesBefore + 1);
    const answer = await page.evaluate(() =>
      (window as unknown as { desk: { app: { ping(i: unknown): Promise<unknown> } } }).desk.app.ping({ text: 'again' }),
    );
    expect(answer).toEqual({ ok: true, value: { operation: 'app.ping', payload: { text: 'again' } } });
  });

  it('events reach listeners of our own document, in order', async () => {
    await page.evaluate(() => {
      const w = window as unknown as {
        desk: { on(name: string, l: (p: unknown) => void): void };
        seenEvents: unknown[];
      };
      w.seenEvents = [];
      w.desk.on('app.notice', (payload) => w.seenEvents.push(payload));
    });
    bridge.send([
      ['app.notice', { level: 'info', message: 'one' }],
      ['app.notice', { level: 'info', message: 'two' }],
    ]);
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { seenEvents: unknown[] }).seenEvents))
      .toEqual([
        { level: 'info', message: 'one' },
        { level: 'info', message: 'two' },
      ]);
  });

  /** Listens to app.notice in the page; returns what the listener has seen so far, in order. */
  const noticesSeen = async (): Promise<() => Promise<string[]>> => {
    await page.evaluate(() => {
      const w = window as unknown as {
        desk: { on(name: string, l: (p: { message: string }) => void): void };
        notices: string[];
      };
      w.notices = [];
      w.desk.on('app.notice', ({ message }) => w.notices.push(message));
    });
    return () => page.evaluate(() => (window as unknown as { notices: string[] }).notices);
  };

  it('on its lane, the events a call caused reach the page before the call’s answer', async () => {
    await expect.poll(() => lanePorts.size).toBeGreaterThan(0);
    const seenSoFar = await noticesSeen();
    const atAnswer = await page.evaluate(async () => {
      const w = window as unknown as {
        desk: { app: { ping(i: unknown): Promise<unknown> } };
        notices: string[];
      };
      await w.desk.app.ping({ notices: ['caused one', 'caused two'] });
      return [...w.notices];
    });
    expect(atAnswer).toEqual(['caused one', 'caused two']);
    expect(await seenSoFar()).toEqual(['caused one', 'caused two']);
  });

  it('a new lane’s events wait until the events sent through the shell before it opened are shown', async () => {
    holdEventsOnLane = true;
    try {
      const lanesBefore = attached.length;
      const laneFrames: string[] = [];
      page.on('websocket', (socket) => socket.on('framereceived', ({ payload }) => laneFrames.push(String(payload))));
      await page.reload();
      await expect.poll(() => attached.length).toBe(lanesBefore + 1);
      const windowId = attached.at(-1)!;
      const seenSoFar = await noticesSeen();
      // The core emitted 'later' on the new lane, and it reached the page, while 'earlier' — emitted
      // before the lane opened — is still on its way through the shell.
      lanePorts.get(windowId)?.emit('app.notice', { level: 'info', message: 'later' });
      await expect.poll(() => laneFrames.some((frame) => frame.includes('later'))).toBe(true);
      bridge.send([['app.notice', { level: 'info', message: 'earlier' }]]);
      bridge.eventsOnLane(windowId);
      await expect.poll(seenSoFar).toEqual(['earlier', 'later']);
    } finally {
      holdEventsOnLane = false;
    }
  });
});
