import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { DeskOperation } from '../../../../../shared/contract';
import {
  DEFAULT_TRADE_SETTINGS,
  type Order,
  type OrderResult,
  type Pair,
  type TradeAccount,
  type TradeSettings,
  type TradeTerms,
} from '../../../../../shared/contract/trade';
import { DuplicateGuard } from '../../../../../shared/trade/ticket';
import type { Answer } from '../../../lib/testing/fakeDesk';
import { installFakeDesk, renderWithQuery } from '../../../lib/testing/fakeDesk';
import { enterText, setupUser } from '../../../lib/testing/user';
import { useTradeUi } from '../store';
import { OrderTicket } from './OrderTicket';
import { LOOKUP_EVERY_MS, SIGNATURE_WINDOW_MS } from './useUnconfirmedOrder';

afterEach(() => {
  cleanup();
  useTradeUi.setState({ unconfirmed: {} });
});

/** The person at the keyboard, a fresh one per test (lib/testing/user.ts: no hover before each click). */
let user = setupUser();
beforeEach(() => {
  user = setupUser();
});

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
const account: TradeAccount = {
  pair: 'BTC_USDT',
  base: { currency: 'BTC', available: '2', locked: '0' },
  quote: { currency: 'USDT', available: '100000', locked: '0' },
};
const terms: TradeTerms = { pair: 'BTC_USDT', makerFee: '0.001', takerFee: '0.002', stpGroupId: null };

const resting = (input: Record<string, string>): Order => ({
  id: '1',
  text: input.text ?? '',
  pair: 'BTC_USDT',
  side: 'buy',
  type: 'limit',
  price: input.price ?? '0',
  amount: input.amount ?? '0',
  left: input.amount ?? '0',
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
});

/** Main's answer for a placed order. */
const accepted = (order: Order): OrderResult => ({ outcome: 'accepted', text: order.text, order });

const setup = (
  over: {
    account?: TradeAccount;
    terms?: TradeTerms;
    settings?: Partial<TradeSettings>;
    guard?: DuplicateGuard;
    placeOrder?: Answer;
    findOrder?: Answer;
    /** Other operations (e.g. the open orders the result card follows). */
    answers?: Partial<Record<DeskOperation, Answer>>;
    /** Best bid and ask; none when the book is not known yet. */
    book?: { bestBid?: string; bestAsk?: string };
  } = {},
) => {
  const desk = installFakeDesk({
    'trade.placeOrder': over.placeOrder ?? ((input) => accepted(resting(input as Record<string, string>))),
    'trade.findOrder': over.findOrder ?? (() => null),
    ...over.answers,
  });
  renderWithQuery(
    <OrderTicket
      pair={pair}
      account={over.account ?? account}
      terms={over.terms ?? terms}
      settings={{ ...DEFAULT_TRADE_SETTINGS, ...over.settings }}
      bestBid={over.book ? over.book.bestBid : '64990'}
      bestAsk={over.book ? over.book.bestAsk : '65010'}
      picked={undefined}
      guard={over.guard ?? new DuplicateGuard()}
    />,
  );
  return desk;
};

/**
 * Puts `value` in the field in one change, as a paste does: each keystroke re-renders the whole
 * ticket, and most tests are about the value, not the typing. The first test types key by key.
 */
const fill = async (label: RegExp, value: string) => {
  const input = screen.getByLabelText(label);
  await user.clear(input);
  await enterText(input, value);
};
/** Types `value` key by key, as a person does (every intermediate text goes through the ticket). */
const typeKeys = async (label: RegExp, value: string) => {
  const input = screen.getByLabelText(label);
  await user.clear(input);
  await user.type(input, value);
};

