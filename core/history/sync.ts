/**
 * History sync: deposits, withdrawals, sub-account transfers, UID pushes and spot trades over any
 * period. The platform answers at most 30 days per query (spec "Parameter limits"), so the period is
 * split into 30-day windows, each read page by page until a short page; every page goes through
 * the rate limiter, so a long sync runs at the limits' pace and never meets a 429. Records are
 * cached in the journal database with the windows they cover: opening the same period again is
 * instant, and a later sync only fetches windows not yet covered (the last day is always
 * refreshed, since recent records still change status). Progress is reported per page;
 * cancellation stops at once and keeps what was fetched.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { HistoryKind, HistoryProgress } from '../../shared/contract/activity';
import type { PlatformApi } from '../api/platform';
import { classifyRequest } from '../api/rateRules';
import { DeskFailure } from '../errors';
import { type Db, statement } from '../journal/db';

export const WINDOW_SECONDS = 30 * 86_400;
/** Records younger than this may still change (pending → done): never mark them as final. */
const FRESH_SECONDS = 86_400;

export const ALL_KINDS: readonly HistoryKind[] = ['deposits', 'withdrawals', 'subAccountTransfers', 'pushes', 'trades'];

interface KindSpec {
  readonly pageSize: number;
  /** Rate-limit path of the endpoint, to estimate the time left. */
  readonly method: 'GET';
  readonly path: string;
  fetch(
    api: PlatformApi,
    window: { from: number; to: number },
    page: number,
    signal: AbortSignal,
    currencyPair?: string,
  ): Promise<readonly Record<string, unknown>[]>;
  idOf(record: Record<string, unknown>): string;
  timeOf(record: Record<string, unknown>): number;
}

const hashId = (record: Record<string, unknown>): string =>
  createHash('sha256').update(JSON.stringify(record)).digest('hex').slice(0, 24);

const SPECS: Record<HistoryKind, KindSpec> = {
  deposits: {
    pageSize: 500,
    method: 'GET',
    path: '/wallet/deposits',
    fetch: (api, w, page, signal) =>
      api.wallet.deposits({ from: w.from, to: w.to, limit: 500, offset: page * 500 }, { signal }),
    idOf: (r) => String(r.id),
    timeOf: (r) => Math.floor(Number(r.timestamp ?? 0)),
  },
  withdrawals: {
    pageSize: 1000,
    method: 'GET',
    path: '/wallet/withdrawals',
    fetch: (api, w, page, signal) =>
      api.wallet.withdrawals({ from: w.from, to: w.to, limit: 1000, offset: page * 1000 }, { signal }),
    idOf: (r) => String(r.id),
    timeOf: (r) => Math.floor(Number(r.timestamp ?? 0)),
  },
  subAccountTransfers: {
    pageSize: 1000,
    method: 'GET',
    path: '/wallet/sub_account_transfers',
    fetch: (api, w, page, signal) =>
      api.wallet.subAccountTransfers({ from: w.from, to: w.to, limit: 1000, offset: page * 1000 }, { signal }),
    // The record has no id: the client order id identifies ours, a content hash the others.
    idOf: (r) =>
      typeof r.client_order_id === 'string' && r.client_order_id ? `c:${r.client_order_id}` : `h:${hashId(r)}`,
    timeOf: (r) => Math.floor(Number(r.timest ?? 0)),
  },
  pushes: {
    pageSize: 1000,
    method: 'GET',
    path: '/wallet/push',
    fetch: async (api, w, page, signal) => {
      // Both directions: what we sent and what we received.
      const [sent, received] = await Promise.all([
        api.wallet.pushRecords(
          { from: w.from, to: w.to, limit: 1000, offset: page * 1000, transaction_type: 'withdraw' },
          { signal },
        ),
        api.wallet.pushRecords(
          { from: w.from, to: w.to, limit: 1000, offset: page * 1000, transaction_type: 'deposit' },
          { signal },
        ),
      ]);
      // A short page of both ends paging; pad so one full direction keeps paging.
      const merged = [...sent, ...received];
      return sent.length === 1000 || received.length === 1000 ? padToFull(merged, 1000) : merged;
    },
    idOf: (r) => `${r.transaction_type ?? ''}:${String(r.id)}`,
    timeOf: (r) => Math.floor(Number(r.create_time ?? 0)),
  },
  trades: {
    pageSize: 1000,
    method: 'GET',
    path: '/spot/my_trades',
    fetch: (api, w, page, signal, currencyPair) =>
      api.spot.myTrades(
        {
          from: w.from,
          to: w.to,
          limit: 1000,
          page: page + 1,
          ...(currencyPair ? { currency_pair: currencyPair } : {}),
        },
        { signal },
      ),
    idOf: (r) => String(r.id),
    timeOf: (r) => Math.floor(Number(r.create_time ?? 0)),
  },
};

