/**
 * Operations of the `funding` area: deposits, withdrawals, saved addresses, withdrawal fees and
 * limits, currency chains and UID transfers (push). See docs/architecture.md, "How to add an operation".
 *
 * Amounts are decimal strings end to end; times are Unix seconds (numbers). Records keep the
 * platform's own status codes (`status`); screens map them to plain-language stages.
 * Withdrawals and pushes go through the core's journaled money movements (never sent blindly twice).
 */
import Decimal from 'decimal.js';
import { z } from 'zod';
import { AMOUNT_FORMAT_MESSAGE, formatMoney, parseAmountInput } from '../format/money';
import { operation } from '../ipc/define';
import { DUPLICATE_REQUEST_LABELS } from '../platform/labels';
import type { MovementView } from './activity';
import { safeText } from './text';

// ---------------------------------------------------------------------------------------------
// Building blocks

/** A currency symbol as the platform spells it (BTC, USDT, …). */
export const CurrencyCode = z
  .string()
  .trim()
  .min(1, 'Choose a currency')
  .max(32, 'Currency name is too long')
  .regex(/^[A-Za-z0-9_.-]+$/, 'Currency names use letters, digits, "_", "-" or "." only');

/** A chain name as the platform spells it (ETH, TRX, …). */
export const ChainName = z
  .string()
  .trim()
  .min(1, 'Choose a network')
  .max(32, 'Network name is too long')
  .regex(/^[A-Za-z0-9_.-]+$/, 'Network names use letters, digits, "_", "-" or "." only');

/** A non-negative decimal string as the platform sends it ("0", "12.5"). */
export const DecimalText = z
  .string()
  .max(64)
  .regex(/^-?\d+(\.\d+)?$/, 'Not a decimal number');

/** An amount typed by a person: plain digits with an optional fraction, greater than zero. */
export const PositiveAmount = z
  .string()
  .trim()
  .min(1, 'Enter an amount')
  .max(64, 'This amount is too long')
  .regex(/^\d+(\.\d+)?$/, 'Use digits and an optional decimal point (no signs, spaces or exponents)')
  .refine((v) => /[1-9]/.test(v), 'The amount must be greater than zero');

/** Unix seconds. */
export const UnixSeconds = z.number().int().nonnegative();

/** A time window for history queries, Unix seconds; any length (main splits it into 30-day windows). */
export const HistoryRange = z
  .object({
    from: UnixSeconds,
    to: UnixSeconds,
  })
  .refine((r) => r.from <= r.to, { message: '"From" must be before "to"', path: ['from'] });

/** A destination address: printable ASCII, no spaces, nothing invisible (./text.ts). */
export const Address = z
  .string()
  .trim()
  .min(1, 'Choose an address')
  .max(256, 'Address is too long')
  .superRefine(safeText('address'));

/** Memo / tag / payment id; some chains require one. Printable ASCII, nothing invisible (./text.ts). */
export const Memo = z.string().trim().max(128, 'Memo is too long').superRefine(safeText('memo'));

// ---------------------------------------------------------------------------------------------
// Records (platform records, normalised: camelCase, optional when the platform leaves them empty)

export const CurrencyChainInfo = z.object({
  chain: z.string(),
  nameEn: z.string(),
  nameCn: z.string(),
  contractAddress: z.string().optional(),
  /** The chain is disabled entirely. */
  disabled: z.boolean(),
  depositDisabled: z.boolean(),
  withdrawDisabled: z.boolean(),
  /** Withdrawal precision: number of decimals the platform accepts on this chain. */
  decimals: z.number().int().nonnegative().optional(),
  /** Deposits/withdrawals on this chain use a memo/tag. */
  usesMemo: z.boolean(),
});
export type CurrencyChainInfo = z.infer<typeof CurrencyChainInfo>;

export const DepositChainAddress = z.object({
  chain: z.string(),
  address: z.string(),
  /** Memo / tag / payment id; present when the chain requires it. */
  memo: z.string().optional(),
  /** What the platform calls the memo on this chain ("Memo", "Tag"). */
  memoName: z.string().optional(),
  /** The platform could not obtain an address for this chain (try again later). */
  obtainFailed: z.boolean(),
  minConfirmations: z.number().int().nonnegative().optional(),
});
export type DepositChainAddress = z.infer<typeof DepositChainAddress>;

export const DepositAddressInfo = z.object({
  currency: z.string(),
  address: z.string(),
  minDepositAmount: DecimalText.optional(),
  chains: z.array(DepositChainAddress),
});
export type DepositAddressInfo = z.infer<typeof DepositAddressInfo>;

