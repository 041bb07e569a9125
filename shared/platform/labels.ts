/**
 * The platform's error labels, by category, exactly as the spec's "Errors" table lists them.
 * Programs match on `label`; `message` is explanatory only. Pure data (shared by the sandbox and
 * the app's main process).
 */
import { z } from 'zod';

export const ERROR_LABELS = {
  request: [
    'INVALID_PARAM_VALUE',
    'INVALID_PROTOCOL',
    'INVALID_ARGUMENT',
    'INVALID_REQUEST_BODY',
    'MISSING_REQUIRED_PARAM',
    'BAD_REQUEST',
    'INVALID_CONTENT_TYPE',
    'NOT_ACCEPTABLE',
    'METHOD_NOT_ALLOWED',
    'NOT_FOUND',
  ],
  authentication: [
    'INVALID_CREDENTIALS',
    'INVALID_KEY',
    'IP_FORBIDDEN',
    'READ_ONLY',
    'INVALID_SIGNATURE',
    'MISSING_REQUIRED_HEADER',
    'REQUEST_EXPIRED',
    'ACCOUNT_LOCKED',
    'FORBIDDEN',
    'API_WITHDRAW_DISABLED',
    'INVALID_WITHDRAW_ID',
    'INVALID_WITHDRAW_CANCEL_STATUS',
  ],
  wallet: [
    'SUB_ACCOUNT_NOT_FOUND',
    'SUB_ACCOUNT_LOCKED',
    'MARGIN_BALANCE_EXCEPTION',
    'MARGIN_TRANSFER_FAILED',
    'TOO_MUCH_FUTURES_AVAILABLE',
    'FUTURES_BALANCE_NOT_ENOUGH',
    'ACCOUNT_EXCEPTION',
    'SUB_ACCOUNT_TRANSFER_FAILED',
    'ADDRESS_NOT_USED',
    'TOO_FAST',
    'WITHDRAWAL_OVER_LIMIT',
    'DUPLICATE_REQUEST',
    'ORDER_EXISTS',
    'INVALID_CLIENT_ORDER_ID',
    'RISK_ERROR',
    'NEGATIVE_ASSETS',
    'RECEIVE_ERROR',
    'DEDUCTION_ERROR',
    'FINANCE_ERROR',
    'BALANCE_NOT_ENOUGH',
  ],
  spot: [
    'INVALID_PRECISION',
    'INVALID_CURRENCY',
    'INVALID_CURRENCY_PAIR',
    'POC_FILL_IMMEDIATELY',
    'ORDER_NOT_FOUND',
    'ORDER_CLOSED',
    'ORDER_CANCELLED',
    'QUANTITY_NOT_ENOUGH',
    'BALANCE_NOT_ENOUGH',
    'MARGIN_NOT_SUPPORTED',
    'MARGIN_BALANCE_NOT_ENOUGH',
    'AMOUNT_TOO_LITTLE',
    'AMOUNT_TOO_MUCH',
    'REPEATED_CREATION',
    'LOAN_NOT_FOUND',
    'LOAN_RECORD_NOT_FOUND',
    'NO_MATCHED_LOAN',
    'NOT_MERGEABLE',
    'NO_CHANGE',
    'REPAY_TOO_MUCH',
    'TOO_MANY_CURRENCY_PAIRS',
    'TOO_MANY_ORDERS',
    'MIXED_ACCOUNT_TYPE',
    'AUTO_BORROW_TOO_MUCH',
    'TRADE_RESTRICTED',
    'FOK_NOT_FILL',
    'INITIAL_MARGIN_TOO_LOW',
    'NO_MERGEABLE_ORDERS',
    'ORDER_BOOK_NOT_FOUND',
    'FAILED_RETRIEVE_ASSETS',
    'CANCEL_FAIL',
    'PRICE_THRESHOLD_EXCEEDED',
  ],
  futures: [
    'USER_NOT_FOUND',
    'CONTRACT_NO_COUNTER',
    'CONTRACT_NOT_FOUND',
    'RISK_LIMIT_EXCEEDED',
    'INSUFFICIENT_AVAILABLE',
    'LIQUIDATE_IMMEDIATELY',
    'LEVERAGE_TOO_HIGH',
    'LEVERAGE_TOO_LOW',
    'ORDER_NOT_FOUND',
    'ORDER_NOT_OWNED',
    'ORDER_FINISHED',
    'TOO_MANY_ORDERS',
    'POSITION_CROSS_MARGIN',
    'POSITION_IN_LIQUIDATION',
    'POSITION_IN_CLOSE',
    'POSITION_EMPTY',
    'REMOVE_TOO_MUCH',
    'RISK_LIMIT_NOT_MULTIPLE',
    'RISK_LIMIT_TOO_HIGH',
    'RISK_LIMIT_TOO_lOW',
    'PRICE_TOO_DEVIATED',
    'SIZE_TOO_LARGE',
    'SIZE_TOO_SMALL',
    'PRICE_OVER_LIQUIDATION',
    'PRICE_OVER_BANKRUPT',
    'ORDER_POC_IMMEDIATE',
    'INCREASE_POSITION',
    'CONTRACT_IN_DELISTING',
    'POSITION_NOT_FOUND',
    'POSITION_DUAL_MODE',
    'ORDER_PENDING',
    'POSITION_HOLDING',
    'REDUCE_EXCEEDED',
    'NO_CHANGE',
    'AMEND_WITH_STOP',
    'ORDER_FOK',
  ],
  collateralLoans: [
    'COL_NOT_ENOUGH',
    'COL_TOO_MUCH',
    'INIT_LTV_TOO_HIGH',
    'REDEEMED_LTV_TOO_HIGH',
    'BORROWABLE_NOT_ENOUGH',
    'ORDER_TOO_MANY_TOTAL',
    'ORDER_TOO_MANY_DAILY',
    'ORDER_TOO_MANY_USER',
    'ORDER_NOT_EXIST',
    'ORDER_FINISHED',
    'ORDER_NO_PAY',
    'ORDER_EXIST',
    'ORDER_HISTORY_EXIST',
    'ORDER_REPAYING',
    'ORDER_LIQUIDATING',
    'BORROW_TOO_LITTLE',
    'BORROW_TOO_LARGE',
    'REPAY_AMOUNT_INVALID',
    'REPAY_GREATER_THAN_AVAILABLE',
    'POOL_BALANCE_NOT_ENOUGH',
    'CURRENCY_SETTLING',
    'RISK_REJECT',
    'LOAN_FAILED',
  ],
  spotMarginMode: ['USER_LIAB', 'USER_PENDING_ORDERS', 'MODE_SET'],
  earn: [
    'ERR_BALANCE_NOT_ENOUGH',
    'ERR_PRODUCT_SELL_OUT',
    'ERR_PRODUCT_BUY',
    'ERR_CREATE_ORDER',
    'ERR_QUOTA_LOWER_LIMIT',
    'ERR_QUOTA_SUPERIOR_LIMIT',
    'ERR_ORDER_NUMBER_LIMIT',
    'ERR_PRODUCT_CLOSE',
    'COPIES_NOT_ENOUGH',
    'COPIES_TOO_SMALL',
    'COPIES_TOO_BIG',
    'TOTAL_AMOUNT_24',
    'TOTAL_BUYCOUNT_24',
    'REDEEM_24_LIMIT',
  ],
  server: ['INTERNAL', 'SERVER_ERROR', 'TOO_BUSY'],
  flashSwap: [
    'INVALID_PARAM_VALUE',
    'INVALID_CURRENCY',
    'INVALID_CURRENCY_PAIR',
    'PRICE_OBSOLETE',
    'ORDER_NOT_FOUND',
    'ORDER_BOOK_NOT_FOUND',
    'BALANCE_NOT_ENOUGH',
    'TOO_MANY_REQUESTS',
    'QUOTA_NOT_ENOUGH',
    'SERVER_TIMEOUT',
    'MISSING_REQUIRED_PARAM',
    'REQUEST_FORBIDDEN',
    'CONVERT_PREVIEW_EXPIRED',
    'CONVERT_PREVIEW_NOT_MATCH',
    'AMOUNT_TOO_LITTLE',
    'AMOUNT_TOO_MUCH',
  ],
} as const;

