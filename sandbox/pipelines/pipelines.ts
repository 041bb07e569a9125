/**
 * Status pipelines of deposits, withdrawals and UID pushes. Each record follows a route — a fixed
 * list of statuses with a duration each — chosen when it is created from documented test inputs
 * (docs/sandbox.md "Pipelines"). Due steps run on every clock tick (once a second in real mode,
 * on POST /sandbox/advance in manual mode); a long advance runs every due step in order, each
 * stamped with its own due time. Each step, with its money movement, is one transaction.
 */
import Decimal from 'decimal.js';
import { currencyDef } from '../catalog';
import type { SandboxContext } from '../context';
import { dec } from '../store/ledger';
import { txidOf } from '../wallet/addresses';

interface Step {
  readonly status: string;
  /** How long the record stays in this status (ms); absent for a final status. */
  readonly ms?: number;
}

const S = 1000;

export const WITHDRAWAL_ROUTES: Readonly<Record<string, readonly Step[]>> = {
  /** Normal on-chain withdrawal (18 s in all, like the earlier REQUEST → PEND → EXTPEND route). */
  chain: [
    { status: 'REQUEST', ms: 3 * S },
    { status: 'VERIFY', ms: 2 * S },
    { status: 'PROCES', ms: 3 * S },
    { status: 'EXTPEND', ms: 10 * S },
    { status: 'DONE' },
  ],
  /** Amount at or above the currency's review threshold. */
  review: [
    { status: 'REQUEST', ms: 3 * S },
    { status: 'MANUAL', ms: 60 * S },
    { status: 'PEND', ms: 5 * S },
    { status: 'EXTPEND', ms: 10 * S },
    { status: 'DONE' },
  ],
  /** Amount at or above FACE_VERIFY_FACTOR × the review threshold: face verification first. */
  face: [
    { status: 'REQUEST', ms: 3 * S },
    { status: 'FVERIFY', ms: 120 * S },
    { status: 'MANUAL', ms: 60 * S },
    { status: 'PEND', ms: 5 * S },
    { status: 'EXTPEND', ms: 10 * S },
    { status: 'DONE' },
  ],
  /** Address ending in "DMOVE": held for manual review by the risk desk, then sent. */
  dmove: [
    { status: 'REQUEST', ms: 3 * S },
    { status: 'DMOVE', ms: 30 * S },
    { status: 'PROCES', ms: 5 * S },
    { status: 'EXTPEND', ms: 10 * S },
    { status: 'DONE' },
  ],
  /** Address ending in "LOCKED": the wallet side locks the order for a while, then sends it. */
  locked: [
    { status: 'REQUEST', ms: 3 * S },
    { status: 'LOCKED', ms: 30 * S },
    { status: 'PROCES', ms: 5 * S },
    { status: 'EXTPEND', ms: 10 * S },
    { status: 'DONE' },
  ],
  /** Address ending in "INVALID": found invalid by the wallet and refunded. */
  invalid: [{ status: 'REQUEST', ms: 3 * S }, { status: 'INVALID' }],
  /** Address ending in "BCODE": paid out as a deposit code (GateCode) instead of on chain. */
  bcode: [{ status: 'REQUEST', ms: 3 * S }, { status: 'BCODE' }],
  /** Address ending in "FAIL": fails on chain, then is cancelled and refunded. */
  fail: [
    { status: 'REQUEST', ms: 3 * S },
    { status: 'PEND', ms: 5 * S },
    { status: 'EXTPEND', ms: 10 * S },
    { status: 'FAIL', ms: 5 * S },
    { status: 'CANCEL' },
  ],
  /** Address ending in "REJECT": rejected by review and refunded. */
  reject: [{ status: 'REQUEST', ms: 3 * S }, { status: 'REVIEW', ms: 30 * S }, { status: 'REJECT' }],
  /** To another sandbox user's deposit address: no fee, credited to them. */
  internal: [{ status: 'REQUEST', ms: 2 * S }, { status: 'DONE' }],
  /** After DELETE /withdrawals/{id}. */
  cancel: [{ status: 'CANCELPEND', ms: 2 * S }, { status: 'CANCEL' }],
};

/** Test inputs (docs/sandbox.md): an address ending in one of these words takes that route. */
export const WITHDRAWAL_ADDRESS_ROUTES: readonly (readonly [suffix: string, route: string])[] = [
  ['FAIL', 'fail'],
  ['REJECT', 'reject'],
  ['INVALID', 'invalid'],
  ['LOCKED', 'locked'],
  ['DMOVE', 'dmove'],
  ['BCODE', 'bcode'],
];

