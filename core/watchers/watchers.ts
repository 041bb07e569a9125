/**
 * Watchers: follow the active profile's recent deposits, withdrawals and UID pushes (both
 * directions) and turn every status change into a typed event carrying the record
 * (`funding.depositChanged`, `funding.withdrawalChanged`, `funding.pushChanged`) for the screens and
 * OS notifications. They are the app's one follower of these records: the screens do not poll,
 * they apply the records the events carry. The status of the app's own movements in the journal
 * follows along.
 *
 * Quiet when idle: each of the four lists (feeds) is read on its own cadence. A feed that lists a
 * record which can still change — or, for withdrawals and sent pushes, while one of the app's own
 * is being settled or followed — is read every `followIntervalMs` (3 s); once nothing in it can
 * change it falls back to its idle cadence (`IDLE_INTERVALS_MS`): what arrives from outside
 * (deposits, pushes received) cannot be known without asking, so it is read every 30 s and 60 s;
 * what this app sends it follows from the moment it sends it (`follow`), so withdrawals and sent
 * pushes made elsewhere (the website, another desk) are read every 2 minutes. About 4 reads a
 * minute with nothing pending (docs/core.md, "Watchers and history sync"). Feeds due within a
 * second of each other are read together. All on the scheduler's monotonic clock.
 */
import type { z } from 'zod';
import type { Events } from '../../shared/contract';
import type { DepositRecord, PushRecord, WithdrawalRecord } from '../../shared/contract/funding';
import { type FundingRecordKind, statusTimeline } from '../../shared/platform/timelines';
import type { PlatformApi } from '../api/platform';
import { toDeposit, toPush, toWithdrawal } from '../funding/records';
import type { BalanceSnapshots } from '../journal/types';
import type { Movement, Movements } from '../movements/types';
import { BACKGROUND, type Scheduler, type Service, systemScheduler, type Timer } from '../scheduler';
import type { ActiveProfile, Emit } from '../types';

/** The four lists the watchers read. */
export type Feed = 'deposits' | 'withdrawals' | 'pushesSent' | 'pushesReceived';
const FEEDS: readonly Feed[] = ['deposits', 'withdrawals', 'pushesSent', 'pushesReceived'];

/** How often each feed is read while nothing it lists can change (see the file's comment). */
export const IDLE_INTERVALS_MS: Readonly<Record<Feed, number>> = {
  deposits: 30_000,
  pushesReceived: 60_000,
  withdrawals: 120_000,
  pushesSent: 120_000,
};

/** How often a feed is read while something it lists can still change. */
export const FOLLOW_INTERVAL_MS = 3_000;

/** Feeds due within this of the first one due are read in the same round (one wake-up, not four). */
const SAME_ROUND_MS = 1_000;

export interface WatchersOptions {
  readonly platform: () => PlatformApi;
  readonly profile: () => ActiveProfile | undefined;
  readonly movements: Movements;
  readonly emit: Emit;
  /** Its timers and monotonic clock pace the reads (default: the system's). */
  readonly scheduler?: Scheduler;
  /**
   * The longest interval between two reads of any feed (e2e tests read every second); 0 disables
   * polling (pollOnce still works). Default: each feed's idle cadence.
   */
  readonly intervalMs?: number;
  /** The interval while something can still change (default 3 s; never slower than `intervalMs`). */
  readonly followIntervalMs?: number;
  /** Each feed's idle cadence (default IDLE_INTERVALS_MS). */
  readonly idleIntervalsMs?: Partial<Record<Feed, number>>;
  /** How far back records are watched, seconds (default 7 days: the platform's default window). */
  readonly lookbackSeconds?: number;
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

/** The feed that lists an own movement of this kind. */
const feedOf = (kind: 'withdrawal' | 'push'): Feed => (kind === 'withdrawal' ? 'withdrawals' : 'pushesSent');

interface FeedState {
  /** Monotonic ms when it is next read. */
  dueAt: number;
  /** Its last read listed something that can still change (or an own movement is moving). */
  following: boolean;
}

export class Watchers implements Service {
  private readonly scheduler: Scheduler;
  private started = false;
  private timer: Timer | undefined;
  private snapshotTimers: Timer[] = [];
  private feeds = new Map<Feed, FeedState>();
  private seen = new Map<string, string>();
  /** Monotonic ms when watching started (records older than that are the baseline, not news). */
  private startedAt = 0;
  private polling: Promise<void> | undefined;
  private generation = 0;

  constructor(private readonly options: WatchersOptions) {
    this.scheduler = options.scheduler ?? systemScheduler();
  }

