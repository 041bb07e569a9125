import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { BOOK_DEPTHS } from '../../../../../shared/contract/trade';
import { type BookSides, buildBookView, groupingSteps } from '../../../../../shared/trade/book';
import { BookRow } from './BookRow';
import { DepthBars } from './DepthBars';
import { RowFlashes } from './flashes';
import './orderBook.css';

export interface OrderBookProps {
  book: BookSides;
  base: string;
  quote: string;
  /** The pair's price precision (its tick is 10^-precision). */
  precision: number;
  amountPrecision: number;
  depth: number;
  /** Group step, one of groupingSteps(precision). */
  step: string;
  onDepthChange: (depth: number) => void;
  onStepChange: (step: string) => void;
  /** A level was clicked: its price goes into the ticket. */
  onPickPrice: (price: string) => void;
  /** Shown above the book, e.g. "Live" or "Stale – reconnecting". */
  status?: string;
}

/** The live order book: asks above (best at the bottom), the spread, bids below (best on top). */
export function OrderBook(props: OrderBookProps) {
  const { book, base, quote, precision, amountPrecision, depth, step, onPickPrice } = props;
  const view = useMemo(
    () => buildBookView(book, { step, depth, precision, amountPrecision }),
    [book, step, depth, precision, amountPrecision],
  );
  // A stable click handler so memoised rows are not re-rendered because the parent re-rendered.
  const pick = useRef(onPickPrice);
  pick.current = onPickPrice;
  const onPick = useCallback((price: string) => pick.current(price), []);
  const [flashes] = useState(() => new RowFlashes());
  useEffect(() => () => flashes.dispose(), [flashes]);
  // After every commit: rows lit more than FLASH_MS ago go out in this same frame.
  useLayoutEffect(() => flashes.expire());
  const steps = useMemo(() => groupingSteps(precision), [precision]);
  const asksTopDown = useMemo(() => [...view.asks].reverse(), [view.asks]);
  const askDepths = useMemo(() => asksTopDown.map((row) => row.depth), [asksTopDown]);
  const bidDepths = useMemo(() => view.bids.map((row) => row.depth), [view.bids]);

  return (
    <section className="order-book" aria-label="Order book" data-testid="order-book">
      <div className="book-controls">
        <label>
          Depth{' '}
          <select
            aria-label="Levels per side"
            value={depth}
            onChange={(e) => props.onDepthChange(Number(e.target.value))}
          >
            {BOOK_DEPTHS.map((d) => (
              <option key={d} value={d}>
                {d}
              </option>
            ))}
          </select>
        </label>
        <label>
          Group{' '}
          <select aria-label="Price grouping" value={step} onChange={(e) => props.onStepChange(e.target.value)}>
            {steps.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        {props.status ? (
          <span className="book-status" role="status">
            {props.status}
          </span>
        ) : null}
      </div>
      <div className="book-head" aria-hidden="true">
        <span>Price ({quote})</span>
        <span>Amount ({base})</span>
        <span>Total ({base})</span>
      </div>
      <div className="book-side book-side-asks" data-testid="book-asks">
        <DepthBars depths={askDepths} />
        {asksTopDown.map((row) => (
          <BookRow
            key={row.price}
            side="ask"
            price={row.price}
            amount={row.amount}
            total={row.total}
            onPick={onPick}
            flashes={flashes}
          />
        ))}
      </div>
      <div className="book-spread" data-testid="book-spread">
        {view.spread !== undefined ? (
          <>
            Spread <span className="num">{view.spread}</span>
            {view.spreadPercent !== undefined ? <span className="num"> ({view.spreadPercent}%)</span> : null}
          </>
        ) : (
          <span>{view.asks.length + view.bids.length === 0 ? 'The book is empty' : 'One side is empty'}</span>
        )}
      </div>
      <div className="book-side book-side-bids" data-testid="book-bids">
        <DepthBars depths={bidDepths} />
        {view.bids.map((row) => (
          <BookRow
            key={row.price}
            side="bid"
            price={row.price}
            amount={row.amount}
            total={row.total}
            onPick={onPick}
            flashes={flashes}
          />
        ))}
      </div>
    </section>
  );
}