/** Marks a page as "full" for the paging loop without storing fake records (padding is dropped before storing). */
const PAD = Symbol('pad');
const padToFull = (records: Record<string, unknown>[], size: number): Record<string, unknown>[] =>
  records.length >= size
    ? records
    : [...records, ...Array.from({ length: size - records.length }, () => ({ [PAD]: true }))];

export interface HistorySyncOptions {
  readonly db: Db;
  readonly platform: () => PlatformApi;
  readonly profileId: () => string | undefined;
  readonly onProgress: (progress: HistoryProgress) => void;
  readonly now?: () => number;
}

type Interval = { from: number; to: number };

/** Parts of [from, to] not covered by the given intervals. */
export const uncovered = (range: Interval, covered: readonly Interval[]): Interval[] => {
  const sorted = [...covered].sort((a, b) => a.from - b.from);
  const gaps: Interval[] = [];
  let cursor = range.from;
  for (const c of sorted) {
    if (c.to < cursor) continue;
    if (c.from > range.to) break;
    if (c.from > cursor) gaps.push({ from: cursor, to: Math.min(c.from - 1, range.to) });
    cursor = Math.max(cursor, c.to + 1);
    if (cursor > range.to) break;
  }
  if (cursor <= range.to) gaps.push({ from: cursor, to: range.to });
  return gaps;
};

/** Splits intervals into windows of at most 30 days. */
export const windowsOf = (intervals: readonly Interval[]): Interval[] =>
  intervals.flatMap((interval) => {
    const out: Interval[] = [];
    for (let from = interval.from; from <= interval.to; from += WINDOW_SECONDS) {
      out.push({ from, to: Math.min(interval.to, from + WINDOW_SECONDS - 1) });
    }
    return out;
  });

export class HistorySync {
  private running: { progress: HistoryProgress; controller: AbortController; done: Promise<void> } | undefined;
  private last: HistoryProgress | undefined;
  /**
   * The recent parts (younger than a day) each sync fetched, by profile and kind: never marked as
   * covered (they are read again next time), yet in the cache. Kept in memory only: after a restart
   * they may be stale, and the cache says so until the next sync.
   */
  private readonly fetchedRecent = new Map<string, Interval[]>();
  private readonly now: () => number;

  constructor(private readonly options: HistorySyncOptions) {
    this.now = options.now ?? Date.now;
  }

  status(): HistoryProgress | null {
    return this.running?.progress ?? this.last ?? null;
  }

  /** Starts a sync (one at a time); returns the first progress at once. Await `finished()` to wait. */
  start(input: { kinds?: readonly HistoryKind[]; from: number; to: number; currencyPair?: string }): HistoryProgress {
    if (this.running)
      throw DeskFailure.precondition('A history sync is already running.', 'Wait for it or cancel it first.');
    const profileId = this.options.profileId();
    if (profileId === undefined) throw DeskFailure.precondition('No profile is connected.');
    const api = this.options.platform();
    const kinds = [...new Set(input.kinds ?? ALL_KINDS)];
    // Record times are the platform's: "now" is its now (this computer's clock may be off).
    const nowSec = Math.floor((this.now() + api.client.clock.offsetMs) / 1000);
    const range = { from: input.from, to: Math.min(input.to, nowSec) };
    const plan = kinds.map((kind) => ({
      kind,
      windows: windowsOf(uncovered(range, this.coverage(profileId, kind, input.currencyPair))),
    }));
    const progress: HistoryProgress = {
      syncId: randomUUID(),
      state: 'running',
      kinds,
      from: input.from,
      to: input.to,
      windowsDone: 0,
      windowsTotal: plan.reduce((n, p) => n + p.windows.length, 0),
      requests: 0,
      records: 0,
      etaMs: 0,
      startedAt: this.now(),
    };
    const controller = new AbortController();
    const run = { progress, controller, done: Promise.resolve() };
    this.running = run;
    run.done = this.execute(api, profileId, plan, run, input.currencyPair, nowSec);
    this.emit(run.progress);
    return run.progress;
  }

  /** Resolves when the running sync (if any) has finished. */
  async finished(): Promise<HistoryProgress | null> {
    await this.running?.done;
    return this.status();
  }

  cancel(syncId: string): HistoryProgress {
    const run = this.running;
    if (!run || run.progress.syncId !== syncId) {
      const last = this.status();
      if (last && last.syncId === syncId) return last;
      throw DeskFailure.precondition('That history sync is not running.');
    }
    run.controller.abort();
    return run.progress;
  }

  cancelRunning(): void {
    this.running?.controller.abort();
  }

