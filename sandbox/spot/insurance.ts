// GET /spot/insurance_history (api-facts §1.15; shape from the official SDKs' SpotInsuranceHistory:
// {currency, balance, time}). The sandbox has no liquidations, so it answers a small seeded daily
// series instead: one point per day at 00:00 UTC, a fixed starting balance per currency moving by a
// deterministic few per mille a day. The same query always answers the same rows.

import Decimal from 'decimal.js';
import { ApiFailure } from '../http/errors';
import { optInt, reqEnum, reqInt, reqString } from '../http/params';
import { findCurrency } from './pairs';

const DAY_S = 86_400;
/** Longest range of one query (the platform's is not published). */
const MAX_RANGE_S = 366 * DAY_S;

/** Starting fund in each currency; others get 10 000 USDT worth at the catalog price. */
const BASE: Readonly<Record<string, string>> = { USDT: '25000000', BTC: '310', ETH: '5200', GT: '900000' };

export interface InsurancePoint {
  currency: string;
  balance: string;
  time: number;
}

function balanceOn(currency: string, usdtPrice: string, day: number): string {
  const base = new Decimal(BASE[currency] ?? new Decimal(10_000).div(usdtPrice).toFixed(8));
  // A deterministic wobble of -0.8 % … +0.8 % around a slow upward drift.
  const wobble = (((day * 7919 + currency.length * 104_729) % 17) - 8) / 1000;
  const drift = (day % 3650) / 36_500;
  return base
    .mul(1 + wobble + drift)
    .toDecimalPlaces(8, Decimal.ROUND_DOWN)
    .toFixed();
}

/** Query: business (margin|unified), currency, from, to (s), page (from 1), limit (1–500, default 30). */
export function insuranceHistory(query: Readonly<Record<string, string>>): InsurancePoint[] {
  reqEnum(query, 'business', ['margin', 'unified'] as const);
  const currency = reqString(query, 'currency', 32);
  const def = findCurrency(currency);
  if (def === undefined) throw new ApiFailure('INVALID_CURRENCY', `Unknown currency ${currency}`);
  const from = reqInt(query, 'from', { min: 0 });
  const to = reqInt(query, 'to', { min: 0 });
  if (from > to) throw new ApiFailure('INVALID_PARAM_VALUE', 'from must not be after to');
  if (to - from > MAX_RANGE_S)
    throw new ApiFailure('INVALID_PARAM_VALUE', 'from and to must be at most 366 days apart');
  const page = optInt(query, 'page', { min: 1 }) ?? 1;
  const limit = optInt(query, 'limit', { min: 1, max: 500 }) ?? 30;
  const firstDay = Math.ceil(from / DAY_S);
  const lastDay = Math.floor(to / DAY_S);
  const out: InsurancePoint[] = [];
  // Newest first.
  for (let day = lastDay - (page - 1) * limit; day >= firstDay && out.length < limit; day--) {
    out.push({ currency: def.currency, balance: balanceOn(def.currency, def.usdtPrice, day), time: day * DAY_S });
  }
  return out;
}
