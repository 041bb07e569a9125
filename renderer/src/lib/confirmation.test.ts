import { describe, expect, it } from 'vitest';
import { nothingMoved } from './confirmation';

describe('nothingMoved: decided by the error’s delivery', () => {
  it('only `not_sent` renews the request key, whatever the code', () => {
    expect(nothingMoved({ code: 'PLATFORM', delivery: 'not_sent' })).toBe(true);
    expect(nothingMoved({ code: 'JOURNAL_UNAVAILABLE', delivery: 'not_sent' })).toBe(true);
    // A 5xx or a cut connection on a write, or an answer that could not be read: it may have moved.
    expect(nothingMoved({ code: 'PLATFORM', delivery: 'unknown' })).toBe(false);
    expect(nothingMoved({ code: 'NETWORK', delivery: 'unknown' })).toBe(false);
    expect(nothingMoved({ code: 'PLATFORM', delivery: 'executed' })).toBe(false);
    expect(nothingMoved({ code: 'OUTCOME_UNKNOWN', delivery: 'unknown' })).toBe(false);
  });

  it('falls back to the code only for an error without a delivery', () => {
    expect(nothingMoved({ code: 'INVALID_INPUT' })).toBe(true);
    expect(nothingMoved({ code: 'OUTCOME_UNKNOWN' })).toBe(false);
    expect(nothingMoved({ code: 'INTERNAL' })).toBe(false);
    expect(nothingMoved(undefined)).toBe(false);
  });
});
