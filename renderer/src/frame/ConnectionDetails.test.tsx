import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { bucketWords, ConnectionDetails, ConnectionIndicator, limiterNeedsAttention } from './ProfileSwitcher';

afterEach(cleanup);

const NOW = Date.now();
const bucket = (scope: string, used: number, limit: number, extra: object = {}) => ({
  key: scope,
  scope,
  limit,
  windowMs: 10_000,
  used,
  queued: 0,
  ...extra,
});

describe('the connection indicator', () => {
  it('says a degraded connection — the stream up, REST failing — and since when, not a green Connected', () => {
    const since = Date.UTC(2026, 10, 27, 14, 2, 0);
    render(
      <ConnectionIndicator
        status={{
          profileId: 'p',
          state: 'degraded',
          degradedSince: since,
          clockWarning: false,
          unresolvedMovements: 0,
          limiter: { queued: 0, headroom: 1, buckets: [] },
        }}
      />,
    );
    expect(screen.getByTestId('connection-state').textContent).toBe('Degraded');
    const line = screen.getByTestId('connection-degraded');
    expect(line.textContent).toContain('requests to the platform fail since');
    expect(line.querySelector('time')?.getAttribute('datetime')).toBe(new Date(since).toISOString());
  });
});

describe('rate-limit windows in words', () => {
  it('name their endpoint, so two windows of one rule never read the same', () => {
    const scope = 'other wallet endpoints, per endpoint';
    expect(bucketWords({ key: 'walletOther GET /wallet/withdraw_status', scope })).toBe(
      'other wallet endpoints — wallet: withdraw status',
    );
    expect(bucketWords({ key: 'walletOther GET /wallet/deposits', scope })).toBe(
      'other wallet endpoints — wallet: deposits',
    );
    expect(bucketWords({ key: 'spotPlace BTC_USDT', scope: 'spot order placement' })).toBe('spot order placement');
  });
});

describe('connection details', () => {
  it('show the clock offset, the tightest budget, the queue, the busiest windows first and the last error', () => {
    render(
      <ConnectionDetails
        id="details"
        status={{
          profileId: 'p',
          state: 'connected',
          clockOffsetMs: 1_500,
          clockWarning: false,
          unresolvedMovements: 0,
          lastError: { message: 'Too many requests', label: 'TOO_MANY_REQUESTS', advice: 'Wait a moment.', at: NOW },
          limiter: {
            queued: 3,
            headroom: 0.1,
            buckets: [
              bucket('Wallet reads', 2, 200),
              bucket('Withdrawals', 1, 1, { windowMs: 3_000, queued: 3 }),
              bucket('Spot orders', 9, 10, { windowMs: 1_000, blockedUntil: NOW + 60_000 }),
            ],
          },
        }}
      />,
    );
    expect(screen.getByTestId('connection-clock').textContent).toBe(
      'This computer is 1.5 s behind the platform; signed requests are corrected for it',
    );
    expect(screen.getByTestId('connection-budget').textContent).toBe(
      '10 % left in the tightest window · 3 waiting for a slot',
    );
    const rows = [...screen.getByTestId('connection-buckets').querySelectorAll('tbody tr')].map((r) => r.textContent);
    expect(rows[0]).toContain('Spot orders');
    expect(rows[0]).toContain('Paused by the platform until');
    expect(rows[0]).toContain('9 of 10 per 1 s');
    expect(rows[1]).toContain('Withdrawals');
    expect(rows[2]).toContain('Wallet reads');
    // Plain words and advice; the platform's code is not in the sentence.
    expect(screen.getByTestId('connection-last-error').textContent).toContain('Too many requests');
    expect(screen.getByTestId('connection-last-error').textContent).not.toContain('TOO_MANY_REQUESTS');
    expect(screen.getByTestId('connection-last-error').textContent).toContain('Wait a moment.');
  });

  it('the top bar flags the budget only when it needs a look', () => {
    const calm = { queued: 0, headroom: 0.8, buckets: [] };
    expect(limiterNeedsAttention(calm, NOW)).toBe(false);
    expect(limiterNeedsAttention({ ...calm, queued: 1 }, NOW)).toBe(true);
    expect(limiterNeedsAttention({ ...calm, headroom: 0.2 }, NOW)).toBe(true);
    expect(limiterNeedsAttention({ ...calm, buckets: [bucket('x', 0, 10, { blockedUntil: NOW + 1_000 })] }, NOW)).toBe(
      true,
    );
    expect(limiterNeedsAttention({ ...calm, buckets: [bucket('x', 0, 10, { blockedUntil: NOW - 1_000 })] }, NOW)).toBe(
      false,
    );
  });
});
