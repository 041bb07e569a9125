/** The movements export as an accountant reads it: one final state, never "done" for what is not. */
import { describe, expect, it } from 'vitest';
import type { Movement } from '../movements/types';
import { finalState } from './handlers';

const movement = (over: Partial<Movement>): Movement => ({
  id: 'm1',
  profileId: 'p',
  kind: 'withdrawal',
  state: 'done',
  clientId: 'td-1',
  currency: 'USDT',
  amount: '100',
  params: { chain: 'TRX', address: 'T…' },
  attempts: 1,
  createdAt: 0,
  updatedAt: 0,
  operator: 'Mo',
  ...over,
});

describe('finalState', () => {
  it('tells accepted from completed, and a cancelled withdrawal from a done one', () => {
    expect(finalState(movement({ platformStatus: 'EXTPEND' }))).toBe('in progress');
    expect(finalState(movement({ platformStatus: 'DONE' }))).toBe('completed');
    expect(finalState(movement({ platformStatus: 'CANCEL' }))).toBe('cancelled');
    expect(finalState(movement({}))).toBe('accepted');
  });

  it('says what the journal knows when the platform has not said', () => {
    expect(finalState(movement({ state: 'unknown' }))).toBe('unknown');
    expect(finalState(movement({ state: 'failed' }))).toBe('failed');
    expect(finalState(movement({ state: 'prepared' }))).toBe('not sent');
    expect(finalState(movement({ kind: 'spotOrder', platformStatus: 'closed' }))).toBe('filled');
  });
});
