// The spot API's routes (api-facts §1) and the STP group operations (§3), on the sandbox's route
// helper: authentication, permissions and rate limits (placement/amend 10/s per user and market,
// cancellation 200/s, others 200 per 10 s) are applied by the framework from shared/platform/limits.

import type { PermissionName } from '../../shared/platform/statuses';
import type { SandboxContext } from '../context';
import { ApiFailure } from '../http/errors';
import { bodyObject, optEnum, optInt, pagePaging, timeRange } from '../http/params';
import type { HttpMethod, PrivateRoute, PrivateRouteRequest, PublicRoute, RouteDef, RouteRequest } from '../http/route';
import type { CountdownCancel } from './countdown';
import type { SpotExchange } from './exchange';
import { insuranceHistory } from './insurance';
import type { MarketData } from './marketData';
import { type ActionMode, parseAccount, parseActionMode, parseOrderRequest, requirePair } from './orders/validate';
import { batchOrderView, myTradeView, orderView } from './orders/view';
import { findCurrency } from './pairs';
import type { PriceOrders } from './priceOrders';
import type { OrderRow, TradeRow } from './store';
import type { StpGroups } from './stp';

/** Most orders per pair and most pairs in one POST /spot/batch_orders (spec, api-facts §1.5). */
const BATCH_PER_PAIR = 10;
const BATCH_PAIRS = 4;
const CANCEL_BATCH_MAX = 20;
const AMEND_BATCH_MAX = 5;
const BATCH_FEE_MAX = 50;

/**
 * Account-book codes per entry type. The platform's numeric codes are not published: these are the
 * sandbox's, one per type its ledger writes (unknown types answer code 0).
 */
export const ACCOUNT_BOOK_CODES: Readonly<Record<string, number>> = {
  trade: 1,
  fee: 2,
  dnw: 3,
  deposit: 4,
  withdraw: 5,
  withdraw_refund: 6,
  push_in: 7,
  push_out: 8,
  small_balance: 9,
  sandbox_credit: 10,
  seed: 11,
};

export interface SpotServices {
  ctx: SandboxContext;
  exchange: SpotExchange;
  market: MarketData;
  stp: StpGroups;
  countdown: CountdownCancel;
  priceOrders: PriceOrders;
}

const definePublic = (method: HttpMethod, path: string, handler: (req: RouteRequest) => unknown): PublicRoute => ({
  method,
  path,
  auth: 'public',
  handler,
});

const definePrivate = (
  method: HttpMethod,
  path: string,
  permission: PermissionName,
  handler: (req: PrivateRouteRequest) => unknown,
  status = 200,
  mainOnly = false,
): PrivateRoute => ({ method, path, auth: 'private', permission, handler, status, mainOnly });

/**
 * `x-gate-exptime` (Unix ms, optional) on placement, amendment and cancellation: a request arriving
 * after it is refused with REQUEST_EXPIRED (the platform's label for this case is not published).
 */
function checkExpiry(req: RouteRequest, nowMs: number): void {
  const raw = req.headers['x-gate-exptime'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || value === '') return;
  if (!/^\d{1,16}$/.test(value))
    throw new ApiFailure('INVALID_PARAM_VALUE', 'x-gate-exptime must be Unix milliseconds');
  if (Number(value) < nowMs) throw new ApiFailure('REQUEST_EXPIRED', 'The request arrived after its x-gate-exptime');
}

function failureOf(error: unknown): { label: string; message: string } {
  if (error instanceof ApiFailure) return { label: error.label, message: error.message };
  throw error;
}

