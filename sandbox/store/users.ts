/**
 * Users (main accounts and their sub-accounts), API keys and fee tiers.
 * STABLE EXTENSION POINT — sandbox/spot reads `ctx.users.get(id)` and `ctx.users.fees(id)` (maker/taker
 * rates for matching). Keys are cached in memory for the hot path; every write clears the cache.
 */
import type { PermissionName } from '../../shared/platform/statuses';
import { PERMISSION_NAMES } from '../../shared/platform/statuses';
import type { Db } from './db';
import type { IdSource } from './ids';

export interface FeeTier {
  taker_fee: string;
  maker_fee: string;
  rpi_maker_fee: string;
  futures_taker_fee: string;
  futures_maker_fee: string;
  futures_rpi_maker_fee: string;
  delivery_taker_fee: string;
  delivery_maker_fee: string;
  gt_taker_fee: string;
  gt_maker_fee: string;
  loan_fee: string;
  point_type: string;
  gt_discount: boolean;
  debit_fee: number;
  rpi_mm: number;
}

/** The default (VIP 0) tier: 0.2 % spot, futures 0.05 % taker / 0.015 % maker. */
export const DEFAULT_FEE_TIER: FeeTier = {
  taker_fee: '0.002',
  maker_fee: '0.002',
  rpi_maker_fee: '0',
  futures_taker_fee: '0.0005',
  futures_maker_fee: '0.00015',
  futures_rpi_maker_fee: '0',
  delivery_taker_fee: '0.0005',
  delivery_maker_fee: '0.00015',
  gt_taker_fee: '0',
  gt_maker_fee: '0',
  loan_fee: '0.18',
  point_type: '1',
  gt_discount: false,
  debit_fee: 3,
  rpi_mm: 0,
};

export interface UserRecord {
  readonly id: number;
  /** Main account id for a sub-account; null for a main account. */
  readonly parentId: number | null;
  readonly loginName: string;
  readonly remark: string;
  readonly email: string;
  /** 1 normal, 2 frozen. */
  readonly state: number;
  /** 1 normal, 3 cross-margin. */
  readonly type: number;
  /** Unix seconds. */
  readonly createTime: number;
  readonly unifiedMode: string;
  /** Test switch: UID pushes to this user are refused. */
  readonly refusePush: boolean;
  /**
   * Business permissions switched off for this sub-account (control API): its keys are refused
   * these permission groups even when they carry them (spec, sub-account group). Empty for mains.
   */
  readonly disabledBusiness: readonly string[];
}

export interface KeyPerm {
  readonly name: string;
  readonly read_only: boolean;
}

export interface ApiKeyRecord {
  readonly key: string;
  readonly userId: number;
  readonly secret: string;
  readonly name: string;
  readonly mode: number;
  readonly perms: readonly KeyPerm[];
  /** permission name → read-only flag */
  readonly permMap: ReadonlyMap<string, boolean>;
  readonly ipWhitelist: readonly string[];
  readonly state: number;
  /** Unix seconds. */
  readonly createdAt: number;
  readonly updatedAt: number;
  lastAccess: number;
}

interface UserRow {
  id: number;
  parent_id: number | null;
  login_name: string;
  remark: string;
  email: string;
  state: number;
  type: number;
  create_time: number;
  unified_mode: string;
  refuse_push: number;
  fee_tier: string;
  disabled_business: string;
}

interface KeyRow {
  key: string;
  user_id: number;
  secret: string;
  name: string;
  mode: number;
  perms: string;
  ip_whitelist: string;
  state: number;
  created_at: number;
  updated_at: number;
  last_access: number;
}

/** Every permission, read-write: the seeded main key and keys of POST /sandbox/users. */
export const FULL_PERMS: KeyPerm[] = PERMISSION_NAMES.map((name) => ({ name, read_only: false }));

export const MAX_KEYS_PER_ACCOUNT = 20;
export const MAX_WHITELIST_IPS = 20;

const toUser = (r: UserRow): UserRecord => ({
  id: r.id,
  parentId: r.parent_id,
  loginName: r.login_name,
  remark: r.remark,
  email: r.email,
  state: r.state,
  type: r.type,
  createTime: r.create_time,
  unifiedMode: r.unified_mode,
  refusePush: r.refuse_push === 1,
  disabledBusiness: JSON.parse(r.disabled_business) as string[],
});

