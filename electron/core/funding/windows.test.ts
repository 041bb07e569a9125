import { describe, expect, it } from 'vitest';
import { readAllWindows, WINDOW_SECONDS, windowsOf } from './windows';

describe('30-day windows', () => {
  it('covers a long period with windows of at most 30 days, newest first', () => {
    const to = 1_000 * 86_400;
    const from = to - 65 * 86_400;
    const windows = windowsOf(from, to);
    expect(windows).toEqual([
      { from: to - WINDOW_SECONDS, to },
      { from: to - 2 * WINDOW_SECONDS, to: to - WINDOW_SECONDS },
      { from, to: to - 2 * WINDOW_SECONDS },
    ]);
    expect(windowsOf(10, 10)).toEqual([{ from: 10, to: 10 }]);
    expect(windowsOf(20, 10)).toEqual([]);
  });

  it('pages every window until a short page and removes boundary duplicates', async () => {
    const records = Array.from({ length: 7 }, (_, i) => ({ id: `r${i}`, t: i * 10 * 86_400 }));
    const calls: string[] = [];
    const all = await readAllWindows(0, 70 * 86_400, {
      pageSize: 2,
      read: async (w, offset, limit) => {
        calls.push(`${w.from}-${w.to}@${offset}`);
        return records.filter((r) => r.t >= w.from && r.t <= w.to).slice(offset, offset + limit);
      },
    });
    expect(all.map((r) => r.id).sort()).toEqual(records.map((r) => r.id));
    expect(calls.length).toBeGreaterThan(3);
  });
});
