import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeDesk, renderWithQuery } from '../../lib/testing/fakeDesk';
import { TransferResult } from './TransferResult';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** How often the panel asks again about a transfer still being checked (TransferResult.tsx). */
const POLL_MS = 2000;

describe('Last transfer', () => {
  it('follows a transfer whose answer was lost until the journal settles it, without offering a resend', async () => {
    // The polling runs on the test's clock: the next lookup is one interval later, not 2 s of waiting.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let asked = 0;
    const desk = installFakeDesk({
      'transfers.status': () => {
        asked += 1;
        return asked < 2 ? { id: 'm1', state: 'checking' } : { id: 'm1', state: 'done', txId: '42' };
      },
    });
    renderWithQuery(<TransferResult last={{ summary: '7 USDT to desk', outcome: { id: 'm1', state: 'checking' } }} />);
    expect(screen.getByTestId('transfer-result-state').dataset.state).toBe('checking');
    expect(screen.getByText(/do not send it again/)).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
    await vi.waitFor(() => expect(asked).toBe(1));
    expect(screen.queryByText(/The funds have moved/)).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS));
    const done = await screen.findByText(/The funds have moved \(transaction 42\)/);
    expect(done).toBeTruthy();
    expect(desk.callsOf('transfers.status')[0]).toEqual({ id: 'm1' });
  });

  it('shows why a checking transfer is not done: a status other than success is never shown as done', async () => {
    installFakeDesk({
      'transfers.status': () => ({
        id: 'm3',
        state: 'checking',
        attention: 'The platform reports this transfer as “PENDING”, not as done; the app keeps checking.',
      }),
    });
    renderWithQuery(<TransferResult last={{ summary: '2 USDT to desk', outcome: { id: 'm3', state: 'checking' } }} />);
    expect((await screen.findByTestId('transfer-result-attention')).textContent).toContain('PENDING');
    expect(screen.getByTestId('transfer-result-state').dataset.state).toBe('checking');
    expect(screen.queryByText(/The funds have moved/)).toBeNull();
  });

  it('does not poll a transfer that is already done', async () => {
    const desk = installFakeDesk({});
    renderWithQuery(<TransferResult last={{ summary: '1 USDT', outcome: { id: 'm2', state: 'done' } }} />);
    expect(screen.getByTestId('transfer-result-state').dataset.state).toBe('done');
    // A query that was enabled would have called main while rendering (effects run inside render's act).
    expect(desk.callsOf('transfers.status')).toEqual([]);
  });
});
