/**
 * Status pipelines of deposits, withdrawals and UID pushes. Each record follows a route — a fixed
 * list of statuses with a duration each — chosen when it is created from documented test inputs
 * (docs/sandbox.md "Pipelines"). Due steps run on every clock tick (once a second in real mode,
 * on POST /sandbox/advance in manual mode); a long advance runs every due step in order, each
 * stamped with its own due time. Each step, with its money movement, is one transaction.
 *
 * What each status is — final or not, cancellable or not — is the app's and the sandbox's one status
 * table per record kind (shared/platform/statusTables.ts): every route is checked against it when
 * this module loads (known codes, a duration for each status that is not final, a final one last),
 * and DELETE /withdrawals/{id} is accepted where the table says the platform still cancels.
 * What entering a status does to the record and the ledger is each kind's `enter` below; one loop
 * runs the due steps of all three kinds.
 */
import Decimal from 'decimal.js';
import { type FundingRecordKind, statusFacts } from '../../shared/platform/statusTables';
import { currencyDef } from '../catalog';
import type { SandboxContext } from '../context';
import { dec } from '../store/ledger';
import { txidOf } from '../wallet/addresses';

interface Step {
  readonly status: string;
  /** How long the record stays in this status (ms); absent for a final status. */
  readonly ms?: number;
}

type Routes = Readonly<Record<string, readonly Step[]>>;

/**
 * A kind's routes, checked against its status table: every status is one of the spec's, each one
 * that is not final has a duration, and a route ends at its first final status.
 */
export function checkedRoutes(kind: FundingRecordKind, routes: Routes): Routes {
  for (const [name, route] of Object.entries(routes)) {
    route.forEach((step, i) => {
      const facts = statusFacts(kind, step.status);
      const where = `sandbox ${kind} route "${name}", ${step.status}`;
      if (facts === undefined) throw new Error(`${where}: not a ${kind} status of the spec`);
      const last = i === route.length - 1;
      if (facts.final !== last)
        throw new Error(
          `${where}: ${facts.final ? 'a final status before the end' : 'the route ends on a status that is not final'}`,
        );
      if (!facts.final && step.ms === undefined)
        throw new Error(`${where}: a status that is not final needs a duration`);
      if (facts.final && step.ms !== undefined) throw new Error(`${where}: a final status has no duration`);
    });
  }
  return routes;
}

const S = 1000;

export const WITHDRAWAL_ROUTES: Routes = checkedRoutes('withdrawal', {
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
});

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

/** What a refunded withdrawal's fail_reason says, per route. */
const WITHDRAWAL_FAIL_REASON: Readonly<Record<string, string>> = {
  fail: 'Transaction failed on chain (sandbox test address)',
  invalid: 'Invalid withdrawal: the wallet refused the address (sandbox test address)',
  cancel: 'Cancelled at the user’s request',
};

export const DEPOSIT_ROUTES: Routes = checkedRoutes('deposit', {
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
});

export const PUSH_ROUTES: Routes = checkedRoutes('push', {
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
});

/**
 * Push statuses a cancellation through the control API may start from: the sandbox's own test
 * facility (the platform has no API to take a push back, so the status table says no push is
 * cancellable).
 */
export const CANCELLABLE_PUSH = new Set(['CREATING', 'PENDING']);

const PUSH_MESSAGE: Readonly<Record<string, string>> = {
  PENDING: 'Waiting for the receiver to accept',
  REFUSED: 'The receiver refused the transfer',
  CANCELLING: 'Cancelling: the transfer is being returned',
  CANCELLED: 'Cancelled: the amount was returned to the sender',
};

/** The columns every pipeline table shares. */
interface PipelineRow {
  status: string;
  route: string;
  next_at: number | null;
}

interface WithdrawalRow extends PipelineRow {
  seq: number;
  id: string;
  user_id: number;
  currency: string;
  chain: string;
  address: string;
  memo: string;
  amount: string;
  fee: string;
  internal_user_id: number | null;
}