export const DepositRecord = z.object({
  id: z.string(),
  txid: z.string().optional(),
  time: z.number(),
  amount: DecimalText,
  currency: z.string(),
  address: z.string().optional(),
  memo: z.string().optional(),
  /** Platform status code (PEND, TRACK, DONE, …). */
  status: z.string(),
  chain: z.string().optional(),
});
export type DepositRecord = z.infer<typeof DepositRecord>;

export const WithdrawalRecord = z.object({
  /** Platform record id (w…). */
  id: z.string(),
  /** Our client id sent with the request; links the record to the journaled intent. */
  withdrawOrderId: z.string().optional(),
  txid: z.string().optional(),
  time: z.number(),
  amount: DecimalText,
  fee: DecimalText.optional(),
  currency: z.string(),
  address: z.string().optional(),
  memo: z.string().optional(),
  /** Platform status code (REQUEST, PEND, DONE, CANCEL, …). */
  status: z.string(),
  /** Filled only when status is CANCEL. */
  failReason: z.string().optional(),
  /** Final time: cancellation time (CANCEL) or success time (DONE). */
  finalTime: z.number().optional(),
  blockNumber: z.string().optional(),
  chain: z.string().optional(),
});
export type WithdrawalRecord = z.infer<typeof WithdrawalRecord>;

export const PushRecord = z.object({
  id: z.string(),
  pushUid: z.number(),
  receiveUid: z.number(),
  currency: z.string(),
  amount: DecimalText,
  createTime: z.number(),
  /** Platform status code (CREATING, PENDING, RECEIVED, …). */
  status: z.string(),
  /** Reason text while PENDING. */
  message: z.string().optional(),
  transactionType: z.enum(['withdraw', 'deposit']),
});
export type PushRecord = z.infer<typeof PushRecord>;

export const WithdrawRules = z.object({
  currency: z.string(),
  name: z.string().optional(),
  depositFee: DecimalText.optional(),
  /** Fee rate in percent (e.g. "0.1" = 0.1 %). */
  feePercent: DecimalText.optional(),
  feeFixed: DecimalText.optional(),
  feeFixedOnChains: z.record(z.string(), DecimalText),
  feePercentOnChains: z.record(z.string(), DecimalText),
  dayLimit: DecimalText.optional(),
  dayLimitRemaining: DecimalText.optional(),
  minAmount: DecimalText.optional(),
  maxPerWithdrawal: DecimalText.optional(),
});
export type WithdrawRules = z.infer<typeof WithdrawRules>;

export const SavedAddress = z.object({
  currency: z.string(),
  chain: z.string(),
  address: z.string(),
  name: z.string().optional(),
  /** Memo / tag saved with the address. */
  tag: z.string().optional(),
  verified: z.boolean(),
  /** Withdrawals to this destination (`destinationKey`) found in the last 30 days or in this app's journal. */
  previousWithdrawals: z.number().int().nonnegative(),
});
export type SavedAddress = z.infer<typeof SavedAddress>;

/**
 * Who a withdrawal reaches. One exchange deposit address serves many customers, told apart by the
 * memo, so a destination is (chain, address, memo); an empty memo is no memo. The saved-address
 * choice, the review and the "used before" count all compare destinations with this key.
 */
export const destinationKey = (chain: string, address: string, memo: string | undefined): string =>
  JSON.stringify([chain, address, memo?.trim() ?? '']);

/** How a money movement sent through the journal ended, as far as main knows right now. */
export const MovementOutcome = z.enum([
  /** The platform accepted it; `record` or `id` tells which record to follow. */
  'accepted',
  /** The request's fate is not known (timeout, cut connection, 5xx): main is checking; never resend. */
  'unknown',
]);
export type MovementOutcome = z.infer<typeof MovementOutcome>;

// ---------------------------------------------------------------------------------------------
// Inputs

/**
 * One confirmation of a money movement (withdrawal, UID transfer, transfer): a UUID the screen makes
 * when the person opens the review/confirm step (`crypto.randomUUID()`), sent with the operation and
 * kept on main's journaled intent (UNIQUE). A second call with the same key — a double click, a
 * re-render, a retry, even after a restart — returns the first call's movement instead of creating
 * another. The screen makes a new key whenever what is confirmed changes.
 */
export const RequestKey = z.uuid('A money movement needs the request key of its confirmation (a UUID)');
export type RequestKey = z.infer<typeof RequestKey>;

