/**
 * The core behind the process boundary, supervised from the shell's side. Most of it runs over an
 * in-memory pair of ports (testing/inMemoryCore.ts: messages cloned and delivered later, crashes
 * simulated); one smoke test forks a real process and kills it for real.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type SandboxHandle, startSandbox } from '../../sandbox/server';
import { bundledEntry } from '../../sandbox/testing/bundledEntry';
import { DEFAULT_POLICY } from '../../shared/contract/policies';
import type { EventEntry } from '../../shared/ipc/channel';
import type { Result } from '../../shared/ipc/result';
import { TEST_SCRYPT_COST } from '../operators';
import type { SandboxAddress } from '../profiles/manager';
import { TEST_ADMIN } from '../testing/core';
import { type InMemoryLaunch, inMemoryCoreLauncher } from '../testing/inMemoryCore';
import { ManualScheduler } from '../testing/scheduler';
import { reserveLoopbackPort } from './loopbackPort';
import type { CoreChannel, LaunchCore } from './messages';
import { CORE_SOURCE, nodeCoreLauncher } from './nodeLauncher';
import { CoreStartFailed, type RemoteCore, restartPauseMs, type ShellHandlers, startRemoteCore } from './remoteCore';

const ORIGIN = 'https://treasury-desk.invalid';
const SENDER = { url: `${ORIGIN}/`, isMainFrame: true };
let sandbox: SandboxHandle;
const tmp = mkdtempSync(join(tmpdir(), 'remote-core-'));

beforeAll(async () => {
  sandbox = await startSandbox({ memory: true, clock: 'manual', market: 'off' });
});
afterAll(async () => {
  await sandbox.close();
  rmSync(tmp, { recursive: true, force: true });
});

const open = (
  launch: LaunchCore,
  dataDir: string,
  o: {
    notices?: string[];
    events?: EventEntry[];
    shell?: ShellHandlers;
    maxRestartsPerMinute?: number;
    scheduler?: ManualScheduler;
    pageLanePort?: number;
    eventsOnLane?: (windowId: number) => void;
  } = {},
): Promise<RemoteCore> =>
  startRemoteCore({
    launch,
    options: {
      dataDir,
      shell: 'chromium',
      trustedOrigins: [ORIGIN],
      keyStore: 'memory',
      sandbox: { mode: 'external', baseUrl: sandbox.baseUrl, key: sandbox.key, secret: sandbox.secret },
      watchIntervalMs: 0,
      bootstrapOperator: TEST_ADMIN,
      scryptCost: TEST_SCRYPT_COST,
      downloadsDir: join(dataDir, 'downloads'),
      ...(o.pageLanePort === undefined ? {} : { pageLanePort: o.pageLanePort }),
    },
    ...(o.eventsOnLane ? { eventsOnLane: o.eventsOnLane } : {}),
    emit: (batch) => {
      o.events?.push(...batch);
      for (const [name, payload] of batch) {
        if (name === 'app.notice') o.notices?.push((payload as { message: string }).message);
      }
    },
    ...(o.shell ? { shell: o.shell } : {}),
    ...(o.maxRestartsPerMinute === undefined ? {} : { maxRestartsPerMinute: o.maxRestartsPerMinute }),
    ...(o.scheduler ? { scheduler: o.scheduler } : {}),
  });

/** A core process that exits while starting (its data folder still held, say), on a later turn. */
const exitsWhileStarting = (): CoreChannel => ({
  send: () => {},
  onMessage: () => {},
  onExit: (listener) => {
    setImmediate(() => listener(1, null));
  },
  pid: undefined,
  kill: () => {},
});

/** A shell handler that waits until the test answers it, and says when it was asked. */
const heldHandler = <I, O>() => {
  let release!: (answer: O) => void;
  let asked!: (input: I) => void;
  const wasAsked = new Promise<I>((resolve) => {
    asked = resolve;
  });
  const handler = (input: I) =>
    new Promise<O>((resolve) => {
      release = resolve;
      asked(input);
    });
  return { handler, wasAsked, release: (answer: O) => release(answer) };
};

const value = async <T>(result: Promise<Result<unknown>>): Promise<T> => {
  const settled = await result;
  if (!settled.ok) throw new Error(`${settled.error.code}: ${settled.error.message}`);
  return settled.value as T;
};

