// Request parsing for spot orders: every check a placement or amendment goes through before any
// state changes, each failing with the platform's label (api-facts §1.1–1.4).

import { ApiFailure } from '../../http/errors';
import { parseScaled } from '../matching/decimal';
import type { OrderType, StpAct, TimeInForce } from '../matching/engine';
import { findPair, type SpotPair } from '../pairs';

export type ActionMode = 'ACK' | 'RESULT' | 'FULL';

export interface OrderRequest {
  pair: SpotPair;
  side: 'buy' | 'sell';
  type: OrderType;
  timeInForce: TimeInForce;
  /** Limit price in ticks; 0 for market orders. */
  price: number;
  /** Lots (limit, market sell) or quote units of 10^-(precision+amount_precision) (market buy). */
  amount: bigint;
  /** The amount as the client's decimal, normalised. */
  amountText: string;
  priceText: string;
  text: string;
  account: 'spot' | 'unified';
  stpAct: StpAct | null;
  actionMode: ActionMode;
}

const TEXT_RE = /^t-[0-9A-Za-z_.-]{1,28}$/;

const invalid = (message: string): never => {
  throw new ApiFailure('INVALID_PARAM_VALUE', message);
};
const missing = (name: string): never => {
  throw new ApiFailure('MISSING_REQUIRED_PARAM', `${name} is required`);
};

function optionalString(body: Record<string, unknown>, name: string): string | undefined {
  const v = body[name];
  if (v === undefined || v === null) return undefined;
  // A plain JSON number is read as its decimal text, as the platform does ("1e-7" then fails format).
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v !== 'string') return invalid(`${name} must be a string`);
  return v;
}

export function requirePair(id: unknown): SpotPair {
  if (id === undefined || id === null || id === '') return missing('currency_pair');
  if (typeof id !== 'string') return invalid('currency_pair must be a string');
  const pair = findPair(id);
  if (pair === undefined) throw new ApiFailure('INVALID_CURRENCY_PAIR', `Unknown currency pair ${id}`);
  return pair;
}

export function parseActionMode(value: unknown): ActionMode {
  if (value === undefined || value === null || value === '') return 'FULL';
  if (value === 'ACK' || value === 'RESULT' || value === 'FULL') return value;
  return invalid('action_mode must be ACK, RESULT or FULL');
}

export function parseAccount(value: unknown): 'spot' | 'unified' {
  if (value === undefined || value === null || value === '' || value === 'spot') return 'spot';
  if (value === 'unified') return 'unified';
  if (value === 'margin' || value === 'cross_margin') {
    throw new ApiFailure('MARGIN_NOT_SUPPORTED', 'The sandbox trades spot accounts only');
  }
  return invalid('account must be spot or unified');
}

/** Parses a price in ticks at the pair's precision. */
export function parsePrice(pair: SpotPair, text: string): number {
  const ticks = parseScaled(text, pair.precision);
  if (ticks === 'format') return invalid(`price must be a positive decimal string, got ${JSON.stringify(text)}`);
  if (ticks === 'precision') {
    throw new ApiFailure('INVALID_PRECISION', `price ${text} has more than ${pair.precision} decimals`);
  }
  if (ticks <= 0n) return invalid('price must be greater than 0');
  if (ticks > BigInt(Number.MAX_SAFE_INTEGER)) return invalid('price is too large');
  return Number(ticks);
}

/** Parses a base amount in lots at the pair's amount precision. */
export function parseBaseAmount(pair: SpotPair, text: string): bigint {
  const lots = parseScaled(text, pair.amountPrecision);
  if (lots === 'format') return invalid(`amount must be a positive decimal string, got ${JSON.stringify(text)}`);
  if (lots === 'precision') {
    throw new ApiFailure('INVALID_PRECISION', `amount ${text} has more than ${pair.amountPrecision} decimals`);
  }
  if (lots <= 0n) return invalid('amount must be greater than 0');
  return lots;
}

/** Scaled minimums of a pair: base in lots, quote in ticks × lots units. */
export function pairLimits(pair: SpotPair) {
  const quoteScale = pair.precision + pair.amountPrecision;
  const scaled = (text: string | null, scale: number) => (text === null ? null : (parseScaled(text, scale) as bigint));
  return {
    minBase: scaled(pair.minBaseAmount, pair.amountPrecision)!,
    minQuote: scaled(pair.minQuoteAmount, quoteScale)!,
    maxBase: scaled(pair.maxBaseAmount, pair.amountPrecision),
    maxQuote: scaled(pair.maxQuoteAmount, quoteScale),
  };
}

