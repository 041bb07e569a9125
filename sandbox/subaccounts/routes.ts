/**
 * The sub-account group: create, list, get, lock/unlock, keys (secret only at creation; an update
 * without ip_whitelist or perms clears them, as on the real platform), unified mode.
 * Management needs a main-account key with the `account` permission (docs/sandbox.md).
 */
import { isIPv4 } from 'node:net';
import { SUB_ACCOUNT_PERMISSION_NAMES } from '../../shared/platform/statuses';
import type { SandboxContext } from '../context';
import { ApiFailure } from '../http/errors';
import { bodyObject, optInt, optString, reqString } from '../http/params';
import type { PrivateRouteRequest, RouteDef } from '../http/route';
import type { ApiKeyRecord, KeyPerm, UserRecord } from '../store/users';
import { MAX_KEYS_PER_ACCOUNT, MAX_WHITELIST_IPS } from '../store/users';
import { ensureDepositAddresses } from '../wallet/addresses';

const LOGIN_NAME_RE = /^[A-Za-z0-9_]{4,32}$/;
export const MAX_SUB_ACCOUNTS = 100;

export function subAccountView(u: UserRecord): Record<string, unknown> {
  return {
    remark: u.remark,
    login_name: u.loginName,
    email: u.email,
    state: u.state,
    type: u.type,
    user_id: u.id,
    create_time: u.createTime,
  };
}

export function keyView(k: ApiKeyRecord, withSecret: boolean): Record<string, unknown> {
  return {
    user_id: k.userId, // int64 in the platform's SubAccountKey model, as in SubAccount
    mode: k.mode,
    name: k.name,
    perms: k.perms,
    ip_whitelist: k.ipWhitelist,
    key: k.key,
    state: k.state,
    created_at: k.createdAt,
    updated_at: k.updatedAt,
    last_access: k.lastAccess,
    ...(withSecret ? { secret: k.secret } : {}),
  };
}

/** perms of a key body; omitted → none. */
export function parsePerms(value: unknown, allowed: readonly string[]): KeyPerm[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new ApiFailure('INVALID_PARAM_VALUE', 'perms must be an array');
  const seen = new Set<string>();
  return value.map((p: unknown) => {
    const o = p as { name?: unknown; read_only?: unknown };
    if (typeof o !== 'object' || o === null || typeof o.name !== 'string' || !allowed.includes(o.name)) {
      throw new ApiFailure('INVALID_PARAM_VALUE', `perms[].name must be one of ${allowed.join(', ')}`);
    }
    if (o.read_only !== undefined && typeof o.read_only !== 'boolean') {
      throw new ApiFailure('INVALID_PARAM_VALUE', 'perms[].read_only must be a boolean');
    }
    if (seen.has(o.name)) throw new ApiFailure('INVALID_PARAM_VALUE', `permission ${o.name} listed twice`);
    seen.add(o.name);
    return { name: o.name, read_only: o.read_only === true };
  });
}

/** ip_whitelist of a key body; omitted → cleared. IPv4 only, at most 20. */
export function parseWhitelist(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((ip) => typeof ip === 'string' && isIPv4(ip))) {
    throw new ApiFailure(
      'INVALID_PARAM_VALUE',
      'ip_whitelist must be an array of IPv4 addresses (ranges are unsupported)',
    );
  }
  if (value.length > MAX_WHITELIST_IPS)
    throw new ApiFailure('INVALID_PARAM_VALUE', `at most ${MAX_WHITELIST_IPS} IPs per key`);
  return [...new Set(value as string[])];
}

