import { describe, expect, it } from 'vitest';
import { RateLimiter, type RateRule } from './limiter';

const rule = (limit: number, windowMs: number, key = 'k'): RateRule => ({ key, scope: 'test', limit, windowMs });

describe('RateLimiter', () => {
  it('grants up to the limit at once, then spaces the rest by the window (plus margin), first come first served', async () => {
    const limiter = new RateLimiter({ marginMs: () => 10 });
    const r = rule(3, 100);
    const order: number[] = [];
    const started = Date.now();
    const times: number[] = [];
    await Promise.all(
      Array.from({ length: 7 }, (_, i) =>
        limiter.acquire(r).then((settle) => {
          settle();
          order.push(i);
          times.push(Date.now() - started);
        }),
      ),
    );
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(times.slice(0, 3).every((t) => t < 50)).toBe(true);
    // In any 110 ms (window + margin) at most 3 grants.
    for (let i = 3; i < times.length; i++)
      expect((times[i] as number) - (times[i - 3] as number)).toBeGreaterThanOrEqual(105);
  });

  it('a slot is reused only a window after its request was answered, however late that was', async () => {
    const limiter = new RateLimiter({ marginMs: () => 10 });
    const r = rule(2, 100);
    const started = Date.now();
    const first = await limiter.acquire(r);
    const second = await limiter.acquire(r);
    const third = limiter.acquire(r).then(() => Date.now() - started);
    // The first request takes 150 ms to be answered: its slot is free 110 ms after that, not at 110 ms.
    await new Promise((resolve) => setTimeout(resolve, 150));
    first();
    second();
    const at = await third;
    expect(at).toBeGreaterThanOrEqual(255);
    expect(at).toBeLessThan(1_000);
    limiter.clear();
  });

  it('a grant never settled frees its slot after holdMs', async () => {
    const limiter = new RateLimiter({ marginMs: () => 0, holdMs: 50 });
    const r = rule(1, 50);
    const started = Date.now();
    await limiter.acquire(r);
    await limiter.acquire(r);
    expect(Date.now() - started).toBeGreaterThanOrEqual(95);
    limiter.clear();
  });

  it('keeps buckets apart and reports budget and queue', async () => {
    const limiter = new RateLimiter({ marginMs: () => 0 });
    await limiter.acquire(rule(2, 10_000, 'a'));
    await limiter.acquire(rule(5, 10_000, 'b'));
    await limiter.acquire(rule(2, 10_000, 'a'));
    const waiting = limiter.acquire(rule(2, 10_000, 'a'));
    const snap = limiter.snapshot();
    expect(snap.buckets.find((b) => b.key === 'a')?.used).toBe(2);
    expect(snap.buckets.find((b) => b.key === 'b')?.used).toBe(1);
    expect(snap.queued).toBe(1);
    expect(snap.headroom).toBe(0);
    limiter.clear();
    await expect(waiting).rejects.toThrow();
  });

  it('a 429 blocks the bucket until the reset time', async () => {
    const limiter = new RateLimiter({ marginMs: () => 0 });
    const r = rule(100, 1_000);
    limiter.block(r, Date.now() + 150);
    const started = Date.now();
    await limiter.acquire(r);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(limiter.snapshot().buckets[0]?.blockedUntil).toBeUndefined();
  });

  it('a cancelled wait leaves the queue and rejects', async () => {
    const limiter = new RateLimiter({ marginMs: () => 0 });
    const r = rule(1, 60_000);
    await limiter.acquire(r);
    const controller = new AbortController();
    const waiting = limiter.acquire(r, controller.signal);
    expect(limiter.snapshot().queued).toBe(1);
    controller.abort();
    await expect(waiting).rejects.toThrow('cancelled');
    expect(limiter.snapshot().queued).toBe(0);
    limiter.clear();
  });
});
