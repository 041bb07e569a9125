/**
 * The channel protocol over an in-memory pair of ports: each message is structured-cloned and
 * delivered on a later turn, as between two processes. Time is the test's: timeouts fire when the
 * test says so, never by waiting.
 */
import { describe, expect, it } from 'vitest';
import {
  type CancelSignal,
  ChannelClient,
  type ChannelMessage,
  ChannelPort,
  ChannelServer,
  type ChannelTimers,
  type EventEntry,
  isChannelMessage,
  type Serve,
} from './channel';
import { fail, type IpcError, ok, type Result } from './result';

/** Timers that run only when the test says: `fire()` runs every pending timeout. */
const manualTimers = () => {
  const pending = new Map<number, () => void>();
  let next = 1;
  let clock = 0;
  const timers: ChannelTimers = {
    now: () => clock,
    setTimeout: (run) => {
      const id = next++;
      pending.set(id, run);
      return id;
    },
    clearTimeout: (handle) => {
      pending.delete(handle as number);
    },
    defer: (run) => setImmediate(run),
    cancellation: () => new AbortController(),
  };
  return {
    timers,
    /** Moves the test's clock on (timers fire only with `fire`). */
    advance: (ms: number) => {
      clock += ms;
    },
    fire: () => {
      const due = [...pending.values()];
      pending.clear();
      for (const run of due) run();
    },
    get pending() {
      return pending.size;
    },
  };
};

/** Lets every message in flight arrive (each hop is a setImmediate). */
const settle = async (turns = 5) => {
  for (let i = 0; i < turns; i++) await new Promise((r) => setImmediate(r));
};

const TIMED_OUT = (operation: string, ms: number): IpcError => ({
  code: 'OUTCOME_UNKNOWN',
  message: `${operation}: no answer in ${ms} ms`,
});

/** A client end and a server end joined by an in-memory pair, with what crossed it. */
const pair = (serve: Serve, defaultTimeoutMs = 1_000) => {
  const clock = manualTimers();
  const sent: ChannelMessage[] = [];
  const events: EventEntry[][] = [];
  /** What reached the client side, in order. */
  const arrivals: string[] = [];
  let server: ChannelServer;
  let client: ChannelClient;
  const clientPort = new ChannelPort((message) => {
    sent.push(message);
    const copy = structuredClone(message);
    setImmediate(() => server.receive(copy));
  }, clock.timers);
  const serverPort = new ChannelPort((message) => {
    const copy = structuredClone(message);
    setImmediate(() => {
      arrivals.push(copy.k);
      if (copy.k === 'events') events.push([...copy.events]);
      else client.receive(copy);
    });
  }, clock.timers);
  server = new ChannelServer(serverPort, serve, clock.timers);
  client = new ChannelClient(clientPort, { timers: clock.timers, defaultTimeoutMs, timedOut: TIMED_OUT });
  return { client, server, serverPort, clock, sent, events, arrivals };
};

const echo: Serve = async (operation, input) => ok({ operation, input });

/** A handler that waits until released (or cancelled), remembering its signal. */
const held = () => {
  const waiting = new Map<string, { release: (r: Result<unknown>) => void; signal: CancelSignal }>();
  const serve: Serve = (operation, _input, { signal }) =>
    new Promise((resolve) => {
      waiting.set(operation, { release: resolve, signal });
    });
  return { serve, waiting };
};

