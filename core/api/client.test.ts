import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ManualScheduler } from '../testing/scheduler';
import type { ApiError } from './apiError';
import { ApiClient, type ApiClientOptions } from './client';
import { PlatformClock } from './clock';
import { RateLimiter, type RateRule } from './limiter';
import type { Transport, TransportRequest, TransportResponse } from './transport';

const RULE: RateRule = { key: 'test', scope: 'test', limit: 100, windowMs: 10_000 };

/** A transport that plays back scripted answers and keeps what was sent. */
const scripted = (answers: ((request: TransportRequest) => TransportResponse)[]) => {
  const sent: TransportRequest[] = [];
  const transport: Transport = {
    send: async (request) => {
      sent.push(request);
      const next = answers.shift();
      if (!next) throw new Error('no more answers');
      return next(request);
    },
    close: () => {},
  };
  return { transport, sent };
};

const schedulers: ManualScheduler[] = [];
afterEach(() => {
  for (const scheduler of schedulers.splice(0)) scheduler.close();
});

/**
 * A client with a key on a manual scheduler's time: its limiter (no margin), its platform clock
 * (measured: the platform's time is the scheduler's wall clock; `measured: false`: never read yet),
 * the scripted transport.
 */
const onManualTime = async (
  transport: Transport,
  options: Partial<ApiClientOptions> = {},
  { measured = true }: { measured?: boolean } = {},
) => {
  const scheduler = new ManualScheduler();
  schedulers.push(scheduler);
  const clock = new PlatformClock(scheduler);
  if (measured) await clock.measure(async () => scheduler.wallNow());
  const limiter = new RateLimiter({ scheduler, marginMs: () => 0 });
  const client = new ApiClient({
    baseUrl: 'http://127.0.0.1:1/api/v4',
    credentials: () => ({ key: 'key', secret: 'secret' }),
    transport,
    limiter,
    classify: () => RULE,
    clock,
    scheduler,
    ...options,
  });
  return { scheduler, clock, limiter, client };
};

/** The pauses a 429 puts on the limiter, ms, as they are made. */
const pausesOf = (limiter: RateLimiter): number[] => {
  const pauses: number[] = [];
  const block = limiter.block.bind(limiter);
  limiter.block = (rule, until) => {
    pauses.push(until - limiter.now());
    block(rule, until);
  };
  return pauses;
};

