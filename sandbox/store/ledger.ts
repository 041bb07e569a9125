/**
 * The ledger: balances per (user, account type, currency[, pair]) with decimal arithmetic only.
 * STABLE EXTENSION POINT — sandbox/spot uses it for order locks and fills.
 *
 *   - Every movement must run inside a transaction, `ctx.tx(() => …)` or `db.transaction(…)()`
 *     (asserted), so a movement and its records commit together or not at all.
 *   - Amounts are decimal strings (or Decimal); they must be > 0.
 *   - Nothing goes negative: `debit`/`lock` throw ApiFailure('BALANCE_NOT_ENOUGH') (or the label you
 *     pass), `unlock`/`debitLocked` throw the same when more is asked than is locked. The table's CHECK
 *     constraints back this up.
 *   - Account keys: spot (pair ''), margin (pair = currency pair, currency = base or quote), futures and
 *     delivery (currency = settle currency in upper case, e.g. USDT), options (USDT), cross_margin.
 *   - Each change of a balance's total (available + locked) writes a ledger entry (account book) with
 *     a `type` (e.g. dnw for transfers, trade/fee for spot) and an optional `ref`.
 *   - Inside `ledger.tx(…)` (what `ctx.tx` is) balances read or written are remembered, so the next
 *     movement of the same balance skips its SELECT: the SQLite row is still written in the same
 *     transaction. Any rollback (a throw out of any `tx` level) forgets everything remembered. Movements
 *     inside a bare `db.transaction(…)()` bypass the memory and forget the balances they write, so a
 *     rollback there cannot leave a stale value either. One rule follows: inside `ctx.tx`, nest with
 *     `ctx.tx` (not `db.transaction`) wherever a nested failure is caught and the outer work goes on.
 *   - Group commit (the running sandbox, `groupCommit: true`): the first `tx` of an event-loop turn
 *     opens one SQLite transaction, each `tx` runs in a savepoint of it (a throw undoes only its own
 *     work), and the whole turn commits at once in the turn's check phase (setImmediate). One commit
 *     instead of one per request is what makes a data directory's writes cheap (one WAL append for
 *     everything the turn wrote). Nothing written is acknowledged before it is committed: callers that
 *     answer anyone wait for `committed()` first (the HTTP layer does, for every answer), so an
 *     acknowledged write survives a process kill. Never call `ctx.tx` inside a bare `db.transaction`.
 */
import Decimal from 'decimal.js';
import { ApiFailure } from '../http/errors';
import type { Db } from './db';

