import { memo } from 'react';
import { type BookScale, bookAmount } from './BookRow';

export interface DepthBarsProps {
  /** Cumulative depth (0..1) of each row, in the order the rows are shown. */
  depths: readonly number[];
}

/**
 * The cumulative depth bars of one side, drawn as ONE svg path behind its rows: an update changes
 * one attribute instead of restyling a bar element per row (100 style changes at 20 updates/s).
 * Each row is one unit tall in the viewBox; bars grow from the right edge.
 */
export const DepthBars = memo(function DepthBars({ depths }: DepthBarsProps) {
  let path = '';
  depths.forEach((depth, row) => {
    if (depth > 0) path += `M1 ${row}h-${depth}v1h${depth}z`;
  });
  return (
    <svg
      className="book-depth"
      data-testid="depth-bars"
      viewBox={`0 0 1 ${Math.max(1, depths.length)}`}
      preserveAspectRatio="none"
      aria-hidden="true"
      focusable="false"
    >
      <path d={path} />
    </svg>
  );
}, sameDepths);

function sameDepths(a: DepthBarsProps, b: DepthBarsProps): boolean {
  if (a.depths.length !== b.depths.length) return false;
  return a.depths.every((depth, i) => depth === b.depths[i]);
}

export interface BookTotalsProps {
  /** The running total of each row, in the order the rows are shown (canonical decimals). */
  totals: readonly string[];
  scale: BookScale;
}

/**
 * The running totals of one side as ONE text (a line per row) over the rows' last column: a change
 * of one level moves the total of every row below it, and this redraws one text node instead of
 * re-rendering each of those rows.
 */
export const BookTotals = memo(function BookTotals({ totals, scale }: BookTotalsProps) {
  return (
    <div className="book-totals" aria-hidden="true">
      {totals.map((total) => bookAmount(total, scale)).join('\n')}
    </div>
  );
}, sameTotals);

function sameTotals(a: BookTotalsProps, b: BookTotalsProps): boolean {
  if (a.scale !== b.scale || a.totals.length !== b.totals.length) return false;
  return a.totals.every((total, i) => total === b.totals[i]);
}
