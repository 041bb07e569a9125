import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { Order, Pair } from '../../../../../shared/contract/trade';
import { installFakeDesk, renderWithQuery } from '../../../lib/testing/fakeDesk';
import { filterHistory, historyStatus, OrderHistory } from './OrderHistory';

afterEach(cleanup);

const pairOf = (id: string, precision: number, amountPrecision: number): Pair => {
  const [base = '', quote = ''] = id.split('_');
  return { id, base, quote, precision, amountPrecision, tradeStatus: 'tradable' };
};
const pairs = new Map([pairOf('BTC_USDT', 1, 6), pairOf('ETH_BTC', 5, 4)].map((p) => [p.id, p]));

const order = (over: Partial<Order>): Order => ({
  id: '1',
  text: 't-desk-1',
  pair: 'BTC_USDT',
  side: 'buy',
  type: 'limit',
  price: '64000',
  amount: '0.01',
  left: '0',
  filledAmount: '0.01',
  filledTotal: '640',
  avgDealPrice: '64000',
  fee: '0.00002',
  feeCurrency: 'BTC',
  timeInForce: 'gtc',
  status: 'closed',
  finishAs: 'filled',
  createTimeMs: 1_700_000_000_000,
  updateTimeMs: 1_700_000_001_000,
  ...over,
});

const filledBuy = order({});
const cancelledSell = order({
  id: '2',
  text: 't-desk-2',
  side: 'sell',
  price: '70000',
  left: '0.01',
  filledAmount: '0',
  filledTotal: '0',
  avgDealPrice: '0',
  fee: '0',
  feeCurrency: 'USDT',
  status: 'cancelled',
  finishAs: 'cancelled',
});
const partialSell = order({
  id: '3',
  text: 't-desk-3',
  side: 'sell',
  price: '65000.5',
  left: '0.004',
  filledAmount: '0.006',
  filledTotal: '390.003',
  avgDealPrice: '65000.5',
  fee: '0.780006',
  feeCurrency: 'USDT',
  status: 'cancelled',
  finishAs: 'cancelled',
});
const ethBtc = order({
  id: '4',
  text: 't-desk-4',
  pair: 'ETH_BTC',
  price: '0.04634',
  amount: '1.5',
  filledAmount: '1.5',
  filledTotal: '0.06951',
  avgDealPrice: '0.04634',
  fee: '0.003',
  feeCurrency: 'ETH',
});

const setup = () => {
  const desk = installFakeDesk({
    'trade.orderHistory': (input) =>
      [filledBuy, cancelledSell, partialSell, ethBtc].filter((o) => input.pair === undefined || o.pair === input.pair),
  });
  renderWithQuery(<OrderHistory pair="BTC_USDT" pairs={pairs} />);
  return desk;
};

const rowIds = () => screen.queryAllByTestId('history-order').map((r) => r.getAttribute('data-text'));
const cells = (text: string) =>
  within(screen.getAllByTestId('history-order').find((r) => r.getAttribute('data-text') === text)!)
    .getAllByRole('cell')
    .map((c) => c.textContent);

describe('historyStatus and filterHistory', () => {
  it('tells filled, partly filled and cancelled-with-nothing apart', () => {
    expect(historyStatus(filledBuy)).toBe('filled');
    expect(historyStatus(partialSell)).toBe('partial');
    expect(historyStatus(cancelledSell)).toBe('cancelled');
    const all = [filledBuy, cancelledSell, partialSell];
    expect(filterHistory(all, { side: 'sell', status: 'all' }).map((o) => o.id)).toEqual(['2', '3']);
    expect(filterHistory(all, { side: 'sell', status: 'partial' }).map((o) => o.id)).toEqual(['3']);
    expect(filterHistory(all, { side: 'all', status: 'filled' }).map((o) => o.id)).toEqual(['1']);
  });
});

describe('OrderHistory', () => {
  it('shows the screen’s pair with a pair column; the column titles name the units', async () => {
    const desk = setup();
    await waitFor(() => expect(rowIds()).toEqual(['t-desk-1', 't-desk-2', 't-desk-3']));
    expect(desk.callsOf('trade.orderHistory')).toEqual([{ pair: 'BTC_USDT', limit: 100 }]);
    const heads = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(heads).toEqual([
      'Finished (UTC)',
      'Pair',
      'Side',
      'Type',
      'Price (USDT)',
      'Amount (BTC)',
      'Filled (BTC)',
      'Avg price (USDT)',
      'Total (USDT)',
      'Fee (its currency)',
      'Outcome',
      'Client id',
    ]);
    const partial = cells('t-desk-3');
    // Prices at the tick, amounts without padding zeros, the total at the quote's display precision.
    expect(partial.slice(1, 10)).toEqual([
      'BTC / USDT',
      'Sell',
      'Limit GTC',
      '65,000.5',
      '0.01',
      '0.006',
      '65,000.5',
      '390',
      '0.780006 USDT',
    ]);
    // Nothing filled: no average price, no fee.
    expect(cells('t-desk-2').slice(7, 10)).toEqual(['—', '0', '—']);
    // The fee of a buy is in the base currency.
    expect(cells('t-desk-1')[9]).toBe('0.00002 BTC');
  });

  it('filters by side and status on the rows read', async () => {
    setup();
    await waitFor(() => expect(rowIds()).toHaveLength(3));
    await userEvent.selectOptions(screen.getByLabelText('Side'), 'sell');
    expect(rowIds()).toEqual(['t-desk-2', 't-desk-3']);
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'partial');
    expect(rowIds()).toEqual(['t-desk-3']);
    await userEvent.selectOptions(screen.getByLabelText('Side'), 'buy');
    expect(rowIds()).toEqual([]);
    expect(screen.getByText('No order matches this filter')).toBeTruthy();
  });

  it('all pairs: reads every pair, and each cell names its own currency', async () => {
    const desk = setup();
    await waitFor(() => expect(rowIds()).toHaveLength(3));
    await userEvent.selectOptions(screen.getByLabelText('Pair'), '*');
    await waitFor(() => expect(rowIds()).toEqual(['t-desk-1', 't-desk-2', 't-desk-3', 't-desk-4']));
    expect(desk.callsOf('trade.orderHistory')).toContainEqual({ limit: 100 });
    expect(screen.getByRole('columnheader', { name: 'Price (quote)' })).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'Amount (base)' })).toBeTruthy();
    expect(cells('t-desk-4').slice(1, 10)).toEqual([
      'ETH / BTC',
      'Buy',
      'Limit GTC',
      '0.04634 BTC',
      '1.5 ETH',
      '1.5 ETH',
      '0.04634 BTC',
      '0.06951 BTC',
      '0.003 ETH',
    ]);
    // One other pair.
    await userEvent.selectOptions(screen.getByLabelText('Pair'), 'ETH_BTC');
    await waitFor(() => expect(rowIds()).toEqual(['t-desk-4']));
    expect(screen.getByRole('columnheader', { name: 'Total (BTC)' })).toBeTruthy();
  });
});