export function spotRoutes(s: SpotServices): RouteDef[] {
  const { ctx, exchange, market, stp, countdown, priceOrders } = s;
  const expiring = (handler: (req: PrivateRouteRequest) => unknown) => (req: PrivateRouteRequest) => {
    checkExpiry(req, ctx.clock.wallTimeMs()); // the earlier of the two times: never expires a request early
    return handler(req);
  };

  /** Orders sent with X-Gate-Channel-Id show it as `biz_info: "ch:<id>"`, as on the platform. */
  const channelOf = (req: RouteRequest): string => {
    const raw = req.headers['x-gate-channel-id'];
    const value = Array.isArray(raw) ? raw[0] : raw;
    return value === undefined || value === '' ? '' : `ch:${value.slice(0, 64)}`;
  };

  const placeOne = (req: PrivateRouteRequest, raw: unknown): { row: OrderRow; mode: ActionMode } => {
    const order = parseOrderRequest(raw);
    return { row: exchange.place(req.user.id, order, channelOf(req)), mode: order.actionMode };
  };

  const tradeFee = (userId: number, pair: string | undefined) => {
    const f = ctx.users.fees(userId);
    return {
      user_id: userId,
      taker_fee: f.taker_fee,
      maker_fee: f.maker_fee,
      rpi_maker_fee: f.rpi_maker_fee,
      gt_discount: f.gt_discount,
      gt_taker_fee: f.gt_taker_fee,
      gt_maker_fee: f.gt_maker_fee,
      loan_fee: f.loan_fee,
      point_type: f.point_type,
      debit_fee: f.debit_fee,
      ...(pair === undefined ? {} : { currency_pair: pair }),
    };
  };

  const pairFilter = (query: Readonly<Record<string, string>>): string | undefined =>
    query.currency_pair === undefined || query.currency_pair === '' ? undefined : requirePair(query.currency_pair).id;

  return [
    // ---- public market data ------------------------------------------------------------------
    definePublic('GET', '/spot/time', () => ({ server_time: ctx.clock.serverTimeMs() })),
    definePublic('GET', '/spot/currencies', () => market.currencies()),
    definePublic('GET', '/spot/currencies/:currency', (req) => market.currency(req.params.currency ?? '')),
    definePublic('GET', '/spot/currency_pairs', () => market.pairs()),
    definePublic('GET', '/spot/currency_pairs/:currency_pair', (req) => market.pair(req.params.currency_pair ?? '')),
    definePublic('GET', '/spot/tickers', (req) => market.tickers(req.query)),
    definePublic('GET', '/spot/order_book', (req) => market.orderBook(req.query)),
    definePublic('GET', '/spot/trades', (req) => market.trades(req.query)),
    definePublic('GET', '/spot/candlesticks', (req) => market.candlesticks(req.query)),

    // ---- accounts and fees -------------------------------------------------------------------
    definePrivate('GET', '/spot/accounts', 'spot', (req) => {
      const currency = req.query.currency;
      const rows = ctx.ledger.list(req.user.id, 'spot');
      if (currency !== undefined && currency !== '') {
        if (findCurrency(currency) === undefined)
          throw new ApiFailure('INVALID_CURRENCY', `Unknown currency ${currency}`);
        const row = rows.find((r) => r.currency === currency);
        return [
          {
            currency,
            available: row?.available ?? '0',
            locked: row?.locked ?? '0',
            update_id: row?.updateId ?? 0,
          },
        ];
      }
      return rows.map((r) => ({
        currency: r.currency,
        available: r.available,
        locked: r.locked,
        update_id: r.updateId,
      }));
    }),
    definePrivate('GET', '/spot/fee', 'spot', (req) => tradeFee(req.user.id, pairFilter(req.query))),
    definePrivate('GET', '/spot/batch_fee', 'spot', (req) => {
      const list = req.query.currency_pairs;
      if (list === undefined || list === '') {
        throw new ApiFailure('MISSING_REQUIRED_PARAM', 'Missing required parameter: currency_pairs');
      }
      const ids = list.split(',').map((p) => p.trim());
      if (ids.length > BATCH_FEE_MAX) throw new ApiFailure('INVALID_PARAM_VALUE', `At most ${BATCH_FEE_MAX} pairs`);
      const out: Record<string, unknown> = {};
      for (const id of ids) out[requirePair(id).id] = tradeFee(req.user.id, id);
      return out;
    }),
    definePrivate('GET', '/spot/account_book', 'spot', (req) => {
      const { fromMs, toMs } = timeRange(req.query, req.now);
      const { limit, offset } = pagePaging(req.query);
      const currency = req.query.currency || undefined;
      let type = req.query.type || undefined;
      const code = optInt(req.query, 'code', { min: 0 });
      if (code !== undefined) {
        const byCode = Object.entries(ACCOUNT_BOOK_CODES).find(([, c]) => c === code)?.[0];
        if (byCode === undefined) throw new ApiFailure('INVALID_PARAM_VALUE', `Unknown account book code ${code}`);
        if (type !== undefined && type !== byCode) return [];
        type = byCode;
      }
      return ctx.ledger
        .entries({ userId: req.user.id, account: 'spot', currency, type, from: fromMs, to: toMs, limit, offset })
        .map((e) => ({
          id: String(e.id),
          time: e.time,
          currency: e.currency,
          change: e.change,
          balance: e.balance,
          type: e.type,
          code: String(ACCOUNT_BOOK_CODES[e.type] ?? 0), // a string in the platform's SpotAccountBook model
          text: e.ref,
        }));
    }),

    // ---- orders ------------------------------------------------------------------------------
    definePrivate(
      'POST',
      '/spot/orders',
      'spot',
      expiring((req) => {
        const { row, mode } = placeOne(req, req.body);
        return orderView(row, mode);
      }),
      201,
    ),
    definePrivate('GET', '/spot/orders', 'spot', (req) => {
      const q = req.query;
      const status = q.status;
      if (status === undefined || status === '')
        throw new ApiFailure('MISSING_REQUIRED_PARAM', 'Missing required parameter: status');
      if (status !== 'open' && status !== 'finished')
        throw new ApiFailure('INVALID_PARAM_VALUE', 'status must be open or finished');
      parseAccount(q.account);
      const pair = pairFilter(q);
      if (status === 'open') {
        if (pair === undefined)
          throw new ApiFailure('MISSING_REQUIRED_PARAM', 'currency_pair is required with status=open');
        const { limit, offset } = pagePaging(q, { maxLimit: 100 });
        return exchange
          .openOrders(req.user.id, pair)
          .slice(offset, offset + limit)
          .map((r) => orderView(r));
      }
      const { limit, offset } = pagePaging(q);
      const side = optEnum(q, 'side', ['buy', 'sell'] as const);
      const from = optInt(q, 'from', { min: 0 });
      const to = optInt(q, 'to', { min: 0 });
      let sql = "SELECT * FROM spot_orders WHERE user_id = ? AND status <> 'open'";
      const args: unknown[] = [req.user.id];
      if (pair !== undefined) {
        sql += ' AND currency_pair = ?';
        args.push(pair);
      }
      if (side !== undefined) {
        sql += ' AND side = ?';
        args.push(side);
      }
      if (from !== undefined) {
        sql += ' AND update_ms >= ?';
        args.push(from * 1000);
      }
      if (to !== undefined) {
        sql += ' AND update_ms < ?';
        args.push((to + 1) * 1000);
      }
      sql += ' ORDER BY update_ms DESC, id DESC LIMIT ? OFFSET ?';
      args.push(limit, offset);
      return exchange.store.query<OrderRow>(sql, ...args).map((r) => orderView(r));
    }),
    definePrivate('GET', '/spot/orders/:order_id', 'spot', (req) => {
      parseAccount(req.query.account);
      return orderView(exchange.findOrder(req.user.id, req.params.order_id ?? '', pairFilter(req.query)));
    }),
    definePrivate(
      'PATCH',
      '/spot/orders/:order_id',
      'spot',
      expiring((req) => {
        const body = bodyObject(req.body);
        const pairText = typeof body.currency_pair === 'string' ? body.currency_pair : req.query.currency_pair;
        const pair = pairText === undefined || pairText === '' ? undefined : requirePair(pairText).id;
        parseAccount(body.account ?? req.query.account);
        const mode = parseActionMode(body.action_mode ?? req.query.action_mode);
        const patch = amendPatch(body);
        return orderView(exchange.amend(req.user.id, req.params.order_id ?? '', pair, patch), mode);
      }),
    ),
    definePrivate(
      'DELETE',
      '/spot/orders/:order_id',
      'spot',
      expiring((req) => {
        const pair = requirePair(req.query.currency_pair).id;
        parseAccount(req.query.account);
        const mode = parseActionMode(req.query.action_mode);
        return orderView(exchange.cancel(req.user.id, req.params.order_id ?? '', pair), mode);
      }),
    ),
    definePrivate(
      'DELETE',
      '/spot/orders',
      'spot',
      expiring((req) => {
        const pair = pairFilter(req.query);
        const side = optEnum(req.query, 'side', ['buy', 'sell'] as const);
        parseAccount(req.query.account);
        const mode = parseActionMode(req.query.action_mode);
        return exchange
          .cancelAll(req.user.id, pair, side)
          .map((r) => ({ ...orderView(r, mode), succeeded: true, label: '', message: '' }));
      }),
    ),
    definePrivate('GET', '/spot/open_orders', 'spot', (req) => {
      const { limit, offset } = pagePaging(req.query, { maxLimit: 100 });
      parseAccount(req.query.account);
      const byPair = new Map<string, OrderRow[]>();
      for (const row of exchange.openOrders(req.user.id)) {
        const list = byPair.get(row.currency_pair) ?? [];
        list.push(row);
        byPair.set(row.currency_pair, list);
      }
      return [...byPair.entries()].map(([pair, rows]) => {
        const page = rows.slice(offset, offset + limit);
        return { currency_pair: pair, total: page.length, orders: page.map((r) => orderView(r)) };
      });
    }),
    definePrivate('GET', '/spot/my_trades', 'spot', (req) => {
      const q = req.query;
      const pair = pairFilter(q);
      const orderId = q.order_id || undefined;
      if (orderId !== undefined && pair === undefined) {
        throw new ApiFailure('MISSING_REQUIRED_PARAM', 'currency_pair is required with order_id');
      }
      if (orderId !== undefined && !/^\d{1,15}$/.test(orderId))
        throw new ApiFailure('INVALID_PARAM_VALUE', 'order_id must be an order id');
      parseAccount(q.account);
      const limit = optInt(q, 'limit', { min: 1, max: 1000 }) ?? 100;
      const page = optInt(q, 'page', { min: 1 }) ?? 1;
      const { fromMs, toMs } = timeRange(q, req.now);
      const side = (role: 'maker' | 'taker') => {
        let sql = `SELECT *, '${role}' AS role FROM spot_trades WHERE ${role}_user = ? AND create_us >= ? AND create_us <= ?`;
        const args: unknown[] = [req.user.id, fromMs * 1000, toMs * 1000 + 999];
        if (pair !== undefined) {
          sql += ' AND currency_pair = ?';
          args.push(pair);
        }
        if (orderId !== undefined) {
          sql += ` AND ${role}_order_id = ?`;
          args.push(Number(orderId));
        }
        return { sql, args };
      };
      const maker = side('maker');
      const taker = side('taker');
      const rows = exchange.store.query<TradeRow & { role: 'maker' | 'taker' }>(
        `${maker.sql} UNION ALL ${taker.sql} ORDER BY id DESC, role DESC LIMIT ? OFFSET ?`,
        ...maker.args,
        ...taker.args,
        limit,
        limit * (page - 1),
      );
      return rows.map((r) => myTradeView(r, r.role));
    }),

    definePrivate('POST', '/spot/countdown_cancel_all', 'spot', (req) => {
      const body = bodyObject(req.body);
      const timeout = optInt(body, 'timeout', { min: 0, max: 86_400 });
      if (timeout === undefined) throw new ApiFailure('MISSING_REQUIRED_PARAM', 'Missing required parameter: timeout');
      const pair =
        typeof body.currency_pair === 'string' && body.currency_pair !== ''
          ? requirePair(body.currency_pair).id
          : undefined;
      return countdown.set(req.user.id, timeout, pair, req.now);
    }),

    // ---- price-triggered orders (sandbox/spot/priceOrders.ts) ---------------------------------
    definePrivate('POST', '/spot/price_orders', 'spot', (req) => priceOrders.create(req.user.id, req.body), 201),
    definePrivate('GET', '/spot/price_orders', 'spot', (req) => priceOrders.list(req.user.id, req.query)),
    definePrivate('GET', '/spot/price_orders/:order_id', 'spot', (req) =>
      priceOrders.get(req.user.id, req.params.order_id ?? ''),
    ),
    definePrivate('DELETE', '/spot/price_orders/:order_id', 'spot', (req) =>
      priceOrders.cancel(req.user.id, req.params.order_id ?? ''),
    ),
    definePrivate('DELETE', '/spot/price_orders', 'spot', (req) => priceOrders.cancelAll(req.user.id, req.query)),

    // ---- insurance fund and cross-margin liquidation ---------------------------------------------
    // Public: the platform's docs and SDKs call it without a signature.
    definePublic('GET', '/spot/insurance_history', (req) => insuranceHistory(req.query)),
    definePrivate('POST', '/spot/cross_liquidate_orders', 'spot', (req) => {
      // The request is checked as the platform would, then refused: the sandbox has no cross-margin
      // (legacy portfolio-margin) accounts, so every caller is "not in cross-margin mode". The label
      // is the one the sandbox already answers for account=cross_margin (docs/sandbox-spot.md).
      const body = bodyObject(req.body);
      const order = parseOrderRequest({ ...body, type: 'limit', side: 'buy', account: 'spot' });
      throw new ApiFailure(
        'MARGIN_NOT_SUPPORTED',
        `The account is not in cross-margin mode: no cross-margin position to liquidate on ${order.pair.id}`,
      );
    }),

    // ---- batches -----------------------------------------------------------------------------
    definePrivate(
      'POST',
      '/spot/batch_orders',
      'spot',
      expiring((req) => {
        const items = arrayBody(req.body);
        const perPair = new Map<string, number>();
        const accounts = new Set<string>();
        for (const item of items) {
          const o = item !== null && typeof item === 'object' ? (item as Record<string, unknown>) : {};
          const pair = typeof o.currency_pair === 'string' ? o.currency_pair : '';
          perPair.set(pair, (perPair.get(pair) ?? 0) + 1);
          accounts.add(typeof o.account === 'string' && o.account !== '' ? o.account : 'spot');
        }
        if (perPair.size > BATCH_PAIRS) {
          throw new ApiFailure('TOO_MANY_CURRENCY_PAIRS', `At most ${BATCH_PAIRS} currency pairs per batch`);
        }
        if ([...perPair.values()].some((n) => n > BATCH_PER_PAIR)) {
          throw new ApiFailure('TOO_MANY_ORDERS', `At most ${BATCH_PER_PAIR} orders per currency pair per batch`);
        }
        if (accounts.size > 1)
          throw new ApiFailure('MIXED_ACCOUNT_TYPE', 'All orders of a batch must use the same account');
        return items.map((item) => {
          const fields = item !== null && typeof item === 'object' ? (item as Record<string, unknown>) : {};
          const text = typeof fields.text === 'string' ? fields.text : '';
          try {
            // In a batch each order needs its own `text` (api-facts §1.5); a single order may omit it.
            if (fields.text === undefined || fields.text === null || fields.text === '') {
              throw new ApiFailure('MISSING_REQUIRED_PARAM', 'Missing required parameter: text');
            }
            const { row, mode } = placeOne(req, item);
            return { order_id: String(row.id), succeeded: true, label: '', message: '', ...batchOrderView(row, mode) };
          } catch (error) {
            return { order_id: '', text, amend_text: '-', succeeded: false, ...failureOf(error) };
          }
        });
      }),
    ),
    definePrivate(
      'POST',
      '/spot/cancel_batch_orders',
      'spot',
      expiring((req) => {
        const items = arrayBody(req.body);
        if (items.length > CANCEL_BATCH_MAX) {
          throw new ApiFailure('INVALID_PARAM_VALUE', `At most ${CANCEL_BATCH_MAX} orders per request`);
        }
        return items.map((item) => {
          const o = item !== null && typeof item === 'object' ? (item as Record<string, unknown>) : {};
          const pair = typeof o.currency_pair === 'string' ? o.currency_pair : '';
          const id = typeof o.id === 'string' ? o.id : typeof o.id === 'number' ? String(o.id) : '';
          const account = typeof o.account === 'string' && o.account !== '' ? o.account : 'spot';
          try {
            parseAccount(o.account);
            if (id === '') throw new ApiFailure('MISSING_REQUIRED_PARAM', 'Missing required parameter: id');
            const row = exchange.cancel(req.user.id, id, requirePair(pair).id);
            return {
              currency_pair: pair,
              id: String(row.id),
              text: row.text,
              succeeded: true,
              label: '',
              message: '',
              account,
            };
          } catch (error) {
            return { currency_pair: pair, id, text: '', succeeded: false, ...failureOf(error), account };
          }
        });
      }),
    ),
    definePrivate(
      'POST',
      '/spot/amend_batch_orders',
      'spot',
      expiring((req) => {
        const items = arrayBody(req.body);
        if (items.length > AMEND_BATCH_MAX) {
          throw new ApiFailure('INVALID_PARAM_VALUE', `At most ${AMEND_BATCH_MAX} orders per request`);
        }
        return items.map((item) => {
          const o = item !== null && typeof item === 'object' ? (item as Record<string, unknown>) : {};
          const id =
            typeof o.order_id === 'string' ? o.order_id : typeof o.order_id === 'number' ? String(o.order_id) : '';
          try {
            if (item === null || typeof item !== 'object' || Array.isArray(item)) {
              throw new ApiFailure('INVALID_REQUEST_BODY', 'Each amendment must be a JSON object');
            }
            if (id === '') throw new ApiFailure('MISSING_REQUIRED_PARAM', 'Missing required parameter: order_id');
            const pair = requirePair(o.currency_pair).id;
            parseAccount(o.account);
            const mode = parseActionMode(o.action_mode);
            const row = exchange.amend(req.user.id, id, pair, amendPatch(o));
            return { succeeded: true, label: '', message: '', ...batchOrderView(row, mode) };
          } catch (error) {
            return { id, order_id: id, succeeded: false, ...failureOf(error) };
          }
        });
      }),
    ),

    // ---- STP groups (account group) ------------------------------------------------------------
    definePrivate(
      'POST',
      '/account/stp_groups',
      'account',
      (req) => stp.create(req.caller.mainUserId, req.body),
      200,
      true,
    ),
    // Reads are open to sub-account keys (scoped to their main account), so a sub-account can find
    // its own group; creating groups and changing members is for the main account only.
    definePrivate('GET', '/account/stp_groups', 'account', (req) => stp.list(req.caller.mainUserId, req.query.name)),
    definePrivate('GET', '/account/stp_groups/:stp_id/users', 'account', (req) =>
      stp.members(req.caller.mainUserId, req.params.stp_id ?? ''),
    ),
    definePrivate(
      'POST',
      '/account/stp_groups/:stp_id/users',
      'account',
      (req) => stp.addMembers(req.caller.mainUserId, req.params.stp_id ?? '', req.body),
      200,
      true,
    ),
    definePrivate(
      'DELETE',
      '/account/stp_groups/:stp_id/users',
      'account',
      (req) => stp.removeMembers(req.caller.mainUserId, req.params.stp_id ?? '', req.query.user_id),
      200,
      true,
    ),
  ];
}

function arrayBody(body: unknown): unknown[] {
  if (!Array.isArray(body)) throw new ApiFailure('INVALID_REQUEST_BODY', 'Request body must be a JSON array');
  if (body.length === 0) throw new ApiFailure('INVALID_REQUEST_BODY', 'Request body must not be empty');
  return body;
}

function amendPatch(body: Record<string, unknown>): { amount?: string; price?: string; amendText?: string } {
  const str = (name: string): string | undefined => {
    const v = body[name];
    if (v === undefined || v === null || v === '') return undefined;
    if (typeof v !== 'string') throw new ApiFailure('INVALID_PARAM_VALUE', `${name} must be a string`);
    return v;
  };
  const amount = str('amount');
  const price = str('price');
  if (amount === undefined && price === undefined) {
    throw new ApiFailure('MISSING_REQUIRED_PARAM', 'amount or price is required');
  }
  return { amount, price, amendText: str('amend_text') };
}
