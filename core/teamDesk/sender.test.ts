import { describe, expect, it } from 'vitest';
import type { Movement } from '../movements/types';
import { localAttemptKey } from './sender';

/** A local journal holding these attempts by request key (only what localAttemptKey reads). */
const journal = (attempts: Record<string, Pick<Movement, 'state' | 'label'>>) => ({
  byRequestKey: (key: string) => attempts[key] as Movement | undefined,
});
const HELD = { state: 'failed', label: 'RATE_LIMIT_WAIT' } as const;

describe("a team movement's attempt on this desk", () => {
  it('is journaled under the maker’s request key, and followed there whatever became of it', () => {
    expect(localAttemptKey(journal({}), 'k')).toBe('k');
    expect(localAttemptKey(journal({ k: { state: 'unknown' } }), 'k')).toBe('k');
    // The platform refused it: a real failure, never tried again under another key.
    expect(localAttemptKey(journal({ k: { state: 'failed', label: 'ADDRESS_NOT_USED' } }), 'k')).toBe('k');
  });

  it('after attempts the desk’s own rate limiter held back (never sent), the next is journaled anew', () => {
    expect(localAttemptKey(journal({ k: HELD }), 'k')).toBe('k#2');
    expect(localAttemptKey(journal({ k: HELD, 'k#2': HELD }), 'k')).toBe('k#3');
    // One that went out is the one followed (and looked up), never a key beside it.
    expect(localAttemptKey(journal({ k: HELD, 'k#2': { state: 'done' } }), 'k')).toBe('k#2');
  });
});