/** An amount of this many review thresholds or more needs face verification (route `face`). */
export const FACE_VERIFY_FACTOR = 5;

/**
 * Statuses in which DELETE /withdrawals/{id} is accepted: before processing starts (the app offers
 * the same set). LOCKED is the wallet's own lock: not cancellable.
 */
export const CANCELLABLE_WITHDRAWAL = new Set(['REQUEST', 'VERIFY', 'MANUAL', 'REVIEW', 'DMOVE', 'FVERIFY']);

/** What a refunded withdrawal's fail_reason says, per route. */
const WITHDRAWAL_FAIL_REASON: Readonly<Record<string, string>> = {
  fail: 'Transaction failed on chain (sandbox test address)',
  invalid: 'Invalid withdrawal: the wallet refused the address (sandbox test address)',
  cancel: 'Cancelled at the user’s request',
};

export const DEPOSIT_ROUTES: Readonly<Record<string, readonly Step[]>> = {
  chain: [
    { status: 'PEND', ms: 3 * S },
    { status: 'TRACK', ms: 10 * S },
    { status: 'DEP_CREDITED', ms: 10 * S },
    { status: 'DONE' },
  ],
  /** Amount at or above the currency's review threshold. */
  review: [
    { status: 'REVIEW', ms: 60 * S },
    { status: 'PEND', ms: 3 * S },
    { status: 'TRACK', ms: 10 * S },
    { status: 'DEP_CREDITED', ms: 10 * S },
    { status: 'DONE' },
  ],
  /** Control deposit with `blocked: true`: refused after review, never credited. */
  blocked: [{ status: 'REVIEW', ms: 60 * S }, { status: 'BLOCKED' }],
  /** Amount below the currency's minimum deposit: never credited. */
  invalid: [{ status: 'PEND', ms: 3 * S }, { status: 'INVALID' }],
  /** From another sandbox user's withdrawal: credited at once. */
  internal: [{ status: 'DONE' }],
};

export const PUSH_ROUTES: Readonly<Record<string, readonly Step[]>> = {
  accept: [
    { status: 'CREATING', ms: 2 * S },
    { status: 'PENDING', ms: 10 * S },
    { status: 'RECEIVING', ms: 3 * S },
    { status: 'RECEIVED' },
  ],
  /** Receiver created with refuse_push (control API): refused and refunded. */
  refuse: [
    { status: 'CREATING', ms: 2 * S },
    { status: 'PENDING', ms: 10 * S },
    { status: 'REFUSING', ms: 3 * S },
    { status: 'REFUSED' },
  ],
  /** After POST /sandbox/pushes/cancel while CREATING or PENDING: the sender is refunded. */
  cancel: [{ status: 'CANCELLING', ms: 3 * S }, { status: 'CANCELLED' }],
};

/** Push statuses a cancellation (control API) may start from. */
export const CANCELLABLE_PUSH = new Set(['CREATING', 'PENDING']);

const PUSH_MESSAGE: Readonly<Record<string, string>> = {
  PENDING: 'Waiting for the receiver to accept',
  REFUSED: 'The receiver refused the transfer',
  CANCELLING: 'Cancelling: the transfer is being returned',
  CANCELLED: 'Cancelled: the amount was returned to the sender',
};

interface WithdrawalRow {
  seq: number;
  id: string;
  user_id: number;
  currency: string;
  chain: string;
  address: string;
  memo: string;
  amount: string;
  fee: string;
  status: string;
  route: string;
  internal_user_id: number | null;
  next_at: number | null;
}

interface DepositRow {
  seq: number;
  user_id: number;
  currency: string;
  amount: string;
  status: string;
  route: string;
  credited: number;
  next_at: number | null;
}

interface PushRow {
  id: number;
  push_uid: number;
  receive_uid: number;
  currency: string;
  amount: string;
  status: string;
  route: string;
  next_at: number | null;
}

function nextStep(route: readonly Step[] | undefined, status: string): Step | undefined {
  if (!route) return undefined;
  const i = route.findIndex((s) => s.status === status);
  return i === -1 ? undefined : route[i + 1];
}

function stepMs(route: readonly Step[] | undefined, status: string): number | undefined {
  return route?.find((s) => s.status === status)?.ms;
}

export class Pipelines {
  private running = false;

