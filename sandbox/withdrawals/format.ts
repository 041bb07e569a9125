/** The WithdrawalRecord shapes of the spec: create form, list form, cancel form. */
import { secondsString } from '../http/params';

export interface WithdrawalDbRow {
  seq: number;
  id: string;
  user_id: number;
  withdraw_order_id: string;
  currency: string;
  chain: string;
  address: string;
  memo: string;
  amount: string;
  fee: string;
  status: string;
  txid: string;
  block_number: string;
  fail_reason: string;
  asset_class: string;
  timestamp: number;
  timestamp2: number | null;
  internal_user_id: number | null;
  route: string;
  next_at: number | null;
}

export function withdrawalCreateForm(r: WithdrawalDbRow): Record<string, unknown> {
  return {
    id: r.id,
    txid: r.txid,
    withdraw_order_id: r.withdraw_order_id,
    timestamp: secondsString(r.timestamp),
    amount: r.amount,
    currency: r.currency,
    address: r.address,
    memo: r.memo,
    status: r.status,
    chain: r.chain,
  };
}

export function withdrawalListForm(r: WithdrawalDbRow): Record<string, unknown> {
  return {
    id: r.id,
    txid: r.txid,
    block_number: r.block_number,
    withdraw_order_id: r.withdraw_order_id,
    timestamp: secondsString(r.timestamp),
    amount: r.amount,
    fee: r.fee,
    currency: r.currency,
    address: r.address,
    fail_reason: r.status === 'CANCEL' || r.status === 'INVALID' ? r.fail_reason : '',
    timestamp2: r.timestamp2 === null ? '' : secondsString(r.timestamp2),
    memo: r.memo,
    status: r.status,
    chain: r.chain,
    type: r.internal_user_id === null ? 'withdraw' : 'internal',
  };
}

export function withdrawalCancelForm(r: WithdrawalDbRow): Record<string, unknown> {
  return {
    id: r.id,
    timestamp: secondsString(r.timestamp),
    currency: r.currency,
    address: r.address,
    txid: r.txid,
    amount: r.amount,
    memo: r.memo,
    block_number: r.block_number,
    status: r.status,
    chain: r.chain,
  };
}
