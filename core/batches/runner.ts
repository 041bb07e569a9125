/**
 * Runs journaled batches: each row goes out through the executor (the movement's domain command)
 * with its row's request key. Rows run in lanes, one per platform endpoint (own transfers, main↔sub,
 * sub↔sub, UID pushes, withdrawals): in row order within a lane, lanes side by side, so the API
 * client's limiter paces each endpoint at its own limit and one slow endpoint does not hold up the
 * others (a few rows of a lane in flight at once, `laneConcurrency`). Before a row is sent its state becomes `sending` on disk: a row found `sending` after a
 * crash is sent again with the SAME key, which joins the movement if it had been journaled (the
 * journal settles it with the platform) — exactly once either way.
 *
 * Pause stops taking new rows (rows in flight finish); cancel turns the rows not sent into
 * `cancelled`; rows `checking` (the answer was lost, or in a team another desk sends it) are looked up
 * every poll until the journal — this desk's, or the team's for a movement another desk sent — settles them.
 */
import type { BatchRowInput, BatchSummary } from '../../shared/contract/bulk';
import { BACKGROUND, type Scheduler, type Timer } from '../scheduler';
import { type BatchStore, inputOf, OPEN_ROW_STATES, type StoredRow } from './store';

/** Where a row stands after an attempt, or what the journal says of it now. */
export type RowOutcome =
  | {
      readonly state: 'done' | 'checking' | 'failed';
      readonly movementId?: string;
      readonly clientId?: string;
      readonly platformId?: string;
      readonly label?: string;
      readonly message?: string;
    }
  /** Nothing was sent and it may work later (not connected, locked, journal unwritable): try again. */
  | { readonly state: 'retry'; readonly message: string };

export interface RowExecutor {
  /** Sends one row through its domain command with this request key. Never throws. */
  execute(input: BatchRowInput, requestKey: string, batchId: string, rowNo: number): Promise<RowOutcome>;
  /**
   * The movement of this key as a row outcome: this desk's journal, or in a team the team journal's
   * final answer for one another desk sent (read from the database each time, so a desk that was away
   * when it settled still learns it). Undefined when nothing is known yet. Never throws.
   * `followed`: the row is `checking` (its call may have sent the movement), so a movement that is
   * nowhere — not here, not in the team journal, which journals it before any desk sends it — was never
   * sent and the row is final; a row whose call sent nothing (`retry`) just waits.
   */
  lookup(requestKey: string, followed: boolean): Promise<RowOutcome | undefined>;
}

export interface BatchRunnerOptions {
  readonly store: BatchStore;
  readonly executor: RowExecutor;
  /** The active profile's id: a batch runs only while its own profile is active. */
  readonly activeProfile: () => string | undefined;
  readonly onChange: (summary: BatchSummary) => void;
  /** Every pause of the runner (waits, retries, polls, event pacing) is on the core's scheduler. */
  readonly scheduler: Scheduler;
  /** How often rows being checked are looked up in the journal, ms (default 1 000). */
  readonly pollMs?: number;
  /** How long a lane waits after a row could not be sent (not connected, locked), ms (default 3 000). */
  readonly retryMs?: number;
  readonly log?: (line: string) => void;
  /**
   * Rows of one lane in flight at once (default 4). Safe at any number: the limiter reuses a slot
   * only a window after its request was answered, so rows in flight cannot cause a 429; the journal
   * still writes each row's intent before its request leaves.
   */
  readonly laneConcurrency?: number;
}

export const laneOf = (input: BatchRowInput): string => {
  if (input.type !== 'transfer') return input.type;
  const { from, to } = input;
  if (from.owner === 'main' && to.owner === 'main') return 'own';
  if (from.owner !== 'main' && to.owner !== 'main') return 'subSub';
  return 'mainSub';
};

/** How long a lane held by the app lock waits before it looks again, ms. */
const SUSPENDED_POLL_MS = 200;
/** At most one progress event per batch in this many ms (state changes go out at once). */
const EMIT_EVERY_MS = 250;

