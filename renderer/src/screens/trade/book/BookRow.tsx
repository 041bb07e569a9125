import { type FocusEvent, type KeyboardEvent, memo, useLayoutEffect, useRef } from 'react';
import { type AmountScale, formatBase, formatPrice, type PriceScale } from '../../../lib/format';
import type { RowFlashes } from './flashes';

/** What the book writes its numbers with: the pair's tick and amount decimals. */
export type BookScale = PriceScale & AmountScale;

/**
 * A base amount as the book writes it: formatBase's text, then figure spaces (each as wide as a
 * digit in the book's monospace face) up to the pair's amount decimals, so the points line up in
 * the column without padding zeros in the text. One text per cell (BookTotals draws a whole column
 * as one text, so CSS padding per value is not possible there).
 */
export const bookAmount = (amount: string, scale: BookScale): string => {
  const text = formatBase(amount, scale);
  const dot = text.indexOf('.');
  const shown = dot < 0 ? 0 : text.length - dot - 1;
  const missing = scale.amountPrecision - shown;
  if (missing <= 0) return text;
  return `${text}${dot < 0 ? '\u2008' : ''}${'\u2007'.repeat(missing)}`;
};

export interface BookRowProps {
  side: 'ask' | 'bid';
  /** The level's price and amount as the book holds them (canonical decimals); written with `scale`. */
  price: string;
  amount: string;
  scale: BookScale;
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
  /** One of the person's open orders is at this level (marked, and said in its name). */
  mine?: boolean;
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
  scale,
  onPick,
  flashes,
  tabbable,
  onKeyDown,
  onFocus,
  onBlur,
  hintId,
  mine = false,
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
  const priceText = formatPrice(price, scale);
  const amountText = bookAmount(amount, scale);
  return (
    <button
      ref={row}
      type="button"
      className={`book-row book-${side}`}
      data-price={price}
      data-testid={`book-${side}`}
      data-mine={mine ? '' : undefined}
      aria-label={`${side === 'ask' ? 'Ask' : 'Bid'} ${priceText}, amount ${amountText.trimEnd()}${mine ? ', your open order' : ''}; use this price`}
      aria-describedby={hintId}
      tabIndex={tabbable ? 0 : -1}
      onClick={() => onPick(price)}
      onKeyDown={onKeyDown}
      onFocus={onFocus}
      onBlur={onBlur}
    >
      <span className="book-price">{priceText}</span>
      <span className="book-amount">{amountText}</span>
      {/* The running total is drawn by the side's BookTotals (one text for every row). */}
      <span className="book-total" />
    </button>
  );
});
