import { describe, expect, it } from 'vitest';
import { bucketStart, nextBucket } from './candles';

const utc = (iso: string) => Date.parse(iso) / 1000;

describe('candle buckets', () => {
  it('aligns fixed intervals to the epoch', () => {
    expect(bucketStart('1m', utc('2026-03-04T10:07:59Z'))).toBe(utc('2026-03-04T10:07:00Z'));
    expect(bucketStart('4h', utc('2026-03-04T10:07:59Z'))).toBe(utc('2026-03-04T08:00:00Z'));
    expect(bucketStart('10s', utc('2026-03-04T10:07:59Z'))).toBe(utc('2026-03-04T10:07:50Z'));
    expect(nextBucket('8h', utc('2026-03-04T16:00:00Z'))).toBe(utc('2026-03-05T00:00:00Z'));
  });

  it('starts weeks on Monday 00:00 UTC', () => {
    // 2026-03-04 is a Wednesday.
    expect(bucketStart('7d', utc('2026-03-04T10:00:00Z'))).toBe(utc('2026-03-02T00:00:00Z'));
    expect(bucketStart('7d', utc('2026-03-02T00:00:00Z'))).toBe(utc('2026-03-02T00:00:00Z'));
    expect(bucketStart('7d', utc('2026-03-01T23:59:59Z'))).toBe(utc('2026-02-23T00:00:00Z'));
  });

  it('makes 30d the calendar month', () => {
    expect(bucketStart('30d', utc('2026-02-28T23:00:00Z'))).toBe(utc('2026-02-01T00:00:00Z'));
    expect(nextBucket('30d', utc('2026-02-01T00:00:00Z'))).toBe(utc('2026-03-01T00:00:00Z'));
    expect(nextBucket('30d', utc('2026-12-01T00:00:00Z'))).toBe(utc('2027-01-01T00:00:00Z'));
  });
});
