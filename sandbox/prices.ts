/**
 * USDT prices of currencies. STABLE EXTENSION POINT: the market module replaces the static prices
 * with live ones via `ctx.prices.setProvider(currency => lastTradePrice | undefined)`; whatever the
 * provider does not know falls back to the static price of sandbox/catalog.ts. Used by
 * GET /wallet/total_balance and the small-balance endpoints.
 */
import Decimal from 'decimal.js';
import { CURRENCIES } from './catalog';

export type PriceProvider = (currency: string) => string | undefined;

export class Prices {
  private readonly staticPrices = new Map(CURRENCIES.map((c) => [c.currency, c.usdtPrice]));
  private provider: PriceProvider | undefined;

  setProvider(provider: PriceProvider | undefined): void {
    this.provider = provider;
  }

  /** Price of one unit in USDT, or undefined when unknown. */
  usdt(currency: string): Decimal | undefined {
    if (currency === 'USDT') return new Decimal(1);
    const live = this.provider?.(currency);
    const price = live ?? this.staticPrices.get(currency);
    return price === undefined ? undefined : new Decimal(price);
  }

  /** Value of `amount` of `currency` in USDT (0 when the price is unknown). */
  valueUsdt(currency: string, amount: Decimal.Value): Decimal {
    const price = this.usdt(currency);
    return price ? price.times(amount) : new Decimal(0);
  }
}