describe('ApiClient', () => {
  it('pauses after a 429 until the reset time the platform names, read on the platform’s clock', async () => {
    // This computer's clock runs 30 s ahead of the platform, and is stepped back 10 min during the pause.
    const scheduler = new ManualScheduler();
    const clock = new PlatformClock(scheduler);
    await clock.measure(async () => scheduler.wallNow() - 30_000);
    const limiter = new RateLimiter({ scheduler, marginMs: () => 0 });
    const blocks = pausesOf(limiter);
    const { transport, sent } = scripted([
      () => {
        scheduler.stepWall(-600_000);
        // The platform's next window opens 3 s from now (platform time, whole seconds).
        const reset = Math.ceil((clock.now() + 3_000) / 1000);
        return {
          status: 429,
          headers: { 'x-gate-ratelimit-reset-timestamp': String(reset) },
          body: '{"label":"TOO_MANY_REQUESTS","message":"slow down"}',
        };
      },
      () => ({ status: 200, headers: {}, body: '{"ok":true}' }),
    ]);
    const client = new ApiClient({
      baseUrl: 'http://127.0.0.1:1/api/v4',
      transport,
      limiter,
      classify: () => RULE,
      clock,
      scheduler,
    });
    const answer = client.request({
      method: 'GET',
      path: '/wallet/fee',
      auth: false,
      schema: z.object({ ok: z.boolean() }),
    });
    await scheduler.advance(2_999);
    expect(blocks).toEqual([3_000]);
    expect(sent).toHaveLength(1);
    await scheduler.advance(1);
    await expect(answer).resolves.toEqual({ ok: true });
    expect(sent).toHaveLength(2);
    scheduler.close();
  });

  it.each([
    ['the answer’s own Date header', true, 3_000],
    ['neither (a short pause, never a guess from this computer’s clock)', false, 1_000],
  ])(
    'before the platform’s clock is first read, a 429 pauses by %s, not by this computer’s clock 10 min slow',
    async (_, withDate, pauseMs) => {
      // A restart with this computer's clock 10 min slow: the first reading of the platform's clock
      // (GET /spot/time) is itself answered 429, its next window 2.5 s away (whole seconds: 3 s).
      // The platform's time, 10 min ahead of this computer's (read once a request is sent):
      const platformNow = () => scheduler.wallNow() + 600_000;
      const { transport, sent } = scripted([
        () => ({
          status: 429,
          headers: {
            'x-gate-ratelimit-reset-timestamp': String(Math.ceil((platformNow() + 2_500) / 1000)),
            ...(withDate ? { date: new Date(platformNow()).toUTCString() } : {}),
          },
          body: '{"label":"TOO_MANY_REQUESTS","message":"slow down"}',
        }),
        () => ({ status: 200, headers: {}, body: JSON.stringify({ server_time: platformNow() }) }),
      ]);
      const { scheduler, limiter, client } = await onManualTime(transport, {}, { measured: false });
      const blocks = pausesOf(limiter);
      const measured = client.syncClock();
      await scheduler.advance(pauseMs);
      // Measured after the pause (its round trip, the pause included, is its uncertainty).
      expect(Math.abs((await measured) - 600_000)).toBeLessThanOrEqual(pauseMs / 2);
      expect(blocks).toEqual([pauseMs]);
      expect(sent).toHaveLength(2);
    },
  );

  it('a slot the limiter cannot give within the request’s timeout is refused at once: not sent, and it says why', async () => {
    const push: RateRule = { key: 'push', scope: 'POST /withdrawals/push', limit: 1, windowMs: 10_000 };
    const { transport, sent } = scripted([() => ({ status: 200, headers: {}, body: '{"id":1}' })]);
    const { client } = await onManualTime(transport, { classify: () => push, timeoutMs: 1_500 });
    const spec = {
      method: 'POST' as const,
      path: '/withdrawals/push',
      auth: true,
      schema: z.object({ id: z.number() }),
    };
    await expect(client.request(spec)).resolves.toEqual({ id: 1 });
    const refused = client.request(spec);
    await expect(refused).rejects.toMatchObject({ kind: 'held', label: 'RATE_LIMIT_WAIT', delivery: 'not-executed' });
    const error = (await refused.catch((e: unknown) => e)) as ApiError;
    expect(error.message).toBe(
      "the app's rate limit for POST /withdrawals/push (1 per 10 s) has no free slot for another 10 s, longer than a request may wait (1.5 s)",
    );
    expect(error.toIpcError()).toMatchObject({ code: 'PRECONDITION', delivery: 'not_sent' });
    expect(sent).toHaveLength(1);
  });

  it('a 429 whose pause outlasts the request’s timeout is answered as the platform’s refusal, not retried', async () => {
    // The platform's next window opens 40 s from its own now.
    let resetAt = '';
    const { transport, sent } = scripted([
      () => ({
        status: 429,
        headers: { 'x-gate-ratelimit-reset-timestamp': resetAt },
        body: '{"label":"TOO_MANY_REQUESTS","message":"slow down"}',
      }),
    ]);
    const { client, clock } = await onManualTime(transport);
    resetAt = String(Math.ceil(clock.now() / 1000) + 40);
    await expect(
      client.request({ method: 'POST', path: '/withdrawals', body: {}, auth: true, schema: undefined }),
    ).rejects.toMatchObject({ status: 429, label: 'TOO_MANY_REQUESTS', delivery: 'not-executed' });
    expect(sent).toHaveLength(1);
  });

  it('signs with the platform’s time through a step of the computer’s clock, reading it again first', async () => {
    // The platform's time: what the clock says (its reading survives the step on the monotonic clock).
    let platformNow = () => 0;
    const { transport, sent } = scripted([
      () => ({ status: 200, headers: {}, body: JSON.stringify({ server_time: platformNow() }) }),
      () => ({ status: 200, headers: {}, body: '{}' }),
    ]);
    const { scheduler, clock, client } = await onManualTime(transport);
    const platformBefore = clock.now();
    platformNow = () => platformBefore + 5_000;
    // The computer's clock is set back 10 min; 5 s pass.
    scheduler.stepWall(-600_000);
    scheduler.jump(5_000);
    expect(clock.needsMeasuring()).toBe(true);
    expect(clock.now()).toBe(platformBefore + 5_000);
    await client.request({ method: 'POST', path: '/withdrawals', body: {}, auth: true, schema: undefined });
    expect(sent.map((r) => r.url.pathname)).toEqual(['/api/v4/spot/time', '/api/v4/withdrawals']);
    expect(Number(sent[1]?.headers.Timestamp)).toBe(Math.floor((platformBefore + 5_000) / 1000));
    expect(clock.needsMeasuring()).toBe(false);
    expect(clock.offsetMs).toBe(600_000);
  });

  it('a request that cannot be signed (its timestamp could not be journaled) gives its slot back at once', async () => {
    // One withdrawal per window: a slot held after a failed signing would stall every later one.
    const rule: RateRule = { key: 'withdraw', scope: 'withdraw', limit: 1, windowMs: 10 };
    const { transport, sent } = scripted([() => ({ status: 200, headers: {}, body: '{"ok":true}' })]);
    const { scheduler, limiter, client } = await onManualTime(transport, { classify: () => rule, timeoutMs: 1_000 });
    const spec = { method: 'POST' as const, path: '/withdrawals', auth: true, schema: z.object({ ok: z.boolean() }) };
    await expect(
      client.request({
        ...spec,
        onSigned: () => {
          throw new Error('database or disk is full');
        },
      }),
    ).rejects.toThrow('disk is full');
    expect(sent).toHaveLength(0);
    // The slot counts a window from the failure, not the limiter's one-minute hold.
    const used = limiter.snapshot().buckets.find((b) => b.key === 'withdraw');
    expect(used?.used).toBe(1);
    await scheduler.advance(30);
    expect(limiter.snapshot().buckets.find((b) => b.key === 'withdraw')?.used).toBe(0);
    await expect(client.request(spec)).resolves.toEqual({ ok: true });
    expect(sent).toHaveLength(1);
  });

  it('does not send a throttled order again later: the 429 reaches the trader', async () => {
    const { transport, sent } = scripted([
      () => ({ status: 429, headers: {}, body: '{"label":"TOO_MANY_REQUESTS","message":"slow down"}' }),
      () => ({ status: 201, headers: {}, body: '{"id":"1"}' }),
    ]);
    const client = new ApiClient({
      baseUrl: 'http://127.0.0.1:1/api/v4',
      credentials: () => ({ key: 'key', secret: 'secret' }),
      transport,
      limiter: new RateLimiter({ marginMs: () => 0 }),
      classify: () => RULE,
      clock: new PlatformClock(),
    });
    await expect(
      client.request({
        method: 'POST',
        path: '/spot/orders',
        body: { currency_pair: 'BTC_USDT' },
        auth: true,
        schema: z.object({ id: z.string() }),
        retryThrottled: false,
      }),
    ).rejects.toMatchObject({ status: 429, label: 'TOO_MANY_REQUESTS' });
    expect(sent).toHaveLength(1);
  });

  it('signs the query exactly as it is sent', async () => {
    const clock = new PlatformClock();
    const { transport, sent } = scripted([() => ({ status: 200, headers: {}, body: '[]' })]);
    const client = new ApiClient({
      baseUrl: 'http://127.0.0.1:1/api/v4',
      credentials: () => ({ key: 'key', secret: 'secret' }),
      transport,
      limiter: new RateLimiter(),
      classify: () => RULE,
      clock,
    });
    await client.request({
      method: 'GET',
      path: '/wallet/sub_account_transfers',
      query: { sub_uid: '1,2', currency: "it's a+b", limit: 10 },
      auth: true,
      schema: z.array(z.unknown()),
    });
    const request = sent[0] as TransportRequest;
    const { createHmac, createHash } = await import('node:crypto');
    // What the platform verifies: the URL-decoded raw query as received, in order.
    const received = decodeURIComponent(request.url.search.slice(1).replace(/\+/g, ' '));
    expect(received).toBe("sub_uid=1,2&currency=it's a+b&limit=10");
    const expected = createHmac('sha512', 'secret')
      .update(
        [
          'GET',
          request.url.pathname,
          received,
          createHash('sha512').update('').digest('hex'),
          request.headers.Timestamp,
        ].join('\n'),
      )
      .digest('hex');
    expect(request.headers.SIGN).toBe(expected);
  });

  it('shares one request between identical reads at once, never between writes', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const sent: TransportRequest[] = [];
    const transport: Transport = {
      send: async (request) => {
        sent.push(request);
        await gate;
        return { status: 200, headers: {}, body: '[{"currency":"USDT"}]' };
      },
      close: () => {},
    };
    const { scheduler, client } = await onManualTime(transport);
    const schema = z.array(z.object({ currency: z.string() }));
    const read = (currency: string) =>
      client.request({ method: 'GET', path: '/spot/accounts', query: { currency }, auth: true, schema });
    const both = Promise.all([read('USDT'), read('USDT'), read('BTC')]);
    const writes = Promise.all([
      client.request({ method: 'POST', path: '/spot/orders', body: {}, auth: true, schema: undefined }),
      client.request({ method: 'POST', path: '/spot/orders', body: {}, auth: true, schema: undefined }),
    ]);
    await scheduler.idle(); // every request has reached the transport
    release();
    const [a, b, c] = await both;
    await writes;
    expect(a).toEqual([{ currency: 'USDT' }]);
    expect(b).toBe(a);
    expect(c).toEqual(a);
    expect(sent.map((r) => `${r.method} ${r.url.search}`)).toEqual([
      'GET ?currency=USDT',
      'GET ?currency=BTC',
      'POST ',
      'POST ',
    ]);
    // Once answered, the next read is a new request.
    await read('USDT');
    expect(sent).toHaveLength(5);
  });

  it('serves a read that accepts a recent answer with the identical read just answered, not an older one, never after a write', async () => {
    const scheduler = new ManualScheduler();
    let n = 0;
    const sent: string[] = [];
    const transport: Transport = {
      send: async (request) => {
        sent.push(`${request.method} ${request.url.pathname}`);
        n += 1;
        return { status: 200, headers: {}, body: request.method === 'GET' ? `[{"n":${n}}]` : '{}' };
      },
      close: () => {},
    };
    const client = new ApiClient({
      baseUrl: 'http://127.0.0.1:1/api/v4',
      credentials: () => ({ key: 'key', secret: 'secret' }),
      transport,
      limiter: new RateLimiter(),
      classify: () => RULE,
      clock: new PlatformClock(),
      scheduler,
    });
    const schema = z.array(z.object({ n: z.number() }));
    const read = (reuseAnswerWithinMs?: number) =>
      client.request({
        method: 'GET',
        path: '/spot/accounts',
        auth: true,
        schema,
        ...(reuseAnswerWithinMs ? { reuseAnswerWithinMs } : {}),
      });
    // The screen reads first; the connection check's probe right after takes its answer.
    expect(await read()).toEqual([{ n: 1 }]);
    await scheduler.advance(4_000);
    expect(await read(5_000)).toEqual([{ n: 1 }]);
    expect(sent).toHaveLength(1);
    // A read that does not accept one asks the platform; one older than the window is not taken.
    expect(await read()).toEqual([{ n: 2 }]);
    await scheduler.advance(5_001);
    expect(await read(5_000)).toEqual([{ n: 3 }]);
    // A write may change it: no answer from before it is taken.
    await client.request({ method: 'POST', path: '/spot/orders', body: {}, auth: true, schema: z.unknown() });
    expect(await read(5_000)).toEqual([{ n: 5 }]);
    expect(sent).toEqual([
      'GET /api/v4/spot/accounts',
      'GET /api/v4/spot/accounts',
      'GET /api/v4/spot/accounts',
      'POST /api/v4/spot/orders',
      'GET /api/v4/spot/accounts',
    ]);
  });

  it('serves an answer kept on purpose to the next identical read, once, never after a write', async () => {
    const clock = new PlatformClock();
    let n = 0;
    const sent: string[] = [];
    const transport: Transport = {
      send: async (request) => {
        sent.push(`${request.method} ${request.url.pathname}`);
        n += 1;
        return { status: 200, headers: {}, body: request.method === 'GET' ? `[{"n":${n}}]` : '{}' };
      },
      close: () => {},
    };
    const client = new ApiClient({
      baseUrl: 'http://127.0.0.1:1/api/v4',
      credentials: () => ({ key: 'key', secret: 'secret' }),
      transport,
      limiter: new RateLimiter(),
      classify: () => RULE,
      clock,
    });
    const schema = z.array(z.object({ n: z.number() }));
    const read = (keepAnswerMs?: number) =>
      client.request({
        method: 'GET',
        path: '/spot/accounts',
        auth: true,
        schema,
        ...(keepAnswerMs ? { keepAnswerMs } : {}),
      });
    expect(await read(5_000)).toEqual([{ n: 1 }]);
    // The screen's read right after: the kept answer, not a second request — once.
    expect(await read()).toEqual([{ n: 1 }]);
    expect(sent).toHaveLength(1);
    expect(await read()).toEqual([{ n: 2 }]);
    // A write may change it: a kept answer is not served after one.
    expect(await read(5_000)).toEqual([{ n: 3 }]);
    await client.request({ method: 'POST', path: '/spot/orders', body: {}, auth: true, schema: z.unknown() });
    expect(await read()).toEqual([{ n: 5 }]);
    expect(sent).toEqual([
      'GET /api/v4/spot/accounts',
      'GET /api/v4/spot/accounts',
      'GET /api/v4/spot/accounts',
      'POST /api/v4/spot/orders',
      'GET /api/v4/spot/accounts',
    ]);
  });
});
