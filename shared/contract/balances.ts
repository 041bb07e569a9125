/**
 * Operations of the `balances` area: the total by account type, spot balances, the total over time
 * (from the core's local snapshots), the firm-wide view of main and every sub-account, and small
 * balances with their conversion. See docs/architecture.md, "How to add an operation".
 * Amounts are decimal strings; times are Unix seconds.
 */
import { z } from 'zod';
import { operation } from '../ipc/define';
import { CurrencyCode, DecimalText } from './funding';

/** Currencies the platform can express the total in (GET /wallet/total_balance?currency=). */
export const ValuationCurrency = z.enum(['USDT', 'BTC', 'USD', 'CNY']);
export type ValuationCurrency = z.infer<typeof ValuationCurrency>;

export const ValuedAmount = z.object({
  amount: DecimalText,
  currency: z.string(),
  unrealisedPnl: DecimalText.optional(),
  borrowed: DecimalText.optional(),
});
export type ValuedAmount = z.infer<typeof ValuedAmount>;

export const TotalBalance = z.object({
  total: ValuedAmount,
  /** Per account type (spot, margin, futures, cross_margin, …), as the platform lists them. */
  details: z.array(ValuedAmount.extend({ account: z.string() })),
  /** When main fetched it (the platform may cache balances up to 1 minute). */
  fetchedAt: z.number(),
});
export type TotalBalance = z.infer<typeof TotalBalance>;

export const SpotBalance = z.object({
  currency: z.string(),
  available: DecimalText,
  locked: DecimalText,
  /** available + locked, computed exactly. */
  total: DecimalText,
});
export type SpotBalance = z.infer<typeof SpotBalance>;

export const TotalPoint = z.object({ time: z.number(), amount: DecimalText, currency: z.string() });
export type TotalPoint = z.infer<typeof TotalPoint>;

export const SmallBalance = z.object({
  currency: z.string(),
  available: DecimalText,
  estimatedBtc: DecimalText,
  /** What converting it would give, in GT. */
  convertibleToGt: DecimalText,
});
export type SmallBalance = z.infer<typeof SmallBalance>;

export const SmallBalanceConversion = z.object({
  id: z.string(),
  currency: z.string(),
  amount: DecimalText,
  gtAmount: DecimalText,
  createTime: z.number(),
});
export type SmallBalanceConversion = z.infer<typeof SmallBalanceConversion>;

/** What the firm-wide view values everything in (from the platform's spot tickers). */
export const FirmQuote = z.enum(['USDT', 'USD', 'BTC']);
export type FirmQuote = z.infer<typeof FirmQuote>;

/** Every account type the firm-wide view reads, for main and sub-accounts alike. */
export const FirmAccountType = z.enum(['spot', 'margin', 'crossMargin', 'futures', 'delivery', 'options']);
export type FirmAccountType = z.infer<typeof FirmAccountType>;

export const FirmHolding = z.object({
  account: FirmAccountType,
  currency: z.string(),
  /** Net amount of the currency held there (available + locked − borrowed − interest). */
  amount: DecimalText,
  /** Its value in the quote; null when the platform has no price for it (then it is not in any total). */
  value: DecimalText.nullable(),
  /** Detail in plain words (e.g. "BTC_USDT pair", "borrowed 5", "USDT-settled"). */
  note: z.string().optional(),
});
export type FirmHolding = z.infer<typeof FirmHolding>;

export const FirmAccount = z.object({
  uid: z.string(),
  label: z.string(),
  role: z.enum(['main', 'sub']),
  frozen: z.boolean().optional(),
  holdings: z.array(FirmHolding),
  /** Sum of the priced holdings' values. */
  value: DecimalText,
  /** Per account type: why it could not be read (plain words). Its holdings are then unknown, not zero. */
  errors: z.record(z.string(), z.string()),
});
export type FirmAccount = z.infer<typeof FirmAccount>;

export const FirmView = z.object({
  quote: FirmQuote,
  /** Unix seconds. */
  fetchedAt: z.number(),
  /** The price of each held currency in the quote (only those the platform prices). */
  prices: z.record(z.string(), DecimalText),
  accounts: z.array(FirmAccount),
  /** Per currency over the whole firm. */
  currencies: z.array(z.object({ currency: z.string(), amount: DecimalText, value: DecimalText.nullable() })),
  /** The firm total: every priced holding of every account. */
  total: DecimalText,
  /** Held currencies without a price (left out of the totals, listed so nothing is silently missing). */
  unpriced: z.array(z.string()),
  /** Whether some account type of some account could not be read (the total is then a lower bound). */
  incomplete: z.boolean(),
  /** How the quote was derived, in words (e.g. "USD valued at 1 USDT = 1 USD"). */
  basis: z.string(),
});
export type FirmView = z.infer<typeof FirmView>;

export const balances = {
  total: operation(
    'Total balance and its split by account type (GET /wallet/total_balance); also records a local snapshot.',
    z.object({ currency: ValuationCurrency.default('USDT') }),
    TotalBalance,
  ),
  spot: operation(
    'Spot account balances of the active profile, non-zero first (GET /spot/accounts).',
    z.object({}),
    z.array(SpotBalance),
  ),
  totalHistory: operation(
    'Total balance over time from the local snapshots kept by main.',
    z.object({ currency: ValuationCurrency.default('USDT'), since: z.number().int().nonnegative().optional() }),
    z.array(TotalPoint),
  ),
  firm: operation(
    'The firm-wide view: main and every sub-account × every account type, valued in the quote from the spot tickers, with the firm total, per-account and per-currency totals; also records a point of the firm total over time.',
    z.object({ quote: FirmQuote.default('USDT') }).strict(),
    FirmView,
  ),
  firmHistory: operation(
    'The firm total over time, from the points recorded by balances.firm (at most one a minute).',
    z.object({ quote: FirmQuote.default('USDT'), since: z.number().int().nonnegative().optional() }).strict(),
    z.array(TotalPoint),
  ),
  smallBalances: operation(
    'Balances too small to trade and what converting them to GT would give (GET /wallet/small_balance).',
    z.object({}),
    z.array(SmallBalance),
  ),
  convertSmallBalances: operation(
    'Convert small balances to GT (POST /wallet/small_balance): the listed currencies, or all of them.',
    z.union([
      z.object({ currencies: z.array(CurrencyCode).min(1, 'Choose at least one currency').max(100) }),
      z.object({ all: z.literal(true) }),
    ]),
    z.object({ converted: z.array(z.string()) }),
  ),
  smallBalanceHistory: operation(
    'Past small-balance conversions (GET /wallet/small_balance_history).',
    z.object({ currency: CurrencyCode.optional() }),
    z.array(SmallBalanceConversion),
  ),
};