export class BatchRunner {
  private readonly drivers = new Map<string, Promise<void>>();
  private readonly notes = new Map<string, string>();
  private readonly lastEmit = new Map<string, number>();
  private readonly pendingEmit = new Map<string, Timer>();
  private inFlight = 0;
  private suspended = false;
  private closed = false;
  private idleWaiters: (() => void)[] = [];
  private timer: Timer | undefined;
  /** The look-up `followNow` asked for, due at once (one at a time). */
  private followSoon: Timer | undefined;
  /** The look-up running now: the next poll waits its turn rather than reading the same rows twice. */
  private following: Promise<void> | undefined;
  /** Aborted by `wake`: the lanes' retry pauses end at once (what they waited for is back). */
  private retryPauses = new AbortController();
  private readonly pollMs: number;
  private readonly retryMs: number;
  private readonly laneConcurrency: number;

  constructor(private readonly o: BatchRunnerOptions) {
    this.pollMs = o.pollMs ?? 1_000;
    this.retryMs = o.retryMs ?? 3_000;
    this.laneConcurrency = o.laneConcurrency ?? 4;
  }

  note(id: string): string | undefined {
    return this.notes.get(id);
  }

  summary(id: string): BatchSummary | undefined {
    return this.o.store.summary(id, this.notes.get(id));
  }

  /** Batches left running when the core stopped go on; every open row is followed. Run on start. */
  resumeAll(): void {
    for (const b of this.o.store.unfinished()) {
      if (b.state === 'running') this.drive(b.id);
    }
    this.ensureFollower();
  }

  start(id: string): void {
    const b = this.o.store.batch(id);
    if (b?.state !== 'ready' && b?.state !== 'paused' && b?.state !== 'approval') return;
    this.o.store.setState(id, 'running');
    this.changed(id, true);
    this.drive(id);
  }

  /** Started, but waiting as one item in the Approvals queue: nothing runs until it is approved. */
  awaitApproval(id: string): void {
    if (this.o.store.batch(id)?.state !== 'ready') return;
    this.o.store.setState(id, 'approval');
    this.changed(id, true);
  }

  pause(id: string): void {
    if (this.o.store.batch(id)?.state !== 'running') return;
    this.o.store.setState(id, 'paused');
    this.changed(id, true);
  }

  cancel(id: string): void {
    const b = this.o.store.batch(id);
    if (!b || b.state === 'finished' || b.state === 'cancelled') return;
    this.o.store.setState(id, 'cancelled');
    this.o.store.cancelPending(id);
    this.changed(id, true);
    this.ensureFollower();
  }

  retryFailed(id: string): void {
    const b = this.o.store.batch(id);
    if (!b || (b.state !== 'finished' && b.state !== 'cancelled')) return;
    if (this.o.store.retryFailed(id) === 0) return;
    this.o.store.setState(id, 'running');
    this.changed(id, true);
    this.drive(id);
  }

