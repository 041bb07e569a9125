import { describe, expect, it } from 'vitest';
import { readAllPages } from './pages';

/** A fake paged list of `total` items that records how many page reads overlap. */
const pagedList = (total: number, pageSize: number) => {
  let inFlight = 0;
  let maxInFlight = 0;
  const asked: number[] = [];
  const read = async (page: number) => {
    asked.push(page);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    // Later pages answer first: the result must still be in order.
    // fixed-sleep-ok: the fake platform's answer time (later pages faster), not a wait of the test
    await new Promise((resolve) => setTimeout(resolve, 20 - (page % 5) * 3));
    inFlight--;
    const start = (page - 1) * pageSize;
    return Array.from({ length: Math.max(0, Math.min(pageSize, total - start)) }, (_, i) => start + i);
  };
  return { read, asked, stats: () => ({ maxInFlight }) };
};

describe('readAllPages', () => {
  it('reads 1,001 items in 11 pages, several at a time, in order', async () => {
    const list = pagedList(1_001, 100);
    const items = await readAllPages({ read: list.read, pageSize: 100, maxPages: 50 });
    expect(items).toEqual(Array.from({ length: 1_001 }, (_, i) => i));
    expect(list.stats().maxInFlight).toBeGreaterThan(1);
    // At most one batch beyond the last page (11) is asked for.
    expect(Math.max(...list.asked)).toBeLessThanOrEqual(11 + 3);
  });

  it('stops at a short first page, and at the page guard', async () => {
    const short = pagedList(42, 100);
    expect(await readAllPages({ read: short.read, pageSize: 100, maxPages: 50 })).toHaveLength(42);
    expect(short.asked).toEqual([1]);
    const endless = pagedList(1_000_000, 10);
    expect(await readAllPages({ read: endless.read, pageSize: 10, maxPages: 7, concurrency: 3 })).toHaveLength(70);
    expect(Math.max(...endless.asked)).toBe(7);
  });
});
