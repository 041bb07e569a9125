/**
 * CSV exports of the trade screen's order history and own trades: every field in full (exact
 * decimal strings as the platform gave them, ids, the client text), times in the display time zone
 * with the zone stated in the column titles (as every export of the app: shared/format/time.ts), and
 * cells written by the one RFC 4180 writer (shared/format/csv.ts, formula-safe). Pure.
 */
import type { MyTrade, Order } from '../../../../../shared/contract/trade';
import { isoInZone, timeHeader, toCsv } from '../../../lib/csv';
import type { DisplayTimeZone } from '../../../lib/format';
import { describeOutcome } from '../ticket/outcome';

const when = (ms: number, zone: DisplayTimeZone): string => (ms > 0 ? isoInZone(ms, zone) : '');

export const ordersCsv = (rows: readonly Order[], zone: DisplayTimeZone): string =>
  toCsv(
    [
      timeHeader('Created', zone),
      timeHeader('Finished', zone),
      'Order ID',
      'Client ID',
      'Pair',
      'Side',
      'Type',
      'Time in force',
      'Price',
      'Amount',
      'Filled amount',
      'Filled total',
      'Average price',
      'Fee',
      'Fee currency',
      'Status',
      'Finished as',
      'Outcome',
    ],
    rows.map((o) => [
      when(o.createTimeMs, zone),
      o.status === 'open' ? '' : when(o.updateTimeMs, zone),
      o.id,
      o.text,
      o.pair,
      o.side,
      o.type,
      o.timeInForce,
      o.type === 'market' ? '' : o.price,
      o.amount,
      o.filledAmount,
      o.filledTotal,
      o.avgDealPrice,
      o.fee,
      o.feeCurrency,
      o.status,
      o.finishAs,
      describeOutcome(o),
    ]),
  );

export const tradesCsv = (rows: readonly MyTrade[], zone: DisplayTimeZone): string =>
  toCsv(
    [
      timeHeader('Time', zone),
      'Trade ID',
      'Order ID',
      'Client ID',
      'Pair',
      'Side',
      'Role',
      'Price',
      'Amount',
      'Fee',
      'Fee currency',
    ],
    rows.map((t) => [
      when(t.createTimeMs, zone),
      t.id,
      t.orderId,
      t.text,
      t.pair,
      t.side,
      t.role,
      t.price,
      t.amount,
      t.fee,
      t.feeCurrency,
    ]),
  );

/** "orders-BTC_USDT-2026-11-25.csv" */
export const tradeCsvName = (what: 'orders' | 'trades', pair: string, now = new Date()): string =>
  `${what}-${pair}-${now.toISOString().slice(0, 10)}.csv`;
