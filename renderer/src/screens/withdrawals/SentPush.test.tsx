import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PushRecord, PushResult } from '../../../../shared/contract/funding';
import { FundingNotifier } from '../../frame/FundingNotifier';
import { movementChanged } from '../../lib/testing/events';
import { type FakeDesk, installFakeDesk } from '../../lib/testing/fakeDesk';
import { SentPush } from './PushPanel';

/** What main answers, changed by each test as the journal and the platform move on. */
let sent: PushRecord[];
let movement: { id: string; state: string; platformId?: string; label?: string; message?: string };
let desk: FakeDesk;

const record: PushRecord = {
  id: 'push-77',
  pushUid: 1,
  receiveUid: 2,
  currency: 'USDT',
  amount: '5',
  // Now: inside the tracker's last day, as a transfer just sent is.
  createTime: Math.floor(Date.now() / 1000),
  status: 'PENDING',
  transactionType: 'withdraw',
};

beforeEach(() => {
  sent = [];
  movement = { id: 'intent-1', state: 'unknown' };
  desk = installFakeDesk({ 'funding.pushes': () => sent, 'activity.movement': () => movement });
});
afterEach(cleanup);

/** The tracker inside the frame's FundingNotifier, which refreshes the funding lists on main's events. */
const renderSent = (result: PushResult) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <FundingNotifier />
      <SentPush result={result} />
    </QueryClientProvider>,
  );

describe('following a sent UID transfer', () => {
  it('an unknown outcome is followed through the journal until the record shows its timeline', async () => {
    renderSent({ outcome: 'unknown', intentId: 'intent-1', note: 'The connection was cut.' });
    expect((await screen.findByRole('status')).textContent).toContain('Unknown — checking');

    // The journal finds the transfer on the platform and reports it with the platform's id; the
    // watchers' event brings the record itself, which goes into the sent list without reading it.
    movement = { id: 'intent-1', state: 'done', platformId: 'push-77' };
    act(() => desk.emit('activity.movementChanged', movementChanged({ id: 'intent-1', kind: 'push', state: 'done' })));
    act(() =>
      desk.emit('funding.pushChanged', {
        profileId: 'p1',
        id: record.id,
        currency: record.currency,
        amount: record.amount,
        status: record.status,
        own: true,
        record,
      }),
    );
    await waitFor(() =>
      expect(screen.getByTestId('timeline-headline').textContent).toContain('Waiting for the receiver'),
    );
  });

  it('says plainly when the journal proved it was never executed', async () => {
    renderSent({ outcome: 'unknown', intentId: 'intent-1' });
    await screen.findByRole('status');
    movement = { id: 'intent-1', state: 'failed', label: 'NEVER_EXECUTED', message: 'It never reached the platform.' };
    act(() =>
      desk.emit('activity.movementChanged', movementChanged({ id: 'intent-1', kind: 'push', state: 'failed' })),
    );
    const notice = await screen.findByTestId('push-not-executed');
    expect(notice.textContent).toContain('Not executed');
    expect(notice.textContent).toContain('NEVER_EXECUTED');
  });

  it('an accepted transfer waits for its record by id', async () => {
    renderSent({ outcome: 'accepted', intentId: 'intent-1', id: 'push-77' });
    expect((await screen.findByRole('status')).textContent).toContain('Accepted — waiting for its record');
  });
});
