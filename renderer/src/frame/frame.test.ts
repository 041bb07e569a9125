import { describe, expect, it } from 'vitest';
import { describeChange, movesBalances } from './FundingNotifier';
import { shouldIdleLock } from './IdleLock';
import { describeFill } from './TradeNotifier';

describe('shouldIdleLock', () => {
  const base = { now: 20 * 60_000, lastActivity: 0, minutes: 15, busy: false, locked: false };

  it('locks after the configured inactivity', () => {
    expect(shouldIdleLock(base)).toBe(true);
    expect(shouldIdleLock({ ...base, now: 14 * 60_000 })).toBe(false);
  });

  it('never interrupts an operation in flight', () => {
    expect(shouldIdleLock({ ...base, busy: true })).toBe(false);
  });

  it('does nothing when switched off or already locked', () => {
    expect(shouldIdleLock({ ...base, minutes: 0 })).toBe(false);
    expect(shouldIdleLock({ ...base, locked: true })).toBe(false);
  });
});

describe('describeChange', () => {
  // The event carries the whole record, in the contract's type.
  const record = { id: 'w1', time: 1_700_000_000, amount: '1250.5', currency: 'USDT', status: 'DONE' };
  const change = { profileId: 'p', id: 'w1', currency: 'USDT', amount: '1250.5', status: 'DONE', record };

  it('says what happened in plain words, with the amount formatted', () => {
    const notice = describeChange('withdrawal', { ...change, previousStatus: 'BCODE_PENDING' });
    expect(notice).toMatchObject({
      tone: 'good',
      title: 'Withdrawal of 1,250.5 USDT completed',
      screen: 'withdrawals',
    });
  });

  it('names the status in the timeline’s words, with the platform’s code, once per record', () => {
    const notice = describeChange('withdrawal', { ...change, status: 'EXTPEND', previousStatus: 'PROCES' });
    expect(notice?.message).toBe('Sent on chain, waiting for confirmations (EXTPEND)');
    expect(notice?.key).toBe('withdrawal:w1');
  });

  it('keeps failures on screen until dismissed', () => {
    const failed = describeChange('withdrawal', { ...change, status: 'FAIL', previousStatus: 'DONE' });
    expect(failed?.tone === 'bad' ? failed.sticky : true).toBe(true);
  });

  it('stays quiet when nothing changed', () => {
    expect(describeChange('deposit', { ...change, status: 'DONE', previousStatus: 'DONE' })).toBeUndefined();
  });
});

describe('describeFill', () => {
  const order = {
    id: '7',
    text: 't-7',
    pair: 'BTC_USDT',
    side: 'sell' as const,
    type: 'limit' as const,
    price: '65000.5',
    amount: '0.01',
    left: '0.006',
    filledAmount: '0.004',
    filledTotal: '260.002',
    avgDealPrice: '65000.5',
    fee: '0',
    feeCurrency: 'USDT',
    timeInForce: 'gtc',
    status: 'open' as const,
    finishAs: 'open',
    createTimeMs: 0,
    updateTimeMs: 0,
  };

  it('says which order traded, how much now, and how much of it in all', () => {
    expect(describeFill({ order, filledNow: '0.004' })).toMatchObject({
      title: 'Sell order partly filled: 0.004 BTC',
      message: 'BTC / USDT at 65,000.5 USDT · 0.004 of 0.01 BTC filled',
      key: 'order:7',
      screen: 'trade',
    });
    const done = { ...order, left: '0', filledAmount: '0.01', status: 'closed' as const };
    expect(describeFill({ order: done, filledNow: '0.006' }).title).toBe('Sell order filled: 0.006 BTC');
  });
});

describe('movesBalances', () => {
  const record = { id: 'w1', time: 1_700_000_000, amount: '5', currency: 'USDT', status: 'REQUEST' };
  const change = { profileId: 'p', id: 'w1', currency: 'USDT', amount: '5', status: 'REQUEST', record };

  it('reads the balances again for a record someone else made, not for the one this app just sent', () => {
    expect(movesBalances('withdrawal', change)).toBe(true);
    expect(movesBalances('withdrawal', { ...change, own: true })).toBe(false);
  });

  it('reads them again when money comes in or back (credited, refunded), not on the way', () => {
    expect(movesBalances('withdrawal', { ...change, status: 'PEND', previousStatus: 'REQUEST' })).toBe(false);
    expect(movesBalances('withdrawal', { ...change, status: 'CANCEL', previousStatus: 'REQUEST' })).toBe(true);
    expect(movesBalances('deposit', { ...change, status: 'DONE', previousStatus: 'TRACK' })).toBe(true);
    expect(movesBalances('deposit', { ...change, status: 'DONE', previousStatus: 'DONE' })).toBe(false);
    // A deposit first seen on its way has credited nothing yet.
    expect(movesBalances('deposit', { ...change, status: 'TRACK' })).toBe(false);
  });

  it('follows a withdrawal to DONE on the records the events carry: nothing is read again (the debit was read when it was sent)', () => {
    const own = { ...change, own: true };
    const steps = ['REQUEST', 'PEND', 'EXTPEND', 'DONE'];
    expect(
      steps.map((status, i) =>
        movesBalances('withdrawal', { ...own, status, ...(i ? { previousStatus: steps[i - 1] } : {}) }),
      ),
    ).toEqual([false, false, false, false]);
  });

  it('a transfer received moves the balance when it arrives; one sent only when it is refused or cancelled', () => {
    const push = (transactionType: 'deposit' | 'withdraw', status: string, previousStatus?: string) => ({
      ...change,
      status,
      ...(previousStatus ? { previousStatus } : {}),
      record: {
        id: 'p1',
        pushUid: 1,
        receiveUid: 2,
        currency: 'USDT',
        amount: '5',
        createTime: 1,
        status,
        transactionType,
      },
    });
    expect(movesBalances('push', push('deposit', 'PENDING'))).toBe(false);
    expect(movesBalances('push', push('deposit', 'RECEIVED', 'PENDING'))).toBe(true);
    expect(movesBalances('push', { ...push('withdraw', 'RECEIVED', 'PENDING'), own: true })).toBe(false);
    expect(movesBalances('push', push('withdraw', 'REFUSED', 'PENDING'))).toBe(true);
  });

  it('reads them again for a status the app does not know', () => {
    expect(
      movesBalances('withdrawal', { ...change, own: true, status: 'SOMETHING_NEW', previousStatus: 'REQUEST' }),
    ).toBe(true);
  });
});
