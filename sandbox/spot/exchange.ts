// The spot exchange: one matching engine per pair, funds locked in the ledger while orders rest,
// fills settled (balances, fees, trades, candles, order rows) in the same database transaction as
// the match. Used by the HTTP routes and by the simulated market alike: market-maker orders are
// ordinary orders.

import Decimal from 'decimal.js';
import { ApiFailure } from '../http/errors';
import type { Ledger } from '../store/ledger';
import type { FeeTier } from '../store/users';
import { bucketStart, CANDLE_INTERVALS, type CandleInterval, nominalSeconds, RETAINED_POINTS } from './candles';
import { formatScaled } from './matching/decimal';
import { type Fill, MatchingEngine, type MatchResult, type Side, type StpAct } from './matching/engine';
import { type OrderRequest, parseBaseAmount, parsePrice } from './orders/validate';
import { findPair, SPOT_PAIRS, type SpotPair } from './pairs';
import type { CandleRow, OrderRow, SpotStore, TradeRow } from './store';

/** Fees are charged at 8 decimals at most, rounded up (the exchange never under-charges). */
const FEE_DECIMALS = 8;
/** A client `text` id finds a finished order for this long (api-facts §1.4). */
const TEXT_ID_TTL_MS = 3_600_000;
const FIRST_ORDER_ID = 1_000_000_001;

export interface ExchangeDeps {
  store: SpotStore;
  ledger: Ledger;
  /** Maker / taker rates of a user's fee tier. */
  fees(userId: number): Pick<FeeTier, 'maker_fee' | 'taker_fee'>;
  /** Business time, Unix ms. */
  now(): number;
  /** STP group of a user (0 when none). */
  stpGroupOf(userId: number): number;
}

/** An open order's live state (the row is rewritten from it on every change). */
interface LiveOrder {
  row: OrderRow;
  pair: SpotPair;
  ticks: number;
  /** Lots (base) remaining. */
  left: bigint;
  filledLots: bigint;
  filledQuote: bigint;
  fee: Decimal;
}

interface PairState {
  pair: SpotPair;
  engine: MatchingEngine;
  quoteScale: number;
  lastTicks: number | null;
  /** Unix ms of the last book change. */
  bookUpdate: number;
  candles: Map<CandleInterval, CandleRow>;
}

export interface TradeEvent {
  pair: string;
  price: string;
  amount: string;
  side: 'buy' | 'sell';
  /** The stored trade (ids, time, parties, fees): the WebSocket trade channels publish it. */
  row?: TradeRow;
}

/**
 * A change of one price level of a book (`id` is the book id after it, as GET /spot/order_book
 * with_id=true shows it), or `reset` when the books were rebuilt from the database (after a failed
 * change): listeners then start over from the whole book.
 */
export type BookChange =
  | { pair: string; id: number; side: Side; price: number; reset?: undefined }
  | { pair: string; id: number; reset: true };

/** What happened to an order: placed (and resting), changed (fill, amend), or ended. */
export type OrderEventKind = 'put' | 'update' | 'finish';

export class SpotExchange {
  private readonly pairs = new Map<string, PairState>();
  private readonly live = new Map<number, LiveOrder>();
  private nextOrderId = FIRST_ORDER_ID;
  private nextTradeId = 1;
  /** Set once the current change has modified an engine (see `atomically`). */
  private touched = false;
  private readonly sequences = new Map<string, number>();
  private readonly tradeListeners: ((t: TradeEvent) => void)[] = [];
  private readonly dirtyCandles = new Set<string>();
  private readonly bookListeners: ((change: BookChange) => void)[] = [];
  private readonly orderListeners: ((row: OrderRow, event: OrderEventKind) => void)[] = [];

  constructor(private readonly deps: ExchangeDeps) {
    this.reload();
  }

