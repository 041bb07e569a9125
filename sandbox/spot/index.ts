// The spot module of the sandbox: registered by startSandbox (sandbox/server.ts) through its module
// hook. Creates the spot tables, rebuilds the books from open orders, registers the spot and STP
// routes, feeds live prices to ctx.prices and runs the simulated market unless `--market off`.

import type { SandboxContext } from '../context';
import { CountdownCancel } from './countdown';
import { SpotExchange } from './exchange';
import { backfillMarketHistory } from './market/history';
import { DEFAULT_SIMULATOR, MarketSimulator } from './market/simulator';
import { MarketData } from './marketData';
import { PriceOrders } from './priceOrders';
import { spotRoutes } from './routes';
import { SpotStore } from './store';
import { StpGroups } from './stp';

export interface SpotModule {
  exchange: SpotExchange;
  market: MarketData;
  stp: StpGroups;
  priceOrders: PriceOrders;
  simulator: MarketSimulator | undefined;
  /**
   * Builds the simulated market's history (a new data directory) and starts the market, once. The
   * sandbox calls it right after its ready line; every spot route, stream subscription and live price
   * calls it first, so nothing reads the market before it is whole.
   */
  start(): void;
  close(): void;
}

/** Housekeeping (pruning unfilled cancelled orders and old fine candles) every this many ticks. */
const PRUNE_EVERY_TICKS = 10;
/** With a manual clock, one advance runs at most this many market steps (bounded CPU). */
const MAX_STEPS_PER_ADVANCE = 40;

const modules = new WeakMap<SandboxContext, SpotModule>();

/** The spot module registered on a sandbox (tests and in-process tools). */
export function spotModuleOf(ctx: SandboxContext): SpotModule | undefined {
  return modules.get(ctx);
}

export function registerSpot(ctx: SandboxContext): SpotModule {
  const store = new SpotStore(ctx.db);
  const stp = new StpGroups(store, ctx.users, () => ctx.clock.now());
  const exchange = new SpotExchange({
    store,
    ledger: ctx.ledger,
    fees: (userId) => ctx.users.fees(userId),
    now: () => ctx.clock.now(),
    stpGroupOf: (userId) => stp.groupOf(userId),
  });
  const market = new MarketData(exchange, store, () => ctx.clock.now());
  const countdown = new CountdownCancel(exchange);
  // Price-triggered orders follow the exchange's own trades (and expire on clock ticks, below).
  const priceOrders = new PriceOrders(ctx.db, exchange, () => ctx.clock.now());
  // Every spot route starts the market first (a no-op once started): the first read is complete.
  ctx.addRoutes(
    spotRoutes({ ctx, exchange, market, stp, countdown, priceOrders }).map((route) => ({
      ...route,
      handler: (req: Parameters<typeof route.handler>[0]) => {
        start();
        return route.handler(req as never);
      },
    })),
  );
  // A failed group commit undid writes the books and candles may hold: rebuild them from the database.
  ctx.ledger.onRollback(() => exchange.reload());

  // Live prices for total balance and small-balance conversion: the last trade against USDT.
  ctx.prices.setProvider((currency) => {
    start();
    return exchange.lastPrice(`${currency}_USDT`) ?? undefined;
  });

  let ticks = 0;
  const unsubscribe = ctx.clock.onTick((now) => {
    countdown.fire(now);
    priceOrders.expire(now);
    if (++ticks % PRUNE_EVERY_TICKS === 0) exchange.prune();
  });

  let unsubscribeMarket = (): void => {};
  let started = false;
  const simulator =
    ctx.options.market === 'on' ? new MarketSimulator(ctx, exchange, store, DEFAULT_SIMULATOR) : undefined;
  /** History first (a new data directory, ~0.1 s), then the market: no trade may precede the history. */
  function start(): void {
    if (started || simulator === undefined) return;
    const sim = simulator;
    started = true;
    if (backfillMarketHistory(store, ctx.clock.now(), ctx.options.seed).length > 0) exchange.reload();
    if (ctx.options.clock === 'real') {
      sim.start();
    } else {
      // Manual clock: the market moves only when business time does (POST /sandbox/advance), one
      // step per tick interval advanced, at most MAX_STEPS_PER_ADVANCE at once.
      sim.tick();
      let last = ctx.clock.now();
      unsubscribeMarket = ctx.clock.onTick((now) => {
        const steps = Math.min(MAX_STEPS_PER_ADVANCE, Math.floor((now - last) / DEFAULT_SIMULATOR.tickMs));
        if (steps <= 0) return;
        last = now;
        for (let i = 0; i < steps; i++) sim.tick();
      });
    }
    ctx.log('spot market simulation running', { tick_ms: DEFAULT_SIMULATOR.tickMs, clock: ctx.options.clock });
  }

  const module: SpotModule = {
    exchange,
    market,
    stp,
    priceOrders,
    simulator,
    start,
    close() {
      simulator?.stop();
      unsubscribeMarket();
      unsubscribe();
      ctx.prices.setProvider(undefined);
    },
  };
  modules.set(ctx, module);
  return module;
}
