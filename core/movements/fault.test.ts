/**
 * THE FAULT SOAK, small (testing/faultSoak.ts says what it does; `npm run test:soak` runs it at full
 * size, fault.soak.test.ts): enough movements of every kind, under 30 % faults, a kill, clock skews
 * across the restart and live clock steps, to prove the property on every `npm test` — every
 * operation executed exactly once, none lost, none abandoned, no stall.
 *
 * The two scenarios run side by side (each has its own sandbox, data folder and core process): most
 * of their time is waiting — for answers that never come, for an unknown outcome's settle time — not
 * the CPU.
 */
import { describe, expect, it } from 'vitest';
import { clockStepsWhileRunning, runFaultSoak } from '../testing/faultSoak';

describe.concurrent('the fault soak, small', () => {
  it('through faults, a kill and the clock 10 min fast then 10 min slow: each movement exactly once', async () => {
    const result = await runFaultSoak({ total: 36, kills: 1, runSkewsMs: [600_000, -600_000] });
    expect(result).toMatchObject({ movements: 36, doubled: 0, lost: 0 });
  }, 240_000);

  it('the computer’s clock stepped +10 min, −10 min, +30 s while movements run: exactly once, no stall', async () => {
    const result = await runFaultSoak({ total: 48, kills: 0, liveSteps: clockStepsWhileRunning(48) });
    expect(result).toMatchObject({ movements: 48, doubled: 0, lost: 0 });
  }, 240_000);
});
