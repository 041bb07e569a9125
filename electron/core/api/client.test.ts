import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiClient } from './client';
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

describe('ApiClient', () => {
  it('pauses after a 429 until the reset time the platform names, read on the platform’s clock', async () => {
    // This computer's clock runs 30 s ahead of the platform.
    const clock = new PlatformClock();
    await clock.measure(async () => Date.now() - 30_000);
    const blocks: number[] = [];
    const limiter = new RateLimiter({ marginMs: () => 0 });
    const block = limiter.block.bind(limiter);
    limiter.block = (rule, until) => {
      blocks.push(until);
      // Do not really wait in the test: the value is what matters.
      block(rule, Date.now());
    };
    let resetSeconds = 0;
    const { transport } = scripted([
      () => {
        // The platform's next window opens 3 s from now (platform time, whole seconds).
        resetSeconds = Math.ceil((clock.now() + 3_000) / 1000);
        return {
          status: 429,
          headers: { 'x-gate-ratelimit-reset-timestamp': String(resetSeconds) },
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
    });
    const before = Date.now();
    await expect(
      client.request({ method: 'GET', path: '/wallet/fee', auth: false, schema: z.object({ ok: z.boolean() }) }),
    ).resolves.toEqual({ ok: true });
    expect(blocks).toHaveLength(1);
    const localReset = resetSeconds * 1000 - clock.offsetMs;
    expect(blocks[0]).toBe(localReset);
    expect((blocks[0] as number) - before).toBeGreaterThan(1_900);
  });

  it('a request that cannot be signed (its timestamp could not be journaled) gives its slot back at once', async () => {
    // One withdrawal per window: a slot held after a failed signing would stall every later one.
    const rule: RateRule = { key: 'withdraw', scope: 'withdraw', limit: 1, windowMs: 10 };
    const limiter = new RateLimiter({ marginMs: () => 0 });
    const { transport, sent } = scripted([() => ({ status: 200, headers: {}, body: '{"ok":true}' })]);
    const client = new ApiClient({
      baseUrl: 'http://127.0.0.1:1/api/v4',
      credentials: () => ({ key: 'key', secret: 'secret' }),
      transport,
      limiter,
      classify: () => rule,
      clock: new PlatformClock(),
      timeoutMs: 1_000,
    });
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
    await new Promise((resolve) => setTimeout(resolve, 30));
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
    const clock = new PlatformClock();
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
    const client = new ApiClient({
      baseUrl: 'http://127.0.0.1:1/api/v4',
      credentials: () => ({ key: 'key', secret: 'secret' }),
      transport,
      limiter: new RateLimiter(),
      classify: () => RULE,
      clock,
    });
    const schema = z.array(z.object({ currency: z.string() }));
    const read = (currency: string) =>
      client.request({ method: 'GET', path: '/spot/accounts', query: { currency }, auth: true, schema });
    const both = Promise.all([read('USDT'), read('USDT'), read('BTC')]);
    const writes = Promise.all([
      client.request({ method: 'POST', path: '/spot/orders', body: {}, auth: true, schema: undefined }),
      client.request({ method: 'POST', path: '/spot/orders', body: {}, auth: true, schema: undefined }),
    ]);
    await new Promise((r) => setTimeout(r, 10));
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