export function checkLimitSize(pair: SpotPair, lots: bigint, ticks: number): void {
  const limits = pairLimits(pair);
  const quote = lots * BigInt(ticks);
  if (lots < limits.minBase) {
    throw new ApiFailure('AMOUNT_TOO_LITTLE', `amount is below the minimum ${pair.minBaseAmount} ${pair.base}`);
  }
  if (quote < limits.minQuote) {
    throw new ApiFailure('AMOUNT_TOO_LITTLE', `order total is below the minimum ${pair.minQuoteAmount} ${pair.quote}`);
  }
  if (limits.maxBase !== null && lots > limits.maxBase) {
    throw new ApiFailure('AMOUNT_TOO_MUCH', `amount is above the maximum ${pair.maxBaseAmount} ${pair.base}`);
  }
  if (limits.maxQuote !== null && quote > limits.maxQuote) {
    throw new ApiFailure('AMOUNT_TOO_MUCH', `order total is above the maximum ${pair.maxQuoteAmount} ${pair.quote}`);
  }
}

/** Validates a placement body (POST /spot/orders or one item of a batch). Changes nothing. */
export function parseOrderRequest(raw: unknown): OrderRequest {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ApiFailure('INVALID_REQUEST_BODY', 'The order must be a JSON object');
  }
  const body = raw as Record<string, unknown>;
  const pair = requirePair(body.currency_pair);
  if (pair.tradeStatus === 'untradable') throw new ApiFailure('TRADE_RESTRICTED', `${pair.id} is not tradable`);

  const side = optionalString(body, 'side') ?? missing('side');
  if (side !== 'buy' && side !== 'sell') return invalid('side must be buy or sell');

  const type = optionalString(body, 'type') ?? 'limit';
  if (type !== 'limit' && type !== 'market') return invalid('type must be limit or market');

  const account = parseAccount(body.account);
  const tifText = optionalString(body, 'time_in_force') ?? (type === 'market' ? 'ioc' : 'gtc');
  if (tifText !== 'gtc' && tifText !== 'ioc' && tifText !== 'poc' && tifText !== 'fok') {
    return invalid('time_in_force must be gtc, ioc, poc or fok');
  }
  if (type === 'market' && (tifText === 'gtc' || tifText === 'poc')) {
    return invalid('market orders accept time_in_force ioc or fok only');
  }

  const iceberg = optionalString(body, 'iceberg');
  if (iceberg !== undefined && !/^0*(\.0*)?$/.test(iceberg)) {
    return invalid('iceberg orders are not supported by the sandbox; send iceberg "0" or omit it');
  }

  let text = 'apiv4';
  const clientText = optionalString(body, 'text');
  if (clientText !== undefined && clientText !== '') {
    if (!TEXT_RE.test(clientText)) {
      return invalid('text must start with t- followed by 1 to 28 characters of 0-9 A-Z a-z _ - .');
    }
    text = clientText;
  }

  const stpText = optionalString(body, 'stp_act');
  let stpAct: StpAct | null = null;
  if (stpText !== undefined && stpText !== '' && stpText !== '-') {
    if (stpText !== 'cn' && stpText !== 'co' && stpText !== 'cb') return invalid('stp_act must be cn, co or cb');
    stpAct = stpText;
  }
  const actionMode = parseActionMode(body.action_mode);

  const amountText = optionalString(body, 'amount') ?? missing('amount');
  const priceRaw = optionalString(body, 'price');
  let price = 0;
  let amount: bigint;
  if (type === 'limit') {
    if (priceRaw === undefined || priceRaw === '') return missing('price');
    price = parsePrice(pair, priceRaw);
    amount = parseBaseAmount(pair, amountText);
    checkLimitSize(pair, amount, price);
  } else if (side === 'buy') {
    // A market buy's amount is the quote currency to spend, at the pair's price precision.
    const quote = parseScaled(amountText, pair.precision);
    if (quote === 'format')
      return invalid(`amount must be a positive decimal string, got ${JSON.stringify(amountText)}`);
    if (quote === 'precision') {
      throw new ApiFailure('INVALID_PRECISION', `market buy amount has more than ${pair.precision} decimals`);
    }
    if (quote <= 0n) return invalid('amount must be greater than 0');
    amount = quote * 10n ** BigInt(pair.amountPrecision);
    const limits = pairLimits(pair);
    if (amount < limits.minQuote) {
      throw new ApiFailure('AMOUNT_TOO_LITTLE', `amount is below the minimum ${pair.minQuoteAmount} ${pair.quote}`);
    }
    if (limits.maxQuote !== null && amount > limits.maxQuote) {
      throw new ApiFailure('AMOUNT_TOO_MUCH', `amount is above the maximum ${pair.maxQuoteAmount} ${pair.quote}`);
    }
  } else {
    amount = parseBaseAmount(pair, amountText);
    const limits = pairLimits(pair);
    if (amount < limits.minBase) {
      throw new ApiFailure('AMOUNT_TOO_LITTLE', `amount is below the minimum ${pair.minBaseAmount} ${pair.base}`);
    }
    if (limits.maxBase !== null && amount > limits.maxBase) {
      throw new ApiFailure('AMOUNT_TOO_MUCH', `amount is above the maximum ${pair.maxBaseAmount} ${pair.base}`);
    }
  }
  return {
    pair,
    side,
    type,
    timeInForce: tifText,
    price,
    amount,
    amountText,
    priceText: type === 'limit' ? priceRaw! : '0',
    text,
    account,
    stpAct,
    actionMode,
  };
}
