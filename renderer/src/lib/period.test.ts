import { describe, expect, it } from 'vitest';
import { lastDays, PERIOD_PRESETS } from './period';

describe('lastDays', () => {
  it('ends an hour past the next minute boundary (platform clocks running ahead) and starts `days` before that boundary', () => {
    const now = Date.UTC(2026, 10, 22, 1, 7, 30);
    const boundary = Date.UTC(2026, 10, 22, 1, 8) / 1000;
    expect(lastDays(7, now)).toEqual({ from: boundary - 7 * 86_400, to: boundary + 3600 });
  });

  it('is the same for two renders within the same minute (a stable query key)', () => {
    const a = Date.UTC(2026, 0, 1, 0, 0, 1);
    expect(lastDays(30, a)).toEqual(lastDays(30, a + 58_000));
  });

  it('offers the presets from 24 hours to 12 months, shortest first', () => {
    expect(PERIOD_PRESETS.map((p) => p.days)).toEqual([1, 7, 30, 90, 365]);
  });
});
