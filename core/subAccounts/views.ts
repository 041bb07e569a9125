/**
 * Platform sub-account and key records → the contract's views. Pure, so the mapping of every
 * enum value (states, types, modes, permissions) is unit-tested without a server.
 */
import { type KeyView, keyExpiry, type PermMatrix } from '../../shared/contract/keys';
import type { SubAccountView } from '../../shared/contract/subAccounts';
import {
  type SubAccount,
  type SubAccountKey,
  type SubAccountKeyRequest,
  SubAccountPermName,
} from '../../shared/platform/api/subAccounts';

export const toSubAccountView = (raw: SubAccount): SubAccountView => ({
  userId: raw.user_id,
  loginName: raw.login_name,
  ...(raw.remark ? { remark: raw.remark } : {}),
  ...(raw.email ? { email: raw.email } : {}),
  state: raw.state === 1 ? 'normal' : raw.state === 2 ? 'frozen' : 'unknown',
  type: raw.type === 1 ? 'normal' : raw.type === 3 ? 'crossMargin' : 'unknown',
  ...(raw.create_time !== undefined ? { createdAt: Math.floor(raw.create_time) } : {}),
});

/** The platform's perms array → one access level per group (groups it does not list: none). */
export const toPermMatrix = (perms: readonly { name: string; read_only: boolean }[]): PermMatrix => {
  const matrix: PermMatrix = {};
  for (const perm of perms) {
    const name = SubAccountPermName.safeParse(perm.name);
    if (!name.success) continue;
    // A group listed twice keeps its widest access.
    if (matrix[name.data] === 'write') continue;
    matrix[name.data] = perm.read_only ? 'read' : 'write';
  }
  return matrix;
};

/** One access level per group → the platform's perms array (groups at none are left out). */
export const toPlatformPerms = (matrix: PermMatrix): SubAccountKeyRequest['perms'] =>
  SubAccountPermName.options.flatMap((name) => {
    const access = matrix[name];
    return access === 'read' || access === 'write' ? [{ name, read_only: access === 'read' }] : [];
  });

export const toKeyView = (raw: SubAccountKey, userId: number, secretInKeychain: boolean, nowMs: number): KeyView => {
  const createdAt = raw.created_at === undefined ? undefined : Math.floor(raw.created_at);
  const lastAccess = raw.last_access === undefined || raw.last_access <= 0 ? undefined : Math.floor(raw.last_access);
  return {
    key: raw.key,
    userId,
    ...(raw.name ? { name: raw.name } : {}),
    mode: raw.mode === 1 ? 'classic' : raw.mode === 2 ? 'unified' : 'unknown',
    perms: toPermMatrix(raw.perms),
    ipWhitelist: raw.ip_whitelist,
    state: raw.state === 1 ? 'normal' : raw.state === 2 ? 'frozen' : raw.state === 3 ? 'locked' : 'unknown',
    ...(createdAt !== undefined ? { createdAt } : {}),
    ...(raw.updated_at !== undefined ? { updatedAt: Math.floor(raw.updated_at) } : {}),
    ...(lastAccess !== undefined ? { lastAccess } : {}),
    expiry: keyExpiry(raw.ip_whitelist, createdAt, nowMs),
    secretInKeychain,
  };
};

/** Keychain entry of a sub-account key's secret, per profile so profiles never share secrets. */
export const subKeyEntry = (profileId: string, userId: number, key: string): string =>
  `sub-account-key:${profileId}:${userId}:${key}`;