  /**
   * (Re)builds the in-memory state — books, counters, current candles — from the database: after a
   * rollback, and once the market history is written (its candles are the current ones then).
   */
  reload(): void {
    const { store } = this.deps;
    this.pairs.clear();
    this.live.clear();
    this.dirtyCandles.clear();
    const maxOrder = store.query<{ id: number | null }>('SELECT MAX(id) AS id FROM spot_orders')[0]?.id ?? null;
    const maxTrade = store.query<{ id: number | null }>('SELECT MAX(id) AS id FROM spot_trades')[0]?.id ?? null;
    this.nextOrderId = Math.max(FIRST_ORDER_ID, (maxOrder ?? 0) + 1);
    this.nextTradeId = (maxTrade ?? 0) + 1;
    for (const pair of SPOT_PAIRS) {
      const seq = store.query<{ s: number | null }>(
        'SELECT MAX(sequence_id) AS s FROM spot_trades WHERE currency_pair = ?',
        pair.id,
      )[0]?.s;
      this.sequences.set(pair.id, seq ?? 0);
      const state: PairState = {
        pair,
        engine: new MatchingEngine(),
        quoteScale: pair.precision + pair.amountPrecision,
        lastTicks: null,
        bookUpdate: this.deps.now(),
        candles: new Map(),
      };
      for (const interval of CANDLE_INTERVALS) {
        const c = store.latestCandle(pair.id, interval);
        if (c !== undefined) state.candles.set(interval, c);
      }
      const last = store.query<{ price: string }>(
        'SELECT price FROM spot_trades WHERE currency_pair = ? ORDER BY id DESC LIMIT 1',
        pair.id,
      )[0];
      if (last !== undefined) state.lastTicks = parsePrice(pair, last.price);
      this.pairs.set(pair.id, state);
    }
    this.restoreBooks();
    for (const state of this.pairs.values()) {
      this.hookBook(state);
      for (const listener of this.bookListeners)
        listener({ pair: state.pair.id, id: state.engine.version, reset: true });
    }
  }

  /** Level changes of every book (the WebSocket streams); returns the unsubscribe. */
  onBookChange(listener: (change: BookChange) => void): () => void {
    this.bookListeners.push(listener);
    for (const state of this.pairs.values()) this.hookBook(state);
    return () => {
      const i = this.bookListeners.indexOf(listener);
      if (i >= 0) this.bookListeners.splice(i, 1);
      for (const state of this.pairs.values()) this.hookBook(state);
    };
  }

  /** Every order change, as it is written (inside the change's transaction). */
  onOrder(listener: (row: OrderRow, event: OrderEventKind) => void): void {
    this.orderListeners.push(listener);
  }

  private hookBook(state: PairState): void {
    const listeners = this.bookListeners;
    const { engine } = state;
    const pair = state.pair.id;
    engine.onLevelChange =
      listeners.length === 0
        ? undefined
        : (side, price) => {
            for (const listener of listeners) listener({ pair, id: engine.version, side, price });
          };
  }

  /**
   * Runs a change in one database transaction. Funds are locked before the engine is touched, so a
   * refusal changes nothing; should anything fail after the engine moved, the transaction rolls back
   * and the in-memory books are rebuilt from the database, so memory never disagrees with it.
   */
  private atomically<T>(fn: () => T): T {
    try {
      return this.deps.store.transaction(fn);
    } catch (error) {
      if (this.touched) this.reload();
      throw error;
    } finally {
      this.touched = false;
    }
  }

  get store(): SpotStore {
    return this.deps.store;
  }

  onTrade(listener: (t: TradeEvent) => void): void {
    this.tradeListeners.push(listener);
  }

  pairState(id: string): PairState | undefined {
    return this.pairs.get(id);
  }

  /** Last trade price of a pair as a decimal string, or null before the first trade. */
  lastPrice(pairId: string): string | null {
    const s = this.pairs.get(pairId);
    return s?.lastTicks == null ? null : formatScaled(BigInt(s.lastTicks), s.pair.precision);
  }

  // ---------------------------------------------------------------------------------------------
  // Placement

