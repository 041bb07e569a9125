import { describe, expect, it } from 'vitest';
import { allowanceWords, ruleOfBucket, rulesThatMatter, windowWords } from './pacing';

describe('pacing words come from the one rate-limit table', () => {
  it('names the real window of an endpoint', () => {
    expect(allowanceWords('withdraw')).toBe('one withdrawal every 3 s');
    expect(allowanceWords('withdrawPush')).toBe('one transfer to another user every 10 s');
    expect(allowanceWords('spotPlace')).toBe('10 order placements or amendments per pair every 1 s');
    expect(windowWords(1500)).toBe('1.5 s');
  });

  it('the one-withdrawal window matters only on the withdrawals screen', () => {
    expect(rulesThatMatter('withdrawals')).toContain('withdraw');
    expect(rulesThatMatter('balances')).not.toContain('withdraw');
    expect(rulesThatMatter('trade')).not.toContain('withdraw');
    expect(ruleOfBucket('withdraw POST /withdrawals')).toBe('withdraw');
    expect(ruleOfBucket('spotPlace BTC_USDT')).toBe('spotPlace');
    expect(ruleOfBucket('nonsense')).toBeUndefined();
  });
});
