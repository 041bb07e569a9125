import { describe, expect, it } from 'vitest';
import { RulesCache } from './cache';

describe('RulesCache', () => {
  it('serves a fresh value, reads again once it is older than asked, and shares a read in flight', async () => {
    let now = 0;
    const cache = new RulesCache(() => now);
    let reads = 0;
    const load = async () => {
      reads += 1;
      return `v${reads}`;
    };
    // Two at once: one read.
    const [a, b] = await Promise.all([cache.get('k', 60_000, load), cache.get('k', 0, load)]);
    expect([a, b, reads]).toEqual(['v1', 'v1', 1]);
    now = 59_000;
    expect(await cache.get('k', 60_000, load)).toBe('v1');
    // A screen's read (maxAge 0) always asks, and the precheck then uses that answer.
    expect(await cache.get('k', 0, load)).toBe('v2');
    now = 120_000;
    expect(await cache.get('k', 60_000, load)).toBe('v3');
    expect(reads).toBe(3);
  });

  it('keeps no failure, and forgets on invalidate and clear (a read under way is not stored after them)', async () => {
    const cache = new RulesCache(() => 0);
    await expect(cache.get('k', 60_000, () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('k', 60_000, async () => 'up')).toBe('up');
    cache.invalidate('k');
    expect(cache.peek('k', 60_000)).toBeUndefined();
    let release: (value: string) => void = () => {};
    const slow = cache.get('x:1', 60_000, () => new Promise<string>((r) => (release = r)));
    cache.clear();
    release('old profile');
    expect(await slow).toBe('old profile');
    expect(cache.peek('x:1', 60_000)).toBeUndefined();
  });
});