  place(userId: number, req: OrderRequest, bizInfo = ''): OrderRow {
    const state = this.pairs.get(req.pair.id)!;
    const stpGroup = this.deps.stpGroupOf(userId);
    if (req.stpAct !== null && stpGroup === 0) {
      throw new ApiFailure('INVALID_PARAM_VALUE', 'stp_act requires the account to be a member of an STP group');
    }
    // A post-only order that would take is refused with 400 POC_FILL_IMMEDIATELY and nothing is
    // stored: the platform's spot label list documents that label for spot orders, and CCXT's gate
    // quotes the platform's answer. (finish_as=poc exists too, in the models the spot, futures and
    // WebSocket order APIs share; docs/sandbox-spot.md "Post-only that would take" has the sources.)
    if (req.timeInForce === 'poc' && req.type === 'limit' && state.engine.wouldCross(req.side, req.price)) {
      throw new ApiFailure('POC_FILL_IMMEDIATELY', "Order would match and take immediately so it's cancelled");
    }
    const { pair } = req;
    return this.atomically(() => {
      const now = this.deps.now();
      const id = this.nextOrderId++;
      const isMarketBuy = req.type === 'market' && req.side === 'buy';
      // Lock what the order can spend: quote for buys (price × amount, or a market buy's budget),
      // base for sells.
      const lockQuote = req.side === 'buy' ? (isMarketBuy ? req.amount : req.amount * BigInt(req.price)) : 0n;
      if (req.side === 'buy') this.lock(userId, pair.quote, lockQuote, state.quoteScale);
      else this.lock(userId, pair.base, req.amount, pair.amountPrecision);

      const row: OrderRow = {
        id,
        user_id: userId,
        text: req.text,
        amend_text: '-',
        currency_pair: pair.id,
        type: req.type,
        account: req.account,
        side: req.side,
        amount: isMarketBuy
          ? formatScaled(req.amount, state.quoteScale)
          : formatScaled(req.amount, pair.amountPrecision),
        price: req.type === 'limit' ? formatScaled(BigInt(req.price), pair.precision) : '0',
        time_in_force: req.timeInForce,
        iceberg: '0',
        left: '',
        filled_amount: '0',
        filled_total: '0',
        fee: '0',
        fee_currency: req.side === 'buy' ? pair.base : pair.quote,
        status: 'open',
        finish_as: 'open',
        stp_id: stpGroup,
        stp_act: req.stpAct ?? '-',
        seq: 0,
        create_ms: now,
        update_ms: now,
        biz_info: bizInfo,
      };
      const order: LiveOrder = {
        row,
        pair,
        ticks: req.price,
        left: req.amount,
        filledLots: 0n,
        filledQuote: 0n,
        fee: new Decimal(0),
      };
      this.touched = true;
      const result = state.engine.place({
        id: String(id),
        owner: userId,
        side: req.side,
        type: req.type,
        price: req.price,
        amount: req.amount,
        timeInForce: req.timeInForce,
        stpGroup,
        stpAct: req.stpAct ?? 'cn',
      });
      this.settle(state, order, result, now);
      if (result.outcome === 'open') {
        state.bookUpdate = now;
        order.left = result.left;
        order.row.seq = state.engine.get(String(id))!.seq;
        this.live.set(id, order);
      } else {
        // Release what the finished taker no longer needs.
        if (req.side === 'sell') this.unlock(userId, pair.base, result.left, pair.amountPrecision);
        else if (isMarketBuy) this.unlock(userId, pair.quote, result.left, state.quoteScale);
        else this.unlock(userId, pair.quote, result.left * BigInt(req.price), state.quoteScale);
        order.left = result.left;
        this.finish(order, result, now);
      }
      this.writeOrder(order, isMarketBuy, true);
      this.flushCandles();
      return order.row;
    });
  }

  // ---------------------------------------------------------------------------------------------
  // Cancel and amend

  /** Cancels an open order of `userId`; throws ORDER_NOT_FOUND / ORDER_CLOSED / ORDER_CANCELLED. */
  cancel(userId: number, idOrText: string, pairId: string | undefined): OrderRow {
    const row = this.findOrder(userId, idOrText, pairId);
    if (row.status === 'closed') throw new ApiFailure('ORDER_CLOSED', `Order ${row.id} is already finished`);
    if (row.status === 'cancelled') throw new ApiFailure('ORDER_CANCELLED', `Order ${row.id} is already cancelled`);
    return this.atomically(() => this.cancelLive(this.live.get(row.id)!, 'cancelled', this.deps.now()));
  }

