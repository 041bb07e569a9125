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

/** A sync of profile p1 over its own journal, against this platform, at this computer's time. */
const syncOf = (api: PlatformApi, now: () => number) =>
  new HistorySync({
    db: openJournalDb(':memory:'),
    platform: () => api,
    profileId: () => 'p1',
    onProgress: () => {},
    now,
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
    const sync = syncOf(api, () => localNow);
    sync.start({ kinds: ['deposits'], from: platformNowSec - 3600, to: platformNowSec + 3600 });
    expect((await sync.finished())?.state).toBe('done');
    expect(queries.at(-1)?.to).toBeGreaterThanOrEqual(platformNowSec);
    expect(sync.records(['deposits'], platformNowSec - 3600, platformNowSec).records.map((r) => r.id)).toEqual(['d1']);
  });
});

describe('whether the cache covers a period', () => {
  it('right after a sync, the period up to now counts as covered (not "run Sync history")', async () => {
    let localNow = 1_800_000_000_000;
    const offsetMs = -5 * 60_000; // this computer is 5 minutes ahead of the platform
    const api = {
      client: { clock: { offsetMs, last: { offsetMs }, now: () => localNow + offsetMs } },
      wallet: { deposits: async () => [] },
    } as unknown as PlatformApi;
    const sync = syncOf(api, () => localNow);
    const to = localNow / 1000;
    const from = to - 7 * 86_400;
    expect(sync.records(['deposits'], from, to).complete).toBe(false);
    sync.start({ kinds: ['deposits'], from, to });
    expect((await sync.finished())?.state).toBe('done');
    // The screen reads the cache a few seconds later.
    localNow += 10_000;
    expect(sync.records(['deposits'], from, to + 10).complete).toBe(true);
    // Two days later the recent part is no longer what the platform says: a sync is due again.
    localNow += 2 * 86_400_000;
    expect(sync.records(['deposits'], from, to + 2 * 86_400).complete).toBe(false);
  });
});

describe('reading the cache: every record, page by page or in batches', () => {
  const seeded = (count: number) => {
    const db = openJournalDb(':memory:');
    const insert = db.prepare(
      'INSERT INTO history_records (profile_id, kind, record_id, time, data) VALUES (?,?,?,?,?)',
    );
    const kinds = ['deposits', 'withdrawals', 'pushes'] as const;
    db.transaction(() => {
      for (let i = 0; i < count; i++) {
        // Many records share a second, so the order must not rely on time alone.
        const kind = kinds[i % 3] as string;
        insert.run('p1', kind, `r${i}`, 1_700_000_000 + Math.floor(i / 7), JSON.stringify({ amount: String(i) }));
      }
      insert.run('p2', 'deposits', 'other-profile', 1_700_000_100, '{}');
      insert.run('p1', 'trades', 'a-trade', 1_700_000_100, '{}');
    })();
    const sync = new HistorySync({
      db,
      platform: () => ({}) as PlatformApi,
      profileId: () => 'p1',
      onProgress: () => {},
    });
    return { sync, kinds: [...kinds] };
  };

  it('pages cover every matching record exactly once, newest first, with the full count', () => {
    const { sync, kinds } = seeded(5_003);
    const seen: string[] = [];
    let total = 0;
    for (let offset = 0; ; offset += 1000) {
      const page = sync.records(kinds, 0, 2_000_000_000, 1000, offset);
      total = page.total;
      seen.push(...page.records.map((r) => `${r.kind}/${r.id}`));
      if (page.records.length < 1000) break;
    }
    expect(total).toBe(5_003);
    expect(seen).toHaveLength(5_003);
    expect(new Set(seen).size).toBe(5_003);
    // Another profile's record and a kind not asked for never appear.
    expect(seen.some((k) => k.includes('other-profile') || k.startsWith('trades/'))).toBe(false);
    const times = sync.records(kinds, 0, 2_000_000_000, 1000, 0).records.map((r) => r.time);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('batches for an export give every record once, in the same order as the pages', async () => {
    const { sync, kinds } = seeded(5_003);
    const batches: string[] = [];
    const sizes: number[] = [];
    const written = await sync.eachBatch(
      kinds,
      0,
      2_000_000_000,
      async (batch, total) => {
        expect(total).toBe(5_003);
        sizes.push(batch.length);
        batches.push(...batch.map((r) => `${r.kind}/${r.id}`));
      },
      700,
    );
    expect(written).toBe(5_003);
    expect(Math.max(...sizes)).toBe(700);
    const paged = Array.from({ length: 6 }, (_, p) =>
      sync.records(kinds, 0, 2_000_000_000, 1000, p * 1000).records.map((r) => `${r.kind}/${r.id}`),
    ).flat();
    expect(batches).toEqual(paged);
  });

  it('a period and a kind filter narrow both', async () => {
    const { sync } = seeded(700);
    const page = sync.records(['withdrawals'], 1_700_000_010, 1_700_000_020, 1000, 0);
    expect(
      page.records.every((r) => r.kind === 'withdrawals' && r.time >= 1_700_000_010 && r.time <= 1_700_000_020),
    ).toBe(true);
    expect(page.total).toBe(page.records.length);
    let exported = 0;
    await sync.eachBatch(['withdrawals'], 1_700_000_010, 1_700_000_020, async (batch) => {
      exported += batch.length;
    });
    expect(exported).toBe(page.total);
  });
});
