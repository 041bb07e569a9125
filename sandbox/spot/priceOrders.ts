// Price-triggered orders (/spot/price_orders, api-facts §1.16): a trigger {price, rule, expiration}
// and the order to place when it fires. The engine is driven by the sandbox's own trades: every trade
// of a pair is checked against that pair's open triggers; the triggers it meets are queued and fired
// in a microtask, i.e. after the match (and its database transaction) that produced the trade has
// finished — never re-entrantly inside the exchange's matching loop. Firing places the `put` order
// through SpotExchange.place, exactly as POST /spot/orders would (locks, fees, matching), and
// records its id as `fired_order_id` (status `finish`), or `failed` with the refusal's label when the
// exchange refuses it (e.g. BALANCE_NOT_ENOUGH: nothing is reserved while a trigger waits). Triggers
// past `ctime + expiration` become `expired` on the next clock tick. Stored in SQLite (persistent).

import type Database from 'better-sqlite3';
import Decimal from 'decimal.js';
import { ApiFailure } from '../http/errors';
import { bodyObject, optInt } from '../http/params';
import type { SpotExchange, TradeEvent } from './exchange';
import { formatScaled } from './matching/decimal';
import { parseOrderRequest, parsePrice, requirePair } from './orders/validate';

export type PriceOrderStatus = 'open' | 'cancelled' | 'finish' | 'failed' | 'expired';
export type TriggerRule = '>=' | '<=';

/** Longest trigger life the sandbox accepts (the platform's maximum is not published). */
export const MAX_EXPIRATION_S = 365 * 86_400;
/** Most open trigger orders per user (the platform's cap is not published). */
export const MAX_OPEN_PER_USER = 200;
const FIRST_ID = 20_000_001;
const FINISHED: readonly PriceOrderStatus[] = ['cancelled', 'finish', 'failed', 'expired'];

