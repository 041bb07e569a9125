// The sandbox's spot markets: currency pairs with realistic precisions and minimums (modelled on the
// live platform's listings). Currencies, their names and starting prices come from the sandbox
// catalog (sandbox/catalog.ts), so the wallet and the market agree.

import { CURRENCIES, type CurrencyDef, currencyDef } from '../catalog';

export interface SpotPair {
  id: string;
  base: string;
  quote: string;
  baseName: string;
  quoteName: string;
  /** Decimals of prices. */
  precision: number;
  /** Decimals of base amounts. */
  amountPrecision: number;
  minBaseAmount: string;
  minQuoteAmount: string;
  maxBaseAmount: string | null;
  maxQuoteAmount: string | null;
  tradeStatus: 'untradable' | 'buyable' | 'sellable' | 'tradable';
}

export const SPOT_PAIRS: readonly SpotPair[] = [
  {
    id: 'BTC_USDT',
    base: 'BTC',
    quote: 'USDT',
    baseName: 'Bitcoin',
    quoteName: 'Tether',
    precision: 1,
    amountPrecision: 6,
    minBaseAmount: '0.00001',
    minQuoteAmount: '3',
    maxBaseAmount: null,
    maxQuoteAmount: '5000000',
    tradeStatus: 'tradable',
  },
  {
    id: 'ETH_USDT',
    base: 'ETH',
    quote: 'USDT',
    baseName: 'Ethereum',
    quoteName: 'Tether',
    precision: 2,
    amountPrecision: 4,
    minBaseAmount: '0.0001',
    minQuoteAmount: '3',
    maxBaseAmount: null,
    maxQuoteAmount: '5000000',
    tradeStatus: 'tradable',
  },
  {
    id: 'GT_USDT',
    base: 'GT',
    quote: 'USDT',
    baseName: 'GateToken',
    quoteName: 'Tether',
    precision: 3,
    amountPrecision: 2,
    minBaseAmount: '0.01',
    minQuoteAmount: '3',
    maxBaseAmount: null,
    maxQuoteAmount: '1000000',
    tradeStatus: 'tradable',
  },
  {
    id: 'XRP_USDT',
    base: 'XRP',
    quote: 'USDT',
    baseName: 'Ripple',
    quoteName: 'Tether',
    precision: 4,
    amountPrecision: 1,
    minBaseAmount: '1',
    minQuoteAmount: '3',
    maxBaseAmount: null,
    maxQuoteAmount: '1000000',
    tradeStatus: 'tradable',
  },
  {
    id: 'DOGE_USDT',
    base: 'DOGE',
    quote: 'USDT',
    baseName: 'Dogecoin',
    quoteName: 'Tether',
    precision: 5,
    amountPrecision: 0,
    minBaseAmount: '10',
    minQuoteAmount: '3',
    maxBaseAmount: null,
    maxQuoteAmount: '1000000',
    tradeStatus: 'tradable',
  },
];

export function findPair(id: string): SpotPair | undefined {
  return SPOT_PAIRS.find((p) => p.id === id);
}

/** Currencies listed by /spot/currencies: the catalog's. */
export const SPOT_CURRENCIES: readonly CurrencyDef[] = CURRENCIES;

export function findCurrency(currency: string): CurrencyDef | undefined {
  return currencyDef(currency);
}

/** Starting mid of a pair's simulated market: the catalog's static USDT price of the base. */
export function initialMid(pair: SpotPair): string {
  return currencyDef(pair.base)?.usdtPrice ?? '1';
}
