/**
 * Status values of the platform's records (spec "States and transitions", api-facts §7). What each
 * funding status means (phase, tone, final, cancellable, words) is in statusTables.ts. Pure data,
 * shared by the sandbox and the app.
 */
import { z } from 'zod';

/** Where a record stands, in words a person understands. */
export type Phase = 'pending' | 'review' | 'done' | 'failed' | 'cancelled';

export const WITHDRAWAL_STATUSES = [
  'BCODE',
  'CANCEL',
  'CANCELPEND',
  'DMOVE',
  'DONE',
  'EXTPEND',
  'FAIL',
  'FVERIFY',
  'INVALID',
  'LOCKED',
  'MANUAL',
  'PEND',
  'PROCES',
  'REJECT',
  'REQUEST',
  'REVIEW',
  'VERIFY',
] as const;
export const WithdrawalStatus = z.enum(WITHDRAWAL_STATUSES);
export type WithdrawalStatus = z.infer<typeof WithdrawalStatus>;

export const DEPOSIT_STATUSES = [
  'BLOCKED',
  'DEP_CREDITED',
  'DONE',
  'INVALID',
  'MANUAL',
  'PEND',
  'REVIEW',
  'TRACK',
] as const;
export const DepositStatus = z.enum(DEPOSIT_STATUSES);
export type DepositStatus = z.infer<typeof DepositStatus>;

export const UID_PUSH_STATUSES = [
  'CREATING',
  'PENDING',
  'CANCELLING',
  'CANCELLED',
  'REFUSING',
  'REFUSED',
  'RECEIVING',
  'RECEIVED',
] as const;
export const UidPushStatus = z.enum(UID_PUSH_STATUSES);
export type UidPushStatus = z.infer<typeof UidPushStatus>;

/** Sub-account state: 1 normal, 2 frozen. */
export const SUB_ACCOUNT_STATE = { normal: 1, frozen: 2 } as const;

/** Names a sub-account key may carry (spec: sub-account group, perms name values). */
export const SUB_ACCOUNT_PERMISSION_NAMES = [
  'wallet',
  'spot',
  'futures',
  'delivery',
  'earn',
  'custody',
  'options',
  'account',
  'loan',
  'margin',
  'unified',
  'copy',
] as const;
export const SubAccountPermissionName = z.enum(SUB_ACCOUNT_PERMISSION_NAMES);

/**
 * Every API-key permission name: the sub-account names plus `withdrawal`, POST /withdrawals' own
 * group (spot covers spot/margin), which only a main account's key can carry.
 */
export const PERMISSION_NAMES = [...SUB_ACCOUNT_PERMISSION_NAMES, 'withdrawal'] as const;
export const PermissionName = z.enum(PERMISSION_NAMES);
export type PermissionName = z.infer<typeof PermissionName>;

/** Account types of POST /wallet/transfers. */
export const TRANSFER_ACCOUNTS = ['spot', 'margin', 'futures', 'delivery', 'options'] as const;
export type TransferAccount = (typeof TRANSFER_ACCOUNTS)[number];