  /** Watching may begin: every profile connected from now on is followed (see restart). */
  start(): void {
    this.started = true;
    this.restart();
  }

  stop(): void {
    this.started = false;
    this.cancelTimers();
  }

  /** Forgets what was seen (new profile) and reads every feed again from now on. */
  restart(): void {
    this.cancelTimers();
    this.generation++;
    this.seen = new Map();
    this.startedAt = this.scheduler.now();
    this.feeds = new Map(FEEDS.map((feed) => [feed, { dueAt: this.startedAt, following: false }]));
    if (!this.started) return;
    if (this.pollingEnabled()) void this.tick(this.generation);
    const every = this.options.snapshotIntervalMs ?? 15 * 60_000;
    if (this.options.snapshots && every > 0) {
      const take = () => void this.snapshotOnce().catch(() => {});
      // The first one a little later, not at once: the Balances screen, where the app opens, reads
      // the same total as the profile connects and records it itself (balances.total).
      this.snapshotTimers = [
        this.scheduler.setTimeout(take, FIRST_SNAPSHOT_DELAY_MS, BACKGROUND),
        this.scheduler.setInterval(take, every, BACKGROUND),
      ];
    }
  }

  /**
   * One of the app's own withdrawals or pushes changed in the journal: read its feed at the follow
   * interval from now on instead of waiting out the idle one (the next read decides how long).
   */
  follow(kind: 'withdrawal' | 'push'): void {
    const feed = this.feeds.get(feedOf(kind));
    if (feed === undefined) return;
    feed.following = true;
    const dueAt = this.scheduler.now() + this.interval(feedOf(kind));
    if (dueAt >= feed.dueAt) return;
    feed.dueAt = dueAt;
    // No timer while a round runs: it schedules the next one itself when it ends.
    if (this.started && this.timer !== undefined) this.schedule(this.generation);
  }

  /**
   * Stores one total-balance snapshot of the active profile (GET /wallet/total_balance, USDT),
   * unless one was recorded within the interval already (the Balances screen records every total it reads).
   */
  async snapshotOnce(): Promise<void> {
    const profile = this.options.profile();
    const snapshots = this.options.snapshots;
    if (!profile || !snapshots) return;
    const api = this.options.platform();
    if (!api.client.hasCredentials()) return;
    const every = this.options.snapshotIntervalMs ?? 15 * 60_000;
    const wall = this.scheduler.wallNow();
    if (snapshots.list({ profileId: profile.id, from: wall - every + 1, to: wall }).length > 0) return;
    const generation = this.generation;
    const total = await this.scheduler.track(api.wallet.totalBalance('USDT', { purpose: SNAPSHOT_PURPOSE }));
    if (generation !== this.generation) return;
    snapshots.add({
      profileId: profile.id,
      currency: total.total.currency || 'USDT',
      total: total.total.amount,
      byAccount: Object.fromEntries(Object.entries(total.details).map(([account, v]) => [account, v.amount])),
    });
  }

  /** One round reading every feed (tests call it directly). */
  pollOnce(): Promise<void> {
    return this.read(FEEDS);
  }

  private pollingEnabled(): boolean {
    return this.options.intervalMs !== 0;
  }

  private cancelTimers(): void {
    this.timer?.cancel();
    this.timer = undefined;
    for (const timer of this.snapshotTimers) timer.cancel();
    this.snapshotTimers = [];
  }

  private read(feeds: readonly Feed[]): Promise<void> {
    if (this.polling) return this.polling;
    this.polling = this.scheduler.track(this.poll(feeds)).finally(() => (this.polling = undefined));
    return this.polling;
  }

  /** Reads the feeds that are due, then schedules the next round, unless stopped or restarted meanwhile. */
  private async tick(generation: number): Promise<void> {
    this.timer = undefined;
    const horizon = this.scheduler.now() + SAME_ROUND_MS;
    const due = FEEDS.filter((feed) => (this.feeds.get(feed)?.dueAt ?? 0) <= horizon);
    await this.read(due).catch(() => {});
    if (!this.started || generation !== this.generation) return;
    // Read or not (a failed read is tried again at the same pace), each due feed waits its interval,
    // counted from when it was due (one read a little early with the others does not shift its pace).
    const now = this.scheduler.now();
    for (const feed of due) {
      const state = this.feeds.get(feed) as FeedState;
      state.dueAt = Math.max(now, state.dueAt) + this.interval(feed);
    }
    this.schedule(generation);
  }

  private schedule(generation: number): void {
    this.timer?.cancel();
    let next = Number.POSITIVE_INFINITY;
    for (const state of this.feeds.values()) next = Math.min(next, state.dueAt);
    if (!Number.isFinite(next)) return;
    this.timer = this.scheduler.setTimeout(
      () => void this.tick(generation),
      Math.max(0, next - this.scheduler.now()),
      BACKGROUND,
    );
  }