/** What the person fills in for a withdrawal (the form and the review sheet). */
export const WithdrawDetails = z.object({
  currency: CurrencyCode,
  chain: ChainName,
  address: Address,
  memo: Memo.optional(),
  amount: PositiveAmount,
});
export type WithdrawDetails = z.infer<typeof WithdrawDetails>;

export const WithdrawInput = WithdrawDetails.extend({ requestKey: RequestKey });
export type WithdrawInput = z.infer<typeof WithdrawInput>;

export const PushDetails = z.object({
  /** The receiving account's user id (a main account, not a sub-account). */
  receiveUid: z.number().int().positive('Enter the receiving account’s user id').max(Number.MAX_SAFE_INTEGER),
  currency: CurrencyCode,
  amount: PositiveAmount,
});
export type PushDetails = z.infer<typeof PushDetails>;

export const PushInput = PushDetails.extend({ requestKey: RequestKey });
export type PushInput = z.infer<typeof PushInput>;

/** What main knows of one withdrawal: the platform's record (once it exists) and the journal's view. */
export const WithdrawalLookup = z.object({
  record: WithdrawalRecord.nullable(),
  journal: z
    .object({
      /** prepared / sent / unknown (being checked) / done (accepted) / failed (refused or never executed). */
      state: z.enum(['prepared', 'sent', 'unknown', 'done', 'failed']),
      label: z.string().optional(),
      message: z.string().optional(),
      /**
       * Set while unknown when waiting will not settle it: the platform said it already has this
       * withdrawal (DUPLICATE_REQUEST) but its records do not show it. Plain words for a person to
       * check the platform and settle it by hand in Activity.
       */
      attention: z.string().optional(),
    })
    .optional(),
});
export type WithdrawalLookup = z.infer<typeof WithdrawalLookup>;

export const WithdrawResult = z.object({
  outcome: MovementOutcome,
  /** The client id journaled before sending (withdraw_order_id); stable across checks. */
  withdrawOrderId: z.string(),
  record: WithdrawalRecord.optional(),
  /** Plain words about an unknown outcome. */
  note: z.string().optional(),
});
export type WithdrawResult = z.infer<typeof WithdrawResult>;

export const PushResult = z.object({
  outcome: MovementOutcome,
  /** Journal intent id of the push (for following an unknown outcome). */
  intentId: z.string(),
  /** Platform push id once known. */
  id: z.string().optional(),
  note: z.string().optional(),
});
export type PushResult = z.infer<typeof PushResult>;

export const ReviewPolicy = z.object({
  /**
   * Per currency: amounts ABOVE this need the typed confirmation on the review sheet. A currency
   * without an entry always needs it (the safe default).
   */
  typedConfirmAbove: z
    .record(
      CurrencyCode,
      z
        .string()
        .max(64)
        .regex(/^\d+(\.\d+)?$/, 'Use digits and an optional decimal point'),
    )
    .refine((r) => Object.keys(r).length <= 500, 'At most 500 currencies'),
});
export type ReviewPolicy = z.infer<typeof ReviewPolicy>;

export const HistoryQuery = z.object({
  currency: CurrencyCode.optional(),
  range: HistoryRange,
});

// ---------------------------------------------------------------------------------------------
// Operations