interface PriceOrderRow {
  id: number;
  user_id: number;
  market: string;
  trigger_price: string;
  trigger_rule: TriggerRule;
  trigger_expiration: number;
  put_type: 'limit' | 'market';
  put_side: 'buy' | 'sell';
  put_price: string;
  put_amount: string;
  put_account: 'normal' | 'unified';
  put_tif: 'gtc' | 'ioc';
  put_text: string;
  ctime_ms: number;
  ftime_ms: number;
  fired_order_id: number;
  status: PriceOrderStatus;
  reason: string;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS spot_price_orders (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL,
  market TEXT NOT NULL,
  trigger_price TEXT NOT NULL,
  trigger_rule TEXT NOT NULL,
  trigger_expiration INTEGER NOT NULL,
  put_type TEXT NOT NULL,
  put_side TEXT NOT NULL,
  put_price TEXT NOT NULL,
  put_amount TEXT NOT NULL,
  put_account TEXT NOT NULL,
  put_tif TEXT NOT NULL,
  put_text TEXT NOT NULL,
  ctime_ms INTEGER NOT NULL,
  ftime_ms INTEGER NOT NULL DEFAULT 0,
  fired_order_id INTEGER NOT NULL DEFAULT 0,
  status TEXT NOT NULL,
  reason TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS spot_price_orders_open ON spot_price_orders (status, market);
CREATE INDEX IF NOT EXISTS spot_price_orders_user ON spot_price_orders (user_id, id);
`;

const invalid = (message: string): never => {
  throw new ApiFailure('INVALID_PARAM_VALUE', message);
};

function objectField(body: Record<string, unknown>, name: string): Record<string, unknown> {
  const v = body[name];
  if (v === undefined || v === null) throw new ApiFailure('MISSING_REQUIRED_PARAM', `${name} is required`);
  if (typeof v !== 'object' || Array.isArray(v)) return invalid(`${name} must be an object`);
  return v as Record<string, unknown>;
}

function textField(body: Record<string, unknown>, name: string, where: string): string | undefined {
  const v = body[name];
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v !== 'string') return invalid(`${where}.${name} must be a string`);
  return v;
}

/** The account of a trigger's put order: `normal` (spot) or `unified`; margin is not simulated. */
function parsePutAccount(value: unknown): 'normal' | 'unified' {
  if (value === undefined || value === null || value === '' || value === 'normal' || value === 'spot') return 'normal';
  if (value === 'unified') return 'unified';
  if (value === 'margin' || value === 'cross_margin') {
    throw new ApiFailure('MARGIN_NOT_SUPPORTED', 'The sandbox trades spot accounts only');
  }
  return invalid('put.account must be normal, margin or unified');
}

export interface PriceOrderView {
  trigger: { price: string; rule: TriggerRule; expiration: number };
  put: {
    type: 'limit' | 'market';
    side: 'buy' | 'sell';
    price: string;
    amount: string;
    account: 'normal' | 'unified';
    time_in_force: 'gtc' | 'ioc';
    auto_borrow: boolean;
    auto_repay: boolean;
    text: string;
  };
  id: number;
  user: number;
  market: string;
  ctime: number;
  ftime: number;
  fired_order_id: number;
  status: PriceOrderStatus;
  reason: string;
}

export function priceOrderView(r: PriceOrderRow): PriceOrderView {
  return {
    trigger: { price: r.trigger_price, rule: r.trigger_rule, expiration: r.trigger_expiration },
    put: {
      type: r.put_type,
      side: r.put_side,
      price: r.put_price,
      amount: r.put_amount,
      account: r.put_account,
      time_in_force: r.put_tif,
      auto_borrow: false,
      auto_repay: false,
      text: r.put_text,
    },
    id: r.id,
    user: r.user_id,
    market: r.market,
    ctime: Math.floor(r.ctime_ms / 1000),
    ftime: Math.floor(r.ftime_ms / 1000),
    fired_order_id: r.fired_order_id,
    status: r.status,
    reason: r.reason,
  };
}

/** The body POST /spot/orders would take for a trigger's put order. */
function orderBody(r: Pick<PriceOrderRow, keyof PriceOrderRow>): Record<string, unknown> {
  return {
    currency_pair: r.market,
    type: r.put_type,
    side: r.put_side,
    amount: r.put_amount,
    ...(r.put_type === 'limit' ? { price: r.put_price } : {}),
    account: r.put_account === 'unified' ? 'unified' : 'spot',
    time_in_force: r.put_tif,
    ...(r.put_text === '' ? {} : { text: r.put_text }),
  };
}

function ruleMet(rule: TriggerRule, last: Decimal, trigger: Decimal): boolean {
  return rule === '>=' ? last.gte(trigger) : last.lte(trigger);
}

export class PriceOrders {
  /** Triggers met by a trade, waiting for the microtask that fires them (ids in creation order). */
  private readonly due = new Set<number>();
  private flushQueued = false;
  /** Open triggers per pair, so the trade listener costs nothing when a pair has none. */
  private readonly openPerPair = new Map<string, number>();

  constructor(
    private readonly db: Database.Database,
    private readonly exchange: SpotExchange,
    private readonly now: () => number,
  ) {
    db.exec(SCHEMA);
    for (const r of db
      .prepare("SELECT market, COUNT(*) AS n FROM spot_price_orders WHERE status = 'open' GROUP BY market")
      .all() as { market: string; n: number }[]) {
      this.openPerPair.set(r.market, r.n);
    }
    exchange.onTrade((t) => this.onTrade(t));
  }

  // ---------------------------------------------------------------------------------------------
  // API

  /** POST /spot/price_orders: validates everything first (nothing stored on a refusal); answers {id}. */
  create(userId: number, raw: unknown): { id: number } {
    const body = bodyObject(raw);
    if (body.market === undefined || body.market === null || body.market === '') {
      throw new ApiFailure('MISSING_REQUIRED_PARAM', 'market is required');
    }
    const pair = requirePair(body.market);
    const trigger = objectField(body, 'trigger');
    const put = objectField(body, 'put');

    const triggerPriceText = textField(trigger, 'price', 'trigger');
    if (triggerPriceText === undefined) throw new ApiFailure('MISSING_REQUIRED_PARAM', 'trigger.price is required');
    const triggerTicks = parsePrice(pair, triggerPriceText);
    const rule = trigger.rule;
    if (rule === undefined || rule === null || rule === '') {
      throw new ApiFailure('MISSING_REQUIRED_PARAM', 'trigger.rule is required');
    }
    if (rule !== '>=' && rule !== '<=') return invalid('trigger.rule must be >= or <=');
    const expiration = optInt(trigger, 'expiration', { min: 1, max: MAX_EXPIRATION_S });
    if (expiration === undefined) throw new ApiFailure('MISSING_REQUIRED_PARAM', 'trigger.expiration is required');

    const type = textField(put, 'type', 'put') ?? 'limit';
    if (type !== 'limit' && type !== 'market') return invalid('put.type must be limit or market');
    const side = textField(put, 'side', 'put');
    if (side === undefined) throw new ApiFailure('MISSING_REQUIRED_PARAM', 'put.side is required');
    if (side !== 'buy' && side !== 'sell') return invalid('put.side must be buy or sell');
    const account = parsePutAccount(put.account);
    const tif = textField(put, 'time_in_force', 'put') ?? (type === 'market' ? 'ioc' : 'gtc');
    if (tif !== 'gtc' && tif !== 'ioc') return invalid('put.time_in_force must be gtc or ioc');
    if (type === 'market' && tif !== 'ioc') return invalid('market orders accept time_in_force ioc only');
    if (put.auto_borrow === true || put.auto_repay === true) {
      throw new ApiFailure('MARGIN_NOT_SUPPORTED', 'auto_borrow and auto_repay need a margin account');
    }
    const amount = textField(put, 'amount', 'put');
    if (amount === undefined) throw new ApiFailure('MISSING_REQUIRED_PARAM', 'put.amount is required');
    const priceText = textField(put, 'price', 'put');
    if (type === 'limit' && priceText === undefined) {
      throw new ApiFailure('MISSING_REQUIRED_PARAM', 'put.price is required');
    }
    const text = textField(put, 'text', 'put') ?? '';

    const row: Omit<PriceOrderRow, 'id'> = {
      user_id: userId,
      market: pair.id,
      trigger_price: formatScaled(BigInt(triggerTicks), pair.precision),
      trigger_rule: rule,
      trigger_expiration: expiration,
      put_type: type,
      put_side: side,
      put_price: type === 'limit' ? priceText! : '0',
      put_amount: amount,
      put_account: account,
      put_tif: tif,
      put_text: text,
      ctime_ms: this.now(),
      ftime_ms: 0,
      fired_order_id: 0,
      status: 'open',
      reason: '',
    };
    // The order it will place must pass every check a placement does (precision, minimums, text):
    // a trigger that could never place its order is refused now, not when it fires.
    const parsed = parseOrderRequest(orderBody({ ...row, id: 0 }));
    row.put_amount = parsed.amountText;
    if (type === 'limit') row.put_price = formatScaled(BigInt(parsed.price), pair.precision);

    const open = (
      this.db
        .prepare("SELECT COUNT(*) AS n FROM spot_price_orders WHERE user_id = ? AND status = 'open'")
        .get(userId) as {
        n: number;
      }
    ).n;
    if (open >= MAX_OPEN_PER_USER) {
      throw new ApiFailure('TOO_MANY_ORDERS', `At most ${MAX_OPEN_PER_USER} open price-triggered orders`);
    }
    const max = (this.db.prepare('SELECT MAX(id) AS id FROM spot_price_orders').get() as { id: number | null }).id;
    const id = Math.max(FIRST_ID, (max ?? 0) + 1);
    this.db
      .prepare(
        `INSERT INTO spot_price_orders (id, user_id, market, trigger_price, trigger_rule, trigger_expiration, put_type,
          put_side, put_price, put_amount, put_account, put_tif, put_text, ctime_ms, ftime_ms, fired_order_id, status, reason)
         VALUES (@id, @user_id, @market, @trigger_price, @trigger_rule, @trigger_expiration, @put_type, @put_side,
          @put_price, @put_amount, @put_account, @put_tif, @put_text, @ctime_ms, @ftime_ms, @fired_order_id, @status, @reason)`,
      )
      .run({ ...row, id });
    this.openPerPair.set(pair.id, (this.openPerPair.get(pair.id) ?? 0) + 1);

    // A condition the last price already meets fires at once (after this request's own work).
    const last = this.exchange.lastPrice(pair.id);
    if (last !== null && ruleMet(rule, new Decimal(last), new Decimal(row.trigger_price))) this.queue(id);
    return { id };
  }

  /** GET /spot/price_orders: status open|finished (required), market, account, limit, offset; newest first. */
  list(userId: number, query: Readonly<Record<string, string>>): PriceOrderView[] {
    const status = query.status;
    if (status === undefined || status === '') {
      throw new ApiFailure('MISSING_REQUIRED_PARAM', 'Missing required parameter: status');
    }
    if (status !== 'open' && status !== 'finished') return invalid('status must be open or finished');
    const limit = optInt(query, 'limit', { min: 1, max: 1000 }) ?? 100;
    const offset = optInt(query, 'offset', { min: 0 }) ?? 0;
    let sql =
      status === 'open'
        ? "SELECT * FROM spot_price_orders WHERE user_id = ? AND status = 'open'"
        : `SELECT * FROM spot_price_orders WHERE user_id = ? AND status IN (${FINISHED.map((s) => `'${s}'`).join(',')})`;
    const args: unknown[] = [userId];
    if (query.market !== undefined && query.market !== '') {
      sql += ' AND market = ?';
      args.push(requirePair(query.market).id);
    }
    if (query.account !== undefined && query.account !== '') {
      sql += ' AND put_account = ?';
      args.push(parsePutAccount(query.account));
    }
    sql += ' ORDER BY id DESC LIMIT ? OFFSET ?';
    args.push(limit, offset);
    return (this.db.prepare(sql).all(...args) as PriceOrderRow[]).map(priceOrderView);
  }

  get(userId: number, idText: string): PriceOrderView {
    return priceOrderView(this.find(userId, idText));
  }

  /** DELETE /spot/price_orders/{id}: answers the cancelled order. */
  cancel(userId: number, idText: string): PriceOrderView {
    const row = this.find(userId, idText);
    if (row.status === 'cancelled') throw new ApiFailure('ORDER_CANCELLED', `Order ${row.id} is already cancelled`);
    if (row.status !== 'open') throw new ApiFailure('ORDER_CLOSED', `Order ${row.id} is already finished`);
    this.finish(row, 'cancelled', 'cancelled by user');
    return priceOrderView(this.row(row.id)!);
  }

  /** DELETE /spot/price_orders?market=&account=: answers the cancelled orders. */
  cancelAll(userId: number, query: Readonly<Record<string, string>>): PriceOrderView[] {
    const open = this.list(userId, { ...query, status: 'open', limit: '1000', offset: '0' });
    const out: PriceOrderView[] = [];
    this.db.transaction(() => {
      for (const v of open) {
        const row = this.row(v.id)!;
        this.finish(row, 'cancelled', 'cancelled by user');
        out.push(priceOrderView(this.row(v.id)!));
      }
    })();
    return out;
  }

  // ---------------------------------------------------------------------------------------------
  // Engine

  /** Clock tick: open triggers past their expiration become `expired`. */
  expire(nowMs: number): void {
    const rows = this.db
      .prepare(
        "SELECT * FROM spot_price_orders WHERE status = 'open' AND ctime_ms + trigger_expiration * 1000 <= ? ORDER BY id",
      )
      .all(nowMs) as PriceOrderRow[];
    if (rows.length === 0) return;
    this.db.transaction(() => {
      for (const r of rows) this.finish(r, 'expired', 'expired', nowMs);
    })();
  }

  /**
   * Trade listener. Runs inside the exchange's settlement (inside its transaction): it only reads
   * and queues; the orders are placed later, in `flush`.
   */
  private onTrade(t: TradeEvent): void {
    if ((this.openPerPair.get(t.pair) ?? 0) === 0) return;
    const price = new Decimal(t.price);
    const rows = this.db
      .prepare("SELECT id, trigger_price, trigger_rule FROM spot_price_orders WHERE market = ? AND status = 'open'")
      .all(t.pair) as Pick<PriceOrderRow, 'id' | 'trigger_price' | 'trigger_rule'>[];
    for (const r of rows) {
      if (ruleMet(r.trigger_rule, price, new Decimal(r.trigger_price))) this.queue(r.id);
    }
  }

  private queue(id: number): void {
    this.due.add(id);
    if (this.flushQueued) return;
    this.flushQueued = true;
    // After the current match: the trade's transaction has committed and the book is consistent.
    queueMicrotask(() => this.flush());
  }

  /** Fires every queued trigger, oldest first. A fired order's own trades may queue more. */
  flush(): void {
    this.flushQueued = false;
    const ids = [...this.due].sort((a, b) => a - b);
    this.due.clear();
    for (const id of ids) {
      try {
        this.fire(id);
      } catch (error) {
        process.stderr.write(`${JSON.stringify({ msg: 'price order fire failed', id, error: String(error) })}\n`);
      }
    }
  }

  private fire(id: number): void {
    const row = this.row(id);
    if (row === undefined || row.status !== 'open') return;
    const now = this.now();
    if (row.ctime_ms + row.trigger_expiration * 1000 <= now) {
      this.finish(row, 'expired', 'expired', now);
      return;
    }
    // The placement and the trigger's new state commit together (the exchange's own transaction
    // nests as a savepoint): a crash never leaves a placed order behind an open trigger.
    this.db.transaction(() => {
      try {
        const order = this.exchange.place(row.user_id, parseOrderRequest(orderBody(row)));
        this.finish(row, 'finish', '', this.now(), order.id);
      } catch (error) {
        if (!(error instanceof ApiFailure)) throw error;
        this.finish(row, 'failed', `${error.label}: ${error.message}`);
      }
    })();
  }

  // ---------------------------------------------------------------------------------------------
  // Rows

  private row(id: number): PriceOrderRow | undefined {
    return this.db.prepare('SELECT * FROM spot_price_orders WHERE id = ?').get(id) as PriceOrderRow | undefined;
  }

  private find(userId: number, idText: string): PriceOrderRow {
    if (!/^\d{1,15}$/.test(idText)) throw new ApiFailure('ORDER_NOT_FOUND', `Order ${idText} not found`);
    const row = this.row(Number(idText));
    if (row === undefined || row.user_id !== userId) {
      throw new ApiFailure('ORDER_NOT_FOUND', `Order ${idText} not found`);
    }
    return row;
  }

  private finish(row: PriceOrderRow, status: PriceOrderStatus, reason: string, at = this.now(), firedId = 0): void {
    const changed = this.db
      .prepare(
        "UPDATE spot_price_orders SET status = ?, reason = ?, ftime_ms = ?, fired_order_id = ? WHERE id = ? AND status = 'open'",
      )
      .run(status, reason, at, firedId, row.id).changes;
    if (changed > 0) this.openPerPair.set(row.market, Math.max(0, (this.openPerPair.get(row.market) ?? 1) - 1));
  }
}
