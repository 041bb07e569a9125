import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WithdrawalLookup } from '../../../../shared/contract/funding';
import { movementChanged } from '../../lib/testing/events';
import { type FakeDesk, installFakeDesk } from '../../lib/testing/fakeDesk';
import { WithdrawalTracker } from './WithdrawalTracker';

/** What main answers for funding.withdrawal, changed by each test as the platform moves on. */
let lookup: WithdrawalLookup;
let lookups = 0;
/** The bridge: main's answers and events, as the screen subscribed to them. */
let desk: FakeDesk;

beforeEach(() => {
  lookups = 0;
  desk = installFakeDesk({
    'funding.withdrawal': () => {
      lookups++;
      return lookup;
    },
  });
});
afterEach(cleanup);

const renderTracker = (outcome: 'accepted' | 'unknown') =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <WithdrawalTracker withdrawOrderId="tdABC" outcome={outcome} note="The connection was cut." />
    </QueryClientProvider>,
  );

describe('following a sent withdrawal', () => {
  it('shows "unknown — checking" and offers nothing to resend until the record is found', async () => {
    lookup = { record: null, journal: { state: 'unknown' } };
    renderTracker('unknown');
    const notice = await screen.findByTestId('withdrawal-unknown');
    expect(notice.textContent).toContain('Unknown — checking');
    expect(notice.textContent).toContain('Do not send it again');
    expect(notice.textContent).toContain('tdABC');
    expect(screen.queryAllByRole('button')).toHaveLength(0);

    // The journal's check finds it and main reports the change with the movement (platform id and
    // status): the timeline replaces the notice, with Cancel while possible — nothing read again.
    act(() =>
      desk.emit(
        'activity.movementChanged',
        movementChanged({
          clientId: 'tdABC',
          state: 'done',
          platformId: 'w1',
          platformStatus: 'REQUEST',
          params: { chain: 'TRX', address: 'TXYZ' },
        }),
      ),
    );
    await waitFor(() => expect(screen.getByTestId('timeline-headline').getAttribute('data-status')).toBe('REQUEST'), {
      timeout: 5_000,
    });
    expect(screen.getByTestId('withdrawal-cancel')).toBeTruthy();
    expect(screen.getByTestId('withdrawal-detail').getAttribute('data-withdrawal-id')).toBe('w1');
    expect(lookups).toBe(1);
  });

  it('says plainly when the journal proved it never executed', async () => {
    lookup = {
      record: null,
      journal: { state: 'failed', label: 'NEVER_EXECUTED', message: 'It never reached the platform.' },
    };
    renderTracker('unknown');
    const notice = await screen.findByTestId('withdrawal-not-executed');
    expect(notice.textContent).toContain('Not executed');
    expect(notice.textContent).toContain('NEVER_EXECUTED');
  });

  it('shows a cancelled withdrawal with its reason and no Cancel button', async () => {
    lookup = {
      record: {
        id: 'w2',
        time: 1_700_000_000,
        amount: '5',
        currency: 'USDT',
        status: 'CANCEL',
        failReason: 'Cancelled by the user',
      },
    };
    renderTracker('accepted');
    expect((await screen.findByTestId('timeline-headline')).textContent).toContain('Cancelled: Cancelled by the user');
    expect(screen.queryByTestId('withdrawal-cancel')).toBeNull();
  });
});
