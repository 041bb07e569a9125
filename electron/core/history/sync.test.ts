import { describe, expect, it } from 'vitest';
import type { PlatformApi } from '../api/platform';
import { openJournalDb } from '../journal/db';
import { HistorySync, uncovered, WINDOW_SECONDS, windowsOf } from './sync';

describe('history windows', () => {
  it('splits any period into windows of at most 30 days, covering it exactly once', () => {
    const from = 1_700_000_000;
    const to = from + 365 * 86_400;
    const windows = windowsOf([{ from, to }]);
    expect(windows).toHaveLength(13);
    expect(windows[0]?.from).toBe(from);
    expect(windows.at(-1)?.to).toBe(to);
    for (const w of windows) expect(w.to - w.from + 1).toBeLessThanOrEqual(WINDOW_SECONDS);
    for (let i = 1; i < windows.length; i++) expect(windows[i]?.from).toBe((windows[i - 1]?.to as number) + 1);
  });

  it('fetches only what the cache does not cover', () => {
    expect(uncovered({ from: 0, to: 100 }, [])).toEqual([{ from: 0, to: 100 }]);
    expect(uncovered({ from: 0, to: 100 }, [{ from: 0, to: 100 }])).toEqual([]);
    expect(
      uncovered({ from: 0, to: 100 }, [
        { from: 10, to: 20 },
        { from: 15, to: 30 },
        { from: 50, to: 200 },
      ]),
    ).toEqual([
      { from: 0, to: 9 },
      { from: 31, to: 49 },
    ]);
  });
});

describe('history sync', () => {
  it('reads up to the platform’s now, not this computer’s (a clock running behind)', async () => {
    const localNow = 1_800_000_000_000;
    const offsetMs = 5 * 60_000; // this computer is 5 minutes behind the platform
    const platformNowSec = (localNow + offsetMs) / 1000;
    const queries: { from?: number; to?: number }[] = [];
    const api = {
      client: { clock: { offsetMs, last: { offsetMs }, now: () => localNow + offsetMs } },
      wallet: {
        deposits: async (q: { from?: number; to?: number }) => {
          queries.push(q);
          // A deposit that arrived two minutes ago (platform time).
          return [{ id: 'd1', currency: 'USDT', amount: '1', status: 'DONE', timestamp: platformNowSec - 120 }];
        },
      },
    } as unknown as PlatformApi;
    const sync = new HistorySync({
      db: openJournalDb(':memory:'),
      platform: () => api,
      profileId: () => 'p1',
      onProgress: () => {},
      now: () => localNow,
    });
    sync.start({ kinds: ['deposits'], from: platformNowSec - 3600, to: platformNowSec + 3600 });
    expect((await sync.finished())?.state).toBe('done');
    expect(queries.at(-1)?.to).toBeGreaterThanOrEqual(platformNowSec);
    expect(sync.records('deposits', platformNowSec - 3600, platformNowSec).records.map((r) => r.id)).toEqual(['d1']);
  });
});