const toKey = (r: KeyRow): ApiKeyRecord => {
  const perms = JSON.parse(r.perms) as KeyPerm[];
  return {
    key: r.key,
    userId: r.user_id,
    secret: r.secret,
    name: r.name,
    mode: r.mode,
    perms,
    permMap: new Map(perms.map((p) => [p.name, p.read_only])),
    ipWhitelist: JSON.parse(r.ip_whitelist) as string[],
    state: r.state,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    lastAccess: r.last_access,
  };
};

export class Users {
  private readonly keyCache = new Map<string, { key: ApiKeyRecord; user: UserRecord } | null>();
  /** Fee tiers by user: read on every order fill and GET /wallet/fee; cleared on writes. */
  private readonly feeCache = new Map<number, FeeTier>();
  private readonly stmts;

  constructor(
    private readonly db: Db,
    private readonly ids: IdSource,
    private readonly nowMs: () => number,
  ) {
    this.stmts = {
      user: db.prepare('SELECT * FROM users WHERE id = ?'),
      userByLogin: db.prepare('SELECT id FROM users WHERE login_name = ?'),
      subs: db.prepare('SELECT * FROM users WHERE parent_id = ? ORDER BY id'),
      mains: db.prepare('SELECT * FROM users WHERE parent_id IS NULL ORDER BY id'),
      key: db.prepare('SELECT * FROM api_keys WHERE key = ?'),
      keysOf: db.prepare('SELECT * FROM api_keys WHERE user_id = ? ORDER BY created_at, key'),
      maxId: db.prepare('SELECT MAX(id) AS id FROM users'),
      touch: db.prepare('UPDATE api_keys SET last_access = ? WHERE key = ?'),
    };
  }

  get(id: number): UserRecord | undefined {
    const row = this.stmts.user.get(id) as UserRow | undefined;
    return row ? toUser(row) : undefined;
  }

  /** The main account of a user (itself when main). */
  mainOf(user: UserRecord): number {
    return user.parentId ?? user.id;
  }

  subAccounts(mainId: number): UserRecord[] {
    return (this.stmts.subs.all(mainId) as UserRow[]).map(toUser);
  }

  /** The sub-account `subId` of `mainId`, or undefined when it is not theirs. */
  subOf(mainId: number, subId: number): UserRecord | undefined {
    const user = this.get(subId);
    return user && user.parentId === mainId ? user : undefined;
  }

  mainAccounts(): UserRecord[] {
    return (this.stmts.mains.all() as UserRow[]).map(toUser);
  }

  loginNameTaken(loginName: string): boolean {
    return this.stmts.userByLogin.get(loginName) !== undefined;
  }

  /** The user's fee tier (a copy: callers may not change the cached one). */
  fees(userId: number): FeeTier {
    let tier = this.feeCache.get(userId);
    if (!tier) {
      const row = this.stmts.user.get(userId) as UserRow | undefined;
      tier = row ? { ...DEFAULT_FEE_TIER, ...(JSON.parse(row.fee_tier) as Partial<FeeTier>) } : { ...DEFAULT_FEE_TIER };
      if (row) this.feeCache.set(userId, tier);
    }
    return { ...tier };
  }

  setFees(userId: number, fees: Partial<FeeTier>): void {
    this.db.prepare('UPDATE users SET fee_tier = ? WHERE id = ?').run(JSON.stringify(fees), userId);
    this.feeCache.delete(userId);
  }

  createUser(input: {
    parentId: number | null;
    loginName: string;
    remark?: string;
    email?: string;
    type?: number;
    refusePush?: boolean;
  }): UserRecord {
    const max = (this.stmts.maxId.get() as { id: number | null }).id;
    const id = max === null ? this.ids.firstUserId : max + 1;
    const feeTier = input.parentId === null ? '{}' : JSON.stringify(this.fees(input.parentId));
    this.db
      .prepare(
        `INSERT INTO users (id, parent_id, login_name, remark, email, state, type, create_time, refuse_push, fee_tier)
         VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?)`,
      )
      .run(
        id,
        input.parentId,
        input.loginName,
        input.remark ?? '',
        input.email ?? '',
        input.type ?? 1,
        Math.floor(this.nowMs() / 1000),
        input.refusePush ? 1 : 0,
        feeTier,
      );
    this.keyCache.clear();
    return this.get(id)!;
  }

