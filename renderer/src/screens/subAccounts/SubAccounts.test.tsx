import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { installFakeDesk, renderWithQuery } from '../../lib/testing/fakeDesk';
import { enterText } from '../../lib/testing/user';
import SubAccountsScreen, { spotValueIn } from '.';

afterEach(cleanup);
beforeAll(() => {
  // happy-dom lays nothing out: the long list (VirtualTable) draws its rows in a 1000 × 600 box.
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue(
    DOMRect.fromRect({ width: 1000, height: 600 }),
  );
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(600);
  vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockReturnValue(1000);
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(600);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1000);
});
afterAll(() => vi.restoreAllMocks());

const ticker = (pair: string, last: string) => ({
  pair,
  last,
  changePercentage: '0',
  high24h: last,
  low24h: last,
  baseVolume: '1',
  quoteVolume: last,
});

const accounts = [
  { userId: 10000001, loginName: 'desk_ops', state: 'normal', type: 'normal', remark: 'Operations' },
  { userId: 10000002, loginName: 'desk_mm', state: 'normal', type: 'normal' },
  { userId: 10000003, loginName: 'otc_desk', state: 'frozen', type: 'normal', email: 'otc@example.com' },
];

const install = () =>
  installFakeDesk({
    'subAccounts.list': () => ({ accounts }),
    'subAccounts.balances': () => ({
      balances: [
        { userId: 10000001, spot: { USDT: '1500', BTC: '0.1' } },
        { userId: 10000002, spot: { USDT: '250.5', XYZ: '10' } },
        { userId: 10000003, spot: { ETH: '2' } },
      ],
    }),
    'subAccounts.unifiedMode': () => ({ modes: [] }),
    'trade.tickers': () => [ticker('BTC_USDT', '60000'), ticker('ETH_USDT', '3000')],
  });

const names = () =>
  [...screen.getByTestId('subaccounts-table').querySelectorAll('tbody tr[data-row-key]')].map(
    (row) => within(row as HTMLElement).getByRole('button').textContent,
  );

describe('Sub-accounts list', () => {
  it('values each sub-account’s spot holdings in USDT by the best route, and says when a holding has no price', async () => {
    install();
    renderWithQuery(<SubAccountsScreen />);
    await waitFor(() => expect(screen.getByTestId('subaccount-value-10000001').textContent).toBe('7,500'));
    expect(screen.getByTestId('subaccount-value-10000003').textContent).toBe('6,000');
    // XYZ has no pair: left out, and the value says so.
    expect(screen.getByTestId('subaccount-value-10000002').textContent).toBe('250.5 (incomplete)');
  });

  it('searches by name, UID, note or email and sorts by a column', async () => {
    install();
    renderWithQuery(<SubAccountsScreen />);
    await waitFor(() => expect(names()).toEqual(['desk_ops', 'desk_mm', 'otc_desk']));
    const search = screen.getByTestId('subaccounts-search');
    await enterText(search, '10000003');
    expect(names()).toEqual(['otc_desk']);
    await userEvent.clear(search);
    await enterText(search, 'operations');
    expect(names()).toEqual(['desk_ops']);
    await userEvent.clear(search);
    await enterText(search, 'nobody');
    expect(screen.getByText('No sub-account matches')).toBeTruthy();
    await userEvent.clear(search);

    await waitFor(() => expect(screen.getByTestId('subaccount-value-10000002')).toBeTruthy());
    await userEvent.click(screen.getByTestId('sort-value'));
    expect(names()).toEqual(['desk_mm', 'otc_desk', 'desk_ops']);
    await userEvent.click(screen.getByTestId('sort-value'));
    expect(names()).toEqual(['desk_ops', 'otc_desk', 'desk_mm']);
    expect(screen.getByTestId('sort-value').closest('th')?.getAttribute('aria-sort')).toBe('descending');
    await userEvent.click(screen.getByTestId('sort-name'));
    expect(names()).toEqual(['desk_mm', 'desk_ops', 'otc_desk']);
  });

  it('adds nothing for zero holdings and nothing without prices', () => {
    expect(spotValueIn({ USDT: '0', BTC: '0' }, () => undefined)).toEqual({ usdt: '0', unpriced: [] });
    expect(spotValueIn({ USDT: '1' }, undefined)).toBeUndefined();
  });
});
