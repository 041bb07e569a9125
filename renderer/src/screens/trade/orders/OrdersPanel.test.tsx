import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_TRADE_SETTINGS,
  type Order,
  type Pair,
  type TradeAccount,
  type TradeSettings,
} from '../../../../../shared/contract/trade';
import { installFakeDesk, renderWithQuery } from '../../../lib/testing/fakeDesk';
import { OrdersPanel } from './OrdersPanel';

afterEach(cleanup);

const pair: Pair = {
  id: 'BTC_USDT',
  base: 'BTC',
  quote: 'USDT',
  precision: 1,
  amountPrecision: 6,
  minBaseAmount: '0.00001',
  minQuoteAmount: '3',
  tradeStatus: 'tradable',
};

/** A resting buy of 0.01 BTC at 64000: it locks 640 USDT. */
const order: Order = {
  id: '42',
  text: 't-desk-a',
  pair: 'BTC_USDT',
  side: 'buy',
  type: 'limit',
  price: '64000',
  amount: '0.01',
  left: '0.01',
  filledAmount: '0',
  filledTotal: '0',
  avgDealPrice: '0',
  fee: '0',
  feeCurrency: 'BTC',
  timeInForce: 'gtc',
  status: 'open',
  finishAs: 'open',
  createTimeMs: 1,
  updateTimeMs: 1,
};

const account: TradeAccount = {
  pair: 'BTC_USDT',
  base: { currency: 'BTC', available: '2', locked: '0' },
  quote: { currency: 'USDT', available: '1000', locked: '640' },
};

const openAmend = async (settings: Partial<TradeSettings> = {}) => {
  const desk = installFakeDesk({
    'trade.openOrders': () => [order],
    'trade.account': () => account,
    'trade.tickers': () => [],
    'trade.amendOrder': (input) => ({ ...order, ...(input as object) }),
  });
  renderWithQuery(
    <OrdersPanel
      pair="BTC_USDT"
      pairs={new Map([[pair.id, pair]])}
      settings={{ ...DEFAULT_TRADE_SETTINGS, ...settings }}
      live={{ pair: 'BTC_USDT', bestBid: '64990', bestAsk: '65010' }}
    />,
  );
  await userEvent.click(await screen.findByRole('button', { name: 'Amend order t-desk-a' }));
  // The balance is known before the checks are judged.
  await waitFor(() => expect(desk.callsOf('trade.account')).toHaveLength(1));
  return desk;
};

const fill = async (label: string, value: string) => {
  const input = screen.getByLabelText(label);
  await userEvent.clear(input);
  await userEvent.type(input, value);
};

const submit = () => screen.getByTestId('amend-submit') as HTMLButtonElement;

describe('AmendDialog checks', () => {
  it('refuses an amendment above the max notional per order and sends nothing', async () => {
    const desk = await openAmend({ maxNotional: '1000' });
    await fill('New amount', '1');
    expect(screen.getByTestId('amend-error').textContent).toMatch(/Above your limit of 1,000 USDT per order/);
    expect(submit().disabled).toBe(true);
    await userEvent.click(submit());
    expect(desk.callsOf('trade.amendOrder')).toEqual([]);
  });

  it('refuses more price decimals than the pair allows and an order below the minimum value', async () => {
    const desk = await openAmend();
    await fill('New price', '64000.55');
    expect(screen.getAllByText(/at most 1 decimals|at most 1 digit after the point/).length).toBeGreaterThan(0);
    await fill('New price', '100');
    expect(screen.getByTestId('amend-error').textContent).toMatch(/must be worth at least 3 USDT/);
    expect(submit().disabled).toBe(true);
    expect(desk.callsOf('trade.amendOrder')).toEqual([]);
  });

  it('refuses an increase the available balance cannot cover', async () => {
    await openAmend();
    // 0.03 × 64000 = 1920 locked after, 640 before: 1280 more than the 1000 available.
    await fill('New amount', '0.03');
    expect(screen.getByTestId('amend-error').textContent).toMatch(
      /1,000 USDT available; the change needs 1,280 USDT more/,
    );
    expect(submit().disabled).toBe(true);
  });

  it('asks before moving the price far from the mid, and sends once confirmed', async () => {
    const desk = await openAmend();
    await fill('New price', '50000');
    await userEvent.click(submit());
    expect(screen.getByTestId('amend-warnings').textContent).toMatch(/23.08% away from the mid \(65000\)/);
    expect(desk.callsOf('trade.amendOrder')).toEqual([]);
    expect(submit().textContent).toBe('Amend anyway');
    // Any edit asks again.
    await fill('New price', '50001');
    expect(screen.queryByTestId('amend-warnings')).toBeNull();
    await userEvent.click(submit());
    await userEvent.click(screen.getByRole('button', { name: 'Amend anyway' }));
    await waitFor(() =>
      expect(desk.callsOf('trade.amendOrder')).toEqual([{ pair: 'BTC_USDT', orderId: '42', price: '50001' }]),
    );
  });

  it('sends an amendment within the rules at once, with only the changed field', async () => {
    const desk = await openAmend({ maxNotional: '1000' });
    await fill('New amount', '0.015');
    await userEvent.click(submit());
    await waitFor(() =>
      expect(desk.callsOf('trade.amendOrder')).toEqual([{ pair: 'BTC_USDT', orderId: '42', amount: '0.015' }]),
    );
    await waitFor(() => expect(screen.queryByTestId('amend-dialog')).toBeNull());
  });
});
