import { describe, expect, it } from 'vitest';
import type { MyTrade, Order } from '../../../../../shared/contract/trade';
import { parseCsv } from '../../../../../shared/format/csv';
import { ordersCsv, tradeCsvName, tradesCsv } from './csv';

const T = Date.UTC(2026, 0, 2, 3, 4, 5); // 2026-01-02 03:04:05 UTC

const order = (extra: Partial<Order> = {}): Order => ({
  id: '1001',
  text: 't-abc',
  pair: 'BTC_USDT',
  side: 'buy',
  type: 'limit',
  price: '65000.1',
  amount: '0.0123',
  left: '0',
  filledAmount: '0.0123',
  filledTotal: '799.50123',
  avgDealPrice: '65000.1',
  fee: '0.0000246',
  feeCurrency: 'BTC',
  timeInForce: 'gtc',
  status: 'closed',
  finishAs: 'filled',
  createTimeMs: T,
  updateTimeMs: T + 60_000,
  ...extra,
});

const trade: MyTrade = {
  id: '77',
  pair: 'BTC_USDT',
  orderId: '1001',
  side: 'sell',
  role: 'maker',
  price: '65000.1',
  amount: '0.0123',
  fee: '-0.5',
  feeCurrency: 'USDT',
  text: '=HYPERLINK("x")',
  createTimeMs: T,
};

/** Each record with its fields unquoted, joined by commas again (no field here holds a comma). */
const lines = (csv: string) => parseCsv(csv).map((record) => record.join(','));

describe('trade CSV exports', () => {
  it('order history: the zone in the time titles, times in that zone, exact decimals, ids', () => {
    const [header, row] = lines(ordersCsv([order()], 'UTC+8'));
    expect(header?.split(',').slice(0, 4)).toEqual(['Created (UTC+8)', 'Finished (UTC+8)', 'Order ID', 'Client ID']);
    expect(row?.split(',').slice(0, 4)).toEqual([
      '2026-01-02T11:04:05+08:00',
      '2026-01-02T11:05:05+08:00',
      '1001',
      't-abc',
    ]);
    expect(row).toContain(',0.0123,0.0123,799.50123,65000.1,0.0000246,BTC,closed,filled,');
  });

  it('UTC: Z offsets and (UTC) titles; a market order has no price; an open one no finish time', () => {
    const [header, market, open] = lines(
      ordersCsv([order({ type: 'market', price: '0' }), order({ status: 'open', finishAs: 'open' })], 'UTC'),
    );
    expect(header).toMatch(/^Created \(UTC\),Finished \(UTC\),/);
    const m = market!.split(',');
    expect(m[0]).toBe('2026-01-02T03:04:05Z');
    expect(m[8]).toBe(''); // price
    expect(open!.split(',')[1]).toBe('');
  });

  it('my trades: the zone stated, every field, and a formula-like text made inert', () => {
    const [header, row] = lines(tradesCsv([trade], 'UTC'));
    expect(header).toBe('Time (UTC),Trade ID,Order ID,Client ID,Pair,Side,Role,Price,Amount,Fee,Fee currency');
    // The text starts with ' so a spreadsheet does not run it; a negative fee (a rebate) stays a
    // plain number.
    expect(row).toBe(`2026-01-02T03:04:05Z,77,1001,'=HYPERLINK("x"),BTC_USDT,sell,maker,65000.1,0.0123,-0.5,USDT`);
  });

  it('an empty table exports its header only; file names carry the pair and the date', () => {
    expect(lines(tradesCsv([], 'UTC'))).toHaveLength(1);
    expect(lines(ordersCsv([], 'local'))[0]).toMatch(/^Created \(.+\),Finished \(.+\),Order ID/);
    expect(tradeCsvName('orders', 'BTC_USDT', new Date(T))).toBe('orders-BTC_USDT-2026-01-02.csv');
  });
});