export function subAccountRoutes(ctx: SandboxContext): RouteDef[] {
  const { users } = ctx;

  const subParam = (req: PrivateRouteRequest): UserRecord => {
    const raw = req.params.user_id ?? '';
    if (!/^\d{1,15}$/.test(raw)) throw new ApiFailure('INVALID_PARAM_VALUE', 'user_id must be an integer');
    const sub = users.subOf(req.user.id, Number(raw));
    if (!sub) throw new ApiFailure('SUB_ACCOUNT_NOT_FOUND', `Sub-account ${raw} not found`);
    return sub;
  };

  const keyParam = (req: PrivateRouteRequest, sub: UserRecord): ApiKeyRecord => {
    const key = users.key(req.params.key ?? '');
    if (!key || key.userId !== sub.id) throw new ApiFailure('NOT_FOUND', 'API key not found');
    return key;
  };

  const create = (req: PrivateRouteRequest) => {
    const body = bodyObject(req.body);
    const loginName = reqString(body, 'login_name', 64);
    if (!LOGIN_NAME_RE.test(loginName)) {
      throw new ApiFailure('INVALID_PARAM_VALUE', 'login_name: 4 to 32 letters, digits or underscores');
    }
    const remark = optString(body, 'remark', 128) ?? '';
    const email = optString(body, 'email', 128);
    const password = optString(body, 'password', 128);
    if (email !== undefined && email !== '' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
      throw new ApiFailure('INVALID_PARAM_VALUE', 'email is not a valid address');
    }
    if (password !== undefined && password !== '' && password.length < 8) {
      throw new ApiFailure('INVALID_PARAM_VALUE', 'password must have at least 8 characters');
    }
    const sub = ctx.tx(() => {
      if (users.loginNameTaken(loginName))
        throw new ApiFailure('INVALID_PARAM_VALUE', `login_name ${loginName} is taken`);
      if (users.subAccounts(req.user.id).length >= MAX_SUB_ACCOUNTS) {
        throw new ApiFailure('INVALID_PARAM_VALUE', `at most ${MAX_SUB_ACCOUNTS} sub-accounts per main account`);
      }
      // password and email default to the main account's; the password is never stored or echoed.
      const created = users.createUser({ parentId: req.user.id, loginName, remark, email: email || req.user.email });
      ensureDepositAddresses(ctx, created.id);
      return created;
    });
    return subAccountView(sub);
  };

  const list = (req: PrivateRouteRequest) => {
    const type = req.query.type ?? '1';
    if (type !== '0' && type !== '1') throw new ApiFailure('INVALID_PARAM_VALUE', 'type must be 0 (all) or 1 (normal)');
    return users
      .subAccounts(req.user.id)
      .filter((u) => type === '0' || u.type === 1)
      .map(subAccountView);
  };

  const createKey = (req: PrivateRouteRequest) => {
    const sub = subParam(req);
    const body = bodyObject(req.body);
    const mode = optInt(body, 'mode', { min: 1, max: 2 }) ?? 1;
    const name = optString(body, 'name', 64) ?? '';
    const perms = parsePerms(body.perms, SUB_ACCOUNT_PERMISSION_NAMES);
    const ipWhitelist = parseWhitelist(body.ip_whitelist);
    const key = ctx.tx(() => {
      if (users.keysOf(sub.id).length >= MAX_KEYS_PER_ACCOUNT) {
        throw new ApiFailure('INVALID_PARAM_VALUE', `at most ${MAX_KEYS_PER_ACCOUNT} keys per account`);
      }
      return users.createKey(sub.id, { name, mode, perms, ipWhitelist });
    });
    return keyView(key, true);
  };

  const updateKey = (req: PrivateRouteRequest) => {
    const sub = subParam(req);
    const key = keyParam(req, sub);
    const body = bodyObject(req.body);
    const mode = optInt(body, 'mode', { min: 1, max: 2 });
    if (mode !== undefined && mode !== key.mode) throw new ApiFailure('INVALID_PARAM_VALUE', 'mode cannot be changed');
    // As on the real platform: omitted perms / ip_whitelist are cleared, not kept.
    users.updateKey(key.key, {
      name: optString(body, 'name', 64) ?? key.name,
      perms: parsePerms(body.perms, SUB_ACCOUNT_PERMISSION_NAMES),
      ipWhitelist: parseWhitelist(body.ip_whitelist),
    });
    return undefined;
  };

  const account = 'account' as const;
  return [
    {
      method: 'POST',
      path: '/sub_accounts',
      auth: 'private',
      permission: account,
      mainOnly: true,
      status: 201,
      handler: create,
    },
    { method: 'GET', path: '/sub_accounts', auth: 'private', permission: account, mainOnly: true, handler: list },
    {
      method: 'GET',
      path: '/sub_accounts/unified_mode',
      auth: 'private',
      permission: account,
      mainOnly: true,
      handler: (req) =>
        users
          .subAccounts(req.user.id)
          .map((u) => ({ user_id: u.id, is_unified: u.unifiedMode !== 'classic', mode: u.unifiedMode })),
    },
    {
      method: 'GET',
      path: '/sub_accounts/:user_id',
      auth: 'private',
      permission: account,
      mainOnly: true,
      handler: (req) => subAccountView(subParam(req)),
    },
    {
      method: 'POST',
      path: '/sub_accounts/:user_id/lock',
      auth: 'private',
      permission: account,
      mainOnly: true,
      status: 204,
      handler: (req) => {
        users.setState(subParam(req).id, 2);
        return undefined;
      },
    },
    {
      method: 'POST',
      path: '/sub_accounts/:user_id/unlock',
      auth: 'private',
      permission: account,
      mainOnly: true,
      status: 204,
      handler: (req) => {
        users.setState(subParam(req).id, 1);
        return undefined;
      },
    },
    {
      method: 'POST',
      path: '/sub_accounts/:user_id/keys',
      auth: 'private',
      permission: account,
      mainOnly: true,
      handler: createKey,
    },
    {
      method: 'GET',
      path: '/sub_accounts/:user_id/keys',
      auth: 'private',
      permission: account,
      mainOnly: true,
      handler: (req) => users.keysOf(subParam(req).id).map((k) => keyView(k, false)),
    },
    {
      method: 'GET',
      path: '/sub_accounts/:user_id/keys/:key',
      auth: 'private',
      permission: account,
      mainOnly: true,
      handler: (req) => keyView(keyParam(req, subParam(req)), false),
    },
    {
      method: 'PUT',
      path: '/sub_accounts/:user_id/keys/:key',
      auth: 'private',
      permission: account,
      mainOnly: true,
      status: 204,
      handler: updateKey,
    },
    {
      method: 'DELETE',
      path: '/sub_accounts/:user_id/keys/:key',
      auth: 'private',
      permission: account,
      mainOnly: true,
      status: 204,
      handler: (req) => {
        users.deleteKey(keyParam(req, subParam(req)).key);
        return undefined;
      },
    },
  ];
}
