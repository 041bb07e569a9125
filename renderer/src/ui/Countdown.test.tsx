import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { relevantBudget } from '../frame/ProfileSwitcher';
import { DeskCallError } from '../lib/desk';
import { RetryCountdown } from './Countdown';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const tooFast = new DeskCallError('funding.withdraw', {
  code: 'PLATFORM',
  label: 'TOO_FAST',
  message: 'Withdrawals were requested too quickly.',
} as ConstructorParameters<typeof DeskCallError>[1]);

describe('honest pacing', () => {
  it('TOO_FAST names the same window the sandbox enforces (one a minute to the same address) and counts it down', () => {
    vi.useFakeTimers();
    render(<RetryCountdown error={tooFast} />);
    const line = screen.getByTestId('retry-countdown');
    expect(line.textContent).toBe(
      'The platform accepts one withdrawal a minute to the same address. You can try again in 60 s.',
    );
    act(() => vi.advanceTimersByTime(1_100));
    expect(screen.getByTestId('countdown').textContent).toBe('You can try again in 59 s.');
    act(() => vi.advanceTimersByTime(59_000));
    expect(screen.getByTestId('countdown').textContent).toBe('You can try again now.');
  });

  it('counts down to the platform’s own reset time when the limiter was told one', () => {
    vi.useFakeTimers();
    const now = Date.now();
    const paced = new DeskCallError('trade.placeOrder', {
      code: 'PLATFORM',
      label: 'TOO_MANY_REQUESTS',
      message: 'Too many requests',
    } as ConstructorParameters<typeof DeskCallError>[1]);
    render(<RetryCountdown error={paced} blockedUntil={now + 7_000} />);
    expect(screen.getByTestId('retry-countdown').textContent).toBe(
      'The platform accepts 10 order placements or amendments per pair every 1 s. You can try again in 7 s.',
    );
  });

  it('says nothing under other errors', () => {
    const other = new DeskCallError('funding.withdraw', {
      code: 'PLATFORM',
      label: 'BALANCE_NOT_ENOUGH',
      message: 'x',
    } as ConstructorParameters<typeof DeskCallError>[1]);
    render(<RetryCountdown error={other} />);
    expect(screen.queryByTestId('retry-countdown')).toBeNull();
  });

  it('one withdrawal does not raise an amber "0 % left" away from withdrawals; on withdrawals it tells the real wait', () => {
    const now = Date.now();
    const limiter = {
      queued: 0,
      headroom: 0,
      buckets: [
        {
          key: 'withdraw POST /withdrawals',
          scope: 'POST /withdrawals',
          limit: 1,
          windowMs: 3_000,
          used: 1,
          queued: 0,
        },
        {
          key: 'walletOther GET /wallet/deposits',
          scope: 'other wallet',
          limit: 200,
          windowMs: 10_000,
          used: 3,
          queued: 0,
        },
      ],
    };
    expect(relevantBudget(limiter, 'balances', now)).toBeUndefined();
    expect(relevantBudget(limiter, 'trade', now)).toBeUndefined();
    const spent = { ...limiter, buckets: [{ ...limiter.buckets[1]!, used: 190 }] };
    expect(relevantBudget(spent, 'balances', now)?.tightest).toMatchObject({ limit: 200, used: 190 });
    const paused = {
      ...limiter,
      buckets: [{ ...limiter.buckets[0]!, blockedUntil: now + 2_000 }],
    };
    expect(relevantBudget(paused, 'withdrawals', now)).toMatchObject({ blockedUntil: now + 2_000 });
    expect(relevantBudget(paused, 'balances', now)).toBeUndefined();
  });
});