describe('OrderTicket arithmetic', () => {
  it('links price × amount into the total, and a total back into a snapped amount', async () => {
    setup();
    await typeKeys(/^Price/, '65000.5');
    await typeKeys(/^Amount/, '0.01');
    expect((screen.getByLabelText(/^Total/) as HTMLInputElement).value).toBe('650.005');
    await typeKeys(/^Total/, '100');
    expect((screen.getByLabelText(/^Amount/) as HTMLInputElement).value).toBe('0.001538');
  });

  it('previews the maker fee of a resting buy in the base currency', async () => {
    setup();
    await fill(/^Price/, '64000');
    await fill(/^Amount/, '1');
    expect(screen.getByTestId('ticket-fee').textContent).toBe('≈ 0.001 BTC (maker rate 0.1%)');
  });
});

describe('OrderTicket checks before sending', () => {
  it('refuses more price decimals than the pair allows and sends nothing', async () => {
    const desk = setup();
    await fill(/^Price/, '65000.55');
    await fill(/^Amount/, '0.01');
    await user.click(screen.getByTestId('ticket-submit'));
    expect(screen.getAllByText(/at most 1 digit after the point|at most 1 decimals/).length).toBeGreaterThan(0);
    expect(desk.callsOf('trade.placeOrder')).toEqual([]);
  });

  it('refuses an order below min_quote_amount', async () => {
    const desk = setup();
    await fill(/^Price/, '100');
    await fill(/^Amount/, '0.01');
    await user.click(screen.getByTestId('ticket-submit'));
    expect(screen.getByText(/must be worth at least 3 USDT/)).toBeTruthy();
    expect(desk.callsOf('trade.placeOrder')).toEqual([]);
  });

  it('refuses an order above the max notional guard', async () => {
    const desk = setup({ settings: { maxNotional: '1000' } });
    await fill(/^Price/, '65000');
    await fill(/^Amount/, '0.1');
    await user.click(screen.getByTestId('ticket-submit'));
    expect(screen.getByText(/Above your limit of 1,000 USDT per order/)).toBeTruthy();
    expect(desk.callsOf('trade.placeOrder')).toEqual([]);
  });

  it('refuses a market sell under a max notional while no best bid values it', async () => {
    const desk = setup({ settings: { maxNotional: '1000' }, book: {} });
    await user.click(screen.getByRole('button', { name: 'Sell BTC' }));
    await user.click(screen.getByRole('button', { name: 'Market' }));
    await fill(/^Amount/, '0.01');
    await user.click(screen.getByTestId('ticket-submit'));
    expect(
      screen.getByText(/cannot be estimated, so your limit of 1,000 USDT per order cannot be checked/),
    ).toBeTruthy();
    expect(desk.callsOf('trade.placeOrder')).toEqual([]);
  });

  it('asks for confirmation when the price is far from the mid, and sends once confirmed', async () => {
    const desk = setup();
    await fill(/^Price/, '80000');
    await fill(/^Amount/, '0.01');
    await user.click(screen.getByTestId('ticket-submit'));
    const dialog = await screen.findByTestId('ticket-confirm');
    expect(dialog.textContent).toMatch(/23.08% away from the mid/);
    expect(desk.callsOf('trade.placeOrder')).toEqual([]);
    await user.click(screen.getByTestId('confirm-accept'));
    await waitFor(() => expect(desk.callsOf('trade.placeOrder')).toHaveLength(1));
    expect(desk.callsOf('trade.placeOrder')[0]).toMatchObject({
      pair: 'BTC_USDT',
      side: 'buy',
      type: 'limit',
      price: '80000',
      amount: '0.01',
      timeInForce: 'gtc',
      text: expect.stringMatching(/^t-/),
    });
    expect((await screen.findByTestId('ticket-outcome')).textContent).toMatch(/Resting on the book/);
  });

  it('warns about the same order within 10 seconds', async () => {
    const desk = setup();
    await fill(/^Price/, '65000');
    await fill(/^Amount/, '0.01');
    await user.click(screen.getByTestId('ticket-submit'));
    await waitFor(() => expect(desk.callsOf('trade.placeOrder')).toHaveLength(1));
    await user.click(screen.getByTestId('ticket-submit'));
    expect((await screen.findByTestId('ticket-warnings')).textContent).toMatch(/same order less than 10 seconds ago/);
    await user.click(screen.getByTestId('confirm-cancel'));
    expect(desk.callsOf('trade.placeOrder')).toHaveLength(1);
  });

  it('confirms every order when the setting is on', async () => {
    const desk = setup({ settings: { confirmOrders: true } });
    await fill(/^Price/, '65000');
    await fill(/^Amount/, '0.01');
    await user.click(screen.getByTestId('ticket-submit'));
    expect((await screen.findByTestId('ticket-confirm')).textContent).toMatch(/Buy 0.01 BTC at 65,000.0 USDT/);
    expect(desk.callsOf('trade.placeOrder')).toEqual([]);
  });
});

