/**
 * Handlers of the `trade` area: market data and the live feed of one pair, the order ticket and the
 * user's orders and trades. An order is placed through the movement engine (movements/adapters/
 * spotOrder.ts): journaled with the ticket's `t-` text before it is sent; when the answer is lost it
 * is found by that text, never placed again. Its outcome is a value (accepted / unknown); a refusal
 * is the operation's error.
 *
 * Rules come from the one rules cache (rules/cache.ts): the spot pairs, the pair's fee rates
 * and the STP group are read when a screen shows them (`trade.pairs`, `trade.terms`), and an order's
 * last check uses the ones kept, however long the ticket was open (RULES_AS_SHOWN).
 */
import type { z } from 'zod';
import type { DeskHandlers, Events } from '../../shared/contract';
import {
  DEFAULT_TRADE_SETTINGS,
  type Order,
  type OrderRequest,
  type OrderResult,
  type Pair,
  TradeSettings,
} from '../../shared/contract/trade';
import { checkAmend, checkTicket } from '../../shared/trade/ticket';
import { isApiError } from '../api/apiError';
import type { ServiceContext } from '../context';
import { DeskFailure } from '../errors';
import { RULES_AS_SHOWN, RULES_FRESH_MS, rulesCacheOf } from '../rules/cache';
import type { Emit } from '../types';
import { toMyTrade, toOrder, toPair, toTicker } from './mappers';
import { MarketFeed } from './marketFeed';
import { OrdersWatcher } from './ordersWatcher';
import { createTriggerHandlers } from './triggers';

/** How old an answer a screen read may be for the orders watcher's poll to take it instead of reading. */
const WATCH_REUSE_MS = 3_000;

const SETTINGS_KEY = 'trade.settings';

const invalid = (fields: Record<string, string>): DeskFailure =>
  new DeskFailure({
    code: 'INVALID_INPUT',
    message: Object.values(fields)[0] ?? 'The order is not valid; nothing was sent.',
    fields,
  });

