import { describe, expect, it } from 'vitest';
import type { PlatformApi } from '../api/platform';
import type { Movements } from '../movements/types';
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
});
