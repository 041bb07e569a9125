import { describe, expect, it } from 'vitest';
import { startOfDayInZone } from '../../../shared/format/time';
import { customRange, lastDays, PERIOD_PRESETS } from './period';

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

describe('custom range', () => {
  const startOfDay = (date: string) => startOfDayInZone(date, 'UTC');
  it('runs from the start of the first day to the end of the last, in the display zone', () => {
    expect(customRange('2026-01-01', '2026-01-31', startOfDay)).toEqual({
      range: { from: Date.UTC(2026, 0, 1) / 1000, to: Date.UTC(2026, 1, 1) / 1000 - 1 },
    });
    const utc8 = customRange('2026-01-01', '2026-01-01', (d) => startOfDayInZone(d, 'UTC+8'));
    expect(utc8).toEqual({
      range: { from: Date.UTC(2025, 11, 31, 16) / 1000, to: Date.UTC(2026, 0, 1, 16) / 1000 - 1 },
    });
  });
  it('says what is wrong, at the field it concerns', () => {
    expect(customRange('', '2026-01-01', startOfDay)).toMatchObject({ field: 'from' });
    expect(customRange('2026-02-30', '2026-03-01', startOfDay)).toMatchObject({ field: 'from' });
    expect(customRange('2026-03-01', '2026-02-01', startOfDay)).toEqual({
      problem: 'The last day is before the first.',
      field: 'to',
    });
    expect(customRange('2999-01-01', '2999-01-02', startOfDay, Date.UTC(2026, 0, 1))).toMatchObject({ field: 'from' });
  });
});
