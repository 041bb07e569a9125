import { describe, expect, it } from 'vitest';
import { RATE_LIMITS, rateLimitKeyFor } from './limits';

describe('rate-limit table', () => {
  it('puts each request in the spec bucket', () => {
    expect(rateLimitKeyFor('GET', '/wallet/currency_chains', true)).toBe('public');
    expect(rateLimitKeyFor('POST', '/withdrawals', false)).toBe('withdraw');
    expect(rateLimitKeyFor('POST', '/withdrawals/push', false)).toBe('withdrawPush');
    expect(rateLimitKeyFor('POST', '/wallet/transfers', false)).toBe('walletHeavy');
    expect(rateLimitKeyFor('GET', '/api/v4/wallet/total_balance', false)).toBe('walletHeavy');
    expect(rateLimitKeyFor('GET', '/wallet/deposits', false)).toBe('walletOther');
    expect(rateLimitKeyFor('GET', '/sub_accounts/1/keys', false)).toBe('subAccount');
    expect(rateLimitKeyFor('POST', '/spot/orders', false)).toBe('spotPlace');
    expect(rateLimitKeyFor('PATCH', '/spot/orders/1', false)).toBe('spotPlace');
    expect(rateLimitKeyFor('DELETE', '/spot/orders/1', false)).toBe('spotCancel');
    expect(rateLimitKeyFor('GET', '/spot/accounts', false)).toBe('spotOther');
    expect(rateLimitKeyFor('POST', '/futures/usdt/orders', false)).toBe('futuresPlace');
    expect(rateLimitKeyFor('DELETE', '/futures/usdt/orders', false)).toBe('futuresCancel');
    expect(rateLimitKeyFor('GET', '/delivery/usdt/account_book', false)).toBe('deliveryOther');
    expect(rateLimitKeyFor('POST', '/options/orders', false)).toBe('optionsPlace');
    expect(rateLimitKeyFor('POST', '/unified/loans', false)).toBe('unifiedLoans');
    expect(rateLimitKeyFor('GET', '/earn/uni/lends', false)).toBe('otherPrivate');
  });

  it('carries the spec figures', () => {
    expect(RATE_LIMITS.withdraw).toMatchObject({ limit: 1, windowMs: 3000 });
    expect(RATE_LIMITS.walletHeavy).toMatchObject({ limit: 80, windowMs: 10_000 });
    expect(RATE_LIMITS.spotPlace).toMatchObject({ limit: 10, windowMs: 1000, scope: 'group_market' });
    expect(RATE_LIMITS.public.keyedBy).toBe('ip');
  });
});