interface DepositRow extends PipelineRow {
  seq: number;
  user_id: number;
  currency: string;
  amount: string;
  credited: number;
}

interface PushRow extends PipelineRow {
  id: number;
  push_uid: number;
  receive_uid: number;
  currency: string;
  amount: string;
}

/** One record kind's pipeline: its table, its routes and what entering each status does. */
interface RecordPipeline<Row extends PipelineRow> {
  readonly table: 'withdrawals' | 'deposits' | 'pushes';
  /** The column due rows are ordered and parked by. */
  readonly key: 'seq' | 'id';
  readonly keyOf: (row: Row) => number;
  readonly routes: Routes;
  /**
   * Puts the record into `status` as of `at` (inside the step's transaction): its fields and its
   * money, due again at `nextAt` (null once final).
   */
  readonly enter: (row: Row, status: string, at: number, nextAt: number | null) => void;
}

function nextStep(route: readonly Step[] | undefined, status: string): Step | undefined {
  if (!route) return undefined;
  const i = route.findIndex((s) => s.status === status);
  return i === -1 ? undefined : route[i + 1];
}

export class Pipelines {
  private running = false;
  private readonly withdrawals: RecordPipeline<WithdrawalRow>;
  private readonly deposits: RecordPipeline<DepositRow>;
  private readonly pushes: RecordPipeline<PushRow>;

  constructor(private readonly ctx: SandboxContext) {
    const { db, ledger } = ctx;
    this.withdrawals = {
      table: 'withdrawals',
      key: 'seq',
      keyOf: (row) => row.seq,
      routes: WITHDRAWAL_ROUTES,
      enter: (row, status, at, nextAt) => {
        const refund = () =>
          ledger.credit(
            { userId: row.user_id, account: 'spot', currency: row.currency },
            new Decimal(row.amount).plus(row.fee),
            'withdraw_refund',
            row.id,
          );
        switch (status) {
          case 'EXTPEND':
            db.prepare('UPDATE withdrawals SET status = ?, txid = ?, next_at = ? WHERE seq = ?').run(
              status,
              this.txid(row.chain, row.id),
              nextAt,
              row.seq,
            );
            return;
          case 'DONE': {
            let txid: string | undefined;
            let block = String(18_000_000 + (Math.floor(at / 12_000) % 1_000_000));
            if (row.internal_user_id !== null) {
              txid = `internal-${ctx.ids.digest(`internal:${row.id}`).slice(0, 32)}`;
              block = '0';
              this.creditInternalDeposit(row, txid, at);
            }
            db.prepare(
              'UPDATE withdrawals SET status = ?, txid = COALESCE(?, txid), block_number = ?, timestamp2 = ?, next_at = ? WHERE seq = ?',
            ).run(status, txid ?? null, block, at, nextAt, row.seq);
            return;
          }
          case 'CANCEL':
          case 'INVALID':
            refund();
            db.prepare(
              'UPDATE withdrawals SET status = ?, fail_reason = ?, timestamp2 = ?, next_at = ? WHERE seq = ?',
            ).run(status, WITHDRAWAL_FAIL_REASON[row.route] ?? '', at, nextAt, row.seq);
            return;
          case 'BCODE':
            // Paid out as a code: final, with its time, but no transaction on chain.
            db.prepare('UPDATE withdrawals SET status = ?, timestamp2 = ?, next_at = ? WHERE seq = ?').run(
              status,
              at,
              nextAt,
              row.seq,
            );
            return;
          case 'REJECT':
            refund();
            db.prepare('UPDATE withdrawals SET status = ?, next_at = ? WHERE seq = ?').run(status, nextAt, row.seq);
            return;
          default:
            db.prepare('UPDATE withdrawals SET status = ?, next_at = ? WHERE seq = ?').run(status, nextAt, row.seq);
        }
      },
    };
    this.deposits = {
      table: 'deposits',
      key: 'seq',
      keyOf: (row) => row.seq,
      routes: DEPOSIT_ROUTES,
      enter: (row, status, _at, nextAt) => {
        let credited = row.credited;
        if ((status === 'DEP_CREDITED' || status === 'DONE') && !credited) {
          ledger.credit(
            { userId: row.user_id, account: 'spot', currency: row.currency },
            row.amount,
            'deposit',
            `d${row.seq}`,
          );
          credited = 1;
        }
        db.prepare('UPDATE deposits SET status = ?, credited = ?, next_at = ? WHERE seq = ?').run(
          status,
          credited,
          nextAt,
          row.seq,
        );
      },
    };
    this.pushes = {
      table: 'pushes',
      key: 'id',
      keyOf: (row) => row.id,
      routes: PUSH_ROUTES,
      enter: (row, status, _at, nextAt) => {
        if (status === 'RECEIVED') {
          ledger.credit(
            { userId: row.receive_uid, account: 'spot', currency: row.currency },
            row.amount,
            'push_in',
            String(row.id),
          );
        } else if (status === 'REFUSED' || status === 'CANCELLED') {
          ledger.credit(
            { userId: row.push_uid, account: 'spot', currency: row.currency },
            row.amount,
            'push_refund',
            String(row.id),
          );
        }
        db.prepare('UPDATE pushes SET status = ?, message = ?, next_at = ? WHERE id = ?').run(
          status,
          PUSH_MESSAGE[status] ?? '',
          nextAt,
          row.id,
        );
      },
    };
  }

