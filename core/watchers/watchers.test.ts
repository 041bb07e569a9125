import { afterEach, describe, expect, it } from 'vitest';
import { PlatformClock } from '../api/clock';
import type { PlatformApi } from '../api/platform';
import type { BalanceSnapshot, BalanceSnapshots } from '../journal/types';
import type { Movement, MovementFilter, Movements } from '../movements/types';
import { ManualScheduler } from '../testing/scheduler';
import { IDLE_INTERVALS_MS, Watchers, type WatchersOptions } from './watchers';

const PROFILE = { id: 'p1', name: 'p', kind: 'sandbox', baseUrl: 'http://x/api/v4' } as const;
const MINUTE = 60_000;

let scheduler: ManualScheduler;
afterEach(() => scheduler?.close());

describe('Watchers', () => {
  it.each([
    ['measured', true],
    ['not yet measured (the watchers start while the connection check runs)', false],
  ])('judges what is new by the platform’s clock, not this computer’s (offset %s)', async (_, measured) => {
    scheduler = new ManualScheduler();
    // This computer's clock is 5 minutes behind the platform.
    const offsetMs = 5 * MINUTE;
    const platformStartSec = Math.floor((scheduler.wallNow() + offsetMs) / 1000);
    const clock = new PlatformClock(scheduler);
    const syncClock = async () => (await clock.measure(async () => scheduler.wallNow() + offsetMs)).offsetMs;
    if (measured) await syncClock();
    const deposit = (id: string, ageSec: number, status: string) => ({
      id,
      currency: 'USDT',
      amount: '5',
      status,
      timestamp: platformStartSec - ageSec,
      txid: 'x',
      address: 'a',
      chain: 'TRX',
    });
    let deposits = [deposit('d-old', 180, 'DONE')];
    const api = {
      client: { hasCredentials: () => true, clock, syncClock },
      wallet: { deposits: async () => deposits, withdrawals: async () => [], pushRecords: async () => [] },
    } as unknown as PlatformApi;
    const events: { name: string; payload: { id: string; status: string } }[] = [];
    const watchers = new Watchers({
      scheduler,
      platform: () => api,
      profile: () => PROFILE,
      movements: { list: () => [], updatePlatformStatus: () => {} } as unknown as Movements,
      emit: ((name: string, payload: { id: string; status: string }) => events.push({ name, payload })) as never,
      intervalMs: 0,
    });
    watchers.start();
    await watchers.pollOnce();
    // A deposit three minutes older than the start of watching is the baseline, not news.
    expect(events).toEqual([]);
    await scheduler.advance(10_000);
    deposits = [deposit('d-old', 180, 'DONE'), deposit('d-new', -5, 'PEND')];
    await watchers.pollOnce();
    expect(events.map((e) => e.payload.id)).toEqual(['d-new']);
    watchers.stop();
  });

  describe('how often each list is read', () => {
    type Feed = 'deposits' | 'withdrawals' | 'pushesSent' | 'pushesReceived';
    const withdrawal = (fields: Partial<Movement>): Partial<Movement> => ({
      kind: 'withdrawal',
      clientId: 'td1',
      createdAt: scheduler.wallNow(),
      ...fields,
    });

    /** Watchers over a manual scheduler and a fake platform; counts the reads of each list. */
    const polling = (
      records: { deposits?: { status: string }[]; movements?: Partial<Movement>[] },
      options: Partial<WatchersOptions> = {},
    ) => {
      scheduler = new ManualScheduler();
      const reads: Record<Feed, number> = { deposits: 0, withdrawals: 0, pushesSent: 0, pushesReceived: 0 };
      const clock = new PlatformClock(scheduler);
      const syncClock = async () => (await clock.measure(async () => scheduler.wallNow())).offsetMs;
      const api = {
        client: { hasCredentials: () => true, clock, syncClock },
        wallet: {
          deposits: async () => {
            reads.deposits++;
            return (records.deposits ?? []).map((d, i) => ({
              id: `d${i}`,
              currency: 'USDT',
              amount: '5',
              status: d.status,
              timestamp: Math.floor(scheduler.wallNow() / 1000) - 3600,
            }));
          },
          withdrawals: async () => {
            reads.withdrawals++;
            return [];
          },
          pushRecords: async (q: { transaction_type: 'withdraw' | 'deposit' }) => {
            reads[q.transaction_type === 'withdraw' ? 'pushesSent' : 'pushesReceived']++;
            return [];
          },
        },
      } as unknown as PlatformApi;
      const movements = {
        list: (filter: MovementFilter) =>
          (records.movements ?? []).filter(
            (m) =>
              (filter.state === undefined || m.state === filter.state) &&
              (filter.from === undefined || (m.createdAt ?? 0) >= filter.from),
          ),
        updatePlatformStatus: () => {},
      } as unknown as Movements;
      const watchers = new Watchers({
        scheduler,
        platform: () => api,
        profile: () => PROFILE,
        movements,
        emit: () => {},
        ...options,
      });
      const total = () => Object.values(reads).reduce((a, b) => a + b, 0);
      return { watchers, reads, total };
    };

    it('with nothing pending: deposits every 30 s, pushes received every minute, withdrawals and pushes sent every 2 min', async () => {
      const { watchers, reads, total } = polling({ deposits: [{ status: 'DONE' }, { status: 'INVALID' }] });
      watchers.start();
      await scheduler.advance(10 * MINUTE);
      // At 0 s and then on each list's own cadence.
      expect(reads).toEqual({ deposits: 21, pushesReceived: 11, withdrawals: 6, pushesSent: 6 });
      expect(IDLE_INTERVALS_MS.deposits).toBe(30_000);
      // Quiet when idle: about 4 reads a minute after the first round (the budget on Balances is 6
      // a minute with the screen's own read of the total).
      expect((total() - 4) / 10).toBeLessThanOrEqual(4);
      watchers.stop();
      await scheduler.advance(10 * MINUTE);
      expect(total()).toBe(44);
      expect(scheduler.pendingTimers()).toBe(0);
    });

    it('reads a list every 3 s while something in it can still change, and falls back once it is final', async () => {
      const deposits = [{ status: 'DONE' }, { status: 'DEP_CREDITED' }];
      const { watchers, reads } = polling({ deposits });
      watchers.start();
      await scheduler.advance(30_000);
      expect(reads.deposits).toBe(11); // at 0, 3, …, 30 s
      expect(reads.withdrawals).toBe(1); // the others keep their idle pace
      deposits[1] = { status: 'DONE' };
      await scheduler.advance(3_000); // the read at 33 s sees it final
      await scheduler.advance(60_000);
      expect(reads.deposits).toBe(14); // 33 s, then 63 and 93 s
      watchers.stop();
    });

    it.each([
      ['being checked by the journal', () => withdrawal({ state: 'unknown' }), 11],
      ['accepted, its platform record not final yet', () => withdrawal({ state: 'done', platformStatus: 'PEND' }), 11],
      ['accepted, its platform record not listed yet', () => withdrawal({ state: 'done' }), 11],
      ['done on the platform', () => withdrawal({ state: 'done', platformStatus: 'DONE' }), 1],
      ['refused by the platform', () => withdrawal({ state: 'failed' }), 1],
      [
        'older than the watched window',
        () => withdrawal({ state: 'unknown', createdAt: scheduler.wallNow() - 8 * 86_400_000 }),
        1,
      ],
      [
        'a transfer between own accounts',
        () => ({ ...withdrawal({ state: 'unknown' }), kind: 'transfer' as const }),
        1,
      ],
    ])('follows an own withdrawal %s closely only while it can change', async (_, movement, expected) => {
      const movements: Partial<Movement>[] = [];
      const { watchers, reads } = polling({ movements });
      movements.push(movement());
      watchers.start();
      await scheduler.advance(30_000);
      expect(reads.withdrawals).toBe(expected);
      // Only its own list is followed closely.
      expect(reads.deposits).toBe(2);
      watchers.stop();
    });

    it('follows at once when an own movement changes instead of waiting out the idle interval', async () => {
      const movements: Partial<Movement>[] = [];
      const { watchers, reads } = polling({ movements });
      watchers.start();
      await scheduler.advance(1_000);
      expect(reads.withdrawals).toBe(1);
      movements.push(withdrawal({ state: 'sent' }));
      watchers.follow('withdrawal');
      await scheduler.advance(2_000);
      expect(reads.withdrawals).toBe(1);
      await scheduler.advance(1_000); // 3 s after the change, not 2 min after the last read
      expect(reads.withdrawals).toBe(2);
      expect(reads.pushesSent).toBe(1);
      watchers.stop();
    });

    it('runs one schedule after restarts, and none after stop, even with a read in flight', async () => {
      const { watchers, reads } = polling({ deposits: [{ status: 'DONE' }] });
      watchers.start();
      watchers.restart(); // the first round's read is still in flight
      await scheduler.advance(90_000);
      expect(reads.deposits).toBe(4); // one read at 0 s (shared), then 30, 60 and 90 s: not two schedules
      watchers.restart();
      watchers.stop();
      await scheduler.advance(90_000);
      expect(reads.deposits).toBe(5);
    });

    it('never waits longer than intervalMs for any list (the e2e tests read every second)', async () => {
      const { watchers, reads } = polling({ deposits: [{ status: 'PEND' }] }, { intervalMs: 1_000 });
      watchers.start();
      await scheduler.advance(10_000);
      expect(reads).toEqual({ deposits: 11, withdrawals: 11, pushesSent: 11, pushesReceived: 11 });
      watchers.stop();
    });

    it('takes a total-balance snapshot every 15 min unless a screen recorded one within that time', async () => {
      const stored: BalanceSnapshot[] = [];
      const snapshots: BalanceSnapshots = {
        add: (s) => {
          stored.push({ profileId: PROFILE.id, at: scheduler.wallNow(), ...s } as BalanceSnapshot);
        },
        list: (filter = {}) => stored.filter((s) => s.at >= (filter.from ?? 0) && s.at <= (filter.to ?? Infinity)),
      };
      const { watchers } = polling({}, { snapshots });
      let totals = 0;
      const api = (watchers as unknown as { options: { platform: () => PlatformApi } }).options.platform();
      (api.wallet as unknown as Record<string, unknown>).totalBalance = async () => {
        totals++;
        return { total: { amount: '1', currency: 'USDT' }, details: {} };
      };
      watchers.start();
      // The Balances screen read (and recorded) the total as the app started.
      snapshots.add({ currency: 'USDT', total: '1', byAccount: {} });
      await scheduler.advance(MINUTE);
      expect(totals).toBe(0);
      await scheduler.advance(15 * MINUTE);
      expect(totals).toBe(1);
      watchers.stop();
    });
  });
});
