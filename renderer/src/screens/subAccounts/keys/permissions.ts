/** The permission groups of a sub-account key, in the order and words the matrix shows them. */
import {
  PERMISSION_GROUPS,
  type PermAccess,
  type PermissionGroup,
  type PermMatrix,
} from '../../../../../shared/contract/keys';

export const GROUP_TEXT: Record<PermissionGroup, { readonly name: string; readonly covers: string }> = {
  wallet: { name: 'Wallet', covers: 'balances, deposit/withdrawal records, transfers' },
  spot: { name: 'Spot & margin trading', covers: 'spot and margin orders' },
  futures: { name: 'Perpetual futures', covers: 'perpetual contract orders and positions' },
  delivery: { name: 'Delivery futures', covers: 'delivery contract orders' },
  margin: { name: 'Margin', covers: 'margin accounts and borrowing' },
  unified: { name: 'Unified account', covers: 'unified account operations' },
  options: { name: 'Options', covers: 'options orders and positions' },
  earn: { name: 'Earn', covers: 'savings and staking' },
  loan: { name: 'Loans', covers: 'collateral loans' },
  account: { name: 'Account', covers: 'account details and settings' },
  custody: { name: 'Custody', covers: 'custody operations' },
  copy: { name: 'Copy trading', covers: 'copy-trading operations' },
};

export const ACCESS_TEXT: Record<PermAccess, string> = { none: 'None', read: 'Read-only', write: 'Read-write' };

export const GROUPS: readonly PermissionGroup[] = PERMISSION_GROUPS;

/** Groups with access, e.g. "Wallet: read-write · Spot & margin trading: read-only". */
export const permissionSummary = (perms: PermMatrix): string => {
  const parts = GROUPS.flatMap((group) => {
    const access = perms[group] ?? 'none';
    return access === 'none' ? [] : [`${GROUP_TEXT[group].name}: ${ACCESS_TEXT[access].toLowerCase()}`];
  });
  return parts.length === 0 ? 'No permissions' : parts.join(' · ');
};