describe('OrderTicket choices', () => {
  it('offers only IOC and FOK for market orders and spends quote on a market buy', async () => {
    setup();
    await user.click(screen.getByRole('button', { name: 'Market' }));
    expect(screen.queryByLabelText(/^Price/)).toBeNull();
    expect(screen.getByLabelText(/^Spend \(USDT\)/)).toBeTruthy();
    const tif = screen.getByLabelText('Time in force') as HTMLSelectElement;
    expect([...tif.options].map((o) => o.value)).toEqual(['ioc', 'fok']);
  });

  it('shows the STP action only to a member of an STP group', () => {
    setup();
    expect(screen.queryByLabelText('Self-trade prevention')).toBeNull();
    cleanup();
    setup({ terms: { ...terms, stpGroupId: 7 } });
    expect(screen.getByLabelText('Self-trade prevention')).toBeTruthy();
  });

  it('shows the balance of the currency the order spends', async () => {
    setup();
    expect(screen.getByTestId('ticket-available').textContent).toBe('100,000 USDT');
    await user.click(screen.getByRole('button', { name: 'Sell BTC' }));
    expect(screen.getByTestId('ticket-available').textContent).toBe('2 BTC');
  });
});

// Main answers an unknown outcome as a value; a core that stopped while placing it answers
// OUTCOME_UNKNOWN (its supervisor): the ticket follows the order by its text either way.
describe.each([
  {
    way: 'main answers it unknown',
    placeOrder: ((input) => ({
      outcome: 'unknown',
      text: (input as { text: string }).text,
      note: 'The platform did not confirm the order.',
      requestId: 'td-9',
    })) as Answer,
  },
  {
    way: 'the core stopped while placing it',
    placeOrder: (() => {
      throw { code: 'OUTCOME_UNKNOWN', message: 'The core stopped.', requestId: 'td-9' };
    }) as Answer,
  },
])('OrderTicket after an unknown outcome ($way)', ({ placeOrder }) => {
  // The lookups' clock and interval are the test's: each next lookup comes when the test moves the
  // time (the other timers stay real, for the typing and the queries).
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  /** The time until the next lookup passes. */
  const nextLookup = () => act(() => vi.advanceTimersByTimeAsync(LOOKUP_EVERY_MS));

  const placeUnknown = async (findOrder: Answer) => {
    const desk = setup({ placeOrder, findOrder });
    await fill(/^Price/, '65000');
    await fill(/^Amount/, '0.01');
    await user.click(screen.getByTestId('ticket-submit'));
    const checking = await screen.findByTestId('ticket-checking');
    const text = (desk.callsOf('trade.placeOrder')[0] as { text: string }).text;
    return { desk, checking, text };
  };

  it('stays blocked while the order is looked for, and shows it once found', async () => {
    let onPlatform: Order | undefined;
    const { desk, checking, text } = await placeUnknown(() => onPlatform ?? null);
    expect(checking.textContent).toContain(`Checking whether order ${text} was placed…`);
    expect(checking.textContent).toContain('Request id td-9');
    expect((screen.getByTestId('ticket-submit') as HTMLButtonElement).disabled).toBe(true);
    expect(desk.callsOf('trade.findOrder')[0]).toEqual({ pair: 'BTC_USDT', text });

    onPlatform = resting({ text, price: '65000', amount: '0.01' });
    await nextLookup();
    expect((await screen.findByTestId('ticket-outcome')).textContent).toMatch(/Resting on the book/);
    expect(screen.queryByTestId('ticket-checking')).toBeNull();
    expect((screen.getByTestId('ticket-submit') as HTMLButtonElement).disabled).toBe(false);
    expect(desk.callsOf('trade.placeOrder')).toHaveLength(1);
  });

  it('lets the order be placed again only once a lookup after the signature window finds nothing', async () => {
    const { desk, text } = await placeUnknown(() => null);
    // A miss before the window has passed proves nothing.
    await waitFor(() => expect(desk.callsOf('trade.findOrder')).toHaveLength(1));
    await act(async () => {});
    expect(screen.getByTestId('ticket-checking')).toBeTruthy();
    await nextLookup();
    await waitFor(() => expect(desk.callsOf('trade.findOrder')).toHaveLength(2));
    await act(async () => {});
    expect(screen.getByTestId('ticket-checking')).toBeTruthy();

    vi.setSystemTime(Date.now() + SIGNATURE_WINDOW_MS);
    await nextLookup();
    const notFound = await screen.findByTestId('ticket-not-found');
    expect(notFound.textContent).toContain(`Not found: order ${text} was not placed.`);
    expect(notFound.textContent).toContain('You may place it again.');
    expect(screen.queryByTestId('ticket-checking')).toBeNull();
    expect((screen.getByTestId('ticket-submit') as HTMLButtonElement).disabled).toBe(false);
  });

  it('stops checking once the order is in the open orders, even while lookups get no answer', async () => {
    let listed: Order[] = [];
    const desk = setup({
      placeOrder,
      findOrder: () => {
        throw { code: 'INTERNAL', message: 'offline' };
      },
      answers: { 'trade.openOrders': () => listed },
    });
    await fill(/^Price/, '65000');
    await fill(/^Amount/, '0.01');
    await user.click(screen.getByTestId('ticket-submit'));
    await screen.findByTestId('ticket-checking');
    const text = (desk.callsOf('trade.placeOrder')[0] as { text: string }).text;
    // The stream told main of it: main says the open orders changed, the screen reads them again.
    listed = [resting({ text, price: '65000', amount: '0.01' })];
    desk.emit('trade.ordersChanged', { pair: 'BTC_USDT', reason: 'placed', orders: listed });
    await waitFor(() => expect(screen.queryByTestId('ticket-checking')).toBeNull());
    expect((screen.getByTestId('ticket-submit') as HTMLButtonElement).disabled).toBe(false);
  });

  it('keeps checking while lookups get no answer, even after the window', async () => {
    const { desk } = await placeUnknown(() => {
      throw { code: 'INTERNAL', message: 'offline' };
    });
    vi.setSystemTime(Date.now() + SIGNATURE_WINDOW_MS);
    await nextLookup();
    await waitFor(() => expect(desk.callsOf('trade.findOrder').length).toBeGreaterThan(1));
    await act(async () => {});
    expect(screen.getByTestId('ticket-checking')).toBeTruthy();
    expect((screen.getByTestId('ticket-submit') as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('OrderTicket after a placement main cannot read back', () => {
  it('says it was placed and not to place it again, with no order result and nothing to check', async () => {
    const desk = setup({
      placeOrder: (input) => ({
        outcome: 'accepted',
        text: (input as { text: string }).text,
        note: 'The order was placed (id 42), but it could not be read back. Do not place it again: it shows in Open orders or Order history.',
      }),
    });
    await fill(/^Price/, '65000');
    await fill(/^Amount/, '0.01');
    await user.click(screen.getByTestId('ticket-submit'));
    const text = (desk.callsOf('trade.placeOrder')[0] as { text: string }).text;
    const notice = await screen.findByTestId('ticket-placed-unread');
    expect(notice.textContent).toContain(`Order ${text} placed`);
    expect(notice.textContent).toContain('Do not place it again');
    expect(screen.queryByTestId('ticket-outcome')).toBeNull();
    expect(screen.queryByTestId('ticket-checking')).toBeNull();
    expect(desk.callsOf('trade.findOrder')).toEqual([]);
  });
});

describe('OrderTicket: issue 13 — units, totals and the live result', () => {
  const value = (label: RegExp) => (screen.getByLabelText(label) as HTMLInputElement).value;

  it('Limit → Market does not carry the BTC amount into "Spend (USDT)": the limit total becomes the spend', async () => {
    setup();
    await fill(/^Price/, '64000');
    await fill(/^Amount/, '0.01');
    expect(value(/^Total/)).toBe('640');
    await user.click(screen.getByRole('button', { name: 'Market' }));
    expect(value(/^Spend \(USDT\)/)).toBe('640');
    await user.click(screen.getByRole('button', { name: 'Limit' }));
    // Back from the spend: the amount is recomputed from it, cut to the pair's 6 decimals.
    expect(value(/^Amount/)).toBe('0.010000');
    expect(value(/^Total/)).toBe('640');
  });

  it('Limit → Market with no total clears the amount instead of reading BTC as USDT', async () => {
    setup();
    await fill(/^Amount/, '0.5');
    await user.click(screen.getByRole('button', { name: 'Market' }));
    expect(value(/^Spend \(USDT\)/)).toBe('');
  });

  it('the total never stays stale: clearing the price clears the 64,000,000,000 total', async () => {
    setup();
    await fill(/^Price/, '64000');
    await fill(/^Amount/, '1000000');
    expect(value(/^Total/)).toBe('64000000000');
    await user.clear(screen.getByLabelText(/^Price/));
    expect(value(/^Total/)).toBe('');
    await fill(/^Price/, '64000');
    await fill(/^Amount/, '0.01');
    expect(value(/^Total/)).toBe('640');
  });

  it('25/50/75/100 % fill the field from what is available', async () => {
    setup();
    await fill(/^Price/, '50000');
    await user.click(screen.getByTestId('ticket-share-25'));
    expect(value(/^Total/)).toBe('25000');
    expect(value(/^Amount/)).toBe('0.500000');
    await user.click(screen.getByRole('button', { name: 'Sell BTC' }));
    await user.click(screen.getByTestId('ticket-share-100'));
    expect(value(/^Amount/)).toBe('2');
  });

  it('says which field a new price leaves alone, and after a % button keeps the amount', async () => {
    setup();
    await fill(/^Price/, '50000');
    await user.click(screen.getByTestId('ticket-share-50'));
    expect(value(/^Amount/)).toBe('1.000000');
    expect(screen.getByTestId('ticket-anchor').textContent).toBe('A new price keeps the amount and changes the total.');
    await fill(/^Price/, '1,000.5');
    expect(value(/^Amount/)).toBe('1.000000');
    expect(value(/^Total/)).toBe('1000.5');
    await fill(/^Total/, '500');
    expect(screen.getByTestId('ticket-anchor').textContent).toBe('You set the total: a new price changes the amount.');
  });

  it('the result card follows the order: amended, then cancelled — never "Resting on the book" after', async () => {
    let open: Order[] = [];
    let history: Order | null = null;
    const desk = setup({
      placeOrder: (input) => {
        const order = { ...resting(input as Record<string, string>), updateTimeMs: 10 };
        open = [order];
        return accepted(order);
      },
      findOrder: () => history,
      answers: { 'trade.openOrders': () => open },
    });
    await fill(/^Price/, '65000');
    await fill(/^Amount/, '0.01');
    await user.click(screen.getByTestId('ticket-submit'));
    expect((await screen.findByTestId('ticket-outcome')).textContent).toMatch(/Resting on the book: buy 0.01 BTC/);

    // Amended in the orders panel: the open order now rests at another price.
    const placed = open[0]!;
    open = [{ ...placed, price: '64000', updateTimeMs: 20 }];
    act(() => desk.emit('trade.ordersChanged', { pair: 'BTC_USDT', reason: 'amended' }));
    await waitFor(() => expect(screen.getByTestId('ticket-outcome').textContent).toMatch(/at 64,000 USDT/));

    // Then cancelled: it leaves the open orders and is read back by its client id.
    history = { ...placed, price: '64000', status: 'cancelled', finishAs: 'cancelled', updateTimeMs: 30 };
    open = [];
    act(() => desk.emit('trade.ordersChanged', { pair: 'BTC_USDT', reason: 'cancelled' }));
    await waitFor(() => expect(screen.getByTestId('ticket-outcome').textContent).toMatch(/Cancelled\./));
    expect(screen.getByTestId('ticket-outcome').textContent).not.toMatch(/Resting on the book/);
    expect(desk.callsOf('trade.findOrder').at(-1)).toMatchObject({ pair: 'BTC_USDT', text: placed.text });
  });
});

describe('OrderTicket refused for pacing', () => {
  it('TOO_MANY_REQUESTS shows the placement window and the exact wait', async () => {
    // The countdown's clock is the test's (the other timers stay real, for the typing and the queries).
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    setup({
      placeOrder: () => {
        throw { code: 'PLATFORM', label: 'TOO_MANY_REQUESTS', message: 'Too many requests.', delivery: 'not_sent' };
      },
    });
    await fill(/^Price/, '65000');
    await fill(/^Amount/, '0.01');
    await user.click(screen.getByTestId('ticket-submit'));
    const line = await screen.findByTestId('retry-countdown');
    expect(line.textContent).toBe(
      'The platform accepts 10 order placements or amendments per pair every 1 s. You can try again in 1 s.',
    );
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(screen.getByTestId('countdown').textContent).toBe('You can try again now.');
  });
});

describe('OrderTicket: a post-only order that would take, either way the platform answers', () => {
  const placeAtTheAsk = async () => {
    await fill(/^Price/, '65010');
    await fill(/^Amount/, '0.01');
    await user.selectOptions(screen.getByLabelText(/Time in force/), 'poc');
    await user.click(screen.getByTestId('ticket-submit'));
  };

  it('stored and cancelled (finish_as=poc): a warning that nothing traded, not a success', async () => {
    setup({
      placeOrder: (input) =>
        accepted({
          ...resting(input as Record<string, string>),
          timeInForce: 'poc',
          status: 'cancelled',
          finishAs: 'poc',
        }),
    });
    await placeAtTheAsk();
    const outcome = await screen.findByTestId('ticket-outcome');
    expect(outcome.textContent).toMatch(/Post-only: the order would have traded at once, so it was cancelled/);
    expect(outcome.className).toContain('notice-warn');
    expect(outcome.className).not.toContain('notice-good');
  });

  it('refused (POC_FILL_IMMEDIATELY): the refusal, and no order result', async () => {
    setup({
      placeOrder: () => {
        throw {
          code: 'PLATFORM',
          label: 'POC_FILL_IMMEDIATELY',
          message: 'A post-only order would have traded at once, so it was refused.',
          advice: 'Move the price away from the other side of the book or use another time in force.',
          delivery: 'not_sent',
        };
      },
    });
    await placeAtTheAsk();
    const result = screen.getByTestId('ticket-result');
    await waitFor(() => expect(result.textContent).toMatch(/post-only order would have traded at once/i));
    expect(screen.queryByTestId('ticket-outcome')).toBeNull();
  });
});