describe('a core over the channel (in-memory process pair)', () => {
  let launch: InMemoryLaunch;
  beforeAll(() => {
    launch = inMemoryCoreLauncher();
  });
  afterAll(() => launch.settled());

  it('starts the core while the built-in sandbox is still starting: it connects once the address comes, and says so when the sandbox never did', async () => {
    /** Starts a core whose sandbox is announced; records what the shell sent it. */
    const announced = (dataDir: string, address: Promise<SandboxAddress>) => {
      const sent: string[] = [];
      const core = startRemoteCore({
        launch: () => {
          const child = launch();
          return {
            ...child,
            send: (message, transfer) => {
              if ('type' in message) sent.push(message.type);
              child.send(message, transfer);
            },
          };
        },
        options: {
          dataDir,
          shell: 'chromium',
          trustedOrigins: [ORIGIN],
          keyStore: 'memory',
          sandbox: { mode: 'announced' },
          watchIntervalMs: 0,
          bootstrapOperator: TEST_ADMIN,
          scryptCost: TEST_SCRYPT_COST,
        },
        sandboxAddress: address,
        emit: () => {},
      });
      return { core, sent };
    };
    let listening!: (address: SandboxAddress) => void;
    const first = announced(
      join(tmp, 'announced'),
      new Promise<SandboxAddress>((resolve) => {
        listening = resolve;
      }),
    );
    // The core's process was told to start before the sandbox had an address.
    await vi.waitFor(() => expect(first.sent).toContain('start'));
    expect(first.sent).not.toContain('sandbox');
    listening({ baseUrl: sandbox.baseUrl, key: sandbox.key, secret: sandbox.secret });
    const core = await first.core;
    expect(await value<{ state: string }>(core.dispatch('profiles.status', {}, SENDER))).toMatchObject({
      state: 'connected',
    });
    await core.close();

    const failed = announced(join(tmp, 'announced-failed'), Promise.reject(new Error('code 1: port in use')));
    const withoutSandbox = await failed.core;
    expect(await value<unknown>(withoutSandbox.dispatch('profiles.status', {}, SENDER))).toMatchObject({
      lastError: { message: 'The built-in sandbox did not start: code 1: port in use' },
    });
    await withoutSandbox.close();
  });

  it('answers the window, checks the sender in the core, refuses a second core on the same folder, frees it when closed', async () => {
    const dataDir = join(tmp, 'one');
    const core = await open(launch, dataDir);
    try {
      expect(await core.dispatch('app.ping', { text: 'hi' }, SENDER)).toMatchObject({
        ok: true,
        value: { text: 'hi' },
      });
      expect(JSON.parse(await core.dispatchText('app.ping', { text: 'as text' }, SENDER))).toMatchObject({
        ok: true,
        value: { text: 'as text' },
      });
      // The relay adds no trust: the core checks the sender the shell names.
      expect(
        await core.dispatch('app.ping', { text: 'hi' }, { url: 'https://evil.example/', isMainFrame: true }),
      ).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } });
      const second = open(launch, dataDir);
      await expect(second).rejects.toBeInstanceOf(CoreStartFailed);
      await expect(second).rejects.toMatchObject({ busy: true });
    } finally {
      await core.close();
    }
    const again = await open(launch, dataDir);
    await again.close();
  });

  it('asks the shell through the shell contract: the trusted confirmation, where to save, a link — and checks each answer', async () => {
    const dataDir = join(tmp, 'shell');
    const confirm = heldHandler<{ view: { action: string; title: string } }, { accepted: boolean }>();
    const opened: string[] = [];
    let savePath: unknown = join(dataDir, 'chosen.csv');
    const core = await open(launch, dataDir, {
      shell: {
        confirm: ({ view }) => confirm.handler({ view }),
        chooseSavePath: async () => ({ path: savePath }) as { path?: string },
        openExternal: async ({ url }) => {
          opened.push(url);
          return { opened: true };
        },
      },
    });
    try {
      // A policy change waits for the person in the shell's confirmation window.
      const change = core.dispatch('policies.set', DEFAULT_POLICY, SENDER);
      const asked = await confirm.wasAsked;
      expect(asked.view).toMatchObject({ action: 'control', title: expect.stringContaining('Change the policy') });
      confirm.release({ accepted: false });
      expect(await change).toMatchObject({ ok: false, error: { code: 'CONFIRMATION_DECLINED' } });

      // An export goes where the shell's save dialog said.
      expect(
        await value(
          core.dispatch('app.saveFile', { suggestedName: 'a.csv', content: 'x,y\r\n', mimeType: 'text/csv' }, SENDER),
        ),
      ).toEqual({ path: join(dataDir, 'chosen.csv') });
      expect(readFileSync(join(dataDir, 'chosen.csv'), 'utf8')).toBe('x,y\r\n');
      // An answer outside the contract is no answer: nothing is written, the export counts as cancelled.
      savePath = 42;
      expect(
        await value(
          core.dispatch('app.saveFile', { suggestedName: 'b.csv', content: 'x', mimeType: 'text/csv' }, SENDER),
        ),
      ).toEqual({ cancelled: true });

      expect(await value(core.dispatch('app.openExternal', { url: 'https://tronscan.org/tx/0xabc' }, SENDER))).toEqual({
        opened: true,
      });
      expect(opened).toEqual(['https://tronscan.org/tx/0xabc']);
    } finally {
      await core.close();
    }
  });

  it('a call the core does not answer in time ends OUTCOME_UNKNOWN at the call’s own timeout; the core is asked to stop it', async () => {
    const dataDir = join(tmp, 'timeout');
    const save = heldHandler<{ suggestedName: string }, { path?: string }>();
    const core = await open(launch, dataDir, { shell: { chooseSavePath: save.handler } });
    try {
      const stuck = core.dispatch(
        'app.saveFile',
        { suggestedName: 'c.csv', content: 'x', mimeType: 'text/csv' },
        SENDER,
        {
          timeoutMs: 200,
        },
      );
      await save.wasAsked;
      expect(await stuck).toMatchObject({
        ok: false,
        error: { code: 'OUTCOME_UNKNOWN', message: expect.stringContaining('did not answer “app.saveFile”') },
      });
      save.release({});
      // The channel is still good for the next call.
      expect(await core.dispatch('app.ping', { text: 'after' }, SENDER)).toMatchObject({ ok: true });
    } finally {
      await core.close();
    }
  });

  it('the core’s events reach the shell, checked against the contract there', async () => {
    const events: EventEntry[] = [];
    const core = await open(launch, join(tmp, 'events'), { events });
    try {
      await expect
        .poll(() =>
          events.some(
            ([name, payload]) =>
              name === 'profiles.connectionChanged' && (payload as { state: string }).state === 'connected',
          ),
        )
        .toBe(true);
    } finally {
      await core.close();
    }
  });

  it('once the page’s direct channel is open, the core’s events go on it, ahead of the answer of the call that caused them, and no longer to the shell', async () => {
    const events: EventEntry[] = [];
    /** What the shell was told, in order: events (by name) and the word that they now take the lane. */
    const shellSaw: string[] = [];
    const pageLanePort = await reserveLoopbackPort();
    const core = await open(launch, join(tmp, 'lane-events'), {
      events,
      pageLanePort,
      eventsOnLane: (windowId) => shellSaw.push(`events on lane ${windowId}`),
    });
    const { WebSocket } = await import('ws');
    const lane = { key: 'lane-events-key', proof: 'lane-events-proof' };
    try {
      // The core connected at start: that went to the shell (no lane yet).
      await expect.poll(() => events.some(([name]) => name === 'profiles.connectionChanged')).toBe(true);
      expect(await core.offerLane(7, SENDER, lane)).toBe(true);
      const socket = new WebSocket(`ws://127.0.0.1:${pageLanePort}`, { origin: ORIGIN });
      socket.on('error', () => {}); // the core closing it at the end is no failure
      const received: { k: string; events?: EventEntry[] }[] = [];
      const proven = new Promise<void>((resolve) => {
        socket.on('message', (data) => {
          const text = String(data);
          if (text === lane.proof) resolve();
          else received.push(JSON.parse(text));
        });
      });
      await new Promise((resolve) => socket.once('open', resolve));
      socket.send(lane.key);
      await proven;
      await expect.poll(() => shellSaw).toEqual(['events on lane 7']);
      const toShellBefore = events.length;
      socket.send(JSON.stringify({ k: 'call', id: 1, op: 'profiles.connectionCheck', input: {} }));
      await expect.poll(() => received.some((m) => m.k === 'result')).toBe(true);
      const answerAt = received.findIndex((m) => m.k === 'result');
      const eventsAt = received.findIndex(
        (m) => m.k === 'events' && m.events?.some(([name]) => name === 'profiles.connectionChanged'),
      );
      expect(eventsAt).toBeGreaterThanOrEqual(0);
      expect(eventsAt).toBeLessThan(answerAt);
      expect(events.length).toBe(toShellBefore);
      socket.close();
    } finally {
      await core.close();
    }
  });

  it('a core that dies mid-call: the call answers OUTCOME_UNKNOWN, a new core serves the next one, the window is told', async () => {
    const notices: string[] = [];
    const save = heldHandler<{ suggestedName: string }, { path?: string }>();
    const core = await open(launch, join(tmp, 'crash'), { notices, shell: { chooseSavePath: save.handler } });
    try {
      const inFlight = core.dispatch(
        'app.saveFile',
        { suggestedName: 'd.csv', content: 'x', mimeType: 'text/csv' },
        SENDER,
      );
      await save.wasAsked; // the call is in the core, waiting on the shell
      const before = launch.started;
      await core.crash();
      expect(await inFlight).toMatchObject({ ok: false, error: { code: 'OUTCOME_UNKNOWN' } });
      await core.ready();
      expect(launch.started).toBe(before + 1);
      expect(core.restarts).toBe(1);
      expect(await core.dispatch('app.ping', { text: 'again' }, SENDER)).toMatchObject({ ok: true });
      expect(notices.join('\n')).toContain('stopped unexpectedly and was restarted');
    } finally {
      await core.close();
    }
  });

  it('stops restarting a core that keeps dying, and says so', async () => {
    const notices: string[] = [];
    const core = await open(launch, join(tmp, 'loop'), { notices, maxRestartsPerMinute: 1 });
    try {
      await core.crash();
      await core.ready();
      await core.crash();
      await expect.poll(() => notices.some((n) => n.includes('keeps stopping'))).toBe(true);
      expect(await core.dispatch('app.ping', { text: 'x' }, SENDER)).toMatchObject({
        ok: false,
        error: { code: 'INTERNAL' },
      });
    } finally {
      await core.close();
    }
  });

  it('a restart that fails is tried again after 250 ms, then 500 ms, and the core comes back', async () => {
    const scheduler = new ManualScheduler();
    let failing = 0;
    let launches = 0;
    const flaky: LaunchCore = () => {
      launches += 1;
      if (failing === 0) return launch();
      failing -= 1;
      return exitsWhileStarting();
    };
    const core = await open(flaky, join(tmp, 'pauses'), { scheduler });
    try {
      failing = 2;
      await core.crash();
      await scheduler.idle();
      expect(launches).toBe(2); // the first attempt at once, which failed
      await scheduler.advance(restartPauseMs(0) - 1);
      expect(launches).toBe(2);
      await scheduler.advance(1);
      expect(launches).toBe(3); // failed too
      await scheduler.advance(restartPauseMs(1) - 1);
      expect(launches).toBe(3);
      await scheduler.advance(1);
      expect(launches).toBe(4);
      await core.ready();
      expect(core.restarts).toBe(1);
      expect(await core.dispatch('app.ping', { text: 'back' }, SENDER)).toMatchObject({ ok: true });
    } finally {
      await core.close();
    }
  });

  it('counts crashes per minute on its own clock: one a minute is restarted each time', async () => {
    const scheduler = new ManualScheduler();
    const notices: string[] = [];
    const core = await open(launch, join(tmp, 'minute'), { notices, maxRestartsPerMinute: 1, scheduler });
    try {
      await core.crash();
      await core.ready();
      await scheduler.advance(60_001);
      await core.crash();
      await core.ready();
      expect(core.restarts).toBe(2);
      expect(notices.some((n) => n.includes('keeps stopping'))).toBe(false);
      expect(await core.dispatch('app.ping', { text: 'x' }, SENDER)).toMatchObject({ ok: true });
    } finally {
      await core.close();
    }
  });
});

