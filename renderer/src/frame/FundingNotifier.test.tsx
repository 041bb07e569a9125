import { act, cleanup } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FirmAccount, FirmView } from '../../../shared/contract/balances';
import { useDeskQuery } from '../lib/desk';
import { installFakeDesk, newQueryClient, renderWithQuery } from '../lib/testing/fakeDesk';
import { FundingNotifier } from './FundingNotifier';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const FIRM_KEY = ['balances.firm', { quote: 'USDT' }] as const;

const sub = (uid: string): FirmAccount => ({
  uid,
  label: `sub ${uid}`,
  role: 'sub',
  holdings: [{ account: 'spot', currency: 'USDT', amount: '10', value: '10' }],
  value: '10',
  errors: {},
});

/** Main (1,000 USDT and 0.5 BTC spot, 2,000 USDT perpetual) and 1,000 sub-accounts of 10 USDT. */
const firmView = (subs: FirmAccount[]): FirmView => ({
  quote: 'USDT',
  fetchedAt: 1_700_000_000,
  prices: { BTC: '50000', USDT: '1' },
  accounts: [
    {
      uid: '1',
      label: 'Main account',
      role: 'main',
      holdings: [
        { account: 'futures', currency: 'USDT', amount: '2000', value: '2000' },
        { account: 'spot', currency: 'BTC', amount: '0.5', value: '25000' },
        { account: 'spot', currency: 'USDT', amount: '1000', value: '1000' },
      ],
      value: '28000',
      errors: {},
    },
    ...subs,
  ],
  currencies: [
    { currency: 'BTC', amount: '0.5', value: '25000' },
    { currency: 'USDT', amount: '13000', value: '13000' },
  ],
  total: '38000',
  unpriced: [],
  incomplete: false,
  basis: 'Valued at the last spot price against USDT.',
});

const deposit = (status: string, previousStatus: string, profileId = 'local-sandbox') => ({
  profileId,
  id: 'd1',
  currency: 'USDT',
  amount: '100',
  status,
  previousStatus,
  record: { id: 'd1', time: 1_700_000_000, amount: '100', currency: 'USDT', status },
});

/** The Firm-wide tab as it reads its view: any refetch of it would show in the fake desk's calls. */
const FirmTab = () => {
  useDeskQuery(FIRM_KEY, { staleTime: 30_000 });
  return null;
};

const setUp = () => {
  vi.useFakeTimers();
  const subs = Array.from({ length: 1_000 }, (_, i) => sub(String(i + 2)));
  const desk = installFakeDesk({
    'balances.firm': () => firmView(subs),
    'balances.spot': () => [
      { currency: 'USDT', available: '1100', locked: '0', total: '1100' },
      { currency: 'BTC', available: '0.5', locked: '0', total: '0.5' },
      { currency: 'ETH', available: '0', locked: '0', total: '0' },
    ],
  });
  const client = newQueryClient();
  client.setQueryData(['profiles.status', {}], { profileId: 'local-sandbox' });
  client.setQueryData(FIRM_KEY, firmView(subs));
  renderWithQuery(
    <>
      <FundingNotifier />
      <FirmTab />
    </>,
    client,
  );
  return { desk, client, subs };
};

describe('FundingNotifier', () => {
  it('a credited deposit patches the main account into the firm-wide view, which is not read again', async () => {
    const { desk, client, subs } = setUp();
    for (const [status, previous] of [
      ['PEND', 'NEW'],
      ['TRACK', 'PEND'],
      ['DONE', 'TRACK'],
    ] as const) {
      act(() => desk.emit('funding.depositChanged', deposit(status, previous)));
      await act(() => vi.advanceTimersByTimeAsync(500));
    }
    // A second change that moved money, within the same burst: still one read.
    act(() => desk.emit('funding.depositChanged', { ...deposit('DONE', 'TRACK'), id: 'd2' }));
    await act(() => vi.advanceTimersByTimeAsync(3_000));

    // One read of the main account's spot balances, never the whole view (14 platform requests).
    expect(desk.callsOf('balances.spot')).toHaveLength(1);
    expect(desk.callsOf('balances.firm')).toHaveLength(0);
    expect(client.getQueryState(FIRM_KEY)?.isInvalidated).toBe(false);

    const view = client.getQueryData<FirmView>(FIRM_KEY);
    const main = view?.accounts[0];
    expect(main?.holdings).toEqual([
      { account: 'futures', currency: 'USDT', amount: '2000', value: '2000' },
      { account: 'spot', currency: 'BTC', amount: '0.5', value: '25000' },
      { account: 'spot', currency: 'USDT', amount: '1100', value: '1100' },
    ]);
    expect(main?.value).toBe('28100');
    expect(view?.total).toBe('38100');
    expect(view?.currencies).toEqual([
      { currency: 'BTC', amount: '0.5', value: '25000' },
      { currency: 'USDT', amount: '13100', value: '13100' },
    ]);
    // The sub-accounts are the same objects: nothing else re-renders.
    expect(view?.accounts[1]).toBe(subs[0]);
    expect(view?.accounts).toHaveLength(1_001);
  });

  it('a change that moved nothing yet, or of another profile, reads nothing', async () => {
    const { desk, client } = setUp();
    act(() => desk.emit('funding.depositChanged', deposit('TRACK', 'PEND')));
    act(() => desk.emit('funding.depositChanged', deposit('DONE', 'TRACK', 'testnet')));
    await act(() => vi.advanceTimersByTimeAsync(3_000));
    expect(desk.callsOf('balances.spot')).toHaveLength(0);
    expect(desk.callsOf('balances.firm')).toHaveLength(0);
    expect(client.getQueryData<FirmView>(FIRM_KEY)?.total).toBe('38000');
  });
});