export const funding = {
  withdrawRules: operation(
    'Fees, minimum, per-withdrawal and daily limits of one currency or of all (GET /wallet/withdraw_status).',
    z.object({ currency: CurrencyCode.optional() }),
    z.array(WithdrawRules),
  ),
  chains: operation(
    'Networks a currency can be deposited and withdrawn on, with their state and precision (GET /wallet/currency_chains).',
    z.object({ currency: CurrencyCode }),
    z.array(CurrencyChainInfo),
  ),
  depositAddress: operation(
    'Deposit address and memo per network of a currency (GET /wallet/deposit_address).',
    z.object({ currency: CurrencyCode }),
    DepositAddressInfo,
  ),
  deposits: operation(
    'Deposit records in a time range of any length, paged in 30-day windows (GET /wallet/deposits).',
    HistoryQuery,
    z.array(DepositRecord),
  ),
  withdrawals: operation(
    'Withdrawal records in a time range of any length, paged in 30-day windows (GET /wallet/withdrawals).',
    HistoryQuery,
    z.array(WithdrawalRecord),
  ),
  withdrawal: operation(
    'One withdrawal by our client id (withdraw_order_id) or the platform id, for following its status.',
    z.union([z.object({ withdrawOrderId: z.string().min(1).max(32) }), z.object({ id: z.string().min(1).max(64) })]),
    WithdrawalLookup,
  ),
  savedAddresses: operation(
    'Saved withdrawal addresses of a currency (optionally one network), with how often each was used (GET /wallet/saved_address).',
    z.object({ currency: CurrencyCode, chain: ChainName.optional() }),
    z.array(SavedAddress),
  ),
  withdraw: operation(
    'Send a withdrawal through the journal (client id written first; an unknown outcome is reconciled, never resent). The same requestKey returns the same withdrawal.',
    WithdrawInput,
    WithdrawResult,
  ),
  cancelWithdrawal: operation(
    'Ask the platform to cancel a pending withdrawal (DELETE /withdrawals/{id}); the outcome shows in its status.',
    z.object({ id: z.string().trim().min(1).max(64) }),
    WithdrawalRecord,
  ),
  push: operation(
    'UID transfer to another main account through the journal (POST /withdrawals/push). The same requestKey returns the same transfer.',
    PushInput,
    PushResult,
  ),
  pushes: operation(
    'UID transfer records, sent or received, in a time range of any length (GET /wallet/push).',
    z.object({ transactionType: z.enum(['withdraw', 'deposit']), range: HistoryRange }),
    z.array(PushRecord),
  ),
  reviewPolicy: operation(
    'Amounts above which the withdrawal review sheet asks for a typed confirmation.',
    z.object({}),
    ReviewPolicy,
  ),
  setReviewPolicy: operation(
    'Change the typed-confirmation amounts (kept in the app settings).',
    ReviewPolicy,
    ReviewPolicy,
  ),
};

// ---------------------------------------------------------------------------------------------
// Withdrawal rules, shared by the screen (checked as the person types) and main (checked again
// before anything is sent).

/**
 * What a withdrawal will cost and deliver, and every rule it must pass, computed BEFORE anything is
 * sent. Exact decimal arithmetic only (decimal.js); inputs are the platform's decimal strings.
 *
 * Fee model (docs/funding.md): the fee is the chain's fixed fee (withdraw_fix_on_chains, else
 * withdraw_fix) plus the percentage (withdraw_percent_on_chains, else withdraw_percent) of the
 * amount, and it is taken from the spot balance ON TOP of the amount, so the recipient receives the
 * amount typed and the balance must cover amount + fee. `FEE_MODE` switches to "deducted" (recipient
 * gets amount − fee) in one place should the platform behave that way.
 */

export type FeeMode = 'added' | 'deducted';
export const FEE_MODE: FeeMode = 'added';

export interface WithdrawQuote {
  readonly fee: string;
  /** What the recipient receives. */
  readonly net: string;
  /** What leaves the spot balance. */
  readonly debit: string;
}

const dec = (value: string | undefined): Decimal | undefined => {
  if (value === undefined || value.trim() === '') return undefined;
  try {
    return new Decimal(value);
  } catch {
    return undefined;
  }
};

/** Fee of withdrawing `amount` on `chain`, rounded UP to the chain's precision (never under-state a cost). */
export const feeFor = (rules: WithdrawRules, chain: string, amount: string, decimals?: number): string => {
  const fixed = dec(rules.feeFixedOnChains[chain]) ?? dec(rules.feeFixed) ?? new Decimal(0);
  const percent = dec(rules.feePercentOnChains[chain]) ?? dec(rules.feePercent) ?? new Decimal(0);
  const base = dec(amount) ?? new Decimal(0);
  let fee = fixed.plus(base.times(percent).dividedBy(100));
  if (decimals !== undefined) fee = fee.toDecimalPlaces(decimals, Decimal.ROUND_UP);
  return fee.toFixed();
};

export const quote = (
  rules: WithdrawRules,
  chain: string,
  amount: string,
  decimals?: number,
  mode: FeeMode = FEE_MODE,
): WithdrawQuote => {
  const a = dec(amount) ?? new Decimal(0);
  const fee = new Decimal(feeFor(rules, chain, amount, decimals));
  return mode === 'added'
    ? { fee: fee.toFixed(), net: a.toFixed(), debit: a.plus(fee).toFixed() }
    : { fee: fee.toFixed(), net: a.minus(fee).toFixed(), debit: a.toFixed() };
};

