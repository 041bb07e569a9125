import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useNavigation } from '../lib/navigation';
import { notify, TOAST_MS, useNotices } from '../lib/notify';
import { describeChange } from './FundingNotifier';
import { Notices } from './Notices';
import { NotificationCentre } from './NotificationCentre';

beforeEach(() => {
  useNotices.setState({ notices: [], history: [], unread: [] });
  useNavigation.setState({ screen: 'balances', params: {} });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('toasts time out; the centre keeps them', () => {
  it('an information toast goes after its time, a failure toast too (later) — both stay in the centre', () => {
    vi.useFakeTimers();
    render(
      <>
        <Notices />
        <NotificationCentre />
      </>,
    );
    act(() => {
      notify({ tone: 'info', title: 'Export saved' });
      notify({ tone: 'bad', title: 'Withdrawal failed', sticky: true });
    });
    expect(screen.getAllByTestId('notice')).toHaveLength(2);
    act(() => vi.advanceTimersByTime(TOAST_MS.info + 1));
    expect(screen.getAllByTestId('notice').map((n) => n.dataset.tone)).toEqual(['bad']);
    act(() => vi.advanceTimersByTime(TOAST_MS.bad));
    expect(screen.queryAllByTestId('notice')).toHaveLength(0);
    // Still in the centre, unread, the count red because a failure is among them.
    expect(screen.getByTestId('notification-count').textContent).toBe('2');
    expect(screen.getByTestId('notification-count').className).toMatch(/bell-count-bad/);
  });

  it('the bell lists the history; a deposit notice opens the deposit’s record, not the empty address tab', async () => {
    render(<NotificationCentre />);
    const notice = describeChange('deposit', {
      profileId: 'p',
      id: 'd42',
      currency: 'USDT',
      amount: '100',
      status: 'DONE',
      previousStatus: 'PEND',
      record: { id: 'd42', time: 1, amount: '100', currency: 'USDT', status: 'DONE' },
    } as Parameters<typeof describeChange>[1]);
    act(() => {
      if (notice) notify(notice);
    });
    await userEvent.click(screen.getByTestId('notification-bell'));
    const items = screen.getAllByTestId('notification-item');
    expect(items).toHaveLength(1);
    expect(items[0]?.textContent).toMatch(/Deposit of 100 USDT completed/);
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect(useNavigation.getState()).toMatchObject({ screen: 'deposits', params: { tab: 'history', record: 'd42' } });
    expect(useNotices.getState().unread).toEqual([]);
  });

  it('a newer notice about the same record replaces the older one in the centre too', () => {
    notify({ tone: 'info', title: 'Withdrawal in progress', key: 'withdrawal:w1' });
    notify({ tone: 'good', title: 'Withdrawal completed', key: 'withdrawal:w1' });
    expect(useNotices.getState().history.map((n) => n.title)).toEqual(['Withdrawal completed']);
    expect(useNotices.getState().unread).toHaveLength(1);
  });
});
