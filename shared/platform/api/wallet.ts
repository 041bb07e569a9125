/**
 * Wallet and withdrawal groups: requests and responses as the spec defines them (the spec is the
 * authority; api-facts fills what it marks "not shown"). Shared so IPC contracts reuse them.
 */
import { z } from 'zod';
import { decimalString, idString, int64, optDecimal, optSeconds, optText, unixSeconds } from './common';

/** Amount rule of transfers: decimal text, > 0, at most 8 decimals. */
export const transferAmount = z
  .string()
  .regex(/^\d+(\.\d{1,8})?$/, 'Use a plain decimal number with at most 8 decimals')
  .refine((v) => /[1-9]/.test(v), 'The amount must be greater than 0');

/** Positive decimal amount (precision checked by the platform per currency). */
export const positiveAmount = z
  .string()
  .regex(/^\d+(\.\d+)?$/, 'Use a plain decimal number')
  .refine((v) => /[1-9]/.test(v), 'The amount must be greater than 0');

/** withdraw_order_id rule: up to 32 chars from 0-9 A-Z a-z _ - . */
export const withdrawOrderId = z.string().regex(/^[0-9A-Za-z_.-]{1,32}$/);
/** client_order_id rule: 1 to 64 chars, letters, digits, hyphen, underscore. */
export const clientOrderId = z.string().regex(/^[0-9A-Za-z_-]{1,64}$/);

export const WithdrawalStatus = z.string();

export const WithdrawalRecord = z.object({
  id: idString,
  txid: optText,
  withdraw_order_id: optText,
  timestamp: optSeconds,
  amount: decimalString,
  fee: optDecimal,
  currency: z.string(),
  address: optText,
  memo: optText,
  type: optText,
  fail_reason: optText,
  timestamp2: optSeconds,
  block_number: optText.or(z.number().transform(String)),
  asset_class: optText,
  status: WithdrawalStatus,
  chain: optText,
});
export type WithdrawalRecord = z.infer<typeof WithdrawalRecord>;

export const DepositRecord = z.object({
  id: idString,
  txid: optText,
  timestamp: optSeconds,
  amount: decimalString,
  currency: z.string(),
  address: optText,
  memo: optText,
  status: z.string(),
  chain: optText,
});
export type DepositRecord = z.infer<typeof DepositRecord>;

export const UidPushRecord = z.object({
  id: idString,
  push_uid: int64,
  receive_uid: int64,
  currency: z.string(),
  amount: decimalString,
  create_time: unixSeconds,
  status: z.string(),
  message: optText,
  transaction_type: optText,
});
export type UidPushRecord = z.infer<typeof UidPushRecord>;

export const PushResult = z.object({ id: idString });
export type PushResult = z.infer<typeof PushResult>;

export const MultiChainAddressItem = z.object({
  chain: z.string(),
  address: z.string(),
  payment_id: optText,
  payment_name: optText,
  obtain_failed: z.number().int().optional(),
  min_confirms: z.number().int().optional(),
});
export const DepositAddress = z.object({
  currency: z.string(),
  address: z.string(),
  min_deposit_amount: optDecimal,
  multichain_addresses: z.array(MultiChainAddressItem).default([]),
});
export type DepositAddress = z.infer<typeof DepositAddress>;

const flag = z.union([z.number(), z.string().transform(Number), z.boolean().transform((b) => (b ? 1 : 0))]);
export const CurrencyChain = z.object({
  chain: z.string(),
  name_cn: optText,
  name_en: optText,
  contract_address: optText,
  is_disabled: flag.default(0),
  is_deposit_disabled: flag.default(0),
  is_withdraw_disabled: flag.default(0),
  decimal: optText.or(z.number().transform(String)),
  is_tag: flag.default(0),
});
export type CurrencyChain = z.infer<typeof CurrencyChain>;

export const TransactionId = z.object({ tx_id: idString });
export type TransactionId = z.infer<typeof TransactionId>;

export const TransferOrderStatus = z.object({ tx_id: idString, status: z.string() });
export type TransferOrderStatus = z.infer<typeof TransferOrderStatus>;

