// SQLite persistence of the spot market: orders, trades, candles and STP groups, in the sandbox's
// database so they survive a restart and commit in the same transaction as the ledger movements.

import type Database from 'better-sqlite3';
import type { CandleInterval } from './candles';

export interface OrderRow {
  id: number;
  user_id: number;
  text: string;
  amend_text: string;
  currency_pair: string;
  type: 'limit' | 'market';
  account: string;
  side: 'buy' | 'sell';
  amount: string;
  price: string;
  time_in_force: string;
  iceberg: string;
  left: string;
  filled_amount: string;
  filled_total: string;
  fee: string;
  fee_currency: string;
  status: 'open' | 'closed' | 'cancelled';
  finish_as: string;
  stp_id: number;
  stp_act: string;
  seq: number;
  create_ms: number;
  update_ms: number;
  biz_info: string;
}

export interface TradeRow {
  id: number;
  currency_pair: string;
  create_us: number;
  side: 'buy' | 'sell';
  price: string;
  amount: string;
  quote: string;
  maker_order_id: number;
  taker_order_id: number;
  maker_user: number;
  taker_user: number;
  maker_fee: string;
  maker_fee_currency: string;
  taker_fee: string;
  taker_fee_currency: string;
  maker_text: string;
  taker_text: string;
  maker_amend_text: string;
  taker_amend_text: string;
  sequence_id: number;
}

/** Candles of a span taken together: the first open, the extremes and the summed volumes. */
export type CandleSpan = Omit<CandleRow, 't' | 'close'>;

export interface CandleRow {
  t: number;
  open: number;
  high: number;
  low: number;
  close: number;
  /** Base volume in lots. */
  volume_base: bigint;
  /** Quote volume in ticks × lots units. */
  volume_quote: bigint;
}

export interface StpGroupRow {
  id: number;
  name: string;
  creator_id: number;
  create_time: number;
}

