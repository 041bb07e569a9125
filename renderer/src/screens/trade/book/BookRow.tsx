import { memo, useRef } from 'react';

export interface BookRowProps {
  side: 'ask' | 'bid';
  price: string;
  amount: string;
  total: string;
  /** Cumulative depth as a fraction 0..1 (drawn with a CSS transform, no layout). */
  depth: number;
  onPick: (price: string) => void;
}

/**
 * One price level. Memoised and keyed by price by its parent, so a level whose numbers did not
 * change is not rendered again. A changed amount flashes through a CSS animation: the row switches
 * between two identical keyframe names, which restarts the animation without any timer or state.
 */
export const BookRow = memo(function BookRow({ side, price, amount, total, depth, onPick }: BookRowProps) {
  const previous = useRef<{ amount: string; flash: '' | 'a' | 'b' }>({ amount, flash: '' });
  if (previous.current.amount !== amount) {
    previous.current = { amount, flash: previous.current.flash === 'a' ? 'b' : 'a' };
  }
  const flash = previous.current.flash;
  return (
    <button
      type="button"
      className={`book-row book-${side}`}
      data-flash={flash || undefined}
      data-price={price}
      data-testid={`book-${side}`}
      aria-label={`${side === 'ask' ? 'Ask' : 'Bid'} ${price}, amount ${amount}; use this price`}
      onClick={() => onPick(price)}
    >
      {/* Only this element's transform changes with depth: one element restyled, no layout. */}
      <span className="book-depth" style={{ transform: `scaleX(${depth})` }} aria-hidden="true" />
      <span className="book-price">{price}</span>
      <span className="book-amount">{amount}</span>
      <span className="book-total">{total}</span>
    </button>
  );
});
