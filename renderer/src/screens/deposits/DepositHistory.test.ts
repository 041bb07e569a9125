import { describe, expect, it } from 'vitest';
import { confirmationWords } from './DepositHistory';

const record = (status: string) => ({ id: 'd1', time: 1, amount: '5', currency: 'USDT', status });

describe('a deposit’s confirmations in words', () => {
  it('says how many its network needs and whether they were reached', () => {
    expect(confirmationWords(record('TRACK'), 12)).toBe(
      '12 needed: still waiting (the platform does not report how many so far)',
    );
    expect(confirmationWords(record('DONE'), 12)).toBe('12 needed: reached (credited)');
    expect(confirmationWords(record('DEP_CREDITED'), 12)).toContain('withdrawing it unlocks');
    expect(confirmationWords(record('BLOCKED'), 1)).toBe('1 needed: not credited');
    expect(confirmationWords(record('PEND'), undefined)).toBe('Not reported by the platform');
  });
});