  /** Switches a sub-account's business permissions off (the names given) and the others on. */
  setDisabledBusiness(userId: number, names: readonly string[]): void {
    this.db.prepare('UPDATE users SET disabled_business = ? WHERE id = ?').run(JSON.stringify(names), userId);
    this.keyCache.clear();
  }

  setState(userId: number, state: 1 | 2): void {
    this.db.prepare('UPDATE users SET state = ? WHERE id = ?').run(state, userId);
    this.keyCache.clear();
  }

  createKey(
    userId: number,
    input: { name?: string; mode?: number; perms: readonly KeyPerm[]; ipWhitelist: readonly string[] },
  ): ApiKeyRecord {
    const key = this.ids.hex(16, 'key');
    const secret = this.ids.hex(32, 'secret');
    const now = Math.floor(this.nowMs() / 1000);
    this.db
      .prepare(
        `INSERT INTO api_keys (key, user_id, secret, name, mode, perms, ip_whitelist, state, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?)`,
      )
      .run(
        key,
        userId,
        secret,
        input.name ?? '',
        input.mode ?? 1,
        JSON.stringify(input.perms),
        JSON.stringify(input.ipWhitelist),
        now,
        now,
      );
    this.keyCache.clear();
    return this.key(key)!;
  }

  updateKey(key: string, input: { name: string; perms: readonly KeyPerm[]; ipWhitelist: readonly string[] }): void {
    this.db
      .prepare('UPDATE api_keys SET name = ?, perms = ?, ip_whitelist = ?, updated_at = ? WHERE key = ?')
      .run(
        input.name,
        JSON.stringify(input.perms),
        JSON.stringify(input.ipWhitelist),
        Math.floor(this.nowMs() / 1000),
        key,
      );
    this.keyCache.clear();
  }

  setKeyState(key: string, state: number): void {
    this.db.prepare('UPDATE api_keys SET state = ? WHERE key = ?').run(state, key);
    this.keyCache.clear();
  }

  deleteKey(key: string): void {
    this.db.prepare('DELETE FROM api_keys WHERE key = ?').run(key);
    this.keyCache.clear();
  }

  key(key: string): ApiKeyRecord | undefined {
    const row = this.stmts.key.get(key) as KeyRow | undefined;
    return row ? toKey(row) : undefined;
  }

  keysOf(userId: number): ApiKeyRecord[] {
    return (this.stmts.keysOf.all(userId) as KeyRow[]).map(toKey);
  }

  /** Forgets every cached key and fee tier (after a rollback undid writes they may reflect). */
  forgetCached(): void {
    this.keyCache.clear();
    this.feeCache.clear();
  }

  /** Hot path of authentication: the key and its user, cached until the next write. */
  authLookup(key: string): { key: ApiKeyRecord; user: UserRecord } | null {
    let hit = this.keyCache.get(key);
    if (hit === undefined) {
      const record = this.key(key);
      const user = record ? this.get(record.userId) : undefined;
      hit = record && user ? { key: record, user } : null;
      // Bounded: unknown keys from a fuzzer must not grow the cache without limit.
      if (this.keyCache.size > 10_000) this.keyCache.clear();
      this.keyCache.set(key, hit);
    }
    return hit;
  }

  /** State of a main account (1 normal, 2 frozen) for the sub-account lock-out rule. */
  authMainState(mainId: number): number {
    return this.get(mainId)?.state ?? 2;
  }

  /** Records the key's last use, written at most once a minute per key to keep requests cheap. */
  touch(record: ApiKeyRecord, nowSeconds: number): void {
    if (nowSeconds - record.lastAccess < 60) return;
    record.lastAccess = nowSeconds;
    this.stmts.touch.run(nowSeconds, record.key);
  }

  /** Whether a key grants `permission` for a read (GET) or a write. */
  static permits(record: ApiKeyRecord, permission: PermissionName, write: boolean): 'ok' | 'missing' | 'read_only' {
    const readOnly = record.permMap.get(permission);
    if (readOnly === undefined) return 'missing';
    if (write && readOnly) return 'read_only';
    return 'ok';
  }
}
