import { cleanup, render, screen } from '@testing-library/react';
import { type ComponentProps, memo } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BookLevel, PublicTrade } from '../../../../../shared/contract/trade';
import { lastPriceOf } from './lastPrice';
import { OrderBook, type OrderBookProps } from './OrderBook';

// Counts renders of the book's price levels (the real BookRow, rendered through a counting wrapper).
const rowRenders = vi.hoisted(() => ({ count: 0 }));
vi.mock('./BookRow', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./BookRow')>();
  const inner = (actual.BookRow as unknown as { type: (props: ComponentProps<typeof actual.BookRow>) => unknown }).type;
  return {
    ...actual,
    BookRow: memo((props: ComponentProps<typeof actual.BookRow>) => {
      rowRenders.count += 1;
      return inner(props) as ReturnType<typeof actual.BookRow>;
    }),
  };
});

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
    expect(rowRenders.count).toBeGreaterThanOrEqual(4);
    rowRenders.count = 0;
    rerender(<OrderBook {...base} lastPrice="64999.9" lastDirection="down" />);
    expect(screen.getByTestId('book-last').textContent).toContain('64,999.9 USDT');
    expect(rowRenders.count).toBe(0);
    // A changed level does re-render (the counter counts).
    rerender(
      <OrderBook
        {...base}
        lastPrice="64999.9"
        lastDirection="down"
        book={{ ...base.book, bids: [['64999.9', '2.5'] as BookLevel, ['64999.1', '1'] as BookLevel] }}
      />,
    );
    expect(rowRenders.count).toBeGreaterThan(0);
  });
});
