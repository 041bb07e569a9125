import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BookLevel } from '../../../../../shared/contract/trade';
import { applyBookChange, type BookSides, diffBook } from '../../../../../shared/trade/book';
import { FLASH_MS } from './flashes';
import { OrderBook, type OrderBookProps } from './OrderBook';

afterEach(cleanup);

const book: BookSides = {
  asks: [
    ['100.1', '1.5'],
    ['100.2', '2'],
    ['100.3', '0.25'],
  ] as BookLevel[],
  bids: [
    ['99.9', '3'],
    ['99.8', '1'],
  ] as BookLevel[],
};

const props = (over: Partial<OrderBookProps> = {}): OrderBookProps => ({
  book,
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

const rowOf = (side: 'ask' | 'bid', price: string) =>
  screen.getAllByTestId(`book-${side}`).find((row) => row.getAttribute('data-price') === price)!;

describe('OrderBook', () => {
  it('shows asks above bids with the pair’s precision, totals and the spread', () => {
    render(<OrderBook {...props()} />);
    const asks = within(screen.getByTestId('book-asks')).getAllByRole('button');
    // Best ask is at the bottom of the ask block, next to the spread.
    expect(asks.map((a) => a.getAttribute('data-price'))).toEqual(['100.3', '100.2', '100.1']);
    const row = rowOf('ask', '100.2');
    expect(row.querySelector('.book-price')?.textContent).toBe('100.2');
    // Amounts as the formatter writes them (no padding zeros), padded with figure spaces to the
    // pair's amount decimals so the points line up in the monospace column.
    const amount = row.querySelector('.book-amount')?.textContent ?? '';
    expect(amount.trimEnd()).toBe('2');
    expect(amount).toHaveLength('2.0000'.length);
    // Running totals, a line per row in the rows' order (top ask first), drawn once per side.
    const totals = screen.getByTestId('book-asks').querySelector('.book-totals')?.textContent?.split('\n') ?? [];
    expect(totals.map((t) => t.trimEnd())).toEqual(['3.75', '3.5', '1.5']);
    expect(new Set(totals.map((t) => t.length))).toEqual(new Set(['3.7500'.length]));
    expect(screen.getByTestId('book-spread').textContent).toMatch(/0\.2/);
  });

  it('marks the levels of the person’s own open orders (grouped as the book groups) and says what marks and flashes mean', () => {
    const { rerender } = render(<OrderBook {...props({ mine: { buy: ['99.8'], sell: ['100.25'] } })} />);
    expect(rowOf('bid', '99.8').hasAttribute('data-mine')).toBe(true);
    expect(rowOf('bid', '99.8').getAttribute('aria-label')).toContain('your open order');
    expect(rowOf('bid', '99.9').hasAttribute('data-mine')).toBe(false);
    // An ask between two levels falls in the one above (asks round up, as the book groups them).
    expect(screen.getAllByTestId('book-ask').filter((r) => r.hasAttribute('data-mine'))).toEqual([
      rowOf('ask', '100.3'),
    ]);
    // Grouped by 0.5, an ask at 100.25 falls in the 100.5 level (asks round up).
    rerender(<OrderBook {...props({ step: '0.5', mine: { buy: ['99.8'], sell: ['100.25'] } })} />);
    expect(rowOf('ask', '100.5').hasAttribute('data-mine')).toBe(true);
    expect(rowOf('bid', '99.5').hasAttribute('data-mine')).toBe(true);
    expect(screen.getByTestId('book-legend').textContent).toBe(
      ' your open order at that price ·  the amount just changed',
    );
  });

  it('puts a clicked level’s price into the ticket', async () => {
    const onPickPrice = vi.fn();
    render(<OrderBook {...props({ onPickPrice })} />);
    await userEvent.click(screen.getByRole('button', { name: /Bid 99.8/ }));
    expect(onPickPrice).toHaveBeenCalledWith('99.8');
  });

  it('groups by the chosen tick multiple', () => {
    render(<OrderBook {...props({ step: '1' })} />);
    expect(screen.getAllByTestId('book-ask').map((r) => r.getAttribute('data-price'))).toEqual(['101']);
    expect(screen.getByTestId('book-ask').querySelector('.book-price')?.textContent).toBe('101.0');
    expect(screen.getByTestId('book-asks').querySelector('.book-totals')?.textContent?.trimEnd()).toBe('3.75');
  });

  it('flashes only the levels whose amount changed, briefly, and keeps the other rows’ elements', () => {
    vi.useFakeTimers();
    try {
      const { rerender } = render(<OrderBook {...props()} />);
      const untouched = rowOf('ask', '100.3');
      // Nothing flashes on the first load.
      expect(document.querySelectorAll('[data-flash]')).toHaveLength(0);
      const next: BookSides = {
        asks: [
          ['100.1', '1.5'],
          ['100.2', '2.5'],
          ['100.3', '0.25'],
        ],
        bids: book.bids,
      };
      const change = diffBook(book, next)!;
      act(() => rerender(<OrderBook {...props({ book: applyBookChange(book, change) })} />));
      expect(rowOf('ask', '100.2').hasAttribute('data-flash')).toBe(true);
      expect(rowOf('ask', '100.1').hasAttribute('data-flash')).toBe(false);
      expect(rowOf('ask', '100.3')).toBe(untouched);
      expect(untouched.hasAttribute('data-flash')).toBe(false);
      // A later change of another level lights it and leaves the first one lit until its time is up.
      act(() => vi.advanceTimersByTime(FLASH_MS / 2));
      const again = applyBookChange(next, { asks: [['100.1', '1']], bids: [] });
      act(() => rerender(<OrderBook {...props({ book: again })} />));
      expect(rowOf('ask', '100.1').hasAttribute('data-flash')).toBe(true);
      expect(rowOf('ask', '100.2').hasAttribute('data-flash')).toBe(true);
      // Once the book stops changing, every flash goes out.
      act(() => vi.advanceTimersByTime(FLASH_MS * 2));
      expect(document.querySelectorAll('[data-flash]')).toHaveLength(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('draws cumulative depth bars, the deepest row of the larger side full width', () => {
    render(<OrderBook {...props()} />);
    // Asks are shown top-down (deepest first): cumulative 3.75 of 4 (bids' 3 + 1) on top.
    const askBars = within(screen.getByTestId('book-asks')).getByTestId('depth-bars');
    expect(askBars.getAttribute('viewBox')).toBe('0 0 1 3');
    expect(askBars.querySelector('path')!.getAttribute('d')).toBe(
      'M1 0h-0.9375v1h0.9375zM1 1h-0.875v1h0.875zM1 2h-0.375v1h0.375z',
    );
    const bidBars = within(screen.getByTestId('book-bids')).getByTestId('depth-bars');
    expect(bidBars.querySelector('path')!.getAttribute('d')).toBe('M1 0h-0.75v1h0.75zM1 1h-1v1h1z');
  });

  it('is one tab stop, the best ask by default', async () => {
    render(<OrderBook {...props()} />);
    const tabbable = screen.getAllByRole('button').filter((row) => row.tabIndex === 0);
    expect(tabbable.map((row) => row.getAttribute('data-price'))).toEqual(['100.1']);
    screen.getByLabelText('Price grouping').focus();
    await userEvent.tab();
    expect(document.activeElement).toBe(rowOf('ask', '100.1'));
    await userEvent.tab();
    expect(document.activeElement?.closest('[data-testid="order-book"]')).toBeNull();
  });

  it('moves between levels with the arrow keys, Home and End, and Enter or Space picks the price', async () => {
    const onPickPrice = vi.fn();
    render(<OrderBook {...props({ onPickPrice })} />);
    rowOf('ask', '100.1').focus();
    // Down from the best ask crosses the spread to the best bid.
    await userEvent.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(rowOf('bid', '99.9'));
    expect(rowOf('bid', '99.9').tabIndex).toBe(0);
    expect(rowOf('ask', '100.1').tabIndex).toBe(-1);
    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    expect(document.activeElement).toBe(rowOf('bid', '99.8'));
    await userEvent.keyboard('{Home}');
    expect(document.activeElement).toBe(rowOf('ask', '100.3'));
    await userEvent.keyboard('{ArrowUp}');
    expect(document.activeElement).toBe(rowOf('ask', '100.3'));
    await userEvent.keyboard('{Enter}');
    expect(onPickPrice).toHaveBeenLastCalledWith('100.3');
    await userEvent.keyboard('{End}');
    expect(document.activeElement).toBe(rowOf('bid', '99.8'));
    await userEvent.keyboard(' ');
    expect(onPickPrice).toHaveBeenLastCalledWith('99.8');
    expect(screen.getAllByRole('button').filter((row) => row.tabIndex === 0)).toHaveLength(1);
  });

  it('keeps focus in the book when the focused level leaves it: the row now at its place takes it', () => {
    const { rerender } = render(<OrderBook {...props()} />);
    rowOf('bid', '99.9').focus();
    const next: BookSides = {
      asks: book.asks,
      bids: [
        ['99.8', '1'],
        ['99.7', '2'],
      ],
    };
    act(() => rerender(<OrderBook {...props({ book: next })} />));
    expect(document.activeElement).toBe(rowOf('bid', '99.8'));
    expect(rowOf('bid', '99.8').tabIndex).toBe(0);
  });

  it('cuts each side to the chosen depth', () => {
    render(<OrderBook {...props({ depth: 1 })} />);
    expect(screen.getAllByTestId('book-ask')).toHaveLength(1);
    expect(screen.getAllByTestId('book-bid')).toHaveLength(1);
  });
});