export const SubAccountTransferRecord = z.object({
  timest: optSeconds,
  uid: idString.optional(),
  sub_account: idString,
  sub_account_type: optText,
  currency: z.string(),
  amount: decimalString,
  direction: z.string(),
  source: optText,
  client_order_id: optText,
  status: optText,
});
export type SubAccountTransferRecord = z.infer<typeof SubAccountTransferRecord>;

const decimalMap = z.record(z.string(), decimalString);
export const WithdrawStatus = z.object({
  currency: z.string(),
  name: optText,
  name_cn: optText,
  deposit: optDecimal,
  withdraw_percent: optDecimal,
  withdraw_fix: optDecimal,
  withdraw_day_limit: optDecimal,
  withdraw_day_limit_remain: optDecimal,
  withdraw_amount_mini: optDecimal,
  withdraw_eachtime_limit: optDecimal,
  withdraw_fix_on_chains: decimalMap.nullish().transform((v) => v ?? {}),
  withdraw_percent_on_chains: decimalMap.nullish().transform((v) => v ?? {}),
});
export type WithdrawStatus = z.infer<typeof WithdrawStatus>;

export const SubAccountBalance = z.object({ uid: idString, available: decimalMap });
export type SubAccountBalance = z.infer<typeof SubAccountBalance>;

const MarginSide = z.object({
  currency: z.string(),
  available: decimalString,
  locked: decimalString,
  borrowed: decimalString,
  interest: decimalString,
});
export const MarginAccount = z.object({
  currency_pair: z.string(),
  account_type: optText,
  leverage: optDecimal,
  locked: z.boolean().optional(),
  risk: optDecimal,
  mmr: optDecimal,
  base: MarginSide,
  quote: MarginSide,
});
export type MarginAccount = z.infer<typeof MarginAccount>;
export const SubAccountMarginBalance = z.object({ uid: idString, available: z.array(MarginAccount) });
export type SubAccountMarginBalance = z.infer<typeof SubAccountMarginBalance>;

/** FuturesAccount: many optional fields; the ones the app shows are typed, the rest kept loosely. */
export const FuturesAccount = z.looseObject({
  total: optDecimal,
  unrealised_pnl: optDecimal,
  order_margin: optDecimal,
  available: optDecimal,
  point: optDecimal,
  currency: optText,
  in_dual_mode: z.boolean().optional(),
  bonus: optDecimal,
  margin_mode: z.number().optional(),
  margin_mode_name: optText,
  position_mode: optText,
});
export type FuturesAccount = z.infer<typeof FuturesAccount>;
export const SubAccountFuturesBalance = z.object({ uid: idString, available: z.record(z.string(), FuturesAccount) });

/** OptionsAccount (GET /options/accounts). */
export const OptionsAccount = z.looseObject({
  total: optDecimal,
  unrealised_pnl: optDecimal,
  order_margin: optDecimal,
  available: optDecimal,
  currency: optText,
});
export type OptionsAccount = z.infer<typeof OptionsAccount>;
export type SubAccountFuturesBalance = z.infer<typeof SubAccountFuturesBalance>;

export const CrossMarginBalance = z.object({
  available: decimalString,
  freeze: decimalString,
  borrowed: decimalString,
  interest: decimalString,
});
/** CrossMarginAccount (GET /margin/cross/accounts; a sub-account's, inside sub_account_cross_margin_balances). */
export const CrossMarginAccount = z.looseObject({
  user_id: int64.optional(),
  locked: z.boolean().optional(),
  balances: z.record(z.string(), CrossMarginBalance).default({}),
  total: optDecimal,
  borrowed: optDecimal,
  borrowed_net: optDecimal,
  net: optDecimal,
  leverage: optDecimal,
  interest: optDecimal,
  risk: optDecimal,
  total_initial_margin: optDecimal,
  total_margin_balance: optDecimal,
  total_maintenance_margin: optDecimal,
  total_initial_margin_rate: optDecimal,
  total_maintenance_margin_rate: optDecimal,
  total_available_margin: optDecimal,
});
export type CrossMarginAccount = z.infer<typeof CrossMarginAccount>;

