import { afterEach, describe, expect, it } from 'vitest';
import { ManualScheduler } from '../testing/scheduler';
import { RateLimiter, type RateRule, SlotWaitTooLong } from './limiter';

const rule = (limit: number, windowMs: number, key = 'k'): RateRule => ({ key, scope: 'test', limit, windowMs });

let scheduler: ManualScheduler;
const limiterOn = (options: ConstructorParameters<typeof RateLimiter>[0] = {}) => {
  scheduler = new ManualScheduler();
  return new RateLimiter({ scheduler, ...options });
};
afterEach(() => scheduler?.close());

/** Resolves to the scheduler's monotonic time of the grant (the settle is called at once: answered). */
const grantedAt = (limiter: RateLimiter, r: RateRule, maxWaitMs?: number) =>
  limiter.acquire(r, maxWaitMs === undefined ? {} : { maxWaitMs }).then((settle) => {
    settle();
    return scheduler.now();
  });

describe('RateLimiter', () => {
  it('grants up to the limit at once, then spaces the rest by the window (plus margin), first come first served', async () => {
    const limiter = limiterOn({ marginMs: () => 10 });
    const r = rule(3, 100);
    const started = scheduler.now();
    const order: number[] = [];
    const times = Array.from({ length: 7 }, (_, i) =>
      grantedAt(limiter, r).then((at) => {
        order.push(i);
        return at - started;
      }),
    );
    await scheduler.advance(1_000);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6]);
    // Three at once; each later one a window + margin (110 ms) after the one whose slot it reuses.
    expect(await Promise.all(times)).toEqual([0, 0, 0, 111, 111, 111, 222]);
  });

  it('a slot is reused only a window after its request was answered, however late that was', async () => {
    const limiter = limiterOn({ marginMs: () => 10 });
    const r = rule(2, 100);
    const started = scheduler.now();
    const first = await limiter.acquire(r);
    const second = await limiter.acquire(r);
    const third = grantedAt(limiter, r);
    // The first request takes 150 ms to be answered: its slot is free 110 ms after that, not at 110 ms.
    await scheduler.advance(150);
    first();
    second();
    await scheduler.advance(1_000);
    expect((await third) - started).toBe(261);
    limiter.clear();
  });

  it('a grant never settled frees its slot after holdMs', async () => {
    const limiter = limiterOn({ marginMs: () => 0, holdMs: 50 });
    const r = rule(1, 50);
    const started = scheduler.now();
    await limiter.acquire(r);
    const next = limiter.acquire(r).then(() => scheduler.now());
    await scheduler.advance(200);
    expect((await next) - started).toBe(101);
    limiter.clear();
  });

  it('keeps buckets apart and reports budget and queue', async () => {
    const limiter = limiterOn({ marginMs: () => 0 });
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

  it('a 429 blocks the bucket until the reset time; the UI is told that time on the wall clock', async () => {
    const limiter = limiterOn({ marginMs: () => 0 });
    const r = rule(100, 1_000);
    const started = scheduler.now();
    limiter.block(r, limiter.now() + 150);
    const next = grantedAt(limiter, r);
    expect(limiter.snapshot().buckets[0]?.blockedUntil).toBe(scheduler.wallNow() + 150);
    await scheduler.advance(1_000);
    expect((await next) - started).toBe(150);
    expect(limiter.snapshot().buckets[0]?.blockedUntil).toBeUndefined();
  });

  it('a cancelled wait leaves the queue and rejects', async () => {
    const limiter = limiterOn({ marginMs: () => 0 });
    const r = rule(1, 60_000);
    await limiter.acquire(r);
    const controller = new AbortController();
    const waiting = limiter.acquire(r, { signal: controller.signal });
    expect(limiter.snapshot().queued).toBe(1);
    controller.abort();
    await expect(waiting).rejects.toThrow('cancelled');
    expect(limiter.snapshot().queued).toBe(0);
    limiter.clear();
  });
});

