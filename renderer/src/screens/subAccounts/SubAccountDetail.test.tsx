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
      'subAccounts.get': () => ({
        account: account(state),
        spot: { USDT: '12.5' },
        futures: [],
        margin: [],
        crossMargin: [],
      }),
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

describe('Sub-account detail: balances', () => {
  it('shows every account type the platform reports: spot, isolated margin (with what is borrowed), perpetual, cross margin', async () => {
    installFakeDesk({
      'subAccounts.get': () => ({
        account: account('normal'),
        spot: { USDT: '12.5' },
        futures: [{ settle: 'usdt', available: '2500' }],
        margin: [{ pair: 'BTC_USDT', currency: 'BTC', available: '0.1', locked: '0', borrowed: '0.05' }],
        crossMargin: [{ currency: 'USDT', available: '1000', locked: '0', borrowed: '0' }],
      }),
      'keys.list': () => ({ keys: [] }),
    });
    renderWithQuery(<SubAccountDetail userId={7} />);
    const table = await screen.findByTestId('subaccount-balances');
    const rows = [...table.querySelectorAll('tbody tr')].map((r) => r.textContent);
    expect(rows).toEqual([
      expect.stringContaining('Spot'),
      expect.stringMatching(/Isolated margin · BTC_USDTBTC0\.10(\.0+)?0\.05/),
      expect.stringContaining('Cross margin'),
      expect.stringContaining('Perpetual futures'),
    ]);
  });
});