export type ErrorCategory = keyof typeof ERROR_LABELS;
export type ErrorLabel = (typeof ERROR_LABELS)[ErrorCategory][number];

/** Every label the sandbox may answer with (a Set for quick membership tests). */
/**
 * Labels with which the platform says "you already sent this id": the first request counts. Main's
 * journal treats them as "executed, settle by asking"; screens show such a movement as needing a
 * person when the platform's records then do not show it.
 */
export const DUPLICATE_REQUEST_LABELS: ReadonlySet<string> = new Set([
  'DUPLICATE_REQUEST',
  'ORDER_EXISTS',
  'REPEATED_CREATION',
]);

export const ALL_ERROR_LABELS: ReadonlySet<string> = new Set(Object.values(ERROR_LABELS).flat());

export function isErrorLabel(value: string): value is ErrorLabel {
  return ALL_ERROR_LABELS.has(value);
}

/** First category listing the label (some labels appear in several categories: the first wins). */
export function labelCategory(label: string): ErrorCategory | undefined {
  for (const [category, labels] of Object.entries(ERROR_LABELS) as [ErrorCategory, readonly string[]][]) {
    if (labels.includes(label)) return category;
  }
  return undefined;
}

/** The body of every non-2xx answer. */
export const ErrorBody = z.object({ label: z.string(), message: z.string() });
export type ErrorBody = z.infer<typeof ErrorBody>;