  /** Cancels every open order of a user, optionally of one pair and side. */
  cancelAll(userId: number, pairId?: string, side?: 'buy' | 'sell'): OrderRow[] {
    return this.atomically(() => {
      const now = this.deps.now();
      const out: OrderRow[] = [];
      for (const order of [...this.live.values()]) {
        if (order.row.user_id !== userId) continue;
        if (pairId !== undefined && order.pair.id !== pairId) continue;
        if (side !== undefined && order.row.side !== side) continue;
        out.push(this.cancelLive(order, 'cancelled', now));
      }
      return out;
    });
  }

  amend(
    userId: number,
    idOrText: string,
    pairId: string | undefined,
    patch: { amount?: string; price?: string; amendText?: string },
  ): OrderRow {
    const row = this.findOrder(userId, idOrText, pairId);
    if (row.status === 'closed') throw new ApiFailure('ORDER_CLOSED', `Order ${row.id} is already finished`);
    if (row.status === 'cancelled') throw new ApiFailure('ORDER_CANCELLED', `Order ${row.id} is already cancelled`);
    const order = this.live.get(row.id)!;
    const { pair } = order;
    const state = this.pairs.get(pair.id)!;
    const newTicks = patch.price === undefined ? order.ticks : parsePrice(pair, patch.price);
    const newAmount = patch.amount === undefined ? order.left + order.filledLots : parseBaseAmount(pair, patch.amount);
    if (patch.amendText !== undefined && patch.amendText.length > 31) {
      throw new ApiFailure('INVALID_PARAM_VALUE', 'amend_text is at most 31 characters');
    }
    if (newAmount > order.filledLots && newAmount < parseBaseAmount(pair, pair.minBaseAmount)) {
      throw new ApiFailure('AMOUNT_TOO_LITTLE', `amount is below the minimum ${pair.minBaseAmount} ${pair.base}`);
    }
    if (
      order.row.time_in_force === 'poc' &&
      newTicks !== order.ticks &&
      state.engine.wouldCross(order.row.side, newTicks)
    ) {
      throw new ApiFailure('POC_FILL_IMMEDIATELY', 'A post-only order cannot be amended to a price that would trade');
    }
    return this.atomically(() => {
      const now = this.deps.now();
      const newLeft = newAmount - order.filledLots;
      if (newLeft <= 0n) {
        if (patch.amendText !== undefined) order.row.amend_text = patch.amendText;
        // Amount at or below what is already filled: the rest is cancelled (api-facts §1.1).
        return this.cancelLive(order, newLeft === 0n ? 'filled' : 'cancelled', now);
      }
      // Adjust the lock to the new price × remaining (buy) or remaining (sell) before matching.
      if (order.row.side === 'buy') {
        const before = order.left * BigInt(order.ticks);
        const after = newLeft * BigInt(newTicks);
        if (after > before) this.lock(userId, pair.quote, after - before, state.quoteScale);
        else this.unlock(userId, pair.quote, before - after, state.quoteScale);
      } else if (newLeft > order.left) {
        this.lock(userId, pair.base, newLeft - order.left, pair.amountPrecision);
      } else {
        this.unlock(userId, pair.base, order.left - newLeft, pair.amountPrecision);
      }
      // Only now, with the funds settled, does the order itself change.
      if (patch.amendText !== undefined) order.row.amend_text = patch.amendText;
      order.ticks = newTicks;
      order.left = newLeft;
      order.row.amount = formatScaled(newAmount, pair.amountPrecision);
      order.row.price = formatScaled(BigInt(newTicks), pair.precision);
      this.touched = true;
      const amended = state.engine.amend(String(order.row.id), newTicks, newLeft, {
        timeInForce: order.row.time_in_force as 'gtc' | 'poc',
        stpAct: (order.row.stp_act === '-' ? 'cn' : order.row.stp_act) as StpAct,
      })!;
      state.bookUpdate = now;
      if (!amended.kept) this.settle(state, order, amended.result, now);
      order.left = amended.result.left;
      order.row.update_ms = now;
      if (amended.result.outcome === 'open') {
        order.row.seq = state.engine.get(String(order.row.id))!.seq;
      } else {
        if (order.row.side === 'sell') this.unlock(userId, pair.base, order.left, pair.amountPrecision);
        else this.unlock(userId, pair.quote, order.left * BigInt(order.ticks), state.quoteScale);
        this.finish(order, amended.result, now);
        this.live.delete(order.row.id);
      }
      this.writeOrder(order, false);
      this.flushCandles();
      return order.row;
    });
  }