export const SubAccountCrossMarginBalance = z.object({ uid: idString, available: CrossMarginAccount });
export type SubAccountCrossMarginBalance = z.infer<typeof SubAccountCrossMarginBalance>;

export const SavedAddress = z.object({
  currency: z.string(),
  chain: optText,
  address: z.string(),
  name: optText,
  tag: optText,
  verified: optText.or(z.number().transform(String)),
});
export type SavedAddress = z.infer<typeof SavedAddress>;

export const TradeFee = z.looseObject({
  user_id: int64.optional(),
  taker_fee: optDecimal,
  maker_fee: optDecimal,
  rpi_maker_fee: optDecimal,
  gt_discount: z.boolean().optional(),
  gt_taker_fee: optDecimal,
  gt_maker_fee: optDecimal,
  loan_fee: optDecimal,
  point_type: optText,
  futures_taker_fee: optDecimal,
  futures_maker_fee: optDecimal,
  delivery_taker_fee: optDecimal,
  delivery_maker_fee: optDecimal,
  debit_fee: z.number().optional(),
});
export type TradeFee = z.infer<typeof TradeFee>;

const AccountBalance = z.object({
  amount: decimalString,
  currency: z.string(),
  unrealised_pnl: optDecimal,
  borrowed: optDecimal,
});
export const TotalBalance = z.object({
  total: AccountBalance,
  details: z.record(z.string(), AccountBalance).default({}),
});
export type TotalBalance = z.infer<typeof TotalBalance>;

export const SmallBalance = z.object({
  currency: z.string(),
  available_balance: decimalString,
  estimated_as_btc: decimalString,
  convertible_to_gt: decimalString,
});
export type SmallBalance = z.infer<typeof SmallBalance>;

export const SmallBalanceHistory = z.object({
  id: idString,
  currency: z.string(),
  amount: decimalString,
  gt_amount: decimalString,
  create_time: unixSeconds,
});
export type SmallBalanceHistory = z.infer<typeof SmallBalanceHistory>;

/** Account types of POST /wallet/transfers. */
export const TransferAccount = z.enum(['spot', 'margin', 'futures', 'delivery', 'options']);
export type TransferAccount = z.infer<typeof TransferAccount>;
export const SubAccountType = z.enum(['spot', 'futures', 'delivery', 'options']);
export const SubToSubAccountType = z.enum(['spot', 'futures', 'delivery']);

export const WithdrawRequest = z.object({
  currency: z.string().min(1),
  chain: z.string().min(1),
  address: z.string().min(1),
  amount: positiveAmount,
  memo: z.string().optional(),
  asset_class: z.enum(['SPOT', 'PILOT']).optional(),
});
export type WithdrawRequest = z.infer<typeof WithdrawRequest>;

export const PushRequest = z.object({
  receive_uid: z.number().int().positive(),
  currency: z.string().min(1),
  amount: positiveAmount,
});
export type PushRequest = z.infer<typeof PushRequest>;

export const TransferRequest = z.object({
  currency: z.string().min(1),
  from: TransferAccount,
  to: TransferAccount,
  amount: transferAmount,
  currency_pair: z.string().optional(),
  settle: z.string().optional(),
});
export type TransferRequest = z.infer<typeof TransferRequest>;

export const SubAccountTransferRequest = z.object({
  sub_account: z.string().regex(/^\d+$/),
  sub_account_type: SubAccountType.optional(),
  currency: z.string().min(1),
  amount: transferAmount,
  direction: z.enum(['to', 'from']),
});
export type SubAccountTransferRequest = z.infer<typeof SubAccountTransferRequest>;

export const SubToSubTransferRequest = z.object({
  currency: z.string().min(1),
  sub_account_from: z.string().regex(/^\d+$/),
  sub_account_from_type: SubToSubAccountType,
  sub_account_to: z.string().regex(/^\d+$/),
  sub_account_to_type: SubToSubAccountType,
  amount: transferAmount,
});
export type SubToSubTransferRequest = z.infer<typeof SubToSubTransferRequest>;
