/**
 * Transfer records for the history and the outcome of a journaled transfer, in the contract's
 * words. Pure functions: the platform's records and the journal's movements in, rows out.
 */
import {
  type SubName,
  TRANSFER_MOVEMENT_KINDS,
  type TransferOutcome,
  type TransferRecord,
  transferAccountWords,
  transferHistoryRow,
  transferSubAccounts,
} from '../../shared/contract/transfers';
import type { SubAccountTransferRecord } from '../../shared/platform/api/wallet';
import type { Movement } from '../movements/types';

export const TRANSFER_KINDS = TRANSFER_MOVEMENT_KINDS;

const words = transferAccountWords;

export type { SubName };

/** A journaled movement → where the transfer stands for the screen. */
export const outcomeOf = (movement: Movement): TransferOutcome => {
  const base = {
    id: movement.id,
    ...(movement.platformId ? { txId: movement.platformId } : {}),
    ...(movement.requestId ? { requestId: movement.requestId } : {}),
  };
  if (movement.state === 'done') return { ...base, state: 'done' };
  if (movement.state === 'failed') {
    return {
      ...base,
      state: 'failed',
      message:
        movement.label === 'NEVER_EXECUTED'
          ? 'The platform confirmed it never received this transfer; nothing moved. You can send it again.'
          : (movement.message ?? 'The platform refused the transfer; nothing moved.'),
      ...(movement.label ? { label: movement.label } : {}),
    };
  }
  return {
    ...base,
    state: 'checking',
    message:
      'The platform’s answer was lost; the app is asking it whether the transfer went through. Do not send it again.',
  };
};

/** Sub-account user ids a journaled transfer touches (for the sub-account filter). */
export const subAccountsOf = transferSubAccounts;

/** A journaled transfer (any kind) → a history row (shared with the screens, which build it from events). */
export const journalRecord = transferHistoryRow;

/** A platform sub-account transfer record → a history row. */
export const platformRecord = (record: SubAccountTransferRecord, index: number, subName: SubName): TransferRecord => {
  const sub = `${subName(record.sub_account)} · ${words(record.sub_account_type ?? 'spot')}`;
  const into = record.direction === 'to';
  const success = record.status === undefined || record.status === 'success';
  return {
    id: `p-${record.client_order_id || `${record.timest ?? 0}-${record.sub_account}-${record.direction}`}-${index}`,
    time: Math.round((record.timest ?? 0) * 1000),
    kind: 'mainSub',
    from: into ? 'Main · spot' : sub,
    to: into ? sub : 'Main · spot',
    currency: record.currency,
    amount: record.amount,
    state: success ? 'done' : 'pending',
    stateText: success ? 'Done' : `Platform status: ${record.status}`,
    ...(record.client_order_id ? { clientOrderId: record.client_order_id } : {}),
    source: 'platform',
  };
};

/**
 * Platform records plus the journal's transfers the platform does not list (own-account transfers,
 * failed or still-checking ones, and anything outside its records), newest first. A journaled
 * transfer whose client id appears in the platform's records is shown once, as the platform's row.
 */
export const mergeHistory = (
  platform: readonly TransferRecord[],
  journal: readonly TransferRecord[],
): TransferRecord[] => {
  const onPlatform = new Set(platform.flatMap((r) => (r.clientOrderId ? [r.clientOrderId] : [])));
  const extra = journal.filter((r) => r.clientOrderId === undefined || !onPlatform.has(r.clientOrderId));
  return [...platform, ...extra].sort((a, b) => b.time - a.time);
};