export const ACCOUNT_TYPES = ['spot', 'margin', 'futures', 'delivery', 'options', 'cross_margin'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

export interface BalanceKey {
  readonly userId: number;
  readonly account: AccountType;
  readonly currency: string;
  /** Currency pair for isolated margin; empty or omitted otherwise. */
  readonly pair?: string;
}

export interface BalanceRow {
  readonly account: AccountType;
  readonly currency: string;
  readonly pair: string;
  readonly available: string;
  readonly locked: string;
  readonly updateId: number;
}

export interface LedgerEntry {
  readonly id: number;
  readonly userId: number;
  readonly account: AccountType;
  readonly currency: string;
  readonly pair: string;
  readonly change: string;
  readonly balance: string;
  readonly type: string;
  readonly ref: string;
  /** Unix milliseconds. */
  readonly time: number;
}

type Amount = string | Decimal;

/** A balance after a movement (the WebSocket spot.balances channel); amounts canonical decimals. */
export interface BalanceChange {
  readonly key: BalanceKey;
  readonly available: string;
  readonly locked: string;
  /** Change of the total (available + locked); "0" for a lock or unlock. */
  readonly change: string;
  /** Change of the locked part. */
  readonly lockedChange: string;
  /** The movement's type ('' for a lock or unlock). */
  readonly type: string;
  /** Unix ms. */
  readonly time: number;
}

interface RawBalance {
  available: string;
  locked: string;
  update_id: number;
}

// Amounts reach 18+ significant digits (large balances with 8 decimals): give decimal.js room.
Decimal.set({ precision: 60, toExpNeg: -40, toExpPos: 60 });

const ZERO = new Decimal(0);
const ZERO_BALANCE: CachedBalance = { available: ZERO, locked: ZERO };

const cacheKey = (userId: number, account: string, currency: string, pair: string): string =>
  `${userId}|${account}|${currency}|${pair}`;

/** Canonical decimal string: no exponent, no trailing zeros. */
export const dec = (value: Decimal): string => value.toFixed();

interface CachedBalance {
  readonly available: Decimal;
  readonly locked: Decimal;
}

/** Bound on remembered balances (a sandbox has a few thousand rows; this only guards memory). */
const CACHE_LIMIT = 100_000;

export interface LedgerOptions {
  /** Commit once per event-loop turn (see the header). Off: every outermost `tx` commits at once. */
  readonly groupCommit?: boolean;
}

/** The open group transaction: settled when it commits (or fails to). */
interface OpenBatch {
  readonly committed: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

export class Ledger {
  /**
   * Balances as they stand in the current or last committed managed transaction (see tx()). Valid
   * because every write of the balances table goes through this class in this process.
   */
  private readonly cache = new Map<string, CachedBalance>();
  /** How many tx() calls are running: movements inside one use the remembered balances. */
  private depth = 0;
  /** The group transaction of this event-loop turn, while one is open. */
  private batch: OpenBatch | undefined;
  private readonly groupCommit: boolean;
  private readonly begin;
  private readonly commit;
  private readonly rollback;
  private readonly rollbackListeners: (() => void)[] = [];
  private readonly runInTransaction;
  private readonly selectOne;
  private readonly upsert;
  private readonly insertEntry;
  private readonly selectUser;
  private readonly selectUserAccount;
  private readonly selectEntries;
  private readonly selectPair;
  private readonly upsertPair;
  private readonly insertEntryPair;
  private readonly changeListeners: ((change: BalanceChange) => void)[] = [];
  /** Changes of the open managed transaction, told once it commits (forgotten on a rollback). */
  private pendingChanges: BalanceChange[] = [];

  constructor(
    private readonly db: Db,
    /** Business time, Unix ms (the sandbox clock). */
    private readonly now: () => number,
    options: LedgerOptions = {},
  ) {
    this.groupCommit = options.groupCommit ?? false;
    this.begin = db.prepare('BEGIN');
    this.commit = db.prepare('COMMIT');
    this.rollback = db.prepare('ROLLBACK');
    this.runInTransaction = db.transaction((fn: () => unknown) => fn());
    this.selectOne = db.prepare(
      'SELECT available, locked, update_id FROM balances WHERE user_id = ? AND account = ? AND currency = ? AND pair = ?',
    );
    this.upsert = db.prepare(`INSERT INTO balances (user_id, account, currency, pair, available, locked, update_id)
      VALUES (?, ?, ?, ?, ?, ?, 1)
      ON CONFLICT(user_id, account, currency, pair) DO UPDATE SET
        available = excluded.available, locked = excluded.locked, update_id = balances.update_id + 1`);
    this.insertEntry = db.prepare(
      'INSERT INTO ledger_entries (user_id, account, currency, pair, change, balance, type, ref, time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.selectUser = db.prepare(
      'SELECT account, currency, pair, available, locked, update_id FROM balances WHERE user_id = ? ORDER BY account, pair, currency',
    );
    this.selectUserAccount = db.prepare(
      'SELECT account, currency, pair, available, locked, update_id FROM balances WHERE user_id = ? AND account = ? ORDER BY pair, currency',
    );
    // Two-row forms for move(): three statements instead of six on the transfer hot path.
    this.selectPair = db.prepare(
      `SELECT user_id, account, currency, pair, available, locked FROM balances
       WHERE (user_id = ? AND account = ? AND currency = ? AND pair = ?) OR (user_id = ? AND account = ? AND currency = ? AND pair = ?)`,
    );
    this.upsertPair = db.prepare(`INSERT INTO balances (user_id, account, currency, pair, available, locked, update_id)
      VALUES (?, ?, ?, ?, ?, ?, 1), (?, ?, ?, ?, ?, ?, 1)
      ON CONFLICT(user_id, account, currency, pair) DO UPDATE SET
        available = excluded.available, locked = excluded.locked, update_id = balances.update_id + 1`);
    this.insertEntryPair = db.prepare(
      `INSERT INTO ledger_entries (user_id, account, currency, pair, change, balance, type, ref, time)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.selectEntries = db.prepare(
      `SELECT id, user_id, account, currency, pair, change, balance, type, ref, time FROM ledger_entries
       WHERE user_id = ? AND account = ? AND (? = '' OR currency = ?) AND (? = '' OR pair = ?) AND (? = '' OR type = ?)
         AND time >= ? AND time <= ? ORDER BY id DESC LIMIT ? OFFSET ?`,
    );
  }

  /**
   * Runs `fn` in ONE SQLite transaction (nested calls join the outer one as a savepoint; a throw rolls
   * back and is rethrown). This is `ctx.tx`. One compiled wrapper is reused: creating one costs ~20 µs.
   */
  tx<T>(fn: () => T): T {
    // Nested inside a bare db.transaction(): stay unmanaged, its rollback would not reach us.
    if (this.depth === 0 && this.db.inTransaction && this.batch === undefined) return this.runInTransaction(fn) as T;
    if (this.groupCommit && !this.db.inTransaction) this.openBatch();
    const outermost = this.depth === 0;
    this.depth += 1;
    const pendingBefore = this.pendingChanges.length;
    try {
      const result = this.runInTransaction(fn) as T;
      if (outermost && this.pendingChanges.length > 0) this.tellChanges();
      return result;
    } catch (error) {
      // Rolled back (to a savepoint or entirely): what was remembered may no longer be true.
      this.cache.clear();
      this.pendingChanges.length = pendingBefore;
      throw error;
    } finally {
      this.depth -= 1;
    }
  }

  /** Movements inside tx() use and keep the remembered balances; others bypass them. */
  private get managed(): boolean {
    return this.depth > 0;
  }

  /**
   * Settles once everything written so far is committed (rejects if that commit failed); undefined
   * when no group transaction is open, i.e. everything is already committed.
   */
  committed(): Promise<void> | undefined {
    return this.batch?.committed;
  }

  /** Commits the open group transaction now (close(), tests); a no-op when none is open. */
  flush(): void {
    const batch = this.batch;
    if (batch === undefined) return;
    this.batch = undefined;
    try {
      this.commit.run();
      batch.resolve();
    } catch (error) {
      // A failed commit (a full disk) undoes the whole turn: forget what was remembered and let the
      // modules that keep state in memory reload it. Nobody was told these writes happened.
      if (this.db.inTransaction) this.rollback.run();
      this.cache.clear();
      for (const listener of this.rollbackListeners) listener();
      batch.reject(error);
    }
  }

  /** Called after a group transaction failed to commit and was rolled back (rebuild memory from the database). */
  onRollback(listener: () => void): void {
    this.rollbackListeners.push(listener);
  }

  private openBatch(): void {
    this.begin.run();
    let resolve!: () => void;
    let reject!: (error: unknown) => void;
    const committed = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // Someone always waits on an answer; a turn with nothing to answer must not warn.
    committed.catch(() => undefined);
    this.batch = { committed, resolve, reject };
    setImmediate(() => this.flush());
  }

  /**
   * Every change of a balance, told after its transaction commits when it ran in `tx` (a bare
   * `db.transaction` tells at once). Costs nothing while nobody listens.
   */
  onChange(listener: (change: BalanceChange) => void): () => void {
    this.changeListeners.push(listener);
    return () => {
      const i = this.changeListeners.indexOf(listener);
      if (i >= 0) this.changeListeners.splice(i, 1);
    };
  }

  private tellChanges(): void {
    const changes = this.pendingChanges;
    this.pendingChanges = [];
    for (const change of changes) for (const listener of this.changeListeners) listener(change);
  }

  private recordChange(
    key: BalanceKey,
    available: Decimal,
    locked: Decimal,
    change: Decimal,
    lockedChange: Decimal,
    type: string,
  ): void {
    this.pendingChanges.push({
      key,
      available: dec(available),
      locked: dec(locked),
      change: dec(change),
      lockedChange: dec(lockedChange),
      type,
      time: this.now(),
    });
    if (!this.managed) this.tellChanges();
  }

  /** Current balance (zeros when the row does not exist). Usable outside a transaction. */
  get(key: BalanceKey): { available: string; locked: string; updateId: number } {
    const row = this.selectOne.get(key.userId, key.account, key.currency, key.pair ?? '') as RawBalance | undefined;
    return row
      ? { available: row.available, locked: row.locked, updateId: row.update_id }
      : { available: '0', locked: '0', updateId: 0 };
  }

  /** All balance rows of a user, optionally of one account type. */
  list(userId: number, account?: AccountType): BalanceRow[] {
    const rows = (
      account ? this.selectUserAccount.all(userId, account) : this.selectUser.all(userId)
    ) as (RawBalance & {
      account: AccountType;
      currency: string;
      pair: string;
    })[];
    return rows.map((r) => ({
      account: r.account,
      currency: r.currency,
      pair: r.pair,
      available: r.available,
      locked: r.locked,
      updateId: r.update_id,
    }));
  }

  credit(key: BalanceKey, amount: Amount, type: string, ref = ''): void {
    const a = this.amount(amount);
    const b = this.read(key);
    this.write(key, b.available.plus(a), b.locked, a, type, ref, b);
  }

  debit(key: BalanceKey, amount: Amount, type: string, ref = '', label = 'BALANCE_NOT_ENOUGH'): void {
    const a = this.amount(amount);
    const b = this.read(key);
    if (b.available.lt(a))
      throw new ApiFailure(label, `Not enough balance: ${key.account} ${key.currency} available ${dec(b.available)}`);
    this.write(key, b.available.minus(a), b.locked, a.neg(), type, ref, b);
  }

  /** Moves funds from available to locked (e.g. an open order). */
  lock(key: BalanceKey, amount: Amount, label = 'BALANCE_NOT_ENOUGH'): void {
    const a = this.amount(amount);
    const b = this.read(key);
    if (b.available.lt(a))
      throw new ApiFailure(label, `Not enough balance: ${key.account} ${key.currency} available ${dec(b.available)}`);
    this.write(key, b.available.minus(a), b.locked.plus(a), ZERO, '', '', b);
  }

  /** Moves funds from locked back to available. */
  unlock(key: BalanceKey, amount: Amount): void {
    const a = this.amount(amount);
    const b = this.read(key);
    if (b.locked.lt(a))
      throw new ApiFailure(
        'BALANCE_NOT_ENOUGH',
        `Cannot unlock ${dec(a)} ${key.currency}: only ${dec(b.locked)} locked`,
      );
    this.write(key, b.available.plus(a), b.locked.minus(a), ZERO, '', '', b);
  }

  /** Removes locked funds (e.g. the filled part of an order). */
  debitLocked(key: BalanceKey, amount: Amount, type: string, ref = ''): void {
    const a = this.amount(amount);
    const b = this.read(key);
    if (b.locked.lt(a))
      throw new ApiFailure('BALANCE_NOT_ENOUGH', `Cannot take ${dec(a)} ${key.currency}: only ${dec(b.locked)} locked`);
    this.write(key, b.available, b.locked.minus(a), a.neg(), type, ref, b);
  }

  /** Debit one balance and credit another with the same amount (transfers). */
  move(from: BalanceKey, to: BalanceKey, amount: Amount, type: string, ref = '', label = 'BALANCE_NOT_ENOUGH'): void {
    const a = this.amount(amount);
    if (!this.managed && !this.db.inTransaction) throw new Error('ledger movements must run inside db.transaction()');
    const fromPair = from.pair ?? '';
    const toPair = to.pair ?? '';
    if (
      from.userId === to.userId &&
      from.account === to.account &&
      from.currency === to.currency &&
      fromPair === toPair
    ) {
      throw new Error('ledger move needs two different balances');
    }
    const useCache = this.managed;
    const fromId = cacheKey(from.userId, from.account, from.currency, fromPair);
    const toId = cacheKey(to.userId, to.account, to.currency, toPair);
    let f = useCache ? this.cache.get(fromId) : undefined;
    let t = useCache ? this.cache.get(toId) : undefined;
    if (f === undefined || t === undefined) {
      const rows = this.selectPair.all(
        from.userId,
        from.account,
        from.currency,
        fromPair,
        to.userId,
        to.account,
        to.currency,
        toPair,
      ) as (RawBalance & { user_id: number; account: string; currency: string; pair: string })[];
      const find = (k: BalanceKey, pair: string): CachedBalance => {
        const r = rows.find(
          (row) =>
            row.user_id === k.userId && row.account === k.account && row.currency === k.currency && row.pair === pair,
        );
        return r ? { available: new Decimal(r.available), locked: new Decimal(r.locked) } : ZERO_BALANCE;
      };
      f = find(from, fromPair);
      t = find(to, toPair);
    }
    if (f.available.lt(a)) {
      throw new ApiFailure(label, `Not enough balance: ${from.account} ${from.currency} available ${dec(f.available)}`);
    }
    const newFrom = f.available.minus(a);
    const newTo = t.available.plus(a);
    const newFromText = dec(newFrom);
    const newToText = dec(newTo);
    this.upsertPair.run(
      from.userId,
      from.account,
      from.currency,
      fromPair,
      newFromText,
      dec(f.locked),
      to.userId,
      to.account,
      to.currency,
      toPair,
      newToText,
      dec(t.locked),
    );
    this.remember(fromId, useCache, { available: newFrom, locked: f.locked });
    this.remember(toId, useCache, { available: newTo, locked: t.locked });
    const now = this.now();
    const amountText = dec(a); // > 0, checked above
    this.insertEntryPair.run(
      from.userId,
      from.account,
      from.currency,
      fromPair,
      `-${amountText}`,
      // The account book shows the total (available + locked) after the change.
      f.locked.isZero() ? newFromText : dec(newFrom.plus(f.locked)),
      type,
      ref,
      now,
      to.userId,
      to.account,
      to.currency,
      toPair,
      amountText,
      t.locked.isZero() ? newToText : dec(newTo.plus(t.locked)),
      type,
      ref,
      now,
    );
    if (this.changeListeners.length > 0) {
      this.recordChange(from, newFrom, f.locked, a.neg(), ZERO, type);
      this.recordChange(to, newTo, t.locked, a, ZERO, type);
    }
  }

  /** Account-book entries, newest first. `from`/`to` are Unix ms (inclusive). */
  entries(q: {
    userId: number;
    account: AccountType;
    currency?: string;
    pair?: string;
    type?: string;
    from: number;
    to: number;
    limit: number;
    offset: number;
  }): LedgerEntry[] {
    const c = q.currency ?? '';
    const p = q.pair ?? '';
    const t = q.type ?? '';
    const rows = this.selectEntries.all(q.userId, q.account, c, c, p, p, t, t, q.from, q.to, q.limit, q.offset) as {
      id: number;
      user_id: number;
      account: AccountType;
      currency: string;
      pair: string;
      change: string;
      balance: string;
      type: string;
      ref: string;
      time: number;
    }[];
    return rows.map((r) => ({ ...r, userId: r.user_id }));
  }

  private amount(value: Amount): Decimal {
    const a = typeof value === 'string' ? new Decimal(value) : value;
    if (!a.isFinite() || a.lte(0)) throw new Error(`ledger amount must be > 0, got ${a.toString()}`);
    return a;
  }

  private read(key: BalanceKey): CachedBalance {
    if (!this.managed && !this.db.inTransaction) throw new Error('ledger movements must run inside db.transaction()');
    if (this.managed) {
      const hit = this.cache.get(cacheKey(key.userId, key.account, key.currency, key.pair ?? ''));
      if (hit) return hit;
    }
    const row = this.selectOne.get(key.userId, key.account, key.currency, key.pair ?? '') as RawBalance | undefined;
    return row ? { available: new Decimal(row.available), locked: new Decimal(row.locked) } : ZERO_BALANCE;
  }

  /** Remembers a balance just written (managed transaction) or forgets it (bare transaction). */
  private remember(id: string, useCache: boolean, balance: CachedBalance): void {
    if (!useCache) {
      this.cache.delete(id);
      return;
    }
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    this.cache.set(id, balance);
  }

  private write(
    key: BalanceKey,
    available: Decimal,
    locked: Decimal,
    change: Decimal,
    type: string,
    ref: string,
    before?: CachedBalance,
  ): void {
    if (available.isNegative() || locked.isNegative())
      throw new ApiFailure('NEGATIVE_ASSETS', 'Balance would become negative');
    const pair = key.pair ?? '';
    this.upsert.run(key.userId, key.account, key.currency, pair, dec(available), dec(locked));
    this.remember(cacheKey(key.userId, key.account, key.currency, pair), this.managed, { available, locked });
    if (!change.isZero()) {
      this.insertEntry.run(
        key.userId,
        key.account,
        key.currency,
        pair,
        dec(change),
        dec(available.plus(locked)),
        type,
        ref,
        this.now(),
      );
    }
    if (this.changeListeners.length > 0)
      this.recordChange(key, available, locked, change, before ? locked.minus(before.locked) : ZERO, type);
  }
}
