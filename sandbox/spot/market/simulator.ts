// The live simulated market. Per pair, a mid price follows a seeded random walk (with a weak pull
// back to its starting price so a long session stays plausible); a market-maker account quotes many
// levels on both sides around it and a taker account sends small market orders against the quotes.
// Both accounts place ordinary orders through the exchange, so user orders trade with them.
//
// Cost: one timer, a few orders per pair per tick (each one SQLite transaction), about 4 ticks/s.

import Decimal from 'decimal.js';
import type { SandboxContext } from '../../context';
import { ApiFailure } from '../../http/errors';
import type { SpotExchange } from '../exchange';
import { formatScaled, parseScaled } from '../matching/decimal';
import { parseOrderRequest } from '../orders/validate';
import { initialMid, SPOT_PAIRS, type SpotPair } from '../pairs';
import type { SpotStore } from '../store';
import { hashSeed, type Random, seededRandom } from './random';

export interface SimulatorOptions {
  /** Milliseconds between ticks. */
  tickMs: number;
  /** Quoted levels per side. */
  levels: number;
  /** Probability per pair and tick of a taker market order. */
  takerRate: number;
}

export const DEFAULT_SIMULATOR: SimulatorOptions = { tickMs: 250, levels: 50, takerRate: 0.6 };

/** Per-tick volatility of the mid (log-returns) and the pull back to the starting mid. */
const SIGMA = 0.0003;
const REVERSION = 0.0005;
/** Distance between quoted levels, as a fraction of the mid. */
const LEVEL_GAP = 0.0002;

/** Funds given to the simulation's accounts (and topped up when they run low). */
const FUNDING: Readonly<Record<string, string>> = {
  USDT: '500000000',
  BTC: '5000',
  ETH: '100000',
  GT: '20000000',
  XRP: '500000000',
  DOGE: '5000000000',
};

interface PairSim {
  pair: SpotPair;
  /** Mid in ticks (a float: it wanders between ticks). */
  mid: number;
  start: number;
  /** Typical quote size in lots. */
  lot: number;
}

export class MarketSimulator {
  private readonly rnd: Random;
  private readonly sims: PairSim[];
  private timer: NodeJS.Timeout | undefined;
  readonly makerId: number;
  readonly takerId: number;

  constructor(
    private readonly ctx: SandboxContext,
    private readonly exchange: SpotExchange,
    store: SpotStore,
    private readonly options: SimulatorOptions = DEFAULT_SIMULATOR,
  ) {
    this.rnd = seededRandom(hashSeed(ctx.options.seed));
    this.makerId = this.account(store, 'market_maker', 'Simulated market maker');
    this.takerId = this.account(store, 'market_taker', 'Simulated taker flow');
    this.sims = SPOT_PAIRS.map((pair) => {
      // Resume from the last trade after a restart; otherwise start at the catalog's price.
      const last = exchange.lastPrice(pair.id) ?? initialMid(pair);
      const start = Number(parseScaled(initialMid(pair), pair.precision));
      const mid = Number(parseScaled(roundTo(last, pair.precision), pair.precision));
      // About 600 USDT per level, at least one minimum amount.
      const lotValue = new Decimal(600).div(initialMid(pair)).mul(new Decimal(10).pow(pair.amountPrecision));
      const minLots = Number(parseScaled(pair.minBaseAmount, pair.amountPrecision));
      return { pair, mid, start, lot: Math.max(minLots * 2, Math.round(lotValue.toNumber())) };
    });
  }

