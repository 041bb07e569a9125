import Decimal from 'decimal.js';
import { describe, expect, it, vi } from 'vitest';
import { classifyChange, OrdersWatcher } from './ordersWatcher';

const seen = (orders: [string, string][], balances = 'BTC:1|0,USDT:100|0') => ({ orders: new Map(orders), balances });

describe('classifyChange', () => {
  it('reports a fill when an open order vanished or shrank', () => {
    expect(classifyChange(seen([['1', '0.5']]), seen([]))).toBe('filled');
    expect(classifyChange(seen([['1', '0.5']]), seen([['1', '0.2']]))).toBe('filled');
  });

  it('reports a new order as placed', () => {
    expect(classifyChange(seen([]), seen([['2', '1']]))).toBe('placed');
  });

  it('catches an order placed and filled between two polls through the balances', () => {
    expect(classifyChange(seen([]), seen([], 'BTC:1.01|0,USDT:35|0'))).toBe('filled');
  });

  it('reports nothing when nothing changed', () => {
    expect(classifyChange(seen([['1', '0.5']]), seen([['1', '0.5']]))).toBeUndefined();
  });
});

describe('fill notices', () => {
  /** A platform order as the spot API returns it. */
  const order = (id: string, left: string, extra: object = {}) => ({
    id,
    text: `t-${id}`,
    currency_pair: 'BTC_USDT',
    side: 'buy',
    type: 'limit',
    price: '65000',
    amount: '0.01',
    left,
    filled_amount: new Decimal('0.01').minus(left).toFixed(),
    status: left === '0' ? 'closed' : 'open',
    finish_as: left === '0' ? 'filled' : 'open',
    ...extra,
  });

  /** Runs the watcher over a scripted sequence of polls and returns the fill events it sent. */
  const watch = async (polls: ReturnType<typeof order>[][], lookups: Record<string, ReturnType<typeof order>>) => {
    const events: { name: string; payload: { order: { id: string; left: string }; filledNow: string } }[] = [];
    let poll = 0;
    const spot = {
      listOrders: async () => polls[Math.min(poll++, polls.length - 1)] ?? [],
      accounts: async () => [],
      getOrder: async (id: string) => lookups[id] ?? Promise.reject(new Error('ORDER_NOT_FOUND')),
    };
    const watcher = new OrdersWatcher(
      () => spot as never,
      (name, payload) => {
        if (name === 'trade.orderFilled') events.push({ name, payload: payload as never });
      },
      5,
    );
    watcher.start('BTC_USDT');
    // Every scripted poll, plus one, has run (and its lookups answered) before looking.
    await vi.waitFor(() => expect(poll).toBeGreaterThan(polls.length + 1), { timeout: 5_000 });
    watcher.stop();
    return events.map((e) => [e.payload.order.id, e.payload.filledNow]);
  };

  it('a fill is told once, with the amount filled since the last notice', async () => {
    const polls = [[order('1', '0.01')], [order('1', '0.004')], []];
    const events = await watch(polls, { '1': order('1', '0') });
    // The read-back after the shrink already finds the order closed (it filled further meanwhile):
    // all 0.01 is told then, and when it leaves the list nothing is told twice.
    expect(events).toEqual([['1', '0.01']]);
  });

  it('an order cancelled elsewhere without trading is no fill', async () => {
    const polls = [[order('2', '0.01')], []];
    const events = await watch(polls, { '2': order('2', '0.01', { status: 'cancelled', finish_as: 'cancelled' }) });
    expect(events).toEqual([]);
  });
});

describe('fill notices, step by step', () => {
  it('a partial fill, then the rest: two notices with their own amounts', async () => {
    const order = (left: string) => ({
      id: '3',
      text: 't-3',
      currency_pair: 'BTC_USDT',
      side: 'sell',
      type: 'limit',
      price: '65000',
      amount: '0.01',
      left,
      status: left === '0' ? 'closed' : 'open',
    });
    const events: string[] = [];
    const lists = [[order('0.01')], [order('0.006')], []];
    const lookups = [order('0.006'), order('0')];
    let poll = 0;
    let lookup = 0;
    const spot = {
      listOrders: async () => lists[Math.min(poll++, lists.length - 1)],
      accounts: async () => [],
      getOrder: async () => lookups[Math.min(lookup++, lookups.length - 1)],
    };
    const watcher = new OrdersWatcher(
      () => spot as never,
      (name, payload) => {
        if (name === 'trade.orderFilled') events.push((payload as { filledNow: string }).filledNow);
      },
      5,
    );
    watcher.start('BTC_USDT');
    await vi.waitFor(() => expect(poll).toBeGreaterThan(lists.length + 1), { timeout: 5_000 });
    watcher.stop();
    expect(events).toEqual(['0.004', '0.006']);
  });
});

describe('fill notices for orders the app placed', () => {
  it('an order placed and filled between two polls is still told', async () => {
    const events: string[] = [];
    let poll = 0;
    const spot = {
      listOrders: async () => {
        poll++;
        return [];
      },
      accounts: async () => [],
      getOrder: async () => ({
        id: '9',
        text: 't-9',
        currency_pair: 'BTC_USDT',
        side: 'buy',
        type: 'limit',
        price: '65000',
        amount: '0.01',
        left: '0',
        status: 'closed',
      }),
    };
    const watcher = new OrdersWatcher(
      () => spot as never,
      (name, payload) => {
        if (name === 'trade.orderFilled') events.push((payload as { filledNow: string }).filledNow);
      },
      5,
    );
    watcher.start('BTC_USDT');
    await vi.waitFor(() => expect(poll).toBeGreaterThan(0));
    watcher.track('BTC_USDT', '9', '0.01');
    watcher.track('ETH_USDT', '10', '1'); // another pair: not followed here
    await vi.waitFor(() => expect(events).toEqual(['0.01']), { timeout: 5_000 });
    const after = poll;
    await vi.waitFor(() => expect(poll).toBeGreaterThan(after + 2));
    watcher.stop();
    expect(events).toEqual(['0.01']);
  });
});
