import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeDesk, renderWithQuery } from '../../lib/testing/fakeDesk';
import { SubAccountDetail } from './SubAccountDetail';

afterEach(cleanup);

const account = (state: 'normal' | 'frozen') => ({ userId: 7, loginName: 'desk_a', state, type: 'normal' });

describe('Sub-account detail: freeze and unfreeze', () => {
  it('freezes only after confirmation and shows the platform’s new state', async () => {
    let state: 'normal' | 'frozen' = 'normal';
    const desk = installFakeDesk({
      'subAccounts.get': () => ({ account: account(state), spot: { USDT: '12.5' }, futures: [] }),
      'subAccounts.lock': () => {
        state = 'frozen';
        return account(state);
      },
      'keys.list': () => ({ keys: [] }),
    });
    renderWithQuery(<SubAccountDetail userId={7} />);
    await userEvent.click(await screen.findByTestId('freeze'));
    expect(screen.getByTestId('freeze-confirm').textContent).toContain('transfers to and from it fail');
    expect(desk.callsOf('subAccounts.lock')).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(desk.callsOf('subAccounts.lock')).toEqual([]);

    await userEvent.click(screen.getByTestId('freeze'));
    await userEvent.click(screen.getByTestId('confirm-accept'));
    await vi.waitFor(() => expect(screen.getByTestId('subaccount-state').textContent).toBe('Frozen'));
    expect(desk.callsOf('subAccounts.lock')).toEqual([{ userId: 7 }]);
    expect(screen.getByTestId('unfreeze')).toBeTruthy();
  });
});