  constructor(private readonly ctx: SandboxContext) {}

  /** Due time of the first step of a route started at `now`. */
  firstStep(
    routes: Readonly<Record<string, readonly Step[]>>,
    route: string,
    now: number,
  ): { status: string; nextAt: number | null } {
    const first = routes[route]![0]!;
    return { status: first.status, nextAt: first.ms === undefined ? null : now + first.ms };
  }

  /** A record's transaction id in its chain's own format, stable under the seed. */
  txid(chain: string, ref: string): string {
    return txidOf(this.ctx, chain, ref);
  }

  /** Runs every step due at or before `now`. */
  advanceTo(now: number): void {
    if (this.running) return;
    this.running = true;
    try {
      let moved = true;
      while (moved) {
        moved = this.stepWithdrawals(now) + this.stepDeposits(now) + this.stepPushes(now) > 0;
      }
    } finally {
      this.running = false;
    }
  }

  /**
   * Runs one step in its own transaction. A step that throws (a bug) is rolled back, logged and
   * parked (next_at cleared) so it can neither loop forever nor stop the other records.
   */
  private guard(
    table: 'withdrawals' | 'deposits' | 'pushes',
    column: 'seq' | 'id',
    key: number,
    step: () => void,
  ): void {
    try {
      this.ctx.tx(step);
    } catch (error) {
      this.ctx.log('pipeline step failed; record parked', {
        table,
        key,
        error: String((error as Error)?.stack ?? error),
      });
      this.ctx.db.prepare(`UPDATE ${table} SET next_at = NULL WHERE ${column} = ?`).run(key);
    }
  }

  /** Puts a cancellable withdrawal into CANCELPEND (DELETE /withdrawals/{id}). */
  startCancel(seq: number, now: number): void {
    const cancel = WITHDRAWAL_ROUTES.cancel!;
    this.ctx.db
      .prepare("UPDATE withdrawals SET status = 'CANCELPEND', route = 'cancel', next_at = ? WHERE seq = ?")
      .run(now + cancel[0]!.ms!, seq);
  }

  /** Puts a push waiting for its receiver into CANCELLING (control API POST /sandbox/pushes/cancel). */
  startPushCancel(id: number, now: number): void {
    const cancel = PUSH_ROUTES.cancel!;
    this.ctx.db
      .prepare("UPDATE pushes SET status = 'CANCELLING', route = 'cancel', message = ?, next_at = ? WHERE id = ?")
      .run(PUSH_MESSAGE.CANCELLING, now + cancel[0]!.ms!, id);
  }

  private stepWithdrawals(now: number): number {
    const { db, ledger } = this.ctx;
    const rows = db
      .prepare('SELECT * FROM withdrawals WHERE next_at IS NOT NULL AND next_at <= ? ORDER BY next_at, seq LIMIT 200')
      .all(now) as WithdrawalRow[];
    for (const row of rows) {
      this.guard('withdrawals', 'seq', row.seq, () => {
        const at = row.next_at!;
        const route = WITHDRAWAL_ROUTES[row.route];
        const next = nextStep(route, row.status);
        if (!next) {
          db.prepare('UPDATE withdrawals SET next_at = NULL WHERE seq = ?').run(row.seq);
          return;
        }
        const nextMs = stepMs(route, next.status);
        const nextAt = nextMs === undefined ? null : at + nextMs;
        const spot = { userId: row.user_id, account: 'spot' as const, currency: row.currency };
        const total = new Decimal(row.amount).plus(row.fee);
        switch (next.status) {
          case 'EXTPEND':
            db.prepare('UPDATE withdrawals SET status = ?, txid = ?, next_at = ? WHERE seq = ?').run(
              next.status,
              this.txid(row.chain, row.id),
              nextAt,
              row.seq,
            );
            return;
          case 'DONE': {
            let txid: string | undefined;
            let block = String(18_000_000 + (Math.floor(at / 12_000) % 1_000_000));
            if (row.internal_user_id !== null) {
              txid = `internal-${this.ctx.ids.digest(`internal:${row.id}`).slice(0, 32)}`;
              block = '0';
              this.creditInternalDeposit(row, txid, at);
            }
            db.prepare(
              'UPDATE withdrawals SET status = ?, txid = COALESCE(?, txid), block_number = ?, timestamp2 = ?, next_at = NULL WHERE seq = ?',
            ).run('DONE', txid ?? null, block, at, row.seq);
            return;
          }
          case 'CANCEL':
          case 'INVALID': {
            ledger.credit(spot, total, 'withdraw_refund', row.id);
            db.prepare(
              'UPDATE withdrawals SET status = ?, fail_reason = ?, timestamp2 = ?, next_at = NULL WHERE seq = ?',
            ).run(next.status, WITHDRAWAL_FAIL_REASON[row.route] ?? '', at, row.seq);
            return;
          }
          case 'BCODE':
            // Paid out as a code: final, with its time, but no transaction on chain.
            db.prepare('UPDATE withdrawals SET status = ?, timestamp2 = ?, next_at = NULL WHERE seq = ?').run(
              'BCODE',
              at,
              row.seq,
            );
            return;
          case 'REJECT':
            ledger.credit(spot, total, 'withdraw_refund', row.id);
            db.prepare('UPDATE withdrawals SET status = ?, next_at = NULL WHERE seq = ?').run('REJECT', row.seq);
            return;
          default:
            db.prepare('UPDATE withdrawals SET status = ?, next_at = ? WHERE seq = ?').run(
              next.status,
              nextAt,
              row.seq,
            );
        }
      });
    }
    return rows.length;
  }