export interface AmountCheckInput {
  readonly amount: string;
  readonly rules: WithdrawRules;
  readonly chain: CurrencyChainInfo;
  /** Spot balance available for the currency (undefined while unknown). */
  readonly available?: string | undefined;
  readonly mode?: FeeMode;
}

/** The first rule the amount breaks, in plain words, or undefined when it may be sent. */
export const amountProblem = ({
  amount,
  rules,
  chain,
  available,
  mode = FEE_MODE,
}: AmountCheckInput): string | undefined => {
  const text = amount.trim();
  if (text === '') return 'Enter an amount.';
  if (!/^\d+(\.\d+)?$/.test(text)) return AMOUNT_FORMAT_MESSAGE;
  const a = new Decimal(text);
  if (a.lte(0)) return 'The amount must be more than zero.';
  if (chain.decimals !== undefined && a.decimalPlaces() > chain.decimals) {
    return chain.decimals === 0
      ? `${chain.chain} accepts whole numbers only.`
      : `${chain.chain} accepts at most ${chain.decimals} digits after the point.`;
  }
  const min = dec(rules.minAmount);
  if (min && a.lt(min)) return `The minimum withdrawal is ${formatMoney(min, rules.currency)}.`;
  const each = dec(rules.maxPerWithdrawal);
  if (each?.gt(0) && a.gt(each)) return `At most ${formatMoney(each, rules.currency)} per withdrawal.`;
  const remain = dec(rules.dayLimitRemaining);
  if (remain && a.gt(remain)) return `Only ${formatMoney(remain, rules.currency)} of today's limit remains.`;
  const q = quote(rules, chain.chain, text, chain.decimals, mode);
  if (new Decimal(q.net).lte(0)) return `The amount does not cover the fee of ${formatMoney(q.fee, rules.currency)}.`;
  const have = dec(available);
  if (have && new Decimal(q.debit).gt(have)) {
    return `Not enough ${rules.currency}: this needs ${formatMoney(q.debit, rules.currency)} (amount + fee) and ${formatMoney(have, rules.currency)} is available.`;
  }
  return undefined;
};

/** Whether the review sheet must ask for the amount to be typed (policy per currency; no entry = always). */
export const needsTypedConfirmation = (
  amount: string,
  currency: string,
  thresholds: Readonly<Record<string, string>>,
): boolean => {
  const limit = dec(thresholds[currency]);
  const a = dec(amount);
  if (limit === undefined || a === undefined) return true;
  return a.gt(limit);
};

/** The typed confirmation matches when it reads as the same number ("1,000.50" matches "1000.5"). */
export const typedAmountMatches = (typed: string, amount: string): boolean => {
  const parsed = parseAmountInput(typed);
  return parsed.ok && new Decimal(parsed.value).eq(new Decimal(amount));
};

// ---------------------------------------------------------------------------------------------
// A withdrawal as the journal knows it: what main answers right after sending, and what a screen
// puts in its cache from an `activity.movementChanged` event, without reading the platform again.

/** The journal's view of a withdrawal movement (`WithdrawalLookup.journal`). */
export const withdrawalJournalView = (m: MovementView): NonNullable<WithdrawalLookup['journal']> => ({
  state: m.state,
  ...(m.label ? { label: m.label } : {}),
  ...(m.message ? { message: m.message } : {}),
  ...(m.state === 'unknown' && m.label && DUPLICATE_REQUEST_LABELS.has(m.label)
    ? {
        attention:
          m.message ??
          'The platform said it already has this withdrawal, but its records do not show it. Check it on the platform and settle it by hand in Activity.',
      }
    : {}),
});

/**
 * The withdrawal record an accepted movement stands for — its platform id and status from the
 * platform's answer, the rest as journaled — until the platform's own record arrives (the
 * watchers' `funding.withdrawalChanged` carries it, fee and txid included). Undefined while the
 * platform id is not known.
 */
export const withdrawalFromMovement = (m: MovementView): WithdrawalRecord | undefined => {
  if (m.kind !== 'withdrawal' || m.state !== 'done' || !m.platformId) return undefined;
  const { chain, address, memo } = m.params;
  return {
    id: m.platformId,
    ...(m.clientId ? { withdrawOrderId: m.clientId } : {}),
    time: Math.floor(m.createdAt / 1000),
    amount: m.amount,
    currency: m.currency,
    ...(typeof address === 'string' ? { address } : {}),
    ...(typeof memo === 'string' && memo !== '' ? { memo } : {}),
    status: m.platformStatus ?? 'REQUEST',
    ...(typeof chain === 'string' ? { chain } : {}),
  };
};