  start(): void {
    this.tick();
    this.timer = setInterval(() => this.tick(), this.options.tickMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One step of every pair: move the mid, re-quote, maybe trade. Exposed for deterministic tests. */
  tick(): void {
    for (const sim of this.sims) {
      try {
        this.step(sim);
      } catch (error) {
        // A refused simulated order (e.g. funds momentarily short) must not stop the market.
        if (!(error instanceof ApiFailure)) throw error;
        this.topUp();
      }
    }
  }

  private step(sim: PairSim): void {
    const { pair } = sim;
    const drift = -REVERSION * Math.log(sim.mid / sim.start);
    sim.mid = Math.max(1, sim.mid * Math.exp(drift + SIGMA * this.rnd.normal()));
    this.quote(sim);
    if (this.rnd.next() < this.options.takerRate) {
      const side = this.rnd.next() < 0.5 ? 'buy' : 'sell';
      const lots = BigInt(Math.max(1, Math.round(sim.lot * (0.2 + this.rnd.next() * 1.5))));
      const minLots = parseScaled(pair.minBaseAmount, pair.amountPrecision) as bigint;
      const amountLots = lots < minLots ? minLots : lots;
      let amount: string;
      if (side === 'sell') {
        amount = formatScaled(amountLots, pair.amountPrecision);
      } else {
        // Market buys spend quote: the lots' value at the mid, at the pair's price precision.
        const quoteTicks = (amountLots * BigInt(Math.round(sim.mid))) / 10n ** BigInt(pair.amountPrecision);
        const minQuote = parseScaled(pair.minQuoteAmount, pair.precision) as bigint;
        amount = formatScaled(quoteTicks < minQuote * 2n ? minQuote * 2n : quoteTicks, pair.precision);
      }
      this.exchange.place(
        this.takerId,
        parseOrderRequest({
          currency_pair: pair.id,
          side,
          type: 'market',
          amount,
          time_in_force: 'ioc',
          text: 't-sim',
        }),
        'ch:sandbox-sim',
      );
    }
  }

  /** Brings the maker's quotes to `levels` per side around the mid, touching only what changed. */
  private quote(sim: PairSim): void {
    const { pair } = sim;
    // Levels sit on a fixed grid of `gap` ticks, so a small move of the mid only adds a level on one
    // side and removes one on the other instead of re-pricing every quote.
    const gap = Math.max(1, Math.round(sim.start * LEVEL_GAP));
    const bestBid = Math.floor(sim.mid / gap) * gap;
    const bestAsk = bestBid + gap;
    const wanted = new Map<string, number>();
    for (let i = 0; i < this.options.levels; i++) {
      if (bestBid - i * gap > 0) wanted.set(`buy ${bestBid - i * gap}`, bestBid - i * gap);
      wanted.set(`sell ${bestAsk + i * gap}`, bestAsk + i * gap);
    }
    const have = new Set<string>();
    for (const row of this.exchange.openOrders(this.makerId, pair.id)) {
      const ticks = Number(parseScaled(row.price, pair.precision));
      const key = `${row.side} ${ticks}`;
      if (!wanted.has(key) || have.has(key)) this.exchange.cancel(this.makerId, String(row.id), pair.id);
      else have.add(key);
    }
    for (const [key, ticks] of wanted) {
      if (have.has(key)) continue;
      const side = key.startsWith('buy') ? 'buy' : 'sell';
      const lots = BigInt(Math.max(1, Math.round(sim.lot * (0.3 + this.rnd.next() * 2))));
      this.exchange.place(
        this.makerId,
        parseOrderRequest({
          currency_pair: pair.id,
          side,
          amount: formatScaled(lots, pair.amountPrecision),
          price: formatScaled(BigInt(ticks), pair.precision),
          text: 't-mm',
        }),
        'ch:sandbox-sim',
      );
    }
  }

  /** The simulation's own main account (created once, remembered in spot_meta), funded, fee-free. */
  private account(store: SpotStore, role: string, remark: string): number {
    const metaKey = `sim_${role}`;
    const row = store.query<{ value: string }>('SELECT value FROM spot_meta WHERE key = ?', metaKey)[0];
    let id = row === undefined ? undefined : Number(row.value);
    if (id === undefined || this.ctx.users.get(id) === undefined) {
      const user = this.ctx.users.createUser({ parentId: null, loginName: `sandbox_${role}`, remark });
      id = user.id;
      store.db.prepare('INSERT OR REPLACE INTO spot_meta (key, value) VALUES (?, ?)').run(metaKey, String(id));
      this.ctx.users.setFees(id, { maker_fee: '0', taker_fee: '0' });
      this.fund(id);
    }
    return id;
  }

  private fund(userId: number): void {
    this.ctx.db.transaction(() => {
      for (const [currency, amount] of Object.entries(FUNDING)) {
        this.ctx.ledger.credit({ userId, account: 'spot', currency }, amount, 'dnw', 'market simulation');
      }
    })();
  }

  /** Refills a simulation account whose available balance fell below a tenth of its funding. */
  private topUp(): void {
    for (const userId of [this.makerId, this.takerId]) {
      for (const [currency, amount] of Object.entries(FUNDING)) {
        const b = this.ctx.ledger.get({ userId, account: 'spot', currency });
        if (new Decimal(b.available).lt(new Decimal(amount).div(10))) {
          this.ctx.db.transaction(() =>
            this.ctx.ledger.credit({ userId, account: 'spot', currency }, amount, 'dnw', 'market simulation'),
          )();
        }
      }
    }
  }
}

function roundTo(text: string, decimals: number): string {
  return new Decimal(text).toDecimalPlaces(decimals, Decimal.ROUND_HALF_UP).toFixed();
}
