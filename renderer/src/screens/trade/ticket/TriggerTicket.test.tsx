import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_TRADE_SETTINGS, type Pair, type TriggerOrder } from '../../../../../shared/contract/trade';
import { DuplicateGuard } from '../../../../../shared/trade/ticket';
import { installFakeDesk, renderWithQuery } from '../../../lib/testing/fakeDesk';
import { enterText } from '../../../lib/testing/user';
import { TriggerOrders } from '../orders/TriggerOrders';
import { TriggerTicket } from './TriggerTicket';

afterEach(() => cleanup());

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

const trigger = (over: Partial<TriggerOrder> = {}): TriggerOrder => ({
  id: '20000001',
  pair: 'BTC_USDT',
  rule: '<=',
  triggerPrice: '60000',
  side: 'sell',
  type: 'limit',
  price: '59900',
  amount: '0.01',
  timeInForce: 'gtc',
  text: 't-stop-1',
  status: 'open',
  reason: '',
  firedOrderId: null,
  createTimeMs: 1_700_000_000_000,
  expiresAtMs: 1_700_086_400_000,
  finishTimeMs: null,
  ...over,
});

/** Puts `value` in the field as one change (lib/testing/user.ts): the tests are about the values. */
const fill = async (label: RegExp, value: string) => {
  const input = screen.getByLabelText(label);
  await userEvent.clear(input);
  await enterText(input, value);
};

const setupTicket = (over: { last?: string; confirmOrders?: boolean; refuse?: boolean } = {}) => {
  const desk = installFakeDesk({
    'trade.placeTrigger': (i) => {
      if (over.refuse)
        throw { code: 'PLATFORM', label: 'TOO_MANY_REQUESTS', message: 'Too many requests.', delivery: 'not_sent' };
      return trigger({ rule: i.rule, triggerPrice: i.triggerPrice, price: i.price ?? '', text: i.text as string });
    },
  });
  renderWithQuery(
    <TriggerTicket
      pair={pair}
      settings={{ ...DEFAULT_TRADE_SETTINGS, confirmOrders: over.confirmOrders ?? false }}
      last={over.last}
      guard={new DuplicateGuard()}
    />,
  );
  return desk;
};

describe('TriggerTicket', () => {
  it('derives the rule from side and kind and says it in words', async () => {
    setupTicket();
    // Default: stop-loss sell waits for the price to fall.
    expect(screen.getByLabelText(/When the last price falls to or below/)).toBeTruthy();
    await userEvent.click(screen.getByTestId('trigger-kind-takeProfit'));
    expect(screen.getByLabelText(/When the last price rises to or above/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Buy BTC' }));
    expect(screen.getByTestId('trigger-kind-takeProfit').textContent).toBe('Buy the dip');
    expect(screen.getByLabelText(/When the last price falls to or below/)).toBeTruthy();
    await userEvent.click(screen.getByTestId('trigger-kind-stop'));
    expect(screen.getByLabelText(/When the last price rises to or above/)).toBeTruthy();
  });

  it('checks the trigger price and the order inline and sends nothing when wrong', async () => {
    const desk = setupTicket();
    await fill(/When the last price/, '60000.25');
    await fill(/^Limit price/, '59900');
    await fill(/^Amount/, '0.00001');
    await userEvent.click(screen.getByTestId('trigger-submit'));
    expect(screen.getAllByText(/at most 1 (decimals|digit after the point)/).length).toBeGreaterThan(0);
    expect(screen.getByText(/must be worth at least 3 USDT/)).toBeTruthy();
    expect(desk.callsOf('trade.placeTrigger')).toEqual([]);
  });

  it('places a stop-loss sell with a t- client id and shows it waiting', async () => {
    const desk = setupTicket({ last: '65000' });
    await fill(/When the last price/, '60000');
    await fill(/^Limit price/, '59900');
    await fill(/^Amount/, '0.01');
    await userEvent.click(screen.getByTestId('trigger-submit'));
    await waitFor(() => expect(desk.callsOf('trade.placeTrigger')).toHaveLength(1));
    const sent = desk.callsOf('trade.placeTrigger')[0] as Record<string, unknown>;
    expect(sent).toMatchObject({
      pair: 'BTC_USDT',
      rule: '<=',
      triggerPrice: '60000',
      side: 'sell',
      type: 'limit',
      price: '59900',
      amount: '0.01',
      expiresInSeconds: 86_400,
    });
    expect(sent.text).toMatch(/^t-/);
    const outcome = await screen.findByTestId('trigger-outcome');
    expect(outcome.textContent).toContain('falls to or below 60,000.0 USDT');
    expect(outcome.textContent).toContain('Sell 0.01 BTC at 59,900.0 USDT');
  });

  it('asks first when the last price already meets the trigger', async () => {
    const desk = setupTicket({ last: '59000' });
    await fill(/When the last price/, '60000');
    await fill(/^Limit price/, '59900');
    await fill(/^Amount/, '0.01');
    await userEvent.click(screen.getByTestId('trigger-submit'));
    expect((await screen.findByTestId('trigger-warnings')).textContent).toContain('fire at once');
    expect(desk.callsOf('trade.placeTrigger')).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Place anyway' }));
    await waitFor(() => expect(desk.callsOf('trade.placeTrigger')).toHaveLength(1));
  });

  it('a TOO_MANY_REQUESTS refusal shows the allowance and the exact wait, as for an order', async () => {
    setupTicket({ last: '65000', refuse: true });
    await fill(/When the last price/, '60000');
    await fill(/^Limit price/, '59900');
    await fill(/^Amount/, '0.01');
    await userEvent.click(screen.getByTestId('trigger-submit'));
    const line = await screen.findByTestId('retry-countdown');
    // Trigger orders count among the platform's other spot endpoints.
    expect(line.textContent).toBe('The platform accepts 200 requests every 10 s. You can try again in 10 s.');
  });
});

describe('TriggerOrders', () => {
  it('lists open triggers in words with a cancel button, and finished ones with their outcome', async () => {
    const desk = installFakeDesk({
      'trade.triggerOrders': (input) =>
        (input as { status: string }).status === 'open'
          ? [trigger()]
          : [
              trigger({ id: '2', status: 'fired', firedOrderId: '1000000042', finishTimeMs: 1_700_000_100_000 }),
              trigger({ id: '3', status: 'failed', reason: 'BALANCE_NOT_ENOUGH: Not enough balance' }),
            ],
      'trade.cancelTrigger': () => trigger({ status: 'cancelled' }),
    });
    renderWithQuery(<TriggerOrders pair="BTC_USDT" pairs={new Map([[pair.id, pair]])} />);
    const row = await screen.findByTestId('open-trigger');
    expect(row.textContent).toContain('Last price falls to or below 60,000.0 USDT');
    expect(row.textContent).toContain('Sell 0.01 BTC at 59,900.0 USDT');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel trigger t-stop-1' }));
    await waitFor(() => expect(desk.callsOf('trade.cancelTrigger')).toEqual([{ id: '20000001' }]));

    await userEvent.click(screen.getByRole('tab', { name: 'Finished triggers' }));
    const rows = await screen.findAllByTestId('finished-trigger');
    expect(rows[0]?.textContent).toContain('Fired: order placed (order 1000000042)');
    expect(rows[1]?.textContent).toContain('Failed: order refused — not enough balance when it fired');
  });
});
