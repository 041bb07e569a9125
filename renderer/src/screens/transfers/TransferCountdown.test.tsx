import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeskCallError } from '../../lib/desk';
import { installFakeDesk, newQueryClient, renderWithQuery } from '../../lib/testing/fakeDesk';
import { TransferResult } from './TransferResult';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const refused = (label: string) =>
  new DeskCallError('transfers.send', {
    code: 'PLATFORM',
    label,
    message: 'Too many requests',
    delivery: 'not_sent',
  } as ConstructorParameters<typeof DeskCallError>[1]);

describe('a transfer refused for pacing', () => {
  it('names the transfers window and counts the exact wait down', () => {
    vi.useFakeTimers();
    installFakeDesk({});
    renderWithQuery(
      <TransferResult last={{ summary: '5 USDT from Main · spot to Sub 1', error: refused('TOO_MANY_REQUESTS') }} />,
    );
    expect(screen.getByTestId('retry-countdown').textContent).toBe(
      'The platform accepts 80 requests to this endpoint every 10 s. You can try again in 10 s.',
    );
    act(() => vi.advanceTimersByTime(5_100));
    expect(screen.getByTestId('countdown').textContent).toBe('You can try again in 5 s.');
    act(() => vi.advanceTimersByTime(5_000));
    expect(screen.getByTestId('countdown').textContent).toBe('You can try again now.');
  });

  it('a failed outcome carrying the label counts down too, and is not restarted by a re-render', () => {
    vi.useFakeTimers();
    installFakeDesk({});
    const last = {
      summary: '5 USDT',
      outcome: { id: 'm9', state: 'failed' as const, label: 'TOO_MANY_REQUESTS', message: 'Too many requests.' },
    };
    const client = newQueryClient();
    const { rerender } = renderWithQuery(<TransferResult last={last} />, client);
    act(() => vi.advanceTimersByTime(3_100));
    rerender(
      <QueryClientProvider client={client}>
        <TransferResult last={{ ...last }} />
      </QueryClientProvider>,
    );
    expect(screen.getByTestId('countdown').textContent).toBe('You can try again in 7 s.');
  });

  it('says nothing of waiting for another refusal', () => {
    installFakeDesk({});
    renderWithQuery(<TransferResult last={{ summary: '5 USDT', error: refused('BALANCE_NOT_ENOUGH') }} />);
    expect(screen.queryByTestId('retry-countdown')).toBeNull();
  });
});