  /** The app lock: no new row starts; resolves when the rows in flight have their answer. */
  async suspend(): Promise<void> {
    this.suspended = true;
    if (this.inFlight === 0) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  unsuspend(): void {
    this.suspended = false;
  }

  /**
   * Profile switched, connection back, the team database back: batches waiting for it go on, rows
   * waiting out their retry pause are tried again now, and rows being checked are looked up now
   * (what settled while this desk was away shows at once).
   */
  wake(): void {
    this.retryPauses.abort();
    this.retryPauses = new AbortController();
    for (const b of this.o.store.unfinished()) if (b.state === 'running') this.drive(b.id);
    this.followNow();
  }

  /**
   * A movement was settled: rows being checked are looked up now, not at the next poll (a row shows
   * done the moment its movement is, and the batch finishes then).
   */
  followNow(): void {
    if (this.timer === undefined || this.followSoon !== undefined || this.closed) return;
    this.followSoon = this.o.scheduler.setTimeout(
      () => {
        this.followSoon = undefined;
        this.follow();
      },
      0,
      BACKGROUND,
    );
  }

  close(): void {
    this.closed = true;
    this.timer?.cancel();
    this.followSoon?.cancel();
    for (const t of this.pendingEmit.values()) t.cancel();
  }

  private drive(id: string): void {
    if (this.drivers.has(id) || this.closed) return;
    const run = this.run(id)
      .catch((error) => this.o.log?.(`batch ${id}: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        this.drivers.delete(id);
        this.finishIfDone(id);
      });
    this.drivers.set(id, run);
  }

  private running(id: string): boolean {
    return !this.closed && this.o.store.batch(id)?.state === 'running';
  }

  private async run(id: string): Promise<void> {
    const batch = this.o.store.batch(id);
    if (!batch) return;
    // Wait for the batch's own profile (its rows must go out on its own connection).
    while (this.running(id) && this.o.activeProfile() !== batch.profile_id) {
      this.setNote(id, 'Waiting: this batch belongs to another profile; switch to it to continue.');
      await this.o.scheduler.sleep(this.pollMs);
    }
    this.setNote(id, undefined);
    const rows = this.o.store.rowsIn(id, ['pending', 'sending']);
    const lanes = new Map<string, number[]>();
    for (const r of rows) {
      const lane = laneOf(inputOf(r));
      lanes.set(lane, [...(lanes.get(lane) ?? []), r.row_no]);
    }
    await Promise.all([...lanes.values()].map((rowNos) => this.runLane(id, rowNos)));
    this.ensureFollower();
  }

  /**
   * A lane's rows in order, `laneConcurrency` at a time: the limiter paces the endpoint; several in
   * flight keep the journal's writes and the round trips from setting the pace instead (the batch's
   * balances were checked as a whole, so rows of one lane need not wait for each other).
   */
  private async runLane(id: string, rowNos: readonly number[]): Promise<void> {
    const queue = [...rowNos];
    const workers = Array.from({ length: Math.min(this.laneConcurrency, queue.length) }, () =>
      this.laneWorker(id, queue),
    );
    await Promise.all(workers);
  }

  private async laneWorker(id: string, queue: number[]): Promise<void> {
    for (let rowNo = queue.shift(); rowNo !== undefined; rowNo = queue.shift()) {
      for (;;) {
        while (this.suspended && this.running(id)) await this.o.scheduler.sleep(SUSPENDED_POLL_MS);
        if (!this.running(id)) return;
        const row = this.o.store.row(id, rowNo);
        if (!row || (row.state !== 'pending' && row.state !== 'sending')) break;
        const outcome = await this.attempt(id, row);
        if (outcome.state !== 'retry') break;
        this.setNote(id, outcome.message);
        // Ended early by wake(): the sleep then rejects, and the row is tried again at once.
        await this.o.scheduler.sleep(this.retryMs, this.retryPauses.signal).catch(() => undefined);
      }
    }
  }

  private async attempt(id: string, row: StoredRow): Promise<RowOutcome> {
    // On disk before the request can leave: a crash from here on re-runs it with the same key.
    this.o.store.updateRow(id, row.row_no, { state: 'sending' });
    this.inFlight++;
    let outcome: RowOutcome;
    try {
      // In flight for the scheduler: the core is not idle while a row waits for its answer.
      outcome = await this.o.scheduler.track(this.o.executor.execute(inputOf(row), row.request_key, id, row.row_no));
    } finally {
      this.inFlight--;
      if (this.inFlight === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
    }
    // A core closing meanwhile: the journal keeps the movement; the next core finds the row `sending`.
    if (this.closed) return outcome;
    if (outcome.state === 'retry') {
      // Nothing was sent by this attempt; a movement journaled by an earlier one is followed.
      const journaled = await this.o.executor.lookup(row.request_key, false);
      if (this.closed) return outcome;
      if (journaled && journaled.state !== 'retry') {
        this.record(id, row.row_no, journaled);
        return journaled;
      }
      this.o.store.updateRow(id, row.row_no, { state: 'pending', message: outcome.message });
      this.changed(id);
      return outcome;
    }
    this.setNote(id, undefined);
    this.record(id, row.row_no, outcome);
    return outcome;
  }

  private record(id: string, rowNo: number, outcome: RowOutcome): void {
    if (outcome.state === 'retry') return;
    this.o.store.updateRow(id, rowNo, {
      state: outcome.state,
      movement_id: outcome.movementId ?? null,
      client_id: outcome.clientId ?? null,
      platform_id: outcome.platformId ?? null,
      label: outcome.label ?? null,
      message: outcome.message ?? null,
    });
    this.changed(id);
    if (outcome.state === 'checking') this.ensureFollower();
  }

  /** Rows being checked are looked up in the journal until it settles them. */
  private ensureFollower(): void {
    if (this.timer || this.closed) return;
    this.timer = this.o.scheduler.setInterval(() => this.follow(), this.pollMs, BACKGROUND);
  }

  /** One look-up round at a time (a round that reads the team database may outlast a poll). */
  private follow(): void {
    if (this.following !== undefined || this.closed) return;
    this.following = this.o.scheduler.track(
      this.lookUpChecking()
        .catch((error) => this.o.log?.(`batch look-up: ${error instanceof Error ? error.message : String(error)}`))
        .finally(() => {
          this.following = undefined;
        }),
    );
  }

  private async lookUpChecking(): Promise<void> {
    let open = 0;
    for (const b of this.o.store.unfinished()) {
      for (const row of this.o.store.rowsIn(b.id, ['checking'])) {
        const now = await this.o.executor.lookup(row.request_key, true);
        if (this.closed) return;
        // Read again: the row may have moved on while the look-up ran (an attempt recorded it).
        const current = this.o.store.row(b.id, row.row_no);
        if (current?.state !== 'checking') continue;
        if (now && now.state !== 'retry' && (now.state !== 'checking' || (now.message ?? null) !== current.message)) {
          this.record(b.id, row.row_no, now);
        }
      }
      const counts = this.o.store.counts(b.id);
      open += counts.checking;
      this.finishIfDone(b.id);
    }
    if (open === 0 && this.timer && this.drivers.size === 0) {
      this.timer.cancel();
      this.timer = undefined;
    }
  }

  private finishIfDone(id: string): void {
    if (this.closed) return;
    const b = this.o.store.batch(id);
    if (!b || this.drivers.has(id)) return;
    const open = this.o.store.rowsIn(id, OPEN_ROW_STATES).length;
    if (open > 0) return;
    if (b.state === 'running') {
      this.o.store.setState(id, 'finished');
      this.changed(id, true);
    } else if (b.state === 'cancelled' && b.finished_at === null) {
      this.o.store.ended(id);
      this.changed(id, true);
    }
  }

  private setNote(id: string, note: string | undefined): void {
    if (this.notes.get(id) === note) return;
    if (note === undefined) this.notes.delete(id);
    else this.notes.set(id, note);
    this.changed(id, true);
  }

  /** At most 4 events a second per batch (a 500-row batch moves fast); state changes at once. */
  private changed(id: string, now = false): void {
    if (this.closed) return;
    const emit = () => {
      if (this.closed) return;
      this.pendingEmit.delete(id);
      this.lastEmit.set(id, this.o.scheduler.now());
      const summary = this.summary(id);
      if (summary) this.o.onChange(summary);
    };
    if (now) {
      this.pendingEmit.get(id)?.cancel();
      emit();
      return;
    }
    if (this.pendingEmit.has(id)) return;
    const last = this.lastEmit.get(id);
    const wait = last === undefined ? 0 : Math.max(0, EMIT_EVERY_MS - (this.o.scheduler.now() - last));
    this.pendingEmit.set(id, this.o.scheduler.setTimeout(emit, wait, BACKGROUND));
  }
}