  /** An order of `userId` by exchange id or `t-` text id (text ids expire an hour after finishing). */
  findOrder(userId: number, idOrText: string, pairId: string | undefined): OrderRow {
    let row: OrderRow | undefined;
    if (idOrText.startsWith('t-')) {
      row = this.deps.store.orderByText(userId, idOrText);
      if (row !== undefined && row.status !== 'open' && this.deps.now() - row.update_ms > TEXT_ID_TTL_MS) {
        row = undefined;
      }
    } else if (/^\d{1,15}$/.test(idOrText)) {
      const live = this.live.get(Number(idOrText));
      row = live?.row ?? this.deps.store.order(Number(idOrText));
      if (row !== undefined && row.user_id !== userId) row = undefined;
    }
    if (row === undefined || (pairId !== undefined && row.currency_pair !== pairId)) {
      throw new ApiFailure('ORDER_NOT_FOUND', `Order ${idOrText} not found`);
    }
    return row;
  }

  /** Open orders of a user (newest first), from memory. */
  openOrders(userId: number, pairId?: string): OrderRow[] {
    const out: OrderRow[] = [];
    for (const o of this.live.values()) {
      if (o.row.user_id === userId && (pairId === undefined || o.pair.id === pairId)) out.push(o.row);
    }
    return out.sort((a, b) => b.id - a.id);
  }

  openOrderCount(userId: number): number {
    let n = 0;
    for (const o of this.live.values()) if (o.row.user_id === userId) n++;
    return n;
  }

  // ---------------------------------------------------------------------------------------------
  // Settlement

  private settle(state: PairState, taker: LiveOrder, result: MatchResult, now: number): void {
    const { pair } = state;
    if (result.fills.length > 0 || result.stpCancelled.length > 0) state.bookUpdate = now;
    const takerRate = new Decimal(this.deps.fees(taker.row.user_id).taker_fee);
    const takerUs = now * 1000;
    let i = 0;
    for (const fill of result.fills) {
      const maker = this.live.get(Number(fill.makerId))!;
      const makerRate = new Decimal(this.deps.fees(maker.row.user_id).maker_fee);
      const takerFee = this.settleParty(state, taker, fill, takerRate, true);
      const makerFee = this.settleParty(state, maker, fill, makerRate, false);
      maker.left = fill.makerLeft;
      maker.row.update_ms = now;
      if (fill.makerLeft === 0n) {
        maker.row.status = 'closed';
        maker.row.finish_as = 'filled';
        this.live.delete(maker.row.id);
      }
      this.writeOrder(maker, false);
      const seq = (this.sequences.get(pair.id) ?? 0) + 1;
      this.sequences.set(pair.id, seq);
      const trade: TradeRow = {
        id: this.nextTradeId++,
        currency_pair: pair.id,
        // Trades of one match share the millisecond; the microsecond part keeps them ordered.
        create_us: takerUs + Math.min(i++, 999),
        side: taker.row.side,
        price: formatScaled(BigInt(fill.price), pair.precision),
        amount: formatScaled(fill.lots, pair.amountPrecision),
        quote: formatScaled(fill.quote, state.quoteScale),
        maker_order_id: maker.row.id,
        taker_order_id: taker.row.id,
        maker_user: maker.row.user_id,
        taker_user: taker.row.user_id,
        maker_fee: makerFee,
        maker_fee_currency: maker.row.fee_currency,
        taker_fee: takerFee,
        taker_fee_currency: taker.row.fee_currency,
        maker_text: maker.row.text,
        taker_text: taker.row.text,
        maker_amend_text: maker.row.amend_text,
        taker_amend_text: taker.row.amend_text,
        sequence_id: seq,
      };
      this.deps.store.insertTrade(trade);
      state.lastTicks = fill.price;
      this.updateCandles(state, fill, Math.floor(now / 1000));
      const event: TradeEvent = {
        pair: pair.id,
        price: trade.price,
        amount: trade.amount,
        side: trade.side,
        row: trade,
      };
      for (const listener of this.tradeListeners) listener(event);
    }
    for (const resting of result.stpCancelled) {
      const maker = this.live.get(Number(resting.id))!;
      maker.left = resting.left;
      this.cancelLive(maker, 'stp', now, false);
    }
  }

