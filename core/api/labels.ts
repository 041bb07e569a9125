/**
 * Every platform error label the app can meet (spec "Errors" and "Authentication"; api-facts §4),
 * in plain words with what to do about it. Screens show `explanation` and `advice`; programs key on
 * the label only (the platform's message is free text).
 */
import { SAME_ADDRESS_WITHDRAWAL } from '../../shared/platform/limits';

export interface LabelHelp {
  /** What happened, in words for the person at the screen. */
  readonly explanation: string;
  /** What to do next. */
  readonly advice: string;
}

const h = (explanation: string, advice: string): LabelHelp => ({ explanation, advice });

// Main cannot know which field (if any) a screen highlights for a refusal, so its advice names
// none: a form that highlights one says which itself ("Highlighted: Amount.").
const CHECK_INPUT = 'Check the values you entered and try again.';
const TRY_LATER = 'Wait a moment and try again; if it keeps happening, contact the platform’s support.';

export const LABELS: Readonly<Record<string, LabelHelp>> = {
  // Request format
  INVALID_PARAM_VALUE: h('A value in the request was not accepted by the platform.', CHECK_INPUT),
  INVALID_PROTOCOL: h('The platform did not accept the protocol of the request.', 'Update the app.'),
  INVALID_ARGUMENT: h('An argument of the request was not accepted by the platform.', CHECK_INPUT),
  INVALID_REQUEST_BODY: h('The platform could not read the request.', 'Update the app; this is a bug if it persists.'),
  MISSING_REQUIRED_PARAM: h('A required value was missing from the request.', CHECK_INPUT),
  BAD_REQUEST: h('The platform refused the request as malformed.', CHECK_INPUT),
  INVALID_CONTENT_TYPE: h('The platform did not accept the request format.', 'Update the app.'),
  NOT_ACCEPTABLE: h('The platform cannot answer in the format the app asks for.', 'Update the app.'),
  METHOD_NOT_ALLOWED: h(
    'The platform does not allow this operation here.',
    'Update the app; the profile may point at an entry that does not offer this operation.',
  ),
  NOT_FOUND: h(
    'The platform does not know this address or record.',
    'Check the profile’s address (futures-only entries do not offer wallet or spot operations).',
  ),
  // Authentication
  INVALID_CREDENTIALS: h(
    'The platform did not accept the key’s credentials.',
    'Check that the key and secret belong to this environment and re-enter them in Settings → Profiles.',
  ),
  INVALID_KEY: h(
    'The platform does not know this API key.',
    'Check the key in Settings → Profiles: it may be deleted, mistyped, or a key of another environment (testnet vs live) or of the old v2 API.',
  ),
  IP_FORBIDDEN: h(
    'This computer’s IP address is not in the key’s whitelist.',
    'Add this computer’s public IP address to the key’s whitelist on the platform (changes take up to 5 minutes), or use a key without a whitelist.',
  ),
  READ_ONLY: h(
    'The key may only read; this operation changes something.',
    'Give the key read-write permission for this group on the platform, or use another key.',
  ),
  INVALID_SIGNATURE: h(
    'The platform could not verify the request’s signature.',
    'Re-enter the secret of this key in Settings → Profiles; check it is the secret of exactly this key and environment.',
  ),
  MISSING_REQUIRED_HEADER: h('The request lacked an authentication header.', 'Update the app; this is a bug.'),
  REQUEST_EXPIRED: h(
    'The request’s time differs from the platform’s by more than 60 seconds.',
    'The app corrects the clock by itself; if this persists, set this computer’s clock automatically (NTP).',
  ),
  ACCOUNT_LOCKED: h(
    'The account is locked (frozen).',
    'Unlock it (a frozen sub-account is unlocked from the main account) or contact support.',
  ),
  FORBIDDEN: h(
    'The key is not allowed to do this (missing permission, IP not whitelisted, or a sub-account key where a main key is needed).',
    'Check the key’s permissions and IP whitelist on the platform; money moves between main and sub-accounts and withdrawals need the main account’s key.',
  ),
  AUTHENTICATION_FAILED: h(
    'The platform did not accept the key.',
    'Re-enter the key and secret in Settings → Profiles.',
  ),
  API_WITHDRAW_DISABLED: h(
    'Withdrawals through the API are disabled for this account or currency.',
    'Enable API withdrawals on the platform’s website, or withdraw there.',
  ),
  INVALID_WITHDRAW_ID: h('There is no withdrawal with this id.', 'Refresh the withdrawal list.'),
  INVALID_WITHDRAW_CANCEL_STATUS: h(
    'The withdrawal can no longer be cancelled in its current state.',
    'Refresh: it has progressed too far to cancel.',
  ),
  // Wallet
  SUB_ACCOUNT_NOT_FOUND: h('The platform does not know this sub-account.', 'Refresh the sub-account list.'),
  SUB_ACCOUNT_LOCKED: h('The sub-account is frozen.', 'Unfreeze it first (Sub-accounts → Unfreeze).'),
  MARGIN_BALANCE_EXCEPTION: h('The margin account is in an abnormal state.', TRY_LATER),
  MARGIN_TRANSFER_FAILED: h('The margin transfer failed.', 'Check the margin account’s debt and available balance.'),
  TOO_MUCH_FUTURES_AVAILABLE: h('The futures balance would exceed its maximum.', 'Transfer a smaller amount.'),
  FUTURES_BALANCE_NOT_ENOUGH: h(
    'The futures account does not hold enough.',
    'Transfer a smaller amount or add funds to the futures account.',
  ),
  ACCOUNT_EXCEPTION: h('The account is in an abnormal state.', 'Contact the platform’s support.'),
  SUB_ACCOUNT_TRANSFER_FAILED: h(
    'The sub-account transfer failed.',
    'Check both accounts’ balances and state, then try again.',
  ),
  ADDRESS_NOT_USED: h(
    'Withdrawals through the API only go to addresses already used on the website or saved and verified there.',
    'Save and verify this address in the platform’s address book (or withdraw to it once on the website), then try again.',
  ),
  // The words name the platform's real window for POST /withdrawals (shared/platform/limits.ts);
  // the screen adds the exact time left, counting down.
  TOO_FAST: h(
    `Withdrawals to the same address were requested too quickly: the platform accepts ${SAME_ADDRESS_WITHDRAWAL.words}.`,
    'Nothing was sent. Send it again when the countdown ends.',
  ),
  WITHDRAWAL_OVER_LIMIT: h(
    'The amount exceeds the withdrawal limit (per withdrawal or today’s remaining).',
    'Withdraw less, or wait until the daily limit resets.',
  ),
  DUPLICATE_REQUEST: h(
    'The platform already received this request.',
    'Nothing to do: the first one counts; check its status.',
  ),
  ORDER_EXISTS: h(
    'An order with this client id already exists.',
    'Nothing to do: the first one counts; check its status.',
  ),
  INVALID_CLIENT_ORDER_ID: h('The client order id was not accepted.', 'Update the app; this is a bug.'),
  RISK_ERROR: h('The platform’s risk control refused the operation.', 'Contact the platform’s support.'),
  NEGATIVE_ASSETS: h('The account has negative assets.', 'Repay or add funds first.'),
  RECEIVE_ERROR: h('The receiving account could not accept the funds.', 'Check the receiver and try again.'),
  DEDUCTION_ERROR: h('The platform could not deduct the amount.', TRY_LATER),
  FINANCE_ERROR: h('The platform’s finance service refused the operation.', TRY_LATER),
  BALANCE_NOT_ENOUGH: h(
    'The account does not hold enough for this (including fees and amounts locked in orders).',
    'Use a smaller amount or move funds into this account first.',
  ),
  // Spot and margin
  INVALID_PRECISION: h(
    'The amount or price has more decimals than this market or currency allows.',
    'Round to the allowed number of decimals.',
  ),
  INVALID_CURRENCY: h('The platform does not know this currency.', 'Pick the currency from the list.'),
  INVALID_CURRENCY_PAIR: h('The platform does not know this market.', 'Pick the market from the list.'),
  POC_FILL_IMMEDIATELY: h(
    'A post-only order would have traded at once, so it was refused.',
    'Move the price away from the other side of the book or use another time in force.',
  ),
  ORDER_NOT_FOUND: h(
    'The platform does not know this order (it may be finished and no longer queryable).',
    'Refresh the order list.',
  ),
  CLIENT_ID_NOT_FOUND: h('No order carries this client id any more.', 'Refresh the order list.'),
  ORDER_CLOSED: h('The order is already filled.', 'Refresh the order list.'),
  ORDER_CANCELLED: h('The order is already cancelled.', 'Refresh the order list.'),
  QUANTITY_NOT_ENOUGH: h('The remaining quantity is too small for this.', CHECK_INPUT),
  MARGIN_NOT_SUPPORTED: h('This market does not support margin.', 'Use the spot account.'),
  MARGIN_BALANCE_NOT_ENOUGH: h(
    'The margin account does not hold enough.',
    'Use a smaller amount or transfer funds first.',
  ),
  AMOUNT_TOO_LITTLE: h(
    'The amount is below this market’s minimum.',
    'Increase the amount to at least the minimum shown.',
  ),
  AMOUNT_TOO_MUCH: h('The amount is above this market’s maximum.', 'Reduce the amount.'),
  REPEATED_CREATION: h('This was already created.', 'Refresh to see it.'),
  NO_CHANGE: h('Nothing would change.', 'Change a value first.'),
  LOAN_NOT_FOUND: h('The platform does not know this margin loan.', 'Refresh the margin account.'),
  LOAN_RECORD_NOT_FOUND: h('The platform does not know this loan record.', 'Refresh the margin account.'),
  NO_MATCHED_LOAN: h('No loan matches this request.', 'Refresh the margin account.'),
  NOT_MERGEABLE: h('These loans cannot be merged.', 'Repay or manage them one by one.'),
  NO_MERGEABLE_ORDERS: h('There are no orders that can be merged.', 'Nothing to do.'),
  REPAY_TOO_MUCH: h('The repayment is larger than the debt.', 'Repay at most the amount owed.'),
  TOO_MANY_CURRENCY_PAIRS: h('A batch covered too many markets.', 'Send fewer markets per batch.'),
  TOO_MANY_ORDERS: h('Too many orders in one batch or open at once.', 'Send fewer orders at a time.'),
  MIXED_ACCOUNT_TYPE: h('A batch mixed account types.', 'Use one account type per batch.'),
  AUTO_BORROW_TOO_MUCH: h('Automatic borrowing would exceed the limit.', 'Reduce the amount.'),
  TRADE_RESTRICTED: h('Trading is restricted because the debt ratio is high.', 'Repay debt or add collateral.'),
  FOK_NOT_FILL: h(
    'A fill-or-kill order could not be filled completely, so nothing traded.',
    'Reduce the amount or change the price.',
  ),
  INITIAL_MARGIN_TOO_LOW: h('The initial margin is too low.', 'Add collateral.'),
  ORDER_BOOK_NOT_FOUND: h(
    'There is not enough liquidity in the book for this.',
    'Use a limit order or a smaller amount.',
  ),
  FAILED_RETRIEVE_ASSETS: h('The platform could not read the account’s assets.', TRY_LATER),
  CANCEL_FAIL: h('The order could not be cancelled.', 'Refresh: it may already be filled or cancelled.'),
  PRICE_THRESHOLD_EXCEEDED: h('The price is too far from the market price.', 'Bring the price closer to the market.'),
  USER_NOT_FOUND: h(
    'There is no account of this kind yet (e.g. no futures account for this settle currency).',
    'Transfer funds into that account first to open it.',
  ),
  // Rate limits and server
  TOO_MANY_REQUESTS: h('Too many requests in a short time.', 'The app slows down by itself; wait a few seconds.'),
  INTERNAL: h('The platform had an internal error.', TRY_LATER),
  SERVER_ERROR: h('The platform had a server error.', TRY_LATER),
  INTERNAL_SERVER_ERROR: h('The platform had a server error.', TRY_LATER),
  TOO_BUSY: h('The platform is too busy right now.', TRY_LATER),
};

const UNKNOWN: LabelHelp = h(
  'The platform refused the request.',
  'See the details; if unclear, contact support with the request id.',
);

export const helpForLabel = (label: string): LabelHelp => LABELS[label] ?? UNKNOWN;