describe('RateLimiter: waits are bounded', () => {
  it('refuses at once, nothing granted, a slot that cannot come within the caller’s bound', async () => {
    const limiter = limiterOn({ marginMs: () => 0 });
    const push = rule(1, 10_000);
    await limiter.acquire(push).then((settle) => settle());
    // The next slot is 10 s away; the request may wait 1.5 s.
    const refused = limiter.acquire(push, { maxWaitMs: 1_500 });
    await expect(refused).rejects.toBeInstanceOf(SlotWaitTooLong);
    await expect(refused).rejects.toMatchObject({ waitMs: 10_001, maxWaitMs: 1_500 });
    expect(limiter.snapshot().queued).toBe(0);
    // Within the bound it waits and is granted.
    const started = scheduler.now();
    const granted = grantedAt(limiter, push, 15_000);
    await scheduler.advance(11_000);
    expect((await granted) - started).toBe(10_001);
  });

  it('gives up when the slot has not come its bound after it should have (the request holding it never answers)', async () => {
    const limiter = limiterOn({ marginMs: () => 0, holdMs: 60_000 });
    const r = rule(1, 1_000);
    await limiter.acquire(r); // in flight, never answered
    const waiting = limiter.acquire(r, { maxWaitMs: 5_000 });
    let outcome: unknown;
    waiting.catch((error: unknown) => (outcome = error));
    // Had it been answered at once, the slot would be free a window (1 s) later; 5 s (+ 1 s for
    // late timers) after that it gives up.
    await scheduler.advance(7_000);
    expect(outcome).toBeUndefined();
    await scheduler.advance(1);
    expect(outcome).toBeInstanceOf(SlotWaitTooLong);
    expect(limiter.snapshot().queued).toBe(0);
  });

  it('a request queued behind others waits for them (a batch queues its rows), each bounded from its own turn', async () => {
    const limiter = limiterOn({ marginMs: () => 0 });
    const push = rule(1, 10_000);
    const started = scheduler.now();
    const rows = Array.from({ length: 4 }, () => grantedAt(limiter, push, 15_000).then((at) => at - started));
    await scheduler.advance(60_000);
    expect(await Promise.all(rows)).toEqual([0, 10_001, 20_002, 30_003]);
  });

  it('a 429 while it waits moves its slot: the bound counts from then (a longer pause is refused then)', async () => {
    const limiter = limiterOn({ marginMs: () => 0 });
    const r = rule(1, 10);
    const started = scheduler.now();
    const inFlight = await limiter.acquire(r);
    const next = grantedAt(limiter, r, 1_500);
    // The request in flight is answered after 1 s, with a 429 asking for a 1 s pause: the waiter's
    // slot comes at 2 s, later than its first reckoning allowed (10 ms + 1.5 s), and it is granted.
    await scheduler.advance(1_000);
    inFlight();
    limiter.block(r, limiter.now() + 1_000);
    await scheduler.advance(2_000);
    expect((await next) - started).toBe(2_000);
    // Waiting again behind a request in flight, a 30 s pause comes: refused then, not 30 s later.
    await limiter.acquire(r);
    const refused = limiter.acquire(r, { maxWaitMs: 1_500 });
    limiter.block(r, limiter.now() + 30_000);
    await expect(refused).rejects.toMatchObject({ waitMs: 30_000 });
  });

  it('a 429 pause longer than the bound is refused at once', async () => {
    const limiter = limiterOn({ marginMs: () => 0 });
    const r = rule(100, 1_000);
    limiter.block(r, limiter.now() + 30_000);
    await expect(limiter.acquire(r, { maxWaitMs: 15_000 })).rejects.toMatchObject({ waitMs: 30_000 });
  });
});

describe('RateLimiter: the computer’s clock steps', () => {
  // One push per 10 s: a push has just been granted and answered; then the wall clock is stepped
  // (NTP, a person, a VM resumed). The next push comes when its window says, not 10 minutes late
  // (or early).
  it.each([
    ['back 30 s', -30_000],
    ['back 10 min', -600_000],
    ['forward 30 s', 30_000],
    ['forward 10 min', 600_000],
  ])('stepped %s: the next slot is granted within its window, and not before', async (_, stepMs) => {
    const limiter = limiterOn();
    const push = rule(1, 10_000);
    const window = 10_000 + 200; // the window plus its margin (2 %)
    const answeredAt = await grantedAt(limiter, push);
    scheduler.stepWall(stepMs);
    const next = grantedAt(limiter, push, 15_000);
    let granted: number | undefined;
    void next.then((at) => (granted = at));
    await scheduler.advance(window - 1);
    expect(granted).toBeUndefined();
    await scheduler.advance(2);
    expect(granted).toBe(answeredAt + window + 1);
  });

  it('a step during a wait changes nothing either, and what the UI shows follows the wall clock', async () => {
    const limiter = limiterOn({ marginMs: () => 0 });
    const r = rule(100, 1_000);
    limiter.block(r, limiter.now() + 5_000);
    const next = grantedAt(limiter, r, 15_000);
    await scheduler.advance(1_000);
    scheduler.stepWall(-600_000);
    // The pause ends 4 s from now; shown as 4 s from the (stepped) wall clock.
    expect(limiter.snapshot().buckets[0]?.blockedUntil).toBe(scheduler.wallNow() + 4_000);
    await scheduler.advance(4_000);
    expect(await next).toBe(scheduler.now());
  });
});
