// Candlestick intervals and bucket arithmetic (api-facts §1.9). Buckets are aligned to UTC: weeks
// start on Monday 00:00, `30d` is the calendar month.

export const CANDLE_INTERVALS = ['1s', '10s', '1m', '5m', '15m', '30m', '1h', '4h', '8h', '1d', '7d', '30d'] as const;
export type CandleInterval = (typeof CANDLE_INTERVALS)[number];

const SECONDS: Record<Exclude<CandleInterval, '30d'>, number> = {
  '1s': 1,
  '10s': 10,
  '1m': 60,
  '5m': 300,
  '15m': 900,
  '30m': 1800,
  '1h': 3600,
  '4h': 14400,
  '8h': 28800,
  '1d': 86400,
  '7d': 604800,
};

/** 1970-01-01 was a Thursday; Monday 1970-01-05 00:00 UTC starts the week grid. */
const MONDAY_OFFSET = 4 * 86400;

export function isCandleInterval(value: string): value is CandleInterval {
  return (CANDLE_INTERVALS as readonly string[]).includes(value);
}

/** Start (Unix seconds) of the bucket containing `t`. */
export function bucketStart(interval: CandleInterval, t: number): number {
  if (interval === '30d') {
    const d = new Date(t * 1000);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000;
  }
  const size = SECONDS[interval];
  if (interval === '7d') return Math.floor((t - MONDAY_OFFSET) / size) * size + MONDAY_OFFSET;
  return Math.floor(t / size) * size;
}

/** Start of the bucket after the one starting at `start`. */
export function nextBucket(interval: CandleInterval, start: number): number {
  if (interval === '30d') {
    const d = new Date(start * 1000);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / 1000;
  }
  return start + SECONDS[interval];
}

/** Nominal length in seconds (30d counts 30 days), used for default ranges. */
export function nominalSeconds(interval: CandleInterval): number {
  return interval === '30d' ? 30 * 86400 : SECONDS[interval];
}

/** Buckets kept per interval; older ones are pruned so fine-grained history stays bounded. */
export const RETAINED_POINTS = 10_000;