  /** Due time of the first step of a route started at `now`. */
  firstStep(routes: Routes, route: string, now: number): { status: string; nextAt: number | null } {
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
        // Withdrawals first: an internal one that completes creates its deposit, stepped next.
        moved = this.step(this.withdrawals, now) + this.step(this.deposits, now) + this.step(this.pushes, now) > 0;
      }
    } finally {
      this.running = false;
    }
  }

  /** Runs the due steps of one kind (at most 200 a round), each in its own transaction. */
  private step<Row extends PipelineRow>(kind: RecordPipeline<Row>, now: number): number {
    const rows = this.ctx.db
      .prepare(
        `SELECT * FROM ${kind.table} WHERE next_at IS NOT NULL AND next_at <= ? ORDER BY next_at, ${kind.key} LIMIT 200`,
      )
      .all(now) as Row[];
    for (const row of rows) {
      this.guard(kind, kind.keyOf(row), () => {
        const at = row.next_at!;
        const next = nextStep(kind.routes[row.route], row.status);
        if (!next) {
          this.park(kind, kind.keyOf(row));
          return;
        }
        kind.enter(row, next.status, at, next.ms === undefined ? null : at + next.ms);
      });
    }
    return rows.length;
  }

  /**
   * Runs one step in its own transaction. A step that throws (a bug) is rolled back, logged and
   * parked (next_at cleared) so it can neither loop forever nor stop the other records.
   */
  private guard<Row extends PipelineRow>(kind: RecordPipeline<Row>, key: number, step: () => void): void {
    try {
      this.ctx.tx(step);
    } catch (error) {
      this.ctx.log('pipeline step failed; record parked', {
        table: kind.table,
        key,
        error: String((error as Error)?.stack ?? error),
      });
      this.park(kind, key);
    }
  }

  private park<Row extends PipelineRow>(kind: RecordPipeline<Row>, key: number): void {
    this.ctx.db.prepare(`UPDATE ${kind.table} SET next_at = NULL WHERE ${kind.key} = ?`).run(key);
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

  /**
   * Moves one record straight to the end of its current step (control API POST /sandbox/pipelines/step):
   * lets tests and practice sessions move a single record without moving the clock.
   */
  stepNow(kind: FundingRecordKind, id: string): boolean {
    const table = kind === 'withdrawal' ? 'withdrawals' : kind === 'deposit' ? 'deposits' : 'pushes';
    const now = this.ctx.clock.now();
    // By the record's id as the API shows it (a push's is its number).
    const info = this.ctx.db
      .prepare(`UPDATE ${table} SET next_at = ? WHERE id = ? AND next_at IS NOT NULL`)
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
