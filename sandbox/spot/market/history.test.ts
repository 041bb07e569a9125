import { afterEach, describe, expect, it } from 'vitest';
import { type SandboxHandle, startSandbox } from '../../server';
import { SignedClient, startTestSandbox, type TestSandbox } from '../../testing/harness';
import { bucketStart, CANDLE_INTERVALS } from '../candles';
import { SPOT_PAIRS } from '../pairs';
import { backfillMarketHistory, pairHistory } from './history';
import { seededRandom } from './random';

const open: (TestSandbox | SandboxHandle)[] = [];
afterEach(async () => {
  for (const sb of open.splice(0)) await sb.close();
});

const NOW_S = 1_790_000_000; // a Tuesday, 13:33:20 UTC

describe('market history of a new sandbox', () => {
  it('every interval from 1m up reaches back, aligned, continuous, and ends at the live start price', () => {
    const btc = SPOT_PAIRS.find((p) => p.id === 'BTC_USDT')!;
    const history = pairHistory(btc, NOW_S, seededRandom(1));
    const minutes = history.get('1m')!;
    expect(minutes.length).toBeGreaterThanOrEqual(2 * 1440);
    expect(minutes.at(-1)!.t).toBe(bucketStart('1m', NOW_S) - 60);
    // The live market starts at the catalog price (65 000.0 → 650 000 ticks): history closes there.
    expect(minutes.at(-1)!.close).toBe(650_000);
    // Some 7,000 candles: each one's faults are listed, and the list must stay empty (one expect
    // per check of each candle was half a second of the test's CPU).
    const faults: string[] = [];
    for (const [interval, candles] of history) {
      for (const [i, c] of candles.entries()) {
        const at = `${interval} candle at ${c.t}`;
        if (c.t !== bucketStart(interval, c.t)) faults.push(`${at}: not at the start of its interval`);
        if (c.high < Math.max(c.open, c.close)) faults.push(`${at}: high ${c.high} below its open or close`);
        if (c.low > Math.min(c.open, c.close)) faults.push(`${at}: low ${c.low} above its open or close`);
        if (c.volume_base <= 0n) faults.push(`${at}: no volume`);
        const next = candles[i + 1];
        if (next && next.t <= c.t) faults.push(`${at}: followed by ${next.t}, not a later one`);
      }
    }
    const hours = history.get('1h')!;
    expect(hours.length).toBeGreaterThanOrEqual(90 * 24 - 24);
    for (const [i, c] of hours.entries()) {
      // Hourly candles continue each other: one closes where the next opens.
      const before = hours[i - 1];
      if (before && c.open !== before.close)
        faults.push(`1h candle at ${c.t}: opens at ${c.open}, not ${before.close}`);
      // Plausible: within a factor of two of the start over three months.
      if (!(c.low > 325_000 && c.high < 1_300_000)) faults.push(`1h candle at ${c.t}: ${c.low}–${c.high}, implausible`);
    }
    expect(faults).toEqual([]);
    expect(history.get('1d')!.length).toBeGreaterThanOrEqual(89);
  });

  it('the chart and the 24 h ticker of a new sandbox with the live market show history', async () => {
    const sb = await startTestSandbox({ market: 'on', clock: 'manual' });
    open.push(sb);
    const u = sb.user();
    const candles = await u.api.get<string[][]>('/spot/candlesticks', {
      currency_pair: 'ETH_USDT',
      interval: '1h',
      limit: 48,
    });
    expect(candles.body).toHaveLength(48);
    const closes = new Set(candles.body.map((row) => row[2]));
    expect(closes.size).toBeGreaterThan(40); // a moving market, not flat filler
    const ticker = await u.api.get<{ high_24h: string; low_24h: string; base_volume: string }[]>('/spot/tickers', {
      currency_pair: 'ETH_USDT',
    });
    const t = ticker.body[0]!;
    expect(Number(t.high_24h)).toBeGreaterThan(Number(t.low_24h));
    expect(Number(t.base_volume)).toBeGreaterThan(0);
    for (const interval of CANDLE_INTERVALS.filter((i) => i !== '1s' && i !== '10s')) {
      const rows = await u.api.get<string[][]>('/spot/candlesticks', { currency_pair: 'BTC_USDT', interval, limit: 3 });
      expect(rows.status, interval).toBe(200);
      expect(Number(rows.body[0]?.[1]), interval).toBeGreaterThan(0);
    }
  });

  it('is written once: a pair that has candles is never rewritten, and a seed replays the same history', async () => {
    const sb = await startTestSandbox({ market: 'on', clock: 'manual', seed: 7 });
    open.push(sb);
    const store = sb.spot.exchange.store;
    const before = store.query<{ n: number }>('SELECT COUNT(*) AS n FROM spot_candles')[0]!.n;
    expect(backfillMarketHistory(store, sb.ctx.clock.now(), sb.ctx.options.seed)).toEqual([]);
    expect(store.query<{ n: number }>('SELECT COUNT(*) AS n FROM spot_candles')[0]!.n).toBe(before);

    const a = pairHistory(SPOT_PAIRS[0]!, NOW_S, seededRandom(3)).get('1h');
    const b = pairHistory(SPOT_PAIRS[0]!, NOW_S, seededRandom(3)).get('1h');
    const c = pairHistory(SPOT_PAIRS[0]!, NOW_S, seededRandom(4)).get('1h');
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
  });

  it('is built after the sandbox says it is ready, and the first candle read is already whole', async () => {
    const sb = await startSandbox({ memory: true, market: 'on', clock: 'manual', seed: 7 });
    open.push(sb);
    // Ready (the CLI prints its line now): no history written yet, so the ready line did not wait for it.
    const count = () => sb.ctx.db.prepare('SELECT COUNT(*) AS n FROM spot_candles').get() as { n: number };
    expect(count().n).toBe(0);
    const client = new SignedClient(sb.baseUrl, { key: sb.key, secret: sb.secret });
    const candles = await client.get<string[][]>('/spot/candlesticks', {
      currency_pair: 'BTC_USDT',
      interval: '1h',
      limit: 100,
    });
    expect(candles.body).toHaveLength(100);
    expect(count().n).toBeGreaterThan(1000);
  });

  it('the market off (tests, benchmarks) gets no invented history', async () => {
    const sb = await startTestSandbox({ clock: 'real', market: 'off' });
    open.push(sb);
    expect(sb.spot.exchange.store.query<{ n: number }>('SELECT COUNT(*) AS n FROM spot_candles')[0]!.n).toBe(0);
  });
});