export interface StpMemberRow {
  user_id: number;
  stp_id: number;
  create_time: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS spot_orders (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL,
  text TEXT NOT NULL,
  amend_text TEXT NOT NULL DEFAULT '-',
  currency_pair TEXT NOT NULL,
  type TEXT NOT NULL,
  account TEXT NOT NULL,
  side TEXT NOT NULL,
  amount TEXT NOT NULL,
  price TEXT NOT NULL,
  time_in_force TEXT NOT NULL,
  iceberg TEXT NOT NULL DEFAULT '0',
  left TEXT NOT NULL,
  filled_amount TEXT NOT NULL,
  filled_total TEXT NOT NULL,
  fee TEXT NOT NULL,
  fee_currency TEXT NOT NULL,
  status TEXT NOT NULL,
  finish_as TEXT NOT NULL,
  stp_id INTEGER NOT NULL DEFAULT 0,
  stp_act TEXT NOT NULL DEFAULT '-',
  seq INTEGER NOT NULL DEFAULT 0,
  create_ms INTEGER NOT NULL,
  update_ms INTEGER NOT NULL,
  biz_info TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS spot_orders_user ON spot_orders (user_id, status, currency_pair);
CREATE INDEX IF NOT EXISTS spot_orders_open ON spot_orders (status, currency_pair);
CREATE INDEX IF NOT EXISTS spot_orders_text ON spot_orders (user_id, text);
CREATE TABLE IF NOT EXISTS spot_trades (
  id INTEGER PRIMARY KEY,
  currency_pair TEXT NOT NULL,
  create_us INTEGER NOT NULL,
  side TEXT NOT NULL,
  price TEXT NOT NULL,
  amount TEXT NOT NULL,
  quote TEXT NOT NULL,
  maker_order_id INTEGER NOT NULL,
  taker_order_id INTEGER NOT NULL,
  maker_user INTEGER NOT NULL,
  taker_user INTEGER NOT NULL,
  maker_fee TEXT NOT NULL,
  maker_fee_currency TEXT NOT NULL,
  taker_fee TEXT NOT NULL,
  taker_fee_currency TEXT NOT NULL,
  maker_text TEXT NOT NULL,
  taker_text TEXT NOT NULL,
  maker_amend_text TEXT NOT NULL,
  taker_amend_text TEXT NOT NULL,
  sequence_id INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS spot_trades_pair ON spot_trades (currency_pair, id);
CREATE INDEX IF NOT EXISTS spot_trades_maker ON spot_trades (maker_user, id);
CREATE INDEX IF NOT EXISTS spot_trades_taker ON spot_trades (taker_user, id);
CREATE TABLE IF NOT EXISTS spot_candles (
  currency_pair TEXT NOT NULL,
  interval TEXT NOT NULL,
  t INTEGER NOT NULL,
  open INTEGER NOT NULL,
  high INTEGER NOT NULL,
  low INTEGER NOT NULL,
  close INTEGER NOT NULL,
  volume_base INTEGER NOT NULL,
  volume_quote INTEGER NOT NULL,
  PRIMARY KEY (currency_pair, interval, t)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS spot_stp_groups (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  creator_id INTEGER NOT NULL,
  create_time INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS spot_stp_members (
  user_id INTEGER PRIMARY KEY,
  stp_id INTEGER NOT NULL,
  create_time INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS spot_meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
`;

const ORDER_COLUMNS = [
  'id',
  'user_id',
  'text',
  'amend_text',
  'currency_pair',
  'type',
  'account',
  'side',
  'amount',
  'price',
  'time_in_force',
  'iceberg',
  'left',
  'filled_amount',
  'filled_total',
  'fee',
  'fee_currency',
  'status',
  'finish_as',
  'stp_id',
  'stp_act',
  'seq',
  'create_ms',
  'update_ms',
  'biz_info',
] as const;

const TRADE_COLUMNS = [
  'id',
  'currency_pair',
  'create_us',
  'side',
  'price',
  'amount',
  'quote',
  'maker_order_id',
  'taker_order_id',
  'maker_user',
  'taker_user',
  'maker_fee',
  'maker_fee_currency',
  'taker_fee',
  'taker_fee_currency',
  'maker_text',
  'taker_text',
  'maker_amend_text',
  'taker_amend_text',
  'sequence_id',
] as const;

export class SpotStore {
  private readonly upsertOrderStmt: Database.Statement;
  private readonly insertTradeStmt: Database.Statement;
  private readonly upsertCandleStmt: Database.Statement;
  private readonly orderByIdStmt: Database.Statement;
  private readonly latestCandleStmt: Database.Statement;
  private readonly candleSpanStmt: Database.Statement;
  private readonly firstOpenStmt: Database.Statement;

  constructor(readonly db: Database.Database) {
    db.exec(SCHEMA);
    this.upsertOrderStmt = db.prepare(
      `INSERT OR REPLACE INTO spot_orders (${ORDER_COLUMNS.join(',')}) VALUES (${ORDER_COLUMNS.map((c) => `@${c}`).join(',')})`,
    );
    this.insertTradeStmt = db.prepare(
      `INSERT INTO spot_trades (${TRADE_COLUMNS.join(',')}) VALUES (${TRADE_COLUMNS.map((c) => `@${c}`).join(',')})`,
    );
    this.upsertCandleStmt = db.prepare(
      `INSERT OR REPLACE INTO spot_candles (currency_pair, interval, t, open, high, low, close, volume_base, volume_quote)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.orderByIdStmt = db.prepare('SELECT * FROM spot_orders WHERE id = ?');
    this.latestCandleStmt = db
      .prepare('SELECT * FROM spot_candles WHERE currency_pair = ? AND interval = ? ORDER BY t DESC LIMIT 1')
      .safeIntegers(true);
    this.candleSpanStmt = db
      .prepare(
        'SELECT open, high, low, volume_base, volume_quote FROM spot_candles WHERE currency_pair = ? AND interval = ? AND t >= ? AND t <= ? ORDER BY t ASC',
      )
      .safeIntegers(true)
      .raw(true);
    this.firstOpenStmt = db.prepare(
      'SELECT open FROM spot_candles WHERE currency_pair = ? AND interval = ? AND t >= ? AND t <= ? ORDER BY t ASC LIMIT 1',
    );
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  /** Next value of a named counter (order ids, trade ids, per-pair trade sequences). */
  nextId(name: string, first = 1): number {
    const row = this.db.prepare('SELECT value FROM spot_meta WHERE key = ?').get(name) as { value: string } | undefined;
    const next = row === undefined ? first : Number(row.value) + 1;
    this.db.prepare('INSERT OR REPLACE INTO spot_meta (key, value) VALUES (?, ?)').run(name, String(next));
    return next;
  }

  saveOrder(row: OrderRow): void {
    this.upsertOrderStmt.run(row);
  }

  order(id: number): OrderRow | undefined {
    return this.orderByIdStmt.get(id) as OrderRow | undefined;
  }

  orderByText(userId: number, text: string): OrderRow | undefined {
    return this.db
      .prepare('SELECT * FROM spot_orders WHERE user_id = ? AND text = ? ORDER BY id DESC LIMIT 1')
      .get(userId, text) as OrderRow | undefined;
  }

  openOrders(): OrderRow[] {
    return this.db.prepare("SELECT * FROM spot_orders WHERE status = 'open' ORDER BY seq").all() as OrderRow[];
  }

  userOpenOrders(userId: number, pair?: string, side?: string): OrderRow[] {
    let sql = "SELECT * FROM spot_orders WHERE user_id = ? AND status = 'open'";
    const args: unknown[] = [userId];
    if (pair !== undefined) {
      sql += ' AND currency_pair = ?';
      args.push(pair);
    }
    if (side !== undefined) {
      sql += ' AND side = ?';
      args.push(side);
    }
    return this.db.prepare(`${sql} ORDER BY id DESC`).all(...args) as OrderRow[];
  }

  query<T>(sql: string, ...args: unknown[]): T[] {
    return this.db.prepare(sql).all(...args) as T[];
  }

  /** Drops cancelled orders that never traded once they are a minute old, as the platform does. */
  pruneUnfilledCancelled(beforeMs: number): number {
    return this.db
      .prepare("DELETE FROM spot_orders WHERE status = 'cancelled' AND filled_amount = '0' AND update_ms < ?")
      .run(beforeMs).changes;
  }

  insertTrade(row: TradeRow): void {
    this.insertTradeStmt.run(row);
  }

  saveCandle(pair: string, interval: CandleInterval, c: CandleRow): void {
    this.upsertCandleStmt.run(pair, interval, c.t, c.open, c.high, c.low, c.close, c.volume_base, c.volume_quote);
  }

  latestCandle(pair: string, interval: CandleInterval): CandleRow | undefined {
    const row = this.latestCandleStmt.get(pair, interval) as Record<string, bigint> | undefined;
    return row === undefined ? undefined : toCandle(row);
  }

  candles(pair: string, interval: CandleInterval, from: number, to: number, limit: number): CandleRow[] {
    const rows = this.db
      .prepare(
        'SELECT * FROM spot_candles WHERE currency_pair = ? AND interval = ? AND t >= ? AND t <= ? ORDER BY t DESC LIMIT ?',
      )
      .safeIntegers(true)
      .all(pair, interval, from, to, limit) as Record<string, bigint>[];
    return rows.map(toCandle).reverse();
  }

  /**
   * What a ticker needs of the candles in [from, to] without building each one: the oldest one's open,
   * the highest high, the lowest low and the summed volumes (in BigInt, as the candles hold them).
   */
  candleSpan(pair: string, interval: CandleInterval, from: number, to: number): CandleSpan | undefined {
    const rows = this.candleSpanStmt.all(pair, interval, from, to) as [bigint, bigint, bigint, bigint, bigint][];
    if (rows.length === 0) return undefined;
    let high = rows[0]![1];
    let low = rows[0]![2];
    let base = 0n;
    let quote = 0n;
    for (const [, h, l, vb, vq] of rows) {
      if (h > high) high = h;
      if (l < low) low = l;
      base += vb;
      quote += vq;
    }
    return { open: Number(rows[0]![0]), high: Number(high), low: Number(low), volume_base: base, volume_quote: quote };
  }

  /** The open of the oldest candle in [from, to], if there is one. */
  firstOpen(pair: string, interval: CandleInterval, from: number, to: number): number | undefined {
    const row = this.firstOpenStmt.get(pair, interval, from, to) as { open: number } | undefined;
    return row?.open;
  }

  pruneCandles(pair: string, interval: CandleInterval, beforeT: number): void {
    this.db
      .prepare('DELETE FROM spot_candles WHERE currency_pair = ? AND interval = ? AND t < ?')
      .run(pair, interval, beforeT);
  }
}

function toCandle(row: Record<string, bigint>): CandleRow {
  return {
    t: Number(row.t),
    open: Number(row.open),
    high: Number(row.high),
    low: Number(row.low),
    close: Number(row.close),
    volume_base: row.volume_base!,
    volume_quote: row.volume_quote!,
  };
}