  /** Moves one party's side of a fill through the ledger; returns the fee charged. */
  private settleParty(state: PairState, order: LiveOrder, fill: Fill, rate: Decimal, isTaker: boolean): string {
    const { pair } = state;
    const user = order.row.user_id;
    const ref = String(order.row.id);
    const lotsText = formatScaled(fill.lots, pair.amountPrecision);
    const quoteText = formatScaled(fill.quote, state.quoteScale);
    let fee: Decimal;
    if (order.row.side === 'buy') {
      this.deps.ledger.debitLocked(this.key(user, pair.quote), quoteText, 'trade', ref);
      // A limit buy locked at its own price: release the price improvement at once.
      if (isTaker && order.row.type === 'limit' && order.ticks > fill.price) {
        this.unlock(user, pair.quote, BigInt(order.ticks - fill.price) * fill.lots, state.quoteScale);
      }
      this.deps.ledger.credit(this.key(user, pair.base), lotsText, 'trade', ref);
      fee = new Decimal(lotsText).mul(rate).toDecimalPlaces(FEE_DECIMALS, Decimal.ROUND_UP);
      if (fee.gt(0)) this.deps.ledger.debit(this.key(user, pair.base), fee, 'fee', ref);
    } else {
      this.deps.ledger.debitLocked(this.key(user, pair.base), lotsText, 'trade', ref);
      this.deps.ledger.credit(this.key(user, pair.quote), quoteText, 'trade', ref);
      fee = new Decimal(quoteText).mul(rate).toDecimalPlaces(FEE_DECIMALS, Decimal.ROUND_UP);
      if (fee.gt(0)) this.deps.ledger.debit(this.key(user, pair.quote), fee, 'fee', ref);
    }
    order.filledLots += fill.lots;
    order.filledQuote += fill.quote;
    order.fee = order.fee.plus(fee);
    return fee.toFixed();
  }

  /** Sets the final status of a taker that did not rest. */
  private finish(order: LiveOrder, result: MatchResult, now: number): void {
    order.row.update_ms = now;
    switch (result.outcome) {
      case 'filled':
        // A market buy whose budget could not buy a single lot never traded: nothing was "filled".
        if (order.filledLots === 0n) {
          order.row.status = 'cancelled';
          order.row.finish_as = 'small';
        } else {
          order.row.status = 'closed';
          order.row.finish_as = 'filled';
        }
        break;
      default:
        order.row.status = 'cancelled';
        order.row.finish_as = result.outcome;
    }
  }

  /** Removes an open order from the book, releases its lock and records why it ended. */
  private cancelLive(
    order: LiveOrder,
    finishAs: 'cancelled' | 'stp' | 'filled',
    now: number,
    fromBook = true,
  ): OrderRow {
    const state = this.pairs.get(order.pair.id)!;
    if (fromBook) {
      this.touched = true;
      state.engine.cancel(String(order.row.id));
    }
    state.bookUpdate = now;
    const user = order.row.user_id;
    if (order.row.side === 'sell') this.unlock(user, order.pair.base, order.left, order.pair.amountPrecision);
    else this.unlock(user, order.pair.quote, order.left * BigInt(order.ticks), state.quoteScale);
    order.row.status = finishAs === 'filled' ? 'closed' : 'cancelled';
    order.row.finish_as = finishAs;
    order.row.update_ms = now;
    this.live.delete(order.row.id);
    this.writeOrder(order, false);
    return order.row;
  }

  private writeOrder(order: LiveOrder, isMarketBuy: boolean, placed = false): void {
    const { pair } = order;
    const quoteScale = pair.precision + pair.amountPrecision;
    order.row.left = formatScaled(order.left, isMarketBuy ? quoteScale : pair.amountPrecision);
    order.row.filled_amount = formatScaled(order.filledLots, pair.amountPrecision);
    order.row.filled_total = formatScaled(order.filledQuote, quoteScale);
    order.row.fee = order.fee.toFixed();
    this.deps.store.saveOrder(order.row);
    if (this.orderListeners.length > 0) {
      // An order that ends the moment it is placed (filled at once, IOC, FOK) is still announced
      // as placed first, as the platform does: `put` with the order as it entered the book, then
      // `finish` with how it ended.
      if (placed && order.row.status !== 'open') {
        const entered = asEntered(order.row);
        for (const listener of this.orderListeners) listener(entered, 'put');
      }
      const event: OrderEventKind = order.row.status !== 'open' ? 'finish' : placed ? 'put' : 'update';
      for (const listener of this.orderListeners) listener(order.row, event);
    }
  }