describe('the channel', () => {
  it('answers each call with its own result, whatever order the answers come in', async () => {
    const { serve, waiting } = held();
    const { client } = pair(serve);
    const first = client.call('a.first', 1);
    const second = client.call('a.second', 2);
    await settle();
    waiting.get('a.second')!.release(ok('two'));
    waiting.get('a.first')!.release(ok('one'));
    expect(await first).toEqual(ok('one'));
    expect(await second).toEqual(ok('two'));
    expect(client.pending).toBe(0);
  });

  it('carries plain data across (structured-cloned) and answers as JSON text when asked', async () => {
    const { client } = pair(echo);
    const input = { amount: '1000.5', nested: [{ at: 1_700_000_000_000 }] };
    expect(await client.call('app.echo', input)).toEqual(ok({ operation: 'app.echo', input }));
    const text = await client.callText('app.echo', input);
    expect(typeof text).toBe('string');
    expect(JSON.parse(text)).toEqual(ok({ operation: 'app.echo', input }));
  });

  it('a cancelled call: the handler sees its signal abort, and the call ends with the handler’s answer', async () => {
    const { serve, waiting } = held();
    const { client, sent } = pair(serve);
    const controller = new AbortController();
    const call = client.call('activity.export', {}, { signal: controller.signal });
    await settle();
    const handler = waiting.get('activity.export')!;
    expect(handler.signal.aborted).toBe(false);
    controller.abort();
    await settle();
    expect(handler.signal.aborted).toBe(true);
    expect(sent.map((m) => m.k)).toEqual(['call', 'cancel']);
    // Not answered by the client: a handler that moves money finishes and says what happened.
    let done = false;
    void call.then(() => {
      done = true;
    });
    await settle();
    expect(done).toBe(false);
    handler.release(ok({ cancelled: true }));
    expect(await call).toEqual(ok({ cancelled: true }));
  });

  it('a call already cancelled when made still reaches the handler, aborted', async () => {
    const { serve, waiting } = held();
    const { client } = pair(serve);
    const controller = new AbortController();
    controller.abort();
    const call = client.call('activity.export', {}, { signal: controller.signal });
    await settle();
    expect(waiting.get('activity.export')!.signal.aborted).toBe(true);
    waiting.get('activity.export')!.release(ok({ cancelled: true }));
    expect(await call).toEqual(ok({ cancelled: true }));
  });

  it('a handler that never answers: the call ends at its timeout, the handler is asked to stop, a late answer is dropped', async () => {
    const { serve, waiting } = held();
    const { client, clock, sent } = pair(serve, 60_000);
    const call = client.call('app.hangs', {}, { timeoutMs: 5_000 });
    await settle();
    clock.fire();
    expect(await call).toEqual(fail(TIMED_OUT('app.hangs', 5_000)));
    await settle();
    expect(waiting.get('app.hangs')!.signal.aborted).toBe(true);
    expect(sent.map((m) => m.k)).toEqual(['call', 'cancel']);
    waiting.get('app.hangs')!.release(ok('too late'));
    await settle();
    expect(client.pending).toBe(0);
    // The next call gets its own answer, not the late one.
    const next = client.call('app.hangs', {});
    await settle();
    waiting.get('app.hangs')!.release(ok('next'));
    expect(await next).toEqual(ok('next'));
  });

  it('an answered call leaves no timer behind', async () => {
    const { client, clock } = pair(echo);
    await client.call('app.echo', 1);
    expect(clock.pending).toBe(0);
  });

  it('a closed client answers every call in flight, and every later one, with the failure it was closed with', async () => {
    const { serve } = held();
    const { client } = pair(serve);
    const gone: IpcError = { code: 'OUTCOME_UNKNOWN', message: 'the other end stopped' };
    const inFlight = client.call('funding.withdraw', {});
    await settle();
    client.close(gone);
    expect(await inFlight).toEqual(fail(gone));
    expect(await client.call('app.ping', {})).toEqual(fail(gone));
  });

  it('a closed server stops answering and aborts what it was running', async () => {
    const { serve, waiting } = held();
    const { client, server, clock } = pair(serve);
    const call = client.call('app.slow', {}, { timeoutMs: 10 });
    await settle();
    server.close();
    expect(waiting.get('app.slow')!.signal.aborted).toBe(true);
    waiting.get('app.slow')!.release(ok('after close'));
    await settle();
    clock.fire();
    expect(await call).toEqual(fail(TIMED_OUT('app.slow', 10)));
  });

  it('a handler that throws answers INTERNAL (errors are data, never a rejection)', async () => {
    const { client } = pair(async () => {
      throw new Error('boom with a secret');
    });
    const result = await client.call('app.boom', {});
    expect(result).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    expect(JSON.stringify(result)).not.toContain('secret');
  });

  it('events emitted in one turn leave as one message, in order, and never after the answer of the call that emitted them', async () => {
    let serverPort!: ChannelPort;
    const {
      client,
      events,
      arrivals,
      serverPort: port,
    } = pair(async (operation) => {
      for (let i = 0; i < 3; i++) serverPort.emit('activity.historyProgress', { page: i });
      return ok(operation);
    });
    serverPort = port;
    await client.call('activity.sync', {});
    expect(arrivals).toEqual(['events', 'result']);
    expect(events).toEqual([
      [
        ['activity.historyProgress', { page: 0 }],
        ['activity.historyProgress', { page: 1 }],
        ['activity.historyProgress', { page: 2 }],
      ],
    ]);
    // A burst with no answer to carry it still leaves as one message once the turn is over.
    for (let i = 0; i < 50; i++) port.emit('trade.orderFilled', { i });
    await settle();
    expect(arrivals).toEqual(['events', 'result', 'events']);
    expect(events[1]).toHaveLength(50);
  });

  it('in a burst, events that follow a batch within the window wait for its end and leave together', async () => {
    const clock = manualTimers();
    const sent: EventEntry[][] = [];
    const port = new ChannelPort(
      (message) => {
        if (message.k === 'events') sent.push([...message.events]);
      },
      clock.timers,
      8,
    );
    // A lone event leaves once the turn is over.
    port.emit('activity.historyProgress', { page: 1 });
    await settle(1);
    expect(sent).toEqual([[['activity.historyProgress', { page: 1 }]]]);
    // The next pages come within the window: held until it ends, then one message.
    clock.advance(2);
    port.emit('activity.historyProgress', { page: 2 });
    await settle(1);
    clock.advance(3);
    port.emit('activity.historyProgress', { page: 3 });
    await settle(1);
    expect(sent).toHaveLength(1);
    clock.fire();
    expect(sent[1]).toEqual([
      ['activity.historyProgress', { page: 2 }],
      ['activity.historyProgress', { page: 3 }],
    ]);
    // After a quiet spell longer than the window, an event waits for nothing again.
    clock.advance(20);
    port.emit('activity.historyProgress', { page: 4 });
    await settle(1);
    expect(sent[2]).toEqual([['activity.historyProgress', { page: 4 }]]);
  });

  it('ignores messages that are not the channel’s', () => {
    expect(isChannelMessage({ type: 'ready', pid: 1 })).toBe(false);
    expect(isChannelMessage({ k: 'call', id: '1', op: 'x' })).toBe(false);
    expect(isChannelMessage({ k: 'result', id: 1, result: null })).toBe(false);
    expect(isChannelMessage({ k: 'events', events: [] })).toBe(true);
  });
});
