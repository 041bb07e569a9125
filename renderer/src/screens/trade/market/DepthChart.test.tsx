import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BookLevel } from '../../../../../shared/contract/trade';
import type { BookSides } from '../../../../../shared/trade/book';
import { depthCurve } from '../../../../../shared/trade/depth';
import { DEPTH_REDRAW_MS, DepthChart } from './DepthChart';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const book: BookSides = {
  asks: [
    ['100.1', '1.5'],
    ['100.2', '2'],
    ['100.4', '0.25'],
    ['103', '9'],
  ] as BookLevel[],
  bids: [
    ['99.9', '3'],
    ['99.8', '0.1'],
    ['99.5', '0.2'],
  ] as BookLevel[],
};

describe('depthCurve', () => {
  it('sums each side outwards from the mid, exactly, and keeps the same range on both sides', () => {
    const curve = depthCurve(book);
    expect(curve.mid).toBe('100');
    // The bids reach 0.5 below the mid; the asks are cut at 0.5 above it (103 is left out).
    expect(curve.domain).toEqual([99.5, 100.5]);
    expect(curve.points).toEqual([
      { price: 99.5, bids: 3.3 },
      { price: 99.8, bids: 3.1 },
      { price: 99.9, bids: 3 },
      { price: 100.1, asks: 1.5 },
      { price: 100.2, asks: 3.5 },
      { price: 100.4, asks: 3.75 },
    ]);
    expect(curve.bidTotal).toBe('3.3');
    expect(curve.askTotal).toBe('3.75');
    expect(curve.lowestBid).toBe('99.5');
    expect(curve.highestAsk).toBe('100.4');
  });

  it('adds decimals exactly (0.1 + 0.2 is 0.3)', () => {
    const curve = depthCurve({ asks: [], bids: [['2', '0.1'] as BookLevel, ['1', '0.2'] as BookLevel] });
    expect(curve.bidTotal).toBe('0.3');
    expect(curve.mid).toBeUndefined();
    expect(curve.askTotal).toBe('0');
  });

  it('an empty book is an empty curve', () => {
    expect(depthCurve({ asks: [], bids: [] }).points).toEqual([]);
  });
});

describe('DepthChart', () => {
  it('draws both sides with axes in units and writes the cumulative totals', () => {
    render(
      <DepthChart book={book} base="BTC" quote="USDT" precision={1} amountPrecision={4} width={480} height={220} />,
    );
    const chart = screen.getByTestId('depth-chart');
    expect(chart.getAttribute('data-points')).toBe('6');
    expect(screen.getByTestId('depth-bids').textContent).toBe('Bids 3.3 BTC down to 99.5 USDT');
    expect(screen.getByTestId('depth-asks').textContent).toBe('Asks 3.75 BTC up to 100.4 USDT');
    expect(screen.getByTestId('depth-mid').textContent).toBe('Mid 100.0 USDT');
    expect(chart.textContent).toContain('Price (USDT)');
    expect(chart.textContent).toContain('Size (BTC)');
    expect(chart.querySelectorAll('.recharts-area').length).toBe(2);
  });

  it('redraws at most four times a second, ending on the newest book', () => {
    vi.useFakeTimers();
    const { rerender } = render(
      <DepthChart book={book} base="BTC" quote="USDT" precision={1} amountPrecision={4} width={480} />,
    );
    // A burst of changes: the first shows on the next tick, the rest wait for the window.
    const withBid = (amount: string): BookSides => ({
      ...book,
      bids: [['99.9', amount] as BookLevel, ...book.bids.slice(1)],
    });
    rerender(<DepthChart book={withBid('4')} base="BTC" quote="USDT" precision={1} amountPrecision={4} width={480} />);
    act(() => vi.advanceTimersByTime(0));
    expect(screen.getByTestId('depth-bids').textContent).toContain('Bids 4.3 BTC');
    rerender(<DepthChart book={withBid('5')} base="BTC" quote="USDT" precision={1} amountPrecision={4} width={480} />);
    rerender(<DepthChart book={withBid('6')} base="BTC" quote="USDT" precision={1} amountPrecision={4} width={480} />);
    act(() => vi.advanceTimersByTime(DEPTH_REDRAW_MS - 50));
    expect(screen.getByTestId('depth-bids').textContent).toContain('Bids 4.3 BTC');
    act(() => vi.advanceTimersByTime(50));
    expect(screen.getByTestId('depth-bids').textContent).toContain('Bids 6.3 BTC');
  });
});