  private key(userId: number, currency: string) {
    return { userId, account: 'spot' as const, currency };
  }

  private lock(userId: number, currency: string, amount: bigint, scale: number): void {
    if (amount > 0n) this.deps.ledger.lock(this.key(userId, currency), formatScaled(amount, scale));
  }

  private unlock(userId: number, currency: string, amount: bigint, scale: number): void {
    if (amount > 0n) this.deps.ledger.unlock(this.key(userId, currency), formatScaled(amount, scale));
  }

  // ---------------------------------------------------------------------------------------------
  // Candles

  private updateCandles(state: PairState, fill: Fill, t: number): void {
    for (const interval of CANDLE_INTERVALS) {
      const start = bucketStart(interval, t);
      const current = state.candles.get(interval);
      if (current !== undefined && current.t === start) {
        if (fill.price > current.high) current.high = fill.price;
        if (fill.price < current.low) current.low = fill.price;
        current.close = fill.price;
        current.volume_base += fill.lots;
        current.volume_quote += fill.quote;
      } else if (current === undefined || current.t < start) {
        state.candles.set(interval, {
          t: start,
          open: fill.price,
          high: fill.price,
          low: fill.price,
          close: fill.price,
          volume_base: fill.lots,
          volume_quote: fill.quote,
        });
      }
      this.dirtyCandles.add(`${state.pair.id} ${interval}`);
    }
  }

  private flushCandles(): void {
    for (const key of this.dirtyCandles) {
      const [pairId, interval] = key.split(' ') as [string, CandleInterval];
      const candle = this.pairs.get(pairId)!.candles.get(interval)!;
      this.deps.store.saveCandle(pairId, interval, candle);
    }
    this.dirtyCandles.clear();
  }

  /** Housekeeping: drop unfilled cancelled orders after a minute and candles beyond retention. */
  prune(): void {
    const now = this.deps.now();
    this.deps.store.pruneUnfilledCancelled(now - 60_000);
    for (const state of this.pairs.values()) {
      for (const interval of ['1s', '10s', '1m'] as const) {
        this.deps.store.pruneCandles(
          state.pair.id,
          interval,
          Math.floor(now / 1000) - RETAINED_POINTS * nominalSeconds(interval),
        );
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Restart

  private restoreBooks(): void {
    for (const row of this.deps.store.openOrders()) {
      const pair = findPair(row.currency_pair);
      const state = this.pairs.get(row.currency_pair);
      if (pair === undefined || state === undefined) continue;
      const ticks = parsePrice(pair, row.price);
      const left = parseBaseAmount(pair, row.left);
      const filledLots = row.filled_amount === '0' ? 0n : parseBaseAmount(pair, row.filled_amount);
      const filledQuote = BigInt(new Decimal(row.filled_total).mul(new Decimal(10).pow(state.quoteScale)).toFixed(0));
      this.live.set(row.id, { row, pair, ticks, left, filledLots, filledQuote, fee: new Decimal(row.fee) });
      state.engine.restore({
        id: String(row.id),
        owner: row.user_id,
        side: row.side,
        price: ticks,
        left,
        stpGroup: row.stp_id,
        seq: row.seq,
      });
    }
  }
}

export function requireKnownPair(pairId: string): SpotPair {
  const pair = findPair(pairId);
  if (pair === undefined) throw new ApiFailure('INVALID_CURRENCY_PAIR', `Unknown currency pair ${pairId}`);
  return pair;
}

/** The order as it entered the book, before anything filled: the `put` of an order that ended at once. */
function asEntered(row: OrderRow): OrderRow {
  return {
    ...row,
    status: 'open',
    finish_as: 'open',
    left: row.amount,
    filled_amount: '0',
    filled_total: '0',
    fee: '0',
    update_ms: row.create_ms,
  };
}
