/**
 * Platform records (snake_case, lenient types, already validated by the API client) turned into the
 * funding contract's records: camelCase, optional where the platform leaves a field empty, times as
 * Unix seconds.
 */
import type {
  CurrencyChainInfo,
  DepositAddressInfo,
  DepositRecord,
  PushRecord,
  SavedAddress,
  WithdrawalRecord,
  WithdrawRules,
} from '../../shared/contract/funding';
import type * as P from '../../shared/platform/api/wallet';
import { isVerifiedFlag } from '../../shared/platform/savedAddresses';

const text = (v: string | undefined | null): string | undefined =>
  v === undefined || v === null || v === '' ? undefined : v;
const seconds = (v: number | undefined): number => (v === undefined ? 0 : Math.trunc(v));

export const toWithdrawal = (r: P.WithdrawalRecord): WithdrawalRecord => ({
  id: r.id,
  ...(text(r.withdraw_order_id) ? { withdrawOrderId: r.withdraw_order_id } : {}),
  ...(text(r.txid) ? { txid: r.txid } : {}),
  time: seconds(r.timestamp),
  amount: r.amount,
  ...(text(r.fee) ? { fee: r.fee } : {}),
  currency: r.currency,
  ...(text(r.address) ? { address: r.address } : {}),
  ...(text(r.memo) ? { memo: r.memo } : {}),
  status: r.status,
  ...(text(r.fail_reason) ? { failReason: r.fail_reason } : {}),
  ...(r.timestamp2 ? { finalTime: Math.trunc(r.timestamp2) } : {}),
  ...(text(r.block_number) && r.block_number !== '0' ? { blockNumber: r.block_number } : {}),
  ...(text(r.chain) ? { chain: r.chain } : {}),
});

export const toDeposit = (r: P.DepositRecord): DepositRecord => ({
  id: r.id,
  ...(text(r.txid) ? { txid: r.txid } : {}),
  time: seconds(r.timestamp),
  amount: r.amount,
  currency: r.currency,
  ...(text(r.address) ? { address: r.address } : {}),
  ...(text(r.memo) ? { memo: r.memo } : {}),
  status: r.status,
  ...(text(r.chain) ? { chain: r.chain } : {}),
});

export const toPush = (r: P.UidPushRecord, fallbackType: 'withdraw' | 'deposit'): PushRecord => ({
  id: r.id,
  pushUid: r.push_uid,
  receiveUid: r.receive_uid,
  currency: r.currency,
  amount: r.amount,
  createTime: Math.trunc(r.create_time),
  status: r.status,
  ...(text(r.message) ? { message: r.message } : {}),
  transactionType:
    r.transaction_type === 'deposit' || r.transaction_type === 'withdraw' ? r.transaction_type : fallbackType,
});

export const toChain = (c: P.CurrencyChain): CurrencyChainInfo => {
  const decimals = c.decimal !== undefined && /^\d+$/.test(c.decimal) ? Number(c.decimal) : undefined;
  return {
    chain: c.chain,
    nameEn: c.name_en ?? '',
    nameCn: c.name_cn ?? '',
    ...(text(c.contract_address) ? { contractAddress: c.contract_address } : {}),
    disabled: Number(c.is_disabled) !== 0,
    depositDisabled: Number(c.is_deposit_disabled) !== 0,
    withdrawDisabled: Number(c.is_withdraw_disabled) !== 0,
    ...(decimals !== undefined ? { decimals } : {}),
    usesMemo: Number(c.is_tag) !== 0,
  };
};

export const toDepositAddress = (a: P.DepositAddress): DepositAddressInfo => ({
  currency: a.currency,
  address: a.address,
  ...(text(a.min_deposit_amount) ? { minDepositAmount: a.min_deposit_amount } : {}),
  chains: a.multichain_addresses.map((c) => ({
    chain: c.chain,
    address: c.address,
    ...(text(c.payment_id) ? { memo: c.payment_id } : {}),
    ...(text(c.payment_name) ? { memoName: c.payment_name } : {}),
    obtainFailed: (c.obtain_failed ?? 0) !== 0,
    ...(c.min_confirms !== undefined ? { minConfirmations: c.min_confirms } : {}),
  })),
});

export const toRules = (s: P.WithdrawStatus): WithdrawRules => ({
  currency: s.currency,
  ...(text(s.name) ? { name: s.name } : {}),
  ...(text(s.deposit) ? { depositFee: s.deposit } : {}),
  ...(s.withdraw_percent && text(s.withdraw_percent) ? { feePercent: s.withdraw_percent.replace(/%$/, '') } : {}),
  ...(text(s.withdraw_fix) ? { feeFixed: s.withdraw_fix } : {}),
  feeFixedOnChains: s.withdraw_fix_on_chains,
  feePercentOnChains: Object.fromEntries(
    Object.entries(s.withdraw_percent_on_chains).map(([k, v]) => [k, v.replace(/%$/, '')]),
  ),
  ...(text(s.withdraw_day_limit) ? { dayLimit: s.withdraw_day_limit } : {}),
  ...(text(s.withdraw_day_limit_remain) ? { dayLimitRemaining: s.withdraw_day_limit_remain } : {}),
  ...(text(s.withdraw_amount_mini) ? { minAmount: s.withdraw_amount_mini } : {}),
  ...(text(s.withdraw_eachtime_limit) ? { maxPerWithdrawal: s.withdraw_eachtime_limit } : {}),
});

export const toSavedAddress = (a: P.SavedAddress, chain: string, previousWithdrawals: number): SavedAddress => ({
  currency: a.currency,
  chain: a.chain ?? chain,
  address: a.address,
  ...(text(a.name) ? { name: a.name } : {}),
  ...(text(a.tag) ? { tag: a.tag } : {}),
  verified: isVerifiedFlag(a.verified),
  previousWithdrawals,
});
