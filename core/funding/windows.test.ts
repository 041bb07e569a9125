import { describe, expect, it } from 'vitest';
import { WINDOW_SECONDS } from '../history/sync';
import { readAllWindows } from './windows';

describe('reading a period of any length', () => {
  it('asks in windows of at most 30 days, pages every window until a short page, and removes duplicates', async () => {
    const records = Array.from({ length: 7 }, (_, i) => ({ id: `r${i}`, t: i * 10 * 86_400 }));
    const windows: { from: number; to: number }[] = [];
    const all = await readAllWindows(0, 70 * 86_400, {
      pageSize: 2,
      read: async (w, offset, limit) => {
        if (offset === 0) windows.push(w);
        // A record on a boundary is listed by both windows it touches: it must come back once.
        return records.filter((r) => r.t >= w.from - 1 && r.t <= w.to + 1).slice(offset, offset + limit);
      },
    });
    expect(all.map((r) => r.id).sort()).toEqual(records.map((r) => r.id));
    expect(windows.length).toBe(3);
    for (const w of windows) expect(w.to - w.from).toBeLessThan(WINDOW_SECONDS);
    expect(windows[0]?.from).toBe(0);
    expect(windows.at(-1)?.to).toBe(70 * 86_400);
  });

  it('reads nothing for an empty period', async () => {
    let calls = 0;
    const none = await readAllWindows(20, 10, {
      pageSize: 2,
      read: async () => {
        calls++;
        return [];
      },
    });
    expect(none).toEqual([]);
    expect(calls).toBe(0);
  });
});