export const createTradeHandlers = (ctx: ServiceContext): DeskHandlers['trade'] => {
  const spot = () => ctx.platform().spot;
  /**
   * The journal follows this desk's orders (an order's text is its movement's client id): Money
   * movements says open, filled or cancelled as the order stands, after an amend or a cancel too.
   */
  const followInJournal = (orders: readonly { text: string; status: string }[]) => {
    if (orders.length === 0) return;
    const statusOf = new Map(orders.map((o) => [o.text, o.status]));
    for (const m of ctx.movements.list({ kind: 'spotOrder', state: 'done', limit: 500 })) {
      const status = statusOf.get(m.clientId);
      if (status !== undefined) ctx.movements.updatePlatformStatus(m.id, status);
    }
  };
  /** Every order event of this area goes out through here: what it says of an order reaches the journal. */
  const emit: Emit = (name, payload) => {
    if (name === 'trade.ordersChanged') {
      followInJournal((payload as z.input<Events['trade.ordersChanged']>).orders ?? []);
    } else if (name === 'trade.orderFilled') {
      followInJournal([(payload as z.input<Events['trade.orderFilled']>).order]);
    }
    ctx.emit(name, payload);
  };
  const feed = new MarketFeed({ spot, emit: ctx.emit, stream: () => ctx.stream(), scheduler: ctx.scheduler });
  /**
   * A pair's open orders and the spot balances as the screen last read them (rules/cache.ts):
   * the screen always reads (maxAge 0), the orders watcher's poll — which only compares — takes an
   * answer of the last WATCH_REUSE_MS instead of reading the same thing again as the Trade screen
   * opens. Every order action drops them.
   */
  const reads = rulesCacheOf(ctx);
  const openOrdersOf = (pair: string, maxAgeMs: number) =>
    reads.get(`openOrders:${pair}`, maxAgeMs, () =>
      spot().listOrders({ currency_pair: pair, status: 'open', limit: 100 }),
    );
  const spotAccounts = (maxAgeMs: number) => reads.get('spotAccounts', maxAgeMs, () => spot().accounts());
  const ordersMoved = () => {
    reads.invalidate('openOrders:');
    reads.invalidate('spotAccounts');
  };
  const watcherSpot = () => {
    const api = spot();
    return {
      getOrder: api.getOrder,
      listOrders: (q: Parameters<typeof api.listOrders>[0]) =>
        q.status === 'open' && q.limit === 100 && q.currency_pair !== undefined && Object.keys(q).length === 3
          ? openOrdersOf(q.currency_pair, WATCH_REUSE_MS)
          : api.listOrders(q),
      accounts: (currency?: string) => (currency === undefined ? spotAccounts(WATCH_REUSE_MS) : api.accounts(currency)),
    };
  };
  const watcher = new OrdersWatcher(watcherSpot, emit, undefined, () => ctx.stream());

  ctx.onProfileChange(() => {
    feed.stop();
    watcher.stop();
  });

  /** Every spot pair by id; `maxAgeMs` RULES_FRESH_MS for a screen, RULES_AS_SHOWN for an action's check. */
  const pairsById = (maxAgeMs: number): Promise<Map<string, Pair>> =>
    reads.get('spotPairs', maxAgeMs, async () => new Map((await spot().currencyPairs()).map((p) => [p.id, toPair(p)])));

  /** One pair's rules, as the screens showed them. */
  const pairInfo = async (id: string): Promise<Pair> => {
    const pair = (await pairsById(RULES_AS_SHOWN)).get(id);
    if (!pair) throw invalid({ pair: `The platform has no pair ${id}.` });
    return pair;
  };

  const userId = async (): Promise<number | undefined> => {
    const known = ctx.activeProfile()?.userId;
    if (known !== undefined) return known;
    const fee = await ctx.platform().wallet.fee({});
    return fee.user_id;
  };

  /**
   * The user's STP group: from the main account's groups and their members; when that is not
   * allowed (a sub-account key), from the stp_id the platform stamps on the user's orders.
   */
  const readStpGroup = async (): Promise<number | null> => {
    try {
      const uid = await userId();
      const groups = await ctx.platform().account.stpGroups();
      for (const group of groups) {
        const members = await ctx.platform().account.stpGroupUsers(group.id);
        if (members.some((m) => m.user_id === uid)) return group.id;
      }
      return null;
    } catch {
      const [latest] = await spot()
        .listOrders({ status: 'finished', limit: 1 })
        .catch(() => []);
      return latest?.stp_id ? latest.stp_id : null;
    }
  };
  /** `maxAgeMs` RULES_FRESH_MS for a screen, RULES_AS_SHOWN for an order's check. */
  const stpGroup = (maxAgeMs: number): Promise<number | null> => reads.get('stpGroup', maxAgeMs, readStpGroup);

  const readSettings = (): z.output<typeof TradeSettings> => {
    const parsed = TradeSettings.safeParse(ctx.settings.get(SETTINGS_KEY, DEFAULT_TRADE_SETTINGS));
    return parsed.success ? parsed.data : DEFAULT_TRADE_SETTINGS;
  };

  /** Best bid and ask of the watched pair; none for another pair (the feed follows one pair). */
  const bestPrices = (pair: string): { bestBid?: string; bestAsk?: string } => {
    const book = feed.snapshot(pair);
    return {
      ...(book?.bids[0] ? { bestBid: book.bids[0][0] } : {}),
      ...(book?.asks[0] ? { bestAsk: book.asks[0][0] } : {}),
    };
  };

  /** A placed order: the screens refresh, and a resting one is followed for its fill notice. */
  const placed = (order: z.output<typeof Order>) => {
    ordersMoved();
    if (order.status === 'open') watcher.track(order.pair, order.id, order.left);
    // The order itself goes with the event: screens put it in their lists without reading them again.
    emit('trade.ordersChanged', { pair: order.pair, reason: 'placed', orders: [order] });
    return order;
  };

  const placeOrder = async (input: OrderRequest): Promise<OrderResult> => {
    const pair = await pairInfo(input.pair);
    const settings = readSettings();
    const inStpGroup = input.stpAct === undefined ? false : (await stpGroup(RULES_AS_SHOWN)) !== null;
    // The renderer checked all this already; main checks again because it is the last gate.
    const errors = checkTicket(
      {
        pair: input.pair,
        side: input.side,
        type: input.type,
        price: input.price ?? '',
        amount: input.amount,
        timeInForce: input.timeInForce,
        ...(input.stpAct ? { stpAct: input.stpAct } : {}),
      },
      {
        pair,
        inStpGroup,
        maxNotional: settings.maxNotional,
        ...bestPrices(input.pair),
      },
    );
    if (Object.keys(errors).length > 0) throw invalid(errors as Record<string, string>);

    // Through the movement engine: journaled with its text (its client id) before it is sent; a lost
    // answer is settled by finding the order by that text, never by placing it again.
    const { text } = input;
    const result = await ctx.movements.execute(
      'spotOrder',
      {
        currency_pair: input.pair,
        side: input.side,
        type: input.type,
        amount: input.amount,
        ...(input.price !== undefined ? { price: input.price } : {}),
        time_in_force: input.timeInForce,
        account: 'spot',
        text,
        ...(input.stpAct ? { stp_act: input.stpAct } : {}),
      },
      // The text is the ticket's one submission: a repeat of it joins the first, never a second order.
      { requestKey: `order:${text}` },
    );
    switch (result.state) {
      case 'refused':
        throw result.failure;
      case 'unknown': {
        const { requestId } = result.failure.detail;
        return {
          outcome: 'unknown',
          text,
          note: `The platform did not confirm the order ${text}. It may or may not have been placed; the app is checking.`,
          ...(requestId ? { requestId } : {}),
        };
      }
      case 'done': {
        const record =
          (result.record as Parameters<typeof toOrder>[0] | undefined) ??
          (await spot()
            .getOrder(text, { currency_pair: input.pair })
            .catch(() => undefined));
        if (record === undefined) {
          // Placed for certain (e.g. a repeat joined it), but it cannot be read back now.
          return {
            outcome: 'accepted',
            text,
            note: `The order ${text} was placed (id ${result.movement.platformId ?? 'unknown'}), but it could not be read back. Do not place it again: it shows in Open orders or Order history.`,
          };
        }
        return { outcome: 'accepted', text, order: placed(toOrder(record, input.pair)) };
      }
    }
  };

  return {
    pairs: async () => [...(await pairsById(RULES_FRESH_MS)).values()],
    tickers: async () => (await spot().tickers()).map(toTicker),
    watchMarket: async ({ pair, candleInterval }) => {
      await pairInfo(pair);
      const state = await feed.start(pair, candleInterval);
      watcher.start(pair);
      return state;
    },
    unwatchMarket: async () => {
      feed.stop();
      watcher.stop();
      return {};
    },
    bookSnapshot: async ({ pair }) => {
      const book = feed.snapshot(pair);
      if (!book) throw DeskFailure.precondition(`The live feed is not watching ${pair}.`, 'Open the pair again.');
      return book;
    },
    account: async ({ pair }) => {
      const info = await pairInfo(pair);
      const accounts = await spotAccounts(0);
      const balance = (currency: string) => {
        const a = accounts.find((x) => x.currency === currency);
        return { currency, available: a?.available ?? '0', locked: a?.locked ?? '0' };
      };
      return { pair, base: balance(info.base), quote: balance(info.quote) };
    },
    terms: async ({ pair }) => {
      await pairInfo(pair);
      const [fee, stp] = await Promise.all([
        // Fee rates change rarely: those of the last minute serve (rules/cache.ts).
        reads.get(`fee:${pair}`, RULES_FRESH_MS, () =>
          ctx
            .platform()
            .wallet.fee({ currency_pair: pair })
            .catch(() => spot().fee(pair)),
        ),
        stpGroup(RULES_FRESH_MS),
      ]);
      return {
        pair,
        // An unknown rate shows no fee preview rather than a made-up one.
        makerFee: fee.maker_fee ?? '',
        takerFee: fee.taker_fee ?? '',
        stpGroupId: stp,
      };
    },
    settings: async () => readSettings(),
    updateSettings: async (next) => {
      ctx.settings.set(SETTINGS_KEY, next);
      ctx.audit.record({ action: 'trade.updateSettings', params: next, outcome: 'ok' });
      return readSettings();
    },
    placeOrder,
    findOrder: async ({ pair, text }) => {
      try {
        return toOrder(await spot().getOrder(text, { currency_pair: pair }), pair);
      } catch (error) {
        // Only the platform's own "no such order" proves absence; anything else is not an answer.
        if (isApiError(error) && error.label === 'ORDER_NOT_FOUND') return null;
        throw error;
      }
    },
    openOrders: async ({ pair }) => {
      if (pair) return (await openOrdersOf(pair, 0)).map((o) => toOrder(o, pair));
      const groups = await spot().openOrders({ limit: 100 });
      return groups.flatMap((g) => g.orders.map((o) => toOrder(o, g.currency_pair)));
    },
    cancelOrder: async ({ pair, orderId }) => {
      const order = toOrder(await spot().cancelOrder(orderId, { currency_pair: pair }), pair);
      ordersMoved();
      emit('trade.ordersChanged', { pair, reason: 'cancelled', orders: [order] });
      return order;
    },
    cancelAll: async ({ pair }) => {
      // Per pair: the platform's cancel-all without a pair is not available everywhere.
      const pairs = pair ? [pair] : (await spot().openOrders({ limit: 100 })).map((g) => g.currency_pair);
      const cancelled: { id: string; pair: string }[] = [];
      const failed: { id: string; pair: string; label: string; message: string }[] = [];
      for (const p of pairs) {
        const results = await spot().cancelAllOrders({ currency_pair: p });
        for (const r of results) {
          if (r.succeeded === false)
            failed.push({ id: String(r.id), pair: p, label: r.label ?? 'CANCEL_FAIL', message: r.message ?? '' });
          else cancelled.push({ id: String(r.id), pair: p });
        }
      }
      ordersMoved();
      emit('trade.ordersChanged', { ...(pair ? { pair } : {}), reason: 'cancelled' });
      return { cancelled, failed };
    },
    amendOrder: async ({ pair, orderId, price, amount }) => {
      const info = await pairInfo(pair);
      // The same rules as a new order, on the order as it would be after the change; the renderer
      // checked them already, main checks again because it is the last gate.
      const change = { ...(price !== undefined ? { price } : {}), ...(amount !== undefined ? { amount } : {}) };
      const current = toOrder(await spot().getOrder(orderId, { currency_pair: pair }), pair);
      const errors = checkAmend(current, change, {
        pair: info,
        inStpGroup: false,
        maxNotional: readSettings().maxNotional,
      });
      if (Object.keys(errors).length > 0) throw invalid(errors as Record<string, string>);
      const order = toOrder(await spot().amendOrder(orderId, pair, change), pair);
      ordersMoved();
      emit('trade.ordersChanged', { pair, reason: 'amended', orders: [order] });
      return order;
    },
    orderHistory: async ({ pair, limit }) => {
      const orders = await spot().listOrders({ status: 'finished', limit, ...(pair ? { currency_pair: pair } : {}) });
      return orders.map((o) => toOrder(o, pair)).sort((a, b) => b.updateTimeMs - a.updateTimeMs);
    },
    myTrades: async ({ pair, limit }) => {
      const trades = await spot().myTrades({ limit, ...(pair ? { currency_pair: pair } : {}) });
      return trades.map(toMyTrade).sort((a, b) => b.createTimeMs - a.createTimeMs);
    },
    // Stop and take-profit orders (core/trade/triggers.ts): the same guards as an order.
    ...createTriggerHandlers({
      spot,
      pairInfo,
      maxNotional: () => readSettings().maxNotional,
      changed: (pair, reason) => emit('trade.ordersChanged', { ...(pair ? { pair } : {}), reason }),
    }),
  };
};
