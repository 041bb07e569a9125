/**
 * The ledger: balances per (user, account type, currency[, pair]) with decimal arithmetic only.
 * STABLE EXTENSION POINT — sandbox/spot uses it for order locks and fills.
 *
 *   - Every method must run inside `ctx.db.transaction(() => …)()` (asserted), so a movement and its
 *     records commit together or not at all.
 *   - Amounts are decimal strings (or Decimal); they must be > 0.
 *   - Nothing goes negative: `debit`/`lock` throw ApiFailure('BALANCE_NOT_ENOUGH') (or the label you
 *     pass), `unlock`/`debitLocked` throw the same when more is asked than is locked. The table's CHECK
 *     constraints back this up.
 *   - Account keys: spot (pair ''), margin (pair = currency pair, currency = base or quote), futures and
 *     delivery (currency = settle currency in upper case, e.g. USDT), options (USDT), cross_margin.
 *   - Each change of a balance's total (available + locked) writes a ledger entry (account book) with
 *     a `type` (e.g. dnw for transfers, trade/fee for spot) and an optional `ref`.
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

interface RawBalance {
  available: string;
  locked: string;
  update_id: number;
}

// Amounts reach 18+ significant digits (large balances with 8 decimals): give decimal.js room.
Decimal.set({ precision: 60, toExpNeg: -40, toExpPos: 60 });

const ZERO = new Decimal(0);

/** Canonical decimal string: no exponent, no trailing zeros. */
export const dec = (value: Decimal): string => value.toFixed();

export class Ledger {
  private readonly selectOne;
  private readonly upsert;
  private readonly insertEntry;
  private readonly selectUser;
  private readonly selectUserAccount;
  private readonly selectEntries;

  constructor(
    private readonly db: Db,
    /** Business time, Unix ms (the sandbox clock). */
    private readonly now: () => number,
  ) {
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
    this.selectEntries = db.prepare(
      `SELECT id, user_id, account, currency, pair, change, balance, type, ref, time FROM ledger_entries
       WHERE user_id = ? AND account = ? AND (? = '' OR currency = ?) AND (? = '' OR pair = ?) AND (? = '' OR type = ?)
         AND time >= ? AND time <= ? ORDER BY id DESC LIMIT ? OFFSET ?`,
    );
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
    this.write(key, b.available.plus(a), b.locked, a, type, ref);
  }

  debit(key: BalanceKey, amount: Amount, type: string, ref = '', label = 'BALANCE_NOT_ENOUGH'): void {
    const a = this.amount(amount);
    const b = this.read(key);
    if (b.available.lt(a))
      throw new ApiFailure(label, `Not enough balance: ${key.account} ${key.currency} available ${dec(b.available)}`);
    this.write(key, b.available.minus(a), b.locked, a.neg(), type, ref);
  }

  /** Moves funds from available to locked (e.g. an open order). */
  lock(key: BalanceKey, amount: Amount, label = 'BALANCE_NOT_ENOUGH'): void {
    const a = this.amount(amount);
    const b = this.read(key);
    if (b.available.lt(a))
      throw new ApiFailure(label, `Not enough balance: ${key.account} ${key.currency} available ${dec(b.available)}`);
    this.write(key, b.available.minus(a), b.locked.plus(a), ZERO, '', '');
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
    this.write(key, b.available.plus(a), b.locked.minus(a), ZERO, '', '');
  }

  /** Removes locked funds (e.g. the filled part of an order). */
  debitLocked(key: BalanceKey, amount: Amount, type: string, ref = ''): void {
    const a = this.amount(amount);
    const b = this.read(key);
    if (b.locked.lt(a))
      throw new ApiFailure('BALANCE_NOT_ENOUGH', `Cannot take ${dec(a)} ${key.currency}: only ${dec(b.locked)} locked`);
    this.write(key, b.available, b.locked.minus(a), a.neg(), type, ref);
  }

  /** Debit one balance and credit another with the same amount (own transfers). */
  move(from: BalanceKey, to: BalanceKey, amount: Amount, type: string, ref = '', label = 'BALANCE_NOT_ENOUGH'): void {
    this.debit(from, amount, type, ref, label);
    this.credit(to, amount, type, ref);
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

  private read(key: BalanceKey): { available: Decimal; locked: Decimal } {
    if (!this.db.inTransaction) throw new Error('ledger movements must run inside db.transaction()');
    const row = this.selectOne.get(key.userId, key.account, key.currency, key.pair ?? '') as RawBalance | undefined;
    return row
      ? { available: new Decimal(row.available), locked: new Decimal(row.locked) }
      : { available: ZERO, locked: ZERO };
  }

  private write(
    key: BalanceKey,
    available: Decimal,
    locked: Decimal,
    change: Decimal,
    type: string,
    ref: string,
  ): void {
    if (available.isNegative() || locked.isNegative())
      throw new ApiFailure('NEGATIVE_ASSETS', 'Balance would become negative');
    const pair = key.pair ?? '';
    this.upsert.run(key.userId, key.account, key.currency, pair, dec(available), dec(locked));
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
  }
}