describe('a core in its own process (a real fork)', () => {
  it('starts, answers, survives a SIGKILL during a call (OUTCOME_UNKNOWN, restarted, the next call served)', async () => {
    const save = heldHandler<{ suggestedName: string }, { path?: string }>();
    // The core's entry bundled as the app builds it (plain Node, no tsx compiling it at each of the two starts).
    const entry = await bundledEntry(CORE_SOURCE);
    const core = await open(nodeCoreLauncher(entry), join(tmp, 'fork'), { shell: { chooseSavePath: save.handler } });
    try {
      expect(core.pid).not.toBe(process.pid);
      expect(await core.dispatch('app.ping', { text: 'hi' }, SENDER)).toMatchObject({
        ok: true,
        value: { text: 'hi' },
      });
      const inFlight = core.dispatch(
        'app.saveFile',
        { suggestedName: 'e.csv', content: 'x', mimeType: 'text/csv' },
        SENDER,
      );
      await save.wasAsked;
      const first = core.pid;
      await core.crash();
      expect(await inFlight).toMatchObject({ ok: false, error: { code: 'OUTCOME_UNKNOWN' } });
      await core.ready();
      expect(core.pid).not.toBe(first);
      expect(await core.dispatch('app.ping', { text: 'again' }, SENDER)).toMatchObject({ ok: true });
    } finally {
      await core.close();
    }
  });
});
