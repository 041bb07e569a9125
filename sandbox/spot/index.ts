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
  // A new sandbox with the live market gets its chart history before the exchange loads its candles.
  if (ctx.options.market === 'on') backfillMarketHistory(store, ctx.clock.now(), ctx.options.seed);
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
  ctx.addRoutes(spotRoutes({ ctx, exchange, market, stp, countdown, priceOrders }));

  // Live prices for total balance and small-balance conversion: the last trade against USDT.
  ctx.prices.setProvider((currency) => exchange.lastPrice(`${currency}_USDT`) ?? undefined);

  let ticks = 0;
  const unsubscribe = ctx.clock.onTick((now) => {
    countdown.fire(now);
    priceOrders.expire(now);
    if (++ticks % PRUNE_EVERY_TICKS === 0) exchange.prune();
  });

  let simulator: MarketSimulator | undefined;
  let unsubscribeMarket = (): void => {};
  if (ctx.options.market === 'on') {
    const sim = new MarketSimulator(ctx, exchange, store, DEFAULT_SIMULATOR);
    simulator = sim;
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