  /** How long until a feed's next read: its follow or idle cadence, never longer than `intervalMs`. */
  private interval(feed: Feed): number {
    const following = this.feeds.get(feed)?.following === true;
    const own = following
      ? (this.options.followIntervalMs ?? FOLLOW_INTERVAL_MS)
      : (this.options.idleIntervalsMs?.[feed] ?? IDLE_INTERVALS_MS[feed]);
    const cap = this.options.intervalMs;
    return cap === undefined || cap <= 0 ? own : Math.min(own, cap);
  }

  private async poll(feeds: readonly Feed[]): Promise<void> {
    const profile = this.options.profile();
    if (!profile || feeds.length === 0) return;
    let api: PlatformApi;
    try {
      api = this.options.platform();
    } catch {
      return;
    }
    if (!api.client.hasCredentials()) return;
    const generation = this.generation;
    // Record times are the platform's: "since watching started" in platform time (ms). Watching
    // starts with the connection, maybe before the connection check has measured the clock.
    const clock = api.client.clock;
    if (clock.needsMeasuring()) await api.client.syncClock().catch(() => undefined);
    const platformNow = clock.now();
    const since = platformNow - (this.scheduler.now() - this.startedAt);
    const lookbackSeconds = this.options.lookbackSeconds ?? 7 * 86_400;
    // No `to`: the platform's default is its own now.
    const range = { from: Math.floor(platformNow / 1000) - lookbackSeconds };
    const wanted = new Set(feeds);
    const none = Promise.resolve([]);
    const [deposits, withdrawals, sent, received] = await Promise.all([
      wanted.has('deposits') ? api.wallet.deposits({ ...range, limit: 500 }, POLL) : none,
      wanted.has('withdrawals') ? api.wallet.withdrawals({ ...range, limit: 1000 }, POLL) : none,
      wanted.has('pushesSent')
        ? api.wallet.pushRecords({ ...range, limit: 1000, transaction_type: 'withdraw' }, POLL)
        : none,
      wanted.has('pushesReceived')
        ? api.wallet.pushRecords({ ...range, limit: 1000, transaction_type: 'deposit' }, POLL)
        : none,
    ]);
    if (generation !== this.generation) return; // the profile changed meanwhile

    const done = this.options.movements.list({ profileId: profile.id, state: 'done', limit: 5000 });
    const byClientId = new Map(done.filter((m) => m.kind === 'withdrawal').map((m) => [m.clientId, m]));
    const byPushId = new Map(done.filter((m) => m.kind === 'push' && m.platformId).map((m) => [m.platformId, m]));

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
    for (const [records, type] of [
      [sent, 'withdraw'],
      [received, 'deposit'],
    ] as const) {
      for (const p of records) {
        const mine = type === 'withdraw' ? byPushId.get(p.id) : undefined;
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
          toPush(p, type),
          undefined,
          mine !== undefined,
        );
      }
    }

    // Read after the platform status updates above. Only own movements inside the watched window:
    // an older one's record is no longer listed, so its status could never become final here.
    const moving = this.options.movements
      .list({ profileId: profile.id, from: this.scheduler.wallNow() - lookbackSeconds * 1000, limit: 5000 })
      .filter(isMoving);
    const following: Record<Feed, boolean> = {
      deposits: deposits.some((d) => !isFinal('deposit', d.status)),
      withdrawals:
        withdrawals.some((w) => !isFinal('withdrawal', w.status)) || moving.some((m) => m.kind === 'withdrawal'),
      pushesSent: sent.some((p) => !isFinal('push', p.status)) || moving.some((m) => m.kind === 'push'),
      pushesReceived: received.some((p) => !isFinal('push', p.status)),
    };
    for (const feed of FEEDS) {
      const state = this.feeds.get(feed);
      // A feed not read this round keeps what its last read said, unless an own movement moves in it.
      if (state && (wanted.has(feed) || following[feed])) state.following = following[feed];
    }
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
    if (before === status) return;
    this.seen.set(key, status);
    // First sighting: only records created since watching started are news; older ones are the baseline.
    if (before === undefined && (timeSec ?? 0) * 1000 < sinceMs - 60_000) return;
    this.options.emit(event, {
      profileId,
      id,
      currency,
      amount,
      status,
      ...(before ? { previousStatus: before } : {}),
      ...(clientId ? { clientId } : {}),
      ...(own ? { own } : {}),
      record,
    } as z.input<Events[EventName]>);
  }
}
