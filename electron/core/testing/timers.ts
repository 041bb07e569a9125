/**
 * Test helper: vitest fake timers that run themselves. Every setTimeout still fires, in the order of
 * its due time, but without the real wait: a real 1 ms interval moves the fake clock to the next
 * timer. For code whose waits are pauses between its own steps (the movement engine's lookup rounds)
 * while its clock is injected, so no assertion depends on real time passing. Call it at the top of a
 * test file (or a describe): installed before each test, removed after it.
 */
import { afterEach, beforeEach, vi } from 'vitest';

export const fastForwardTimeouts = (): void => {
  let pump: ReturnType<typeof setInterval> | undefined;
  beforeEach(() => {
    // Only setTimeout: intervals (the pump itself), Date and performance stay real.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    pump = setInterval(() => vi.advanceTimersToNextTimer(), 1);
  });
  afterEach(() => {
    clearInterval(pump);
    vi.useRealTimers();
  });
};
