/**
 * Watchers: poll the active profile's recent deposits, withdrawals and UID pushes and turn every
 * status change into a typed event (`funding.depositChanged`, `funding.withdrawalChanged`,
 * `funding.pushChanged`) for the screens and OS notifications. They are the app's one follower of
 * these records: the screens do not poll, they refresh on the events. Four GETs per poll go through
 * the same rate limiter as everything else: every `followIntervalMs` (3 s) while a record or one of
 * the app's own withdrawals/pushes can still change, else every `intervalMs` (10 s) — far inside
 * the limits either way. The status of the app's own movements in the journal follows along.
 */
import type { z } from 'zod';
import type { Events } from '../../../shared/contract';
import type { DepositRecord, PushRecord, WithdrawalRecord } from '../../../shared/contract/funding';
import { type FundingRecordKind, statusTimeline } from '../../../shared/platform/timelines';
import type { PlatformApi } from '../api/platform';
import { toDeposit, toPush, toWithdrawal } from '../funding/records';
import type { BalanceSnapshots } from '../journal/types';
import type { Movement, Movements } from '../movements/types';
import type { ActiveProfile, Emit } from '../types';

export interface WatchersOptions {
  readonly platform: () => PlatformApi;
  readonly profile: () => ActiveProfile | undefined;
  readonly movements: Movements;
  readonly emit: Emit;
  /** 0 disables polling (pollOnce still works). */
  readonly intervalMs: number;
  /**
   * The interval while something can still change (default 3 s; never slower than `intervalMs`).
   */
  readonly followIntervalMs?: number;
  /** How far back records are watched, seconds (default 7 days: the platform's default window). */
  readonly lookbackSeconds?: number;
  readonly now?: () => number;
  /** Where the periodic total-balance snapshots go (charts over time). */
  readonly snapshots?: BalanceSnapshots;
  /** How often a total-balance snapshot (USDT) is taken; 0 disables. Default 15 min. */
  readonly snapshotIntervalMs?: number;
}

/** Why the watchers' own reads are sent (the request log says it: not on a person's behalf). */
export const POLL_PURPOSE = 'watchers';
export const SNAPSHOT_PURPOSE = 'balance snapshot';
const POLL = { purpose: POLL_PURPOSE } as const;

/** How long after a profile connects the first total-balance snapshot is taken. */
const FIRST_SNAPSHOT_DELAY_MS = 60_000;

type EventName = 'funding.depositChanged' | 'funding.withdrawalChanged' | 'funding.pushChanged';

interface Seen {
  status: string;
}

/** Whether a platform record in this status can change no more (the screens' timelines decide). */
const isFinal = (kind: FundingRecordKind, status: string): boolean => statusTimeline(kind, status).final;

/** An own withdrawal or push the journal is still settling, or whose platform record can still change. */
const isMoving = (m: Movement): boolean => {
  if (m.kind !== 'withdrawal' && m.kind !== 'push') return false;
  if (m.state === 'failed') return false;
  if (m.state !== 'done') return true;
  // A push is matched to its record by the platform's id: one settled by hand without it cannot be followed.
  if (m.kind === 'push' && !m.platformId) return false;
  return !isFinal(m.kind, m.platformStatus ?? '');
};

export class Watchers {
  private timer: NodeJS.Timeout | undefined;
  /** When the pending poll timer fires (ms, `now`'s clock). */
  private dueAt = 0;
  private running = false;
  /** The last poll saw a record or an own movement that can still change. */
  private following = false;
  private snapshotTimer: NodeJS.Timeout | undefined;
  private firstSnapshot: NodeJS.Timeout | undefined;
  private seen = new Map<string, Seen>();
  private startedAt = 0;
  private polling: Promise<void> | undefined;
  private generation = 0;

  constructor(private readonly options: WatchersOptions) {}

