import { afterEach, describe, expect, it } from 'vitest';
import { SystemScheduler } from './scheduler';
import { ManualScheduler } from './testing/scheduler';

let manual: ManualScheduler | undefined;
afterEach(() => manual?.close());

describe('ManualScheduler', () => {
  it('fires each timer at its own time, in order, as time is advanced; cancelled ones never', async () => {
    manual = new ManualScheduler();
    const start = manual.now();
    const fired: string[] = [];
    manual.setTimeout(() => fired.push(`b@${manual!.now() - start}`), 200);
    manual.setTimeout(() => fired.push(`a@${manual!.now() - start}`), 100);
    const never = manual.setTimeout(() => fired.push('never'), 150);
    const every = manual.setInterval(() => fired.push(`i@${manual!.now() - start}`), 120);
    never.cancel();
    await manual.advance(99);
    expect(fired).toEqual([]);
    await manual.advance(200);
    expect(fired).toEqual(['a@100', 'i@120', 'b@200', 'i@240']);
    every.cancel();
    await manual.advance(1_000);
    expect(fired).toHaveLength(4);
    expect(manual.pendingTimers()).toBe(0);
  });

  it('steps the wall clock alone; the monotonic clock and the timers do not notice', async () => {
    manual = new ManualScheduler({ wallStart: Date.UTC(2027, 0, 1) });
    const mono = manual.now();
    let fired = false;
    manual.setTimeout(() => (fired = true), 1_000);
    manual.stepWall(-600_000);
    expect(manual.wallNow()).toBe(Date.UTC(2027, 0, 1) - 600_000);
    expect(manual.now()).toBe(mono);
    await manual.advance(999);
    expect(fired).toBe(false);
    await manual.advance(1);
    expect(fired).toBe(true);
    // Time passing moves both.
    expect(manual.wallNow()).toBe(Date.UTC(2027, 0, 1) - 600_000 + 1_000);
  });

  it('idle() lets work that does not wait for time finish, and leaves work waiting for a timer pending', async () => {
    manual = new ManualScheduler();
    const steps: string[] = [];
    void manual.track(
      (async () => {
        await Promise.resolve();
        steps.push('started');
        await manual.sleep(5_000);
        steps.push('woke');
      })(),
    );
    await manual.idle();
    expect(steps).toEqual(['started']);
    await manual.advance(5_000);
    expect(steps).toEqual(['started', 'woke']);
    expect(manual.busy()).toBe(false);
  });

  it('advanceUntil moves time timer by timer until a condition holds', async () => {
    manual = new ManualScheduler();
    let attempts = 0;
    const retry = () => {
      attempts++;
      if (attempts < 4) manual?.setTimeout(retry, 500 * 2 ** attempts);
    };
    retry();
    const start = manual.now();
    await manual.advanceUntil(() => attempts === 4);
    expect(manual.now() - start).toBe(1_000 + 2_000 + 4_000);
  });
});

describe('SystemScheduler', () => {
  it('idle() waits for work in flight and for timers already due, not for timers due later', async () => {
    const scheduler = new SystemScheduler();
    let done = false;
    let late = false;
    void scheduler.track(scheduler.sleep(20).then(() => (done = true)));
    const later = scheduler.setTimeout(() => (late = true), 60_000);
    await scheduler.idle();
    expect(done).toBe(true);
    expect(late).toBe(false);
    expect(scheduler.busy()).toBe(false);
    later.cancel();
  });

  it('a sleep ends early with an AbortError when its signal aborts', async () => {
    const scheduler = new SystemScheduler();
    const controller = new AbortController();
    const sleeping = scheduler.sleep(60_000, controller.signal);
    controller.abort();
    await expect(sleeping).rejects.toMatchObject({ name: 'AbortError' });
  });
});
