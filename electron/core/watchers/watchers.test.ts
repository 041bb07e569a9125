import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PlatformApi } from '../api/platform';
import type { Movement, MovementFilter, Movements } from '../movements/types';
import { Watchers } from './watchers';

describe('Watchers', () => {
  it.each([
    ['measured', true],
    ['not yet measured (the watchers start while the connection check runs)', false],
  ])('judges what is new by the platform’s clock, not this computer’s (offset %s)', async (_, measured) => {
    // This computer's clock is 5 minutes behind the platform.
    const offsetMs = 5 * 60_000;
    const localStart = 1_800_000_000_000;
    const platformStartSec = (localStart + offsetMs) / 1000;
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
      client: {
        hasCredentials: () => true,
        clock: measured ? { offsetMs, last: { offsetMs } } : { offsetMs: 0, last: undefined },
        async syncClock() {
          this.clock = { offsetMs, last: { offsetMs } };
          return offsetMs;
        },
      },
      wallet: {
        deposits: async () => deposits,
        withdrawals: async () => [],
        pushRecords: async () => [],
      },
    } as unknown as PlatformApi;
    const events: { name: string; payload: { id: string; status: string } }[] = [];
    let now = localStart;
    const watchers = new Watchers({
      platform: () => api,
      profile: () => ({ id: 'p1', name: 'p', kind: 'sandbox', baseUrl: 'http://x/api/v4' }),
      movements: { list: () => [], updatePlatformStatus: () => {} } as unknown as Movements,
      emit: ((name: string, payload: { id: string; status: string }) => events.push({ name, payload })) as never,
      intervalMs: 0,
      now: () => now,
    });
    watchers.restart();
    await watchers.pollOnce();
    // A deposit three minutes older than the start of watching is the baseline, not news.
    expect(events).toEqual([]);
    now += 10_000;
    deposits = [deposit('d-old', 180, 'DONE'), deposit('d-new', -5, 'PEND')];
    await watchers.pollOnce();
    expect(events.map((e) => e.payload.id)).toEqual(['d-new']);
    watchers.stop();
  });

  describe('how often it polls', () => {
    afterEach(() => vi.useRealTimers());

    /** Watchers polling every 10 s (3 s while following) over fake timers; counts the polls. */
    const polling = (
      records: { deposits?: { status: string }[]; movements?: Partial<Movement>[] },
      intervalMs = 10_000,
    ) => {
      vi.useFakeTimers();
      let polls = 0;
      const api = {
        client: { hasCredentials: () => true, clock: { offsetMs: 0, last: { offsetMs: 0 } } },
        wallet: {
          deposits: async () => {
            polls++;
            return (records.deposits ?? []).map((d, i) => ({
              id: `d${i}`,
              currency: 'USDT',
              amount: '5',
              status: d.status,
              timestamp: Math.floor(Date.now() / 1000) - 3600,
            }));
          },
          withdrawals: async () => [],
          pushRecords: async () => [],
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
        platform: () => api,
        profile: () => ({ id: 'p1', name: 'p', kind: 'sandbox', baseUrl: 'http://x/api/v4' }),
        movements,
        emit: () => {},
        intervalMs,
      });
      return { watchers, polls: () => polls };
    };
    const withdrawal = (fields: Partial<Movement>): Partial<Movement> => ({
      kind: 'withdrawal',
      clientId: 'td1',
      createdAt: Date.now(),
      ...fields,
    });

    it('polls every intervalMs while every record is final', async () => {
      const { watchers, polls } = polling({ deposits: [{ status: 'DONE' }, { status: 'INVALID' }] });
      watchers.restart();
      await vi.advanceTimersByTimeAsync(30_000);
      expect(polls()).toBe(4); // at 0, 10, 20 and 30 s
      watchers.stop();
      await vi.advanceTimersByTimeAsync(30_000);
      expect(polls()).toBe(4);
    });

    it('follows every 3 s while a record can still change, and slows down once it is final', async () => {
      const deposits = [{ status: 'DONE' }, { status: 'DEP_CREDITED' }];
      const { watchers, polls } = polling({ deposits });
      watchers.restart();
      await vi.advanceTimersByTimeAsync(30_000);
      expect(polls()).toBe(11); // at 0, 3, …, 30 s
      deposits[1] = { status: 'DONE' };
      await vi.advanceTimersByTimeAsync(3_000); // the poll at 33 s sees it final
      await vi.advanceTimersByTimeAsync(30_000);
      expect(polls()).toBe(15); // 33 s, then 43, 53 and 63 s
      watchers.stop();
    });

    it.each([
      ['being checked by the journal', withdrawal({ state: 'unknown' }), 11],
      ['accepted, its platform record not final yet', withdrawal({ state: 'done', platformStatus: 'PEND' }), 11],
      ['accepted, its platform record not listed yet', withdrawal({ state: 'done' }), 11],
      ['done on the platform', withdrawal({ state: 'done', platformStatus: 'DONE' }), 4],
      ['refused by the platform', withdrawal({ state: 'failed' }), 4],
      ['older than the watched window', withdrawal({ state: 'unknown', createdAt: Date.now() - 8 * 86_400_000 }), 4],
      ['a transfer between own accounts', { ...withdrawal({ state: 'unknown' }), kind: 'transfer' as const }, 4],
    ])('follows an own withdrawal %s closely only while it can change', async (_, movement, expected) => {
      const { watchers, polls } = polling({ movements: [movement] });
      watchers.restart();
      await vi.advanceTimersByTimeAsync(30_000);
      expect(polls()).toBe(expected);
      watchers.stop();
    });

    it('follows at once when an own movement changes instead of waiting out the slow interval', async () => {
      const movements: Partial<Movement>[] = [];
      const { watchers, polls } = polling({ movements });
      watchers.restart();
      await vi.advanceTimersByTimeAsync(1_000);
      expect(polls()).toBe(1);
      movements.push(withdrawal({ state: 'sent' }));
      watchers.follow();
      await vi.advanceTimersByTimeAsync(2_000);
      expect(polls()).toBe(1);
      await vi.advanceTimersByTimeAsync(1_000); // 3 s after the change, not 10 s after the last poll
      expect(polls()).toBe(2);
      watchers.stop();
    });

    it('runs one schedule after restarts, and none after stop, even with a poll in flight', async () => {
      const { watchers, polls } = polling({ deposits: [{ status: 'DONE' }] });
      watchers.restart();
      watchers.restart(); // the first round's poll is still in flight
      await vi.advanceTimersByTimeAsync(30_000);
      expect(polls()).toBe(4); // one poll at 0 s (shared), then 10, 20 and 30 s: not two schedules
      watchers.restart();
      watchers.stop();
      await vi.advanceTimersByTimeAsync(30_000);
      expect(polls()).toBe(5);
    });

    it('keeps a shorter intervalMs while following (the e2e tests poll every second)', async () => {
      const { watchers, polls } = polling({ deposits: [{ status: 'PEND' }] }, 1_000);
      watchers.restart();
      await vi.advanceTimersByTimeAsync(10_000);
      expect(polls()).toBe(11);
      watchers.stop();
    });
  });
});