  /** Forgets what was seen (new profile) and polls again from now on. */
  restart(): void {
    this.stop();
    this.generation++;
    this.seen = new Map();
    this.following = false;
    this.startedAt = this.now();
    if (this.options.intervalMs > 0) {
      this.running = true;
      void this.tick(this.generation);
    }
    const every = this.options.snapshotIntervalMs ?? 15 * 60_000;
    if (this.options.snapshots && every > 0) {
      this.snapshotTimer = setInterval(() => void this.snapshotOnce().catch(() => {}), every);
      this.snapshotTimer.unref();
      // The first one a little later, not at once: the Balances screen, where the app opens, reads
      // the same total as the profile connects and records it itself (balances.total).
      this.firstSnapshot = setTimeout(() => void this.snapshotOnce().catch(() => {}), FIRST_SNAPSHOT_DELAY_MS);
      this.firstSnapshot.unref();
    }
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.timer);
    clearInterval(this.snapshotTimer);
    clearTimeout(this.firstSnapshot);
    this.timer = undefined;
    this.snapshotTimer = undefined;
  }

  /**
   * One of the app's own withdrawals or pushes changed in the journal: poll at the fast interval
   * from now on instead of waiting out a slow one (the next poll decides how long to keep it up).
   */
  follow(): void {
    this.following = true;
    // No timer while a poll runs: the poll schedules the next one itself.
    if (!this.running || this.timer === undefined) return;
    const delay = this.delay();
    if (this.dueAt - this.now() > delay) this.schedule(this.generation, delay);
  }

  /** Stores one total-balance snapshot of the active profile (GET /wallet/total_balance, USDT). */
  async snapshotOnce(): Promise<void> {
    const profile = this.options.profile();
    if (!profile || !this.options.snapshots) return;
    const api = this.options.platform();
    if (!api.client.hasCredentials()) return;
    const generation = this.generation;
    const total = await api.wallet.totalBalance('USDT', { purpose: SNAPSHOT_PURPOSE });
    if (generation !== this.generation) return;
    this.options.snapshots.add({
      profileId: profile.id,
      currency: total.total.currency || 'USDT',
      total: total.total.amount,
      byAccount: Object.fromEntries(Object.entries(total.details).map(([account, v]) => [account, v.amount])),
    });
  }

  /** One round of polling (tests call it directly). */
  pollOnce(): Promise<void> {
    if (this.polling) return this.polling;
    this.polling = this.poll().finally(() => (this.polling = undefined));
    return this.polling;
  }

  /** Polls, then schedules the next poll, unless stopped or restarted meanwhile. */
  private async tick(generation: number): Promise<void> {
    this.timer = undefined;
    await this.pollOnce().catch(() => {});
    if (this.running && generation === this.generation) this.schedule(generation, this.delay());
  }

  private schedule(generation: number, delayMs: number): void {
    clearTimeout(this.timer);
    this.dueAt = this.now() + delayMs;
    this.timer = setTimeout(() => void this.tick(generation), delayMs);
    this.timer.unref();
  }

  private delay(): number {
    const { intervalMs, followIntervalMs = 3_000 } = this.options;
    return this.following ? Math.min(followIntervalMs, intervalMs) : intervalMs;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  private async poll(): Promise<void> {
    const profile = this.options.profile();
    if (!profile) return;
    let api: PlatformApi;
    try {
      api = this.options.platform();
    } catch {
      return;
    }
    if (!api.client.hasCredentials()) return;
    const generation = this.generation;
    // Record times are the platform's: "since watching started" in platform time (ms). Watching
    // starts with the connection, maybe before the connection check has measured the offset.
    if (api.client.clock.last === undefined) await api.client.syncClock().catch(() => undefined);
    const since = this.startedAt + api.client.clock.offsetMs;
    const lookbackSeconds = this.options.lookbackSeconds ?? 7 * 86_400;
    const nowSec = Math.floor(this.now() / 1000);
    const from = nowSec - lookbackSeconds;
    // No `to`: the platform's default is its own now (its clock may differ from ours).
    const range = { from };
    const [deposits, withdrawals, sent, received] = await Promise.all([
      api.wallet.deposits({ ...range, limit: 500 }, POLL),
      api.wallet.withdrawals({ ...range, limit: 1000 }, POLL),
      api.wallet.pushRecords({ ...range, limit: 1000, transaction_type: 'withdraw' }, POLL),
      api.wallet.pushRecords({ ...range, limit: 1000, transaction_type: 'deposit' }, POLL),
    ]);
    if (generation !== this.generation) return; // the profile changed meanwhile

    const open = this.options.movements.list({ profileId: profile.id, state: 'done', limit: 5000 });
    const byClientId = new Map(open.filter((m) => m.kind === 'withdrawal').map((m) => [m.clientId, m]));
    const byPushId = new Map(open.filter((m) => m.kind === 'push' && m.platformId).map((m) => [m.platformId, m]));

    for (const d of deposits) {
      this.observe(
        profile.id,
        'funding.depositChanged',
        `d:${d.id}`,
        d.id,
        d.currency,
        d.amount,
        d.status,
        d.timestamp,
        since,
        toDeposit(d),
      );
    }
    for (const w of withdrawals) {
      const mine = w.withdraw_order_id ? byClientId.get(w.withdraw_order_id) : undefined;
      if (mine && mine.platformStatus !== w.status) this.options.movements.updatePlatformStatus(mine.id, w.status);
      this.observe(
        profile.id,
        'funding.withdrawalChanged',
        `w:${w.id}`,
        w.id,
        w.currency,
        w.amount,
        w.status,
        w.timestamp,
        since,
        toWithdrawal(w),
        w.withdraw_order_id || undefined,
        mine !== undefined,
      );
    }
    const sentByUs = new Set(sent);
    for (const p of [...sent, ...received]) {
      const mine = byPushId.get(p.id);
      if (mine && mine.platformStatus !== p.status) this.options.movements.updatePlatformStatus(mine.id, p.status);
      this.observe(
        profile.id,
        'funding.pushChanged',
        `p:${p.transaction_type}:${p.id}`,
        p.id,
        p.currency,
        p.amount,
        p.status,
        p.create_time,
        since,
        toPush(p, sentByUs.has(p) ? 'withdraw' : 'deposit'),
        undefined,
        mine !== undefined,
      );
    }
    // Read after the platform status updates above. Only movements inside the watched window: an
    // older one's record is no longer listed, so its status could never become final here.
    this.following =
      deposits.some((d) => !isFinal('deposit', d.status)) ||
      withdrawals.some((w) => !isFinal('withdrawal', w.status)) ||
      [...sent, ...received].some((p) => !isFinal('push', p.status)) ||
      this.options.movements
        .list({ profileId: profile.id, from: (nowSec - lookbackSeconds) * 1000, limit: 5000 })
        .some(isMoving);
  }

  private observe(
    profileId: string,
    event: EventName,
    key: string,
    id: string,
    currency: string,
    amount: string,
    status: string,
    timeSec: number | undefined,
    sinceMs: number,
    /** The contract's record (shared/contract/funding.ts): screens put it in their caches as it is. */
    record: DepositRecord | WithdrawalRecord | PushRecord,
    clientId?: string,
    own?: boolean,
  ): void {
    const before = this.seen.get(key);
    if (before?.status === status) return;
    this.seen.set(key, { status });
    // First sighting: only records created since watching started are news; older ones are the baseline.
    if (before === undefined && (timeSec ?? 0) * 1000 < sinceMs - 60_000) return;
    this.options.emit(event, {
      profileId,
      id,
      currency,
      amount,
      status,
      ...(before ? { previousStatus: before.status } : {}),
      ...(clientId ? { clientId } : {}),
      ...(own ? { own } : {}),
      record,
    } as z.input<Events[EventName]>);
  }
}
