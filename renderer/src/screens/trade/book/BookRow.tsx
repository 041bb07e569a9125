import { type FocusEvent, type KeyboardEvent, memo, useLayoutEffect, useRef } from 'react';
import type { RowFlashes } from './flashes';

export interface BookRowProps {
  side: 'ask' | 'bid';
  price: string;
  amount: string;
  onPick: (price: string) => void;
  /** Lights the row when its amount changes (the book's one RowFlashes). */
  flashes: RowFlashes;
  /** Whether this row is the book's one tab stop (roving tabindex, see OrderBook). */
  tabbable: boolean;
  onKeyDown: (event: KeyboardEvent<HTMLButtonElement>) => void;
  onFocus: (event: FocusEvent<HTMLButtonElement>) => void;
  onBlur: (event: FocusEvent<HTMLButtonElement>) => void;
  /** Id of the text telling how to move between levels. */
  hintId: string;
}

/**
 * One price level. Memoised and keyed by price by its parent, so a level whose numbers did not
 * change is not rendered again. What changes with every level above it — its depth bar and its
 * running total — is drawn once per side (DepthBars, BookTotals), not here.
 */
export const BookRow = memo(function BookRow({
  side,
  price,
  amount,
  onPick,
  flashes,
  tabbable,
  onKeyDown,
  onFocus,
  onBlur,
  hintId,
}: BookRowProps) {
  const row = useRef<HTMLButtonElement>(null);
  const shownAmount = useRef(amount);
  useLayoutEffect(() => {
    // A level that appears is not flashed (on the first load every level would be); one whose
    // amount changed is.
    if (shownAmount.current !== amount && row.current) flashes.light(row.current);
    shownAmount.current = amount;
  }, [amount, flashes]);
  useLayoutEffect(() => {
    const element = row.current;
    return () => {
      if (element) flashes.forget(element);
    };
  }, [flashes]);
  return (
    <button
      ref={row}
      type="button"
      className={`book-row book-${side}`}
      data-price={price}
      data-testid={`book-${side}`}
      aria-label={`${side === 'ask' ? 'Ask' : 'Bid'} ${price}, amount ${amount}; use this price`}
      aria-describedby={hintId}
      tabIndex={tabbable ? 0 : -1}
      onClick={() => onPick(price)}
      onKeyDown={onKeyDown}
      onFocus={onFocus}
      onBlur={onBlur}
    >
      <span className="book-price">{price}</span>
      <span className="book-amount">{amount}</span>
      {/* The running total is drawn by the side's BookTotals (one text for every row). */}
      <span className="book-total" />
    </button>
  );
});