  /** Cached records of one kind in [from, to] (Unix seconds), newest first. */
  /**
   * One page of the cached records of these kinds in [from, to], newest first, and how many match
   * in all. Ordered by (time, kind, id) descending: a stable order, so pages never overlap.
   */
  records(
    kinds: readonly HistoryKind[],
    from: number,
    to: number,
    limit = 1000,
    offset = 0,
  ): { records: CachedRecord[]; total: number; complete: boolean } {
    const profileId = this.options.profileId();
    if (profileId === undefined) return { records: [], total: 0, complete: false };
    const where = historyWhere(kinds);
    const args = [profileId, ...kinds, from, to];
    const total =
      statement<unknown[], { n: number }>(
        this.options.db,
        `SELECT COUNT(*) AS n FROM history_records WHERE ${where}`,
      ).get(...args)?.n ?? 0;
    const rows = statement<unknown[], StoredRecord>(
      this.options.db,
      `SELECT kind, record_id, time, data FROM history_records WHERE ${where} ${NEWEST_FIRST} LIMIT ? OFFSET ?`,
    ).all(...args, limit, offset);
    const nowSec = Math.floor(this.now() / 1000);
    // Covered as final, or fetched recently enough: right after a sync the period counts as complete.
    const complete = kinds.every(
      (kind) =>
        uncovered({ from, to: Math.min(to, nowSec - FRESH_SECONDS) }, [
          ...this.coverage(profileId, kind),
          ...(this.fetchedRecent.get(recentKey(profileId, coverageKind(kind))) ?? []),
        ]).length === 0,
    );
    return { records: rows.map(toCachedRecord), total, complete };
  }

  /** One cached record of the active profile by its platform id (a withdrawal's fee and txid for an export). */
  record(kind: HistoryKind, id: string): CachedRecord | undefined {
    const profileId = this.options.profileId();
    if (profileId === undefined) return undefined;
    const row = statement<unknown[], StoredRecord>(
      this.options.db,
      'SELECT kind, record_id, time, data FROM history_records WHERE profile_id = ? AND kind = ? AND record_id = ?',
    ).get(profileId, kind, id);
    return row === undefined ? undefined : toCachedRecord(row);
  }

  /**
   * Every cached record of these kinds in [from, to], newest first, in batches: `write` gets each
   * batch and is awaited before the next is read, so a large export neither holds every row in
   * memory nor blocks the process for long; `write` answering false stops it there (a cancelled
   * export). Resolves with how many records were written.
   */
  async eachBatch(
    kinds: readonly HistoryKind[],
    from: number,
    to: number,
    write: (batch: CachedRecord[], total: number) => Promise<unknown>,
    batchSize = 2000,
  ): Promise<number> {
    const profileId = this.options.profileId();
    if (profileId === undefined) return 0;
    const where = historyWhere(kinds);
    const args = [profileId, ...kinds, from, to];
    const db = this.options.db;
    const total =
      statement<unknown[], { n: number }>(db, `SELECT COUNT(*) AS n FROM history_records WHERE ${where}`).get(...args)
        ?.n ?? 0;
    // Keyset paging (after the last row written), not OFFSET: each batch costs the same.
    const first = statement<unknown[], StoredRecord>(
      db,
      `SELECT kind, record_id, time, data FROM history_records WHERE ${where} ${NEWEST_FIRST} LIMIT ?`,
    );
    const next = statement<unknown[], StoredRecord>(
      db,
      `SELECT kind, record_id, time, data FROM history_records WHERE ${where}
         AND (time, kind, record_id) < (?, ?, ?) ${NEWEST_FIRST} LIMIT ?`,
    );
    let written = 0;
    let last: StoredRecord | undefined;
    for (;;) {
      const batch: StoredRecord[] = last
        ? next.all(...args, last.time, last.kind, last.record_id, batchSize)
        : first.all(...args, batchSize);
      if (batch.length === 0) break;
      const more = await write(batch.map(toCachedRecord), total);
      written += batch.length;
      last = batch[batch.length - 1];
      if (batch.length < batchSize || more === false) break;
    }
    return written;
  }

  private coverage(profileId: string, kind: HistoryKind, currencyPair?: string): Interval[] {
    return statement<[string, string], { from_s: number; to_s: number }>(
      this.options.db,
      'SELECT from_s, to_s FROM history_coverage WHERE profile_id = ? AND kind = ?',
    )
      .all(profileId, coverageKind(kind, currencyPair))
      .map((r) => ({ from: r.from_s, to: r.to_s }));
  }

