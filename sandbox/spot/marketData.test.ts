/**
 * The 24 h ticker's figures from the minute candles: which candles count (the last 24 hours, the
 * UTC+0 and UTC+8 days) and what each figure takes from them, at a fixed time of day.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../testing/harness';
import { spotModuleOf } from './index';
import { MarketData } from './marketData';
import { type CandleRow, SpotStore } from './store';

const PAIR = 'GT_USDT'; // prices in thousandths, amounts in hundredths
/** 2030-06-15 12:34:56 UTC: the UTC+0 day began at 00:00 today, the UTC+8 day at 16:00 yesterday. */
const NOW_S = Date.UTC(2030, 5, 15, 12, 34, 56) / 1000;
const at = (iso: string) => Date.parse(iso) / 1000;

let sb: TestSandbox;

beforeAll(async () => {
  sb = await startTestSandbox();
  // The last trade (the ticker's `last`) at 10 GT_USDT; its own candles fall years before NOW_S.
  const seller = sb.user({ GT: '10' });
  const buyer = sb.user({ USDT: '100' });
  await seller.api.post('/spot/orders', { currency_pair: PAIR, side: 'sell', amount: '1', price: '10' });
  await buyer.api.post('/spot/orders', { currency_pair: PAIR, side: 'buy', amount: '1', price: '10' });
  const store = new SpotStore(sb.ctx.db);
  const candle = (t: string, open: number, high: number, low: number, lots: bigint): void => {
    const row: CandleRow = {
      t: at(t),
      open,
      high,
      low,
      close: open,
      volume_base: lots,
      volume_quote: lots * BigInt(open),
    };
    store.saveCandle(PAIR, '1m', row);
  };
  candle('2030-06-14T12:35:00Z', 1, 100_000, 1, 999n); // more than 24 h ago: left out
  candle('2030-06-14T12:36:00Z', 8_000, 9_000, 7_500, 100n); // the first minute of the last 24 h
  candle('2030-06-14T16:00:00Z', 8_400, 8_500, 8_300, 200n); // the UTC+8 day's first minute
  candle('2030-06-15T00:00:00Z', 9_000, 9_100, 8_900, 300n); // the UTC+0 day's first minute
  candle('2030-06-15T12:34:00Z', 9_500, 9_600, 9_400, 400n); // the current minute
  candle('2030-06-15T12:35:00Z', 1, 200_000, 1, 999n); // after now: left out
});

afterAll(async () => {
  await sb?.close();
});

describe('the 24 h ticker', () => {
  it('takes its change, extremes and volumes from the minute candles of the last 24 hours and of each day', () => {
    const exchange = spotModuleOf(sb.ctx)!.exchange;
    const market = new MarketData(exchange, new SpotStore(sb.ctx.db), () => NOW_S * 1000);
    const [ticker] = market.tickers({ currency_pair: PAIR });
    expect(ticker).toMatchObject({
      last: '10',
      change_percentage: '25', // from 8 at the first minute of the last 24 h
      change_utc8: '19.05', // from 8.4
      change_utc0: '11.11', // from 9
      high_24h: '9.6',
      low_24h: '7.5',
      base_volume: '10',
      quote_volume: '89.8', // 1×8 + 2×8.4 + 3×9 + 4×9.5
    });
  });
});
