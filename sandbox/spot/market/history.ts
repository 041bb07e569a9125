// Market history for a new sandbox with the live market on: without it the chart of a fresh install
// shows one candle and the 24 h ticker nothing, which is no place to practise reading a chart. Per
// pair, a seeded random walk is drawn backwards from the simulator's starting price: one-minute
// candles for the last two days, one-hour candles for the 88 days before, and every longer interval
// aggregated from those, so each interval's chart reaches back and meets the live market at its
// first price. Only candles are written (no trades, no balances): history is what the chart and the
// ticker show, and the ledger stays exactly what the accounts did.

import { bucketStart, type CandleInterval } from '../candles';
import { parseScaled } from '../matching/decimal';
import { initialMid, SPOT_PAIRS, type SpotPair } from '../pairs';
import type { CandleRow, SpotStore } from '../store';
import { hashSeed, type Random, seededRandom } from './random';

const MINUTE_DAYS = 2;
const HOUR_DAYS = 90;
/** Volatility per step (log-returns) and the weak pull towards the starting price. */
const SIGMA_MINUTE = 0.0009;
const SIGMA_HOUR = 0.006;
const REVERSION = 0.002;
/** Typical traded value per minute, in quote units (USDT). */
const QUOTE_PER_MINUTE = 80_000;

/** Intervals built from one-minute candles (within the last two days) and from hourly ones (all of it). */
const FROM_MINUTES: readonly CandleInterval[] = ['5m', '15m', '30m'];
const FROM_HOURS: readonly CandleInterval[] = ['4h', '8h', '1d', '7d', '30d'];

/**
 * Writes the history of every pair that has no candle yet (a new data directory); a pair with
 * candles is left alone, so a restart never rewrites what the market did. Returns the pairs filled.
 */
export function backfillMarketHistory(store: SpotStore, nowMs: number, seed: string): string[] {
  const filled: string[] = [];
  const nowS = Math.floor(nowMs / 1000);
  const rnd = seededRandom(hashSeed(`${seed}:history`));
  store.transaction(() => {
    for (const pair of SPOT_PAIRS) {
      if (store.latestCandle(pair.id, '1m') !== undefined) continue;
      for (const [interval, candles] of pairHistory(pair, nowS, rnd)) {
        for (const candle of candles) store.saveCandle(pair.id, interval, candle);
      }
      filled.push(pair.id);
    }
  });
  return filled;
}

/** Every interval's candles of one pair, ending at the minute before `nowS`. */
export function pairHistory(pair: SpotPair, nowS: number, rnd: Random): Map<CandleInterval, CandleRow[]> {
  const start = Number(parseScaled(initialMid(pair), pair.precision));
  const lastMinute = bucketStart('1m', nowS) - 60;
  // Minutes from an hour boundary on, so the hours built from them line up with the older hours.
  const firstMinuteT = bucketStart('1h', lastMinute) - MINUTE_DAYS * 86_400;
  const minuteCount = (lastMinute - firstMinuteT) / 60 + 1;
  // Walk back from the live market's first price: each step gives the price one step earlier.
  const minutes = walkBack(pair, start, start, lastMinute, 60, minuteCount, SIGMA_MINUTE, rnd);
  const hourCount = (HOUR_DAYS - MINUTE_DAYS) * 24;
  const olderHours = walkBack(pair, minutes[0]!.open, start, firstMinuteT - 3600, 3600, hourCount, SIGMA_HOUR, rnd);
  const hours = [...olderHours, ...aggregate('1h', minutes)];

  const out = new Map<CandleInterval, CandleRow[]>([
    ['1m', minutes],
    ['1h', hours],
  ]);
  for (const interval of FROM_MINUTES) out.set(interval, aggregate(interval, minutes));
  for (const interval of FROM_HOURS) out.set(interval, aggregate(interval, hours));
  return out;
}

/**
 * `count` candles of `stepS` seconds, the last one starting at `lastT` and closing at `closeTicks`.
 * Prices are in ticks of the pair's precision, volumes in lots and ticks × lots (as the exchange).
 */
function walkBack(
  pair: SpotPair,
  closeTicks: number,
  anchorTicks: number,
  lastT: number,
  stepS: number,
  count: number,
  sigma: number,
  rnd: Random,
): CandleRow[] {
  const candles: CandleRow[] = [];
  let close = closeTicks;
  for (let i = 0; i < count; i++) {
    // The pull towards the anchor holds backwards in time too (the walk is time-reversible).
    const pull = -REVERSION * Math.log(close / anchorTicks);
    const open = Math.max(1, close * Math.exp(pull + sigma * rnd.normal()));
    const wick = () => 1 + Math.abs(rnd.normal()) * sigma * 0.6;
    const high = Math.max(open, close) * wick();
    const low = Math.min(open, close) / wick();
    const mid = (open + close) / 2;
    const quote = ((QUOTE_PER_MINUTE * stepS) / 60) * (0.3 + rnd.next() * 1.4);
    const lots = BigInt(Math.max(1, Math.round((quote / (mid / 10 ** pair.precision)) * 10 ** pair.amountPrecision)));
    candles.push({
      t: lastT - i * stepS,
      open: Math.round(open),
      high: Math.round(high),
      low: Math.max(1, Math.round(low)),
      close: Math.round(close),
      volume_base: lots,
      volume_quote: lots * BigInt(Math.round(mid)),
    });
    close = open;
  }
  return candles.reverse();
}

/** Candles of a longer interval from shorter ones, oldest first. */
function aggregate(interval: CandleInterval, source: readonly CandleRow[]): CandleRow[] {
  const out: CandleRow[] = [];
  for (const c of source) {
    const t = bucketStart(interval, c.t);
    const last = out.at(-1);
    if (last !== undefined && last.t === t) {
      last.high = Math.max(last.high, c.high);
      last.low = Math.min(last.low, c.low);
      last.close = c.close;
      last.volume_base += c.volume_base;
      last.volume_quote += c.volume_quote;
    } else {
      out.push({ ...c, t });
    }
  }
  return out;
}
