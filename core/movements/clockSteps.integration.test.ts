/**
 * Issue 25, through a whole core against a real sandbox: the computer's clock stepped between two
 * movements, and the platform's clock jumping while answers are lost. Nothing may stall, nothing
 * may be sent twice, nothing may be abandoned with a message about an app stop that did not happen.
 */
import Decimal from 'decimal.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { control } from '../../sandbox/testing/harness';
import { startTestCore, withSandboxCore } from '../testing/core';
import { SteppedWallScheduler } from '../testing/scheduler';
import { waitUntil } from '../testing/waitUntil';

const wall = new SteppedWallScheduler();
const desk = withSandboxCore({
  // Real business time: the lookups of pushes compare record times with the platform's clock.
  sandbox: { clock: 'real' },
  core: {
    scheduler: wall,
    timeoutMs: 1_000,
    // A lost answer is "absent" only 2 s after it could have arrived: after the call has returned.
    movements: { settleMs: 2_000, backgroundMs: 100 },
  },
});

let receiver: number;
beforeAll(async () => {
  // The client's windows are the platform's (1/1000 of them); the sandbox's own pacing is not under test here.
  await control(desk.sandbox, '/rate_limits', { enforce: false });
  receiver = (await control<{ user_id: number }>(desk.sandbox, '/users', {})).user_id;
});

/** The sandbox's own pushes to the receiver of this amount. */
const pushesOf = (amount: string) =>
  (
    desk.sandbox.ctx.db.prepare('SELECT amount FROM pushes WHERE receive_uid = ?').all(receiver) as { amount: string }[]
  ).filter((p) => new Decimal(p.amount).eq(amount)).length;

describe('the computer’s clock steps', () => {
  it('a push, the clock set back 10 minutes, a second push: answered within its window and sent once', async () => {
    const push = (amount: string) => desk.core.ctx.movements.push({ receive_uid: receiver, currency: 'USDT', amount });
    expect(await push('1.25')).toMatchObject({ state: 'done' });
    wall.stepWall(-10 * 60_000);
    const started = performance.now();
    // One push per 10 s (here 10 ms): the next slot comes a window after the first's answer, not 10 min later.
    expect(await push('1.26')).toMatchObject({ state: 'done', attempts: 1 });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect([pushesOf('1.25'), pushesOf('1.26')]).toEqual([1, 1]);
    wall.stepWall(10 * 60_000);
  });
});

describe('the platform’s clock jumps', () => {
  it('+10 min while answers are lost: nothing is abandoned as if the app had stopped, nothing is sent twice', async () => {
    const amounts = ['2.01', '2.02', '2.03'];
    // The first attempt of each push never reaches the platform, and its answer is lost.
    await control(desk.sandbox, '/faults', {
      rules: [{ method: 'POST', path: '/api/v4/withdrawals/push', kind: 'drop_before', times: amounts.length }],
    });
    const outcomes = await Promise.all(
      amounts.map((amount) =>
        desk.core.ctx.movements
          .execute('push', { receive_uid: receiver, currency: 'USDT', amount })
          .then((result) => result.state),
      ),
    );
    expect(outcomes).toEqual(['unknown', 'unknown', 'unknown']);
    // Confirmed seconds ago; now the platform's clock moves 10 minutes ahead.
    await control(desk.sandbox, '/clock', { offset_seconds: 600 });
    try {
      const mine = () => desk.core.ctx.movements.list().filter((m) => amounts.includes(m.amount));
      await waitUntil(() => mine().every((m) => m.state === 'done' || m.state === 'failed'), {
        what: 'the pushes to be settled',
      });
      const settled = mine();
      expect(settled.map((m) => [m.amount, m.state]).sort()).toEqual(amounts.map((a) => [a, 'done']));
      expect(settled.filter((m) => /stopped/.test(m.message ?? ''))).toEqual([]);
      expect(amounts.map(pushesOf)).toEqual([1, 1, 1]);
    } finally {
      await control(desk.sandbox, '/clock', { offset_seconds: 0 });
      await control(desk.sandbox, '/faults', undefined, 'DELETE').catch(() => undefined);
    }
  });
});

describe('a start with the computer’s clock 10 minutes slow', () => {
  it('the first reading of the platform’s clock answered 429: a short pause, then a push goes out at once', async () => {
    // The fault soak met this: a core restarted with its clock 10 min slow, its first GET /spot/time
    // answered 429. The pause was read on this computer's clock (the platform's was not measured
    // yet), 10 min short of the platform's reset time: a minute's pause of the clock's reading, and
    // with it of every lookup and every new movement.
    const slow = new SteppedWallScheduler();
    slow.stepWall(-10 * 60_000);
    await control(desk.sandbox, '/faults', {
      rules: [{ method: 'GET', path: '/api/v4/spot/time', kind: 'status_429', times: 1 }],
    });
    const started = performance.now();
    const restarted = await startTestCore(desk.sandbox, {
      scheduler: slow,
      timeoutMs: 1_000,
      movements: { settleMs: 2_000, backgroundMs: 100 },
    });
    try {
      const pushed = await restarted.core.ctx.movements.push({
        receive_uid: receiver,
        currency: 'USDT',
        amount: '3.01',
      });
      expect(pushed).toMatchObject({ state: 'done', attempts: 1 });
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(pushesOf('3.01')).toBe(1);
      // The platform's clock was read: 10 min ahead of this computer's.
      expect(restarted.core.ctx.platform().client.clock.offsetMs).toBeGreaterThan(590_000);
    } finally {
      await restarted.close();
      await control(desk.sandbox, '/faults', undefined, 'DELETE').catch(() => undefined);
    }
  });
});