  /** A recent part of a window was fetched: kept (with the others still recent) for `records().complete`. */
  private noteRecent(profileId: string, kind: string, nowSec: number, window: Interval): void {
    const key = recentKey(profileId, kind);
    const stillRecent = (this.fetchedRecent.get(key) ?? []).filter((w) => w.to > nowSec - FRESH_SECONDS);
    this.fetchedRecent.set(key, [
      ...stillRecent,
      { from: Math.max(window.from, nowSec - FRESH_SECONDS), to: window.to },
    ]);
  }

  private async execute(
    api: PlatformApi,
    profileId: string,
    plan: { kind: HistoryKind; windows: Interval[] }[],
    run: { progress: HistoryProgress; controller: AbortController },
    currencyPair: string | undefined,
    nowSec: number,
  ): Promise<void> {
    const db = this.options.db;
    const upsert = statement(
      db,
      'INSERT INTO history_records (profile_id, kind, record_id, time, data) VALUES (?,?,?,?,?) ' +
        'ON CONFLICT(profile_id, kind, record_id) DO UPDATE SET time = excluded.time, data = excluded.data',
    );
    const cover = statement(db, 'INSERT INTO history_coverage (profile_id, kind, from_s, to_s) VALUES (?,?,?,?)');
    const store = db.transaction((kind: HistoryKind, records: readonly Record<string, unknown>[]) => {
      const spec = SPECS[kind];
      for (const r of records) upsert.run(profileId, kind, spec.idOf(r), spec.timeOf(r), JSON.stringify(r));
    });
    const signal = run.controller.signal;
    let { progress } = run;
    const update = (patch: Partial<HistoryProgress>) => {
      progress = { ...progress, ...patch };
      run.progress = progress;
      this.emit(progress);
    };
    try {
      for (const { kind, windows } of plan) {
        const spec = SPECS[kind];
        for (const window of windows) {
          for (let page = 0; ; page++) {
            if (signal.aborted) throw new Error('cancelled');
            const records = await spec.fetch(api, window, page, signal, currencyPair);
            const real = records.filter((r) => !(PAD in r));
            store(kind, real);
            update({
              requests: progress.requests + (kind === 'pushes' ? 2 : 1),
              records: progress.records + real.length,
            });
            if (records.length < spec.pageSize) break;
          }
          // Only windows old enough to be final count as covered.
          const finalTo = Math.min(window.to, nowSec - FRESH_SECONDS);
          if (finalTo >= window.from) cover.run(profileId, coverageKind(kind, currencyPair), window.from, finalTo);
          if (window.to > finalTo) this.noteRecent(profileId, coverageKind(kind, currencyPair), nowSec, window);
          const windowsDone = progress.windowsDone + 1;
          update({ windowsDone, etaMs: this.eta(plan, windowsDone) });
        }
      }
      update({ state: 'done', etaMs: 0, finishedAt: this.now() });
    } catch (error) {
      if (signal.aborted) update({ state: 'cancelled', finishedAt: this.now() });
      else
        update({
          state: 'failed',
          error: error instanceof Error ? error.message : String(error),
          finishedAt: this.now(),
        });
    } finally {
      this.last = progress;
      this.running = undefined;
    }
  }

  /** Time left at the rate limits' pace, assuming one page per remaining window. */
  private eta(plan: { kind: HistoryKind; windows: Interval[] }[], windowsDone: number): number {
    let skip = windowsDone;
    let ms = 0;
    for (const { kind, windows } of plan) {
      const left = Math.max(0, windows.length - skip);
      skip = Math.max(0, skip - windows.length);
      const rule = classifyRequest('GET', SPECS[kind].path, undefined, undefined, false);
      ms += (left * (kind === 'pushes' ? 2 : 1) * rule.windowMs) / rule.limit;
    }
    return Math.round(ms);
  }

  private emit(progress: HistoryProgress): void {
    this.options.onProgress(progress);
  }
}

/** A cached record as the contract's HistoryRecord. */
export type CachedRecord = { kind: HistoryKind; id: string; time: number; data: Record<string, unknown> };
type StoredRecord = { kind: HistoryKind; record_id: string; time: number; data: string };

const toCachedRecord = (r: StoredRecord): CachedRecord => ({
  kind: r.kind,
  id: r.record_id,
  time: r.time,
  data: JSON.parse(r.data) as Record<string, unknown>,
});

/** WHERE clause for (profile, kinds…, from, to), in that order of arguments. */
const historyWhere = (kinds: readonly HistoryKind[]): string =>
  `profile_id = ? AND kind IN (${kinds.map(() => '?').join(', ')}) AND time >= ? AND time <= ?`;

const NEWEST_FIRST = 'ORDER BY time DESC, kind DESC, record_id DESC';

const recentKey = (profileId: string, kind: string): string => `${profileId}|${kind}`;

const coverageKind = (kind: HistoryKind, currencyPair?: string): string =>
  kind === 'trades' && currencyPair ? `trades:${currencyPair}` : kind;