  private creditInternalDeposit(row: WithdrawalRow, txid: string, at: number): void {
    const receiver = row.internal_user_id!;
    this.createDeposit({
      userId: receiver,
      currency: row.currency,
      chain: row.chain,
      address: row.address,
      memo: row.memo,
      amount: row.amount,
      txid,
      route: 'internal',
      now: at,
    });
  }

  /** Inserts a deposit record (inside the caller's transaction) and credits it when it starts final. */
  createDeposit(input: {
    userId: number;
    currency: string;
    chain: string;
    address: string;
    memo: string;
    amount: string;
    txid?: string;
    route: keyof typeof DEPOSIT_ROUTES | string;
    now: number;
  }): string {
    const { db, ledger } = this.ctx;
    const { status, nextAt } = this.firstStep(DEPOSIT_ROUTES, input.route, input.now);
    const seq = ((db.prepare('SELECT MAX(seq) AS s FROM deposits').get() as { s: number | null }).s ?? 0) + 1;
    const id = `d${30_000_000 + seq}`;
    const credited = status === 'DONE';
    db.prepare(
      `INSERT INTO deposits (seq, id, user_id, currency, chain, address, memo, amount, txid, status, timestamp, route, credited, next_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      seq,
      id,
      input.userId,
      input.currency,
      input.chain,
      input.address,
      input.memo,
      input.amount,
      input.txid ?? this.txid(input.chain, id),
      status,
      input.now,
      input.route,
      credited ? 1 : 0,
      nextAt,
    );
    if (credited)
      ledger.credit({ userId: input.userId, account: 'spot', currency: input.currency }, input.amount, 'deposit', id);
    return id;
  }

  private stepDeposits(now: number): number {
    const { db, ledger } = this.ctx;
    const rows = db
      .prepare('SELECT * FROM deposits WHERE next_at IS NOT NULL AND next_at <= ? ORDER BY next_at, seq LIMIT 200')
      .all(now) as DepositRow[];
    for (const row of rows) {
      this.guard('deposits', 'seq', row.seq, () => {
        const route = DEPOSIT_ROUTES[row.route];
        const next = nextStep(route, row.status);
        if (!next) {
          db.prepare('UPDATE deposits SET next_at = NULL WHERE seq = ?').run(row.seq);
          return;
        }
        const nextMs = stepMs(route, next.status);
        const nextAt = nextMs === undefined ? null : row.next_at! + nextMs;
        let credited = row.credited;
        if ((next.status === 'DEP_CREDITED' || next.status === 'DONE') && !credited) {
          ledger.credit(
            { userId: row.user_id, account: 'spot', currency: row.currency },
            row.amount,
            'deposit',
            `d${row.seq}`,
          );
          credited = 1;
        }
        db.prepare('UPDATE deposits SET status = ?, credited = ?, next_at = ? WHERE seq = ?').run(
          next.status,
          credited,
          nextAt,
          row.seq,
        );
      });
    }
    return rows.length;
  }

  /** Inserts a UID push (inside the caller's transaction, after the sender was debited). */
  createPush(input: {
    pushUid: number;
    receiveUid: number;
    currency: string;
    amount: string;
    route: string;
    now: number;
  }): number {
    const { status, nextAt } = this.firstStep(PUSH_ROUTES, input.route, input.now);
    const info = this.ctx.db
      .prepare(
        'INSERT INTO pushes (push_uid, receive_uid, currency, amount, status, message, create_time, route, next_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        input.pushUid,
        input.receiveUid,
        input.currency,
        input.amount,
        status,
        PUSH_MESSAGE[status] ?? '',
        input.now,
        input.route,
        nextAt,
      );
    return Number(info.lastInsertRowid);
  }

  private stepPushes(now: number): number {
    const { db, ledger } = this.ctx;
    const rows = db
      .prepare('SELECT * FROM pushes WHERE next_at IS NOT NULL AND next_at <= ? ORDER BY next_at, id LIMIT 200')
      .all(now) as PushRow[];
    for (const row of rows) {
      this.guard('pushes', 'id', row.id, () => {
        const route = PUSH_ROUTES[row.route];
        const next = nextStep(route, row.status);
        if (!next) {
          db.prepare('UPDATE pushes SET next_at = NULL WHERE id = ?').run(row.id);
          return;
        }
        const nextMs = stepMs(route, next.status);
        const nextAt = nextMs === undefined ? null : row.next_at! + nextMs;
        if (next.status === 'RECEIVED') {
          ledger.credit(
            { userId: row.receive_uid, account: 'spot', currency: row.currency },
            row.amount,
            'push_in',
            String(row.id),
          );
        } else if (next.status === 'REFUSED' || next.status === 'CANCELLED') {
          ledger.credit(
            { userId: row.push_uid, account: 'spot', currency: row.currency },
            row.amount,
            'push_refund',
            String(row.id),
          );
        }
        db.prepare('UPDATE pushes SET status = ?, message = ?, next_at = ? WHERE id = ?').run(
          next.status,
          PUSH_MESSAGE[next.status] ?? '',
          nextAt,
          row.id,
        );
      });
    }
    return rows.length;
  }

  /**
   * Moves one record straight to the end of its current step (control API POST /sandbox/pipelines/step):
   * lets tests and practice sessions move a single record without moving the clock.
   */
  stepNow(kind: 'withdrawal' | 'deposit' | 'push', id: string): boolean {
    const table = kind === 'withdrawal' ? 'withdrawals' : kind === 'deposit' ? 'deposits' : 'pushes';
    const column = kind === 'push' ? 'id' : 'id';
    const now = this.ctx.clock.now();
    const info = this.ctx.db
      .prepare(`UPDATE ${table} SET next_at = ? WHERE ${column} = ? AND next_at IS NOT NULL`)
      .run(now, kind === 'push' ? Number(id) : id);
    if (info.changes === 0) return false;
    this.advanceTo(now);
    return true;
  }
}

/** Sum of DEP_CREDITED deposits (credited, but not yet withdrawable) of a user in a currency. */
export function lockedDeposits(ctx: SandboxContext, userId: number, currency: string): Decimal {
  const rows = ctx.db
    .prepare("SELECT amount FROM deposits WHERE user_id = ? AND currency = ? AND status = 'DEP_CREDITED'")
    .all(userId, currency) as { amount: string }[];
  return rows.reduce((sum, r) => sum.plus(r.amount), new Decimal(0));
}

/** Whether an amount reaches the currency's review threshold. */
export function needsReview(currency: string, amount: Decimal): boolean {
  const def = currencyDef(currency);
  return def !== undefined && amount.gte(def.reviewThreshold);
}

/** Whether a withdrawal amount needs face verification (FACE_VERIFY_FACTOR review thresholds). */
export function needsFaceVerification(currency: string, amount: Decimal): boolean {
  const def = currencyDef(currency);
  return def !== undefined && amount.gte(new Decimal(def.reviewThreshold).times(FACE_VERIFY_FACTOR));
}

/** The route of a new withdrawal from its test inputs (docs/sandbox.md "Pipelines"). */
export function withdrawalRouteFor(input: {
  internal: boolean;
  address: string;
  currency: string;
  amount: Decimal;
}): string {
  if (input.internal) return 'internal';
  const bySuffix = WITHDRAWAL_ADDRESS_ROUTES.find(([suffix]) => input.address.endsWith(suffix));
  if (bySuffix) return bySuffix[1];
  if (needsFaceVerification(input.currency, input.amount)) return 'face';
  if (needsReview(input.currency, input.amount)) return 'review';
  return 'chain';
}

export { dec };
