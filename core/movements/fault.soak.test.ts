/**
 * THE FAULT SOAK at full size (`npm run test:soak`, which CI runs after `npm test`; the small
 * version is fault.test.ts, what it does is in testing/faultSoak.ts).
 */
import { describe, expect, it } from 'vitest';
import { clockStepsWhileRunning, runFaultSoak } from '../testing/faultSoak';

describe('the fault soak', () => {
  it('210 movements through 30 % faults and 4 kills, each run with its own clock: each exactly once', async () => {
    // This computer's clock minus the real time, per run: 10 min fast, right, 30 s fast, 10 min slow, right.
    const result = await runFaultSoak({ total: 210, kills: 4, runSkewsMs: [600_000, 0, 30_000, -600_000, 0] });
    expect(result).toMatchObject({ movements: 210, doubled: 0, lost: 0 });
  }, 600_000);

  it('400 movements through 30 % faults while the clock is stepped +10 min, −10 min, +30 s: exactly once, no stall', async () => {
    const result = await runFaultSoak({ total: 400, kills: 0, liveSteps: clockStepsWhileRunning(400) });
    expect(result).toMatchObject({ movements: 400, doubled: 0, lost: 0 });
  }, 600_000);
});
