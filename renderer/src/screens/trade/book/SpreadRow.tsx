import { memo } from 'react';
import { formatPercent, formatPrice, isDecimalString, type PriceScale } from '../../../lib/format';
import type { PriceDirection } from './lastPrice';

export interface SpreadRowProps {
  /** Last traded price (quote currency) and its move against the trade before. */
  lastPrice: string | undefined;
  lastDirection: PriceDirection;
  /** The pair's tick and quote: the last price and the spread are prices. */
  scale: PriceScale;
  spread: string | undefined;
  /** Spread ÷ mid. */
  spreadRatio: string | undefined;
  /** What to say when there is no spread. */
  emptyText: string;
}

const ARROW: Record<PriceDirection, string> = { up: '▲', down: '▼', flat: '' };
const WORDS: Record<PriceDirection, string> = { up: 'up', down: 'down', flat: 'unchanged' };

/**
 * Between the asks and the bids: the last price, coloured up or down against the previous trade,
 * and the spread. Memoised on plain strings: a new last price re-renders this row only, never the
 * book's price levels (they are memoised BookRows whose props do not change with it).
 */
export const SpreadRow = memo(function SpreadRow({
  lastPrice,
  lastDirection,
  scale,
  spread,
  spreadRatio,
  emptyText,
}: SpreadRowProps) {
  return (
    <div className="book-spread" data-testid="book-spread">
      {lastPrice !== undefined ? (
        <span
          className={`book-last book-last-${lastDirection}`}
          data-testid="book-last"
          data-direction={lastDirection}
          title={`Last trade price, ${WORDS[lastDirection]} against the trade before`}
        >
          <span aria-hidden="true" className="book-last-arrow">
            {ARROW[lastDirection]}
          </span>
          <span className="sr-only">Last price {WORDS[lastDirection]}: </span>
          <span className="num">
            {isDecimalString(lastPrice) ? formatPrice(lastPrice, scale, { unit: true }) : '—'}
          </span>
        </span>
      ) : null}
      {spread !== undefined ? (
        <span className="book-spread-size">
          Spread <span className="num">{formatPrice(spread, scale, { unit: true })}</span>
          {spreadRatio !== undefined ? <span className="num"> ({formatPercent(spreadRatio, 4)})</span> : null}
        </span>
      ) : (
        <span>{emptyText}</span>
      )}
    </div>
  );
});
