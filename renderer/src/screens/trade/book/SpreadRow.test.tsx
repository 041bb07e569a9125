import { cleanup, render, screen } from '@testing-library/react';
import type { ComponentProps } from 'react';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { BookLevel, PublicTrade } from '../../../../../shared/contract/trade';
import { BookRow } from './BookRow';
import { lastPriceOf } from './lastPrice';
import { OrderBook, type OrderBookProps } from './OrderBook';

// Counts renders of the book's price levels: a spy on the function inside the real memo(BookRow),
// which React calls for each render of a row (memo's own skipping stays the real one). A spy, not
// vi.mock, so this file shares the renderer workers' modules (vitest.config.ts); put back after.
const rowRender = vi.spyOn(BookRow as unknown as { type: (props: ComponentProps<typeof BookRow>) => unknown }, 'type');
afterAll(() => rowRender.mockRestore());

afterEach(cleanup);

const props = (over: Partial<OrderBookProps> = {}): OrderBookProps => ({
  book: {
    asks: [
      ['65000.2', '1.5'],
      ['65000.5', '2'],
    ] as BookLevel[],
    bids: [
      ['64999.9', '3'],
      ['64999.1', '1'],
    ] as BookLevel[],
  },
  base: 'BTC',
  quote: 'USDT',
  precision: 1,
  amountPrecision: 4,
  depth: 10,
  step: '0.1',
  onDepthChange: () => {},
  onStepChange: () => {},
  onPickPrice: () => {},
  ...over,
});

const trade = (id: number, price: string): PublicTrade => ({
  id: String(id),
  side: 'buy',
  price,
  amount: '0.1',
  createTimeMs: id,
});

describe('lastPriceOf', () => {
  it('compares the newest trade with the trade before; the same price keeps the last move', () => {
    expect(lastPriceOf([trade(3, '101'), trade(2, '100')], undefined)).toEqual({ price: '101', direction: 'up' });
    expect(lastPriceOf([trade(3, '99.5'), trade(2, '100')], undefined)).toEqual({ price: '99.5', direction: 'down' });
    expect(lastPriceOf([trade(3, '100.0'), trade(2, '100'), trade(1, '101')], undefined)).toEqual({
      price: '100.0',
      direction: 'down',
    });
    expect(lastPriceOf([trade(1, '100')], '99')).toEqual({ price: '100', direction: 'flat' });
  });

  it('falls back to the ticker’s last price, without a direction', () => {
    expect(lastPriceOf([], '65000.1')).toEqual({ price: '65000.1', direction: 'flat' });
    expect(lastPriceOf([], undefined)).toEqual({ price: undefined, direction: 'flat' });
  });
});

describe('the spread row', () => {
  it('shows the last price with its unit and direction, and the spread in the quote currency', () => {
    render(<OrderBook {...props({ lastPrice: '65000.1', lastDirection: 'up' })} />);
    const last = screen.getByTestId('book-last');
    expect(last.textContent).toBe('▲Last price up: 65,000.1 USDT');
    expect(last.getAttribute('data-direction')).toBe('up');
    expect(last.className).toContain('book-last-up');
    expect(screen.getByTestId('book-spread').textContent).toContain('Spread 0.3 USDT (0.0005%)');
  });

  it('colours a fall as down', () => {
    render(<OrderBook {...props({ lastPrice: '64999.9', lastDirection: 'down' })} />);
    const last = screen.getByTestId('book-last');
    expect(last.textContent).toBe('▼Last price down: 64,999.9 USDT');
    expect(last.className).toContain('book-last-down');
  });

  it('a new last price re-renders no price level', () => {
    const base = props({ lastPrice: '65000.1', lastDirection: 'up' });
    const { rerender } = render(<OrderBook {...base} />);
    expect(rowRender.mock.calls.length).toBeGreaterThanOrEqual(4);
    rowRender.mockClear();
    rerender(<OrderBook {...base} lastPrice="64999.9" lastDirection="down" />);
    expect(screen.getByTestId('book-last').textContent).toContain('64,999.9 USDT');
    expect(rowRender.mock.calls.length).toBe(0);
    // A changed level does re-render (the counter counts).
    rerender(
      <OrderBook
        {...base}
        lastPrice="64999.9"
        lastDirection="down"
        book={{ ...base.book, bids: [['64999.9', '2.5'] as BookLevel, ['64999.1', '1'] as BookLevel] }}
      />,
    );
    expect(rowRender.mock.calls.length).toBeGreaterThan(0);
  });
});
