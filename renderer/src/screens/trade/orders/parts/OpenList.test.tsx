import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CancelButton, ListStatus } from './ListParts';
import { type CancelAllMutation, OpenList } from './OpenList';

afterEach(cleanup);

const Harness = ({ count, cancelAll }: { count: number; cancelAll: CancelAllMutation }) => {
  const [allPairs, setAllPairs] = useState(false);
  return (
    <OpenList
      pair="BTC_USDT"
      allPairs={allPairs}
      onAllPairsChange={setAllPairs}
      count={count}
      button="Cancel all triggers"
      testId="cancel-all-triggers"
      title="Cancel all open trigger orders?"
      what="trigger order"
      note="Orders they already placed stay."
      cancelAll={cancelAll}
    >
      <p>the list</p>
    </OpenList>
  );
};

describe('OpenList', () => {
  it('asks before cancelling what the list shows, sends its scope and closes once done', async () => {
    const mutate = vi.fn((_scope: { pair?: string }, options: { onSuccess: () => void }) => options.onSuccess());
    render(<Harness count={2} cancelAll={{ mutate, isPending: false, error: null }} />);
    expect(screen.getByText('the list')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel all triggers BTC_USDT' }));
    const dialog = screen.getByTestId('cancel-all-triggers-confirm');
    expect(dialog.textContent).toContain(
      'This cancels 2 trigger order(s) on BTC_USDT. Orders they already placed stay.',
    );
    expect(mutate).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel all' }));
    expect(mutate).toHaveBeenCalledWith({ pair: 'BTC_USDT' }, expect.anything());
    await waitFor(() => expect(screen.queryByTestId('cancel-all-triggers-confirm')).toBeNull());

    await userEvent.click(screen.getByRole('checkbox', { name: 'All pairs' }));
    await userEvent.click(screen.getByRole('button', { name: 'Cancel all triggers' }));
    expect(screen.getByTestId('cancel-all-triggers-confirm').textContent).toContain('on all pairs');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel all' }));
    expect(mutate).toHaveBeenLastCalledWith({}, expect.anything());
  });

  it('has nothing to cancel in an empty list; "Keep them" sends nothing', async () => {
    const mutate = vi.fn();
    const { rerender } = render(<Harness count={0} cancelAll={{ mutate, isPending: false, error: null }} />);
    expect((screen.getByTestId('cancel-all-triggers') as HTMLButtonElement).disabled).toBe(true);
    rerender(<Harness count={1} cancelAll={{ mutate, isPending: false, error: null }} />);
    await userEvent.click(screen.getByTestId('cancel-all-triggers'));
    await userEvent.click(screen.getByRole('button', { name: 'Keep them' }));
    expect(screen.queryByTestId('cancel-all-triggers-confirm')).toBeNull();
    expect(mutate).not.toHaveBeenCalled();
  });
});

describe('list parts', () => {
  it('ListStatus shows the empty state only for an empty answer', () => {
    const list = { isLoading: false, error: null, data: [] as unknown[], refetch: () => undefined };
    const { rerender } = render(<ListStatus list={list} empty="No open orders" />);
    expect(screen.getByText('No open orders')).toBeTruthy();
    rerender(<ListStatus list={{ ...list, data: [1] }} empty="No open orders" />);
    expect(screen.queryByText('No open orders')).toBeNull();
  });

  it('CancelButton is named by what it cancels', async () => {
    const onCancel = vi.fn();
    render(<CancelButton what="order" name="t-desk-a" busy={false} onCancel={onCancel} />);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel order t-desk-a' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
  });
});
