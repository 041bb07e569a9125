import { afterEach, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../../testing/harness';
import { MarketSimulator } from './simulator';

const open: TestSandbox[] = [];
afterEach(async () => {
  for (const sb of open.splice(0)) await sb.close();
});

/** A sandbox with the market off and a simulator driven tick by tick (no timers). */
async function simulated(seed: number, ticks: number) {
  const sb = await startTestSandbox({ clock: 'real', seed });
  open.push(sb);
  const sim = new MarketSimulator(sb.ctx, sb.spot.exchange, sb.spot.exchange.store);
  for (let i = 0; i < ticks; i++) sim.tick();
  return { sb, sim };
}

describe('simulated market', () => {
  it('quotes many levels on every pair, trades, and feeds prices, candles and tickers', async () => {
    const { sb } = await simulated(11, 40);
    const u = sb.user();
    for (const pair of ['BTC_USDT', 'ETH_USDT', 'GT_USDT', 'XRP_USDT']) {
      const book = await u.api.get<{ asks: string[][]; bids: string[][] }>('/spot/order_book', {
        currency_pair: pair,
        limit: 100,
      });
      expect(book.body.asks.length).toBeGreaterThanOrEqual(20);
      expect(book.body.bids.length).toBeGreaterThanOrEqual(20);
      expect(Number(book.body.asks[0]![0])).toBeGreaterThan(Number(book.body.bids[0]![0]));
      const trades = await u.api.get<unknown[]>('/spot/trades', { currency_pair: pair });
      expect(trades.body.length).toBeGreaterThan(5);
      const last = sb.spot.exchange.lastPrice(pair)!;
      expect(sb.ctx.prices.usdt(pair.split('_')[0]!)?.toFixed()).toBe(last);
      const candles = await u.api.get<string[][]>('/spot/candlesticks', {
        currency_pair: pair,
        interval: '1m',
        limit: 2,
      });
      expect(candles.body.at(-1)?.[2]).toBe(last);
    }
    const btc = Number(sb.spot.exchange.lastPrice('BTC_USDT'));
    expect(btc).toBeGreaterThan(60000);
    expect(btc).toBeLessThan(70000);
  });

  it('is deterministic for a seed', async () => {
    const prices = async (seed: number) => {
      const { sb } = await simulated(seed, 20);
      return sb.spot.exchange.store.query<{ price: string; amount: string }>(
        'SELECT price, amount FROM spot_trades ORDER BY id',
      );
    };
    const a = await prices(5);
    const b = await prices(5);
    const c = await prices(6);
    expect(a.length).toBeGreaterThan(0);
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
  });

  it("market-maker quotes are ordinary orders: a user's order trades against them", async () => {
    const { sb, sim } = await simulated(3, 5);
    const u = sb.user({ USDT: '100000' });
    const book = await u.api.get<{ asks: string[][] }>('/spot/order_book', { currency_pair: 'ETH_USDT' });
    const bestAsk = book.body.asks[0]![0]!;
    const res = await u.api.post<{ finish_as: string }>('/spot/orders', {
      currency_pair: 'ETH_USDT',
      side: 'buy',
      amount: '0.01',
      price: bestAsk,
      time_in_force: 'ioc',
    });
    expect(res.body.finish_as).toBe('filled');
    const mine = await u.api.get<{ role: string }[]>('/spot/my_trades', { currency_pair: 'ETH_USDT' });
    expect(mine.body[0]?.role).toBe('taker');
    const makerTrades = sb.spot.exchange.store.query<{ maker_user: number }>(
      'SELECT maker_user FROM spot_trades WHERE taker_user = ?',
      u.id,
    );
    expect(makerTrades.map((t) => t.maker_user)).toEqual([sim.makerId]);
  });

  it('with a manual clock, moves only when business time is advanced', async () => {
    const sb = await startTestSandbox({ market: 'on', clock: 'manual', seed: 8 });
    open.push(sb);
    const count = () => sb.spot.exchange.store.query<{ n: number }>('SELECT COUNT(*) AS n FROM spot_trades')[0]!.n;
    const book = sb.spot.exchange.pairState('BTC_USDT')!.engine;
    expect(book.bids.levelCount()).toBeGreaterThanOrEqual(20);
    const before = count();
    // fixed-sleep-ok: real time passing is the point here: a manual clock must not move with it
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(count()).toBe(before);
    sb.ctx.clock.advance(5);
    expect(count()).toBeGreaterThan(before);
    const newest = sb.spot.exchange.store.query<{ create_us: number }>(
      'SELECT create_us FROM spot_trades ORDER BY id DESC LIMIT 1',
    )[0]!;
    expect(Math.floor(newest.create_us / 1000)).toBe(sb.ctx.clock.now());
  });
});
