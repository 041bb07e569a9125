import Decimal from 'decimal.js';
import {
  type FocusEvent,
  type KeyboardEvent,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { BOOK_DEPTHS } from '../../../../../shared/contract/trade';
import { type BookSides, buildBookView, groupingSteps } from '../../../../../shared/trade/book';
import { BookRow } from './BookRow';
import { BookTotals, DepthBars } from './DepthBars';
import { RowFlashes } from './flashes';
import type { PriceDirection } from './lastPrice';
import { SpreadRow } from './SpreadRow';
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
  /** The last traded price (quote currency), shown in the spread row. */
  lastPrice?: string | undefined;
  /** Its move against the trade before (colour and arrow). */
  lastDirection?: PriceDirection;
  /** The prices of the person's open limit orders on this pair: their levels are marked. */
  mine?: { readonly buy: readonly string[]; readonly sell: readonly string[] };
}

/** The grouped levels the prices fall in (bids round down to the step, asks up, as the book groups). */
const levelsOf = (prices: readonly string[], side: 'ask' | 'bid', step: string): Set<string> => {
  const levels = new Set<string>();
  for (const price of prices) {
    try {
      const units = new Decimal(price).div(step);
      const level = (side === 'bid' ? units.floor() : units.ceil()).times(step);
      levels.add(level.toFixed());
    } catch {
      // Not a price (a market order): no level.
    }
  }
  return levels;
};
const levelKey = (price: string): string => new Decimal(price).toFixed();

/** Levels skipped by Page Up / Page Down. */
const PAGE = 10;
const NAVIGATION: Record<string, (at: number, last: number) => number> = {
  ArrowUp: (at) => at - 1,
  ArrowDown: (at) => at + 1,
  PageUp: (at) => at - PAGE,
  PageDown: (at) => at + PAGE,
  Home: () => 0,
  End: (_at, last) => last,
};

/** The live order book: asks above (best at the bottom), the spread, bids below (best on top). */
export function OrderBook(props: OrderBookProps) {
  const { book, base, quote, precision, amountPrecision, depth, step, onPickPrice } = props;
  const scale = useMemo(() => ({ base, quote, precision, amountPrecision }), [base, quote, precision, amountPrecision]);
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
  const myAsks = useMemo(() => levelsOf(props.mine?.sell ?? [], 'ask', step), [props.mine, step]);
  const myBids = useMemo(() => levelsOf(props.mine?.buy ?? [], 'bid', step), [props.mine, step]);
  const asksTopDown = useMemo(() => [...view.asks].reverse(), [view.asks]);
  const askDepths = useMemo(() => asksTopDown.map((row) => row.depth), [asksTopDown]);
  const bidDepths = useMemo(() => view.bids.map((row) => row.depth), [view.bids]);
  const askTotals = useMemo(() => asksTopDown.map((row) => row.total), [asksTopDown]);
  const bidTotals = useMemo(() => view.bids.map((row) => row.total), [view.bids]);

  // The book is one tab stop (roving tabindex): arrow keys, Page Up/Down, Home and End move between
  // levels top to bottom, Enter or Space puts the level's price into the ticket as a click does.
  // The tab stop follows a level by its price; when that level leaves the book, the row now at
  // its position takes over, and focus with it if the trader was on it.
  const section = useRef<HTMLElement>(null);
  const hintId = useId();
  const keys = useMemo(
    () => [...asksTopDown.map((row) => `ask ${row.price}`), ...view.bids.map((row) => `bid ${row.price}`)],
    [asksTopDown, view.bids],
  );
  const keysNow = useRef(keys);
  keysNow.current = keys;
  const [current, setCurrent] = useState<{ key: string; index: number } | undefined>();
  const found = current === undefined ? -1 : keys.indexOf(current.key);
  // Without a choice yet: the best ask, next to the spread (the best bid when there are no asks).
  const tabStop =
    found >= 0
      ? found
      : current !== undefined
        ? Math.max(Math.min(current.index, keys.length - 1), 0)
        : Math.max(asksTopDown.length - 1, 0);
  /** The level that has focus, kept while its row is being removed from the book. */
  const focused = useRef<string | undefined>(undefined);
  const rows = useCallback(() => [...(section.current?.querySelectorAll<HTMLButtonElement>('.book-row') ?? [])], []);
  const onRowFocus = useCallback(
    (event: FocusEvent<HTMLButtonElement>) => {
      const index = rows().indexOf(event.currentTarget);
      const key = keysNow.current[index];
      if (key === undefined) return;
      focused.current = key;
      setCurrent((c) => (c?.key === key && c.index === index ? c : { key, index }));
    },
    [rows],
  );
  const onRowBlur = useCallback((event: FocusEvent<HTMLButtonElement>) => {
    const row = event.currentTarget;
    // Focus went elsewhere, unless the row is being removed (it is then detached right after).
    if (event.relatedTarget !== null) focused.current = undefined;
    else
      queueMicrotask(() => {
        if (row.isConnected) focused.current = undefined;
      });
  }, []);
  const onRowKeyDown = useCallback(
    (event: KeyboardEvent<HTMLButtonElement>) => {
      const move = NAVIGATION[event.key];
      if (move === undefined || event.altKey || event.ctrlKey || event.metaKey) return;
      event.preventDefault();
      const all = rows();
      const last = all.length - 1;
      all[Math.max(Math.min(move(all.indexOf(event.currentTarget), last), last), 0)]?.focus();
    },
    [rows],
  );
  useLayoutEffect(() => {
    if (focused.current === undefined || keys.includes(focused.current)) return;
    const active = document.activeElement;
    if (active !== null && active !== document.body) {
      focused.current = undefined;
      return;
    }
    rows()[tabStop]?.focus();
  }, [keys, tabStop, rows]);

  // Where the screen caps the book's height (it then scrolls), the spread row with the last price
  // starts in the middle of the box: once both sides are there, and again for a new depth or grouping
  // or pair; never on an ordinary update, so the trader's own scrolling stays.
  const ready = view.asks.length > 0 && view.bids.length > 0;
  // biome-ignore lint/correctness/useExhaustiveDependencies: depth and step change the rows above the spread.
  useLayoutEffect(() => {
    const box = section.current;
    const spread = box?.querySelector<HTMLElement>('.book-spread');
    if (!ready || !box || !spread || box.scrollHeight <= box.clientHeight) return;
    const at = spread.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop;
    box.scrollTop = Math.max(0, at - (box.clientHeight - spread.offsetHeight) / 2);
  }, [ready, depth, step]);

  return (
    <section className="order-book" aria-label="Order book" data-testid="order-book" ref={section}>
      <p id={hintId} className="sr-only">
        Arrow keys move between price levels; Enter puts a level’s price into the ticket.
      </p>
      {/* Stays on top while the book's box scrolls (the spread starts in its middle). */}
      <div className="book-top">
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
      </div>
      <div className="book-side book-side-asks" data-testid="book-asks">
        <DepthBars depths={askDepths} />
        <BookTotals totals={askTotals} scale={scale} />
        {asksTopDown.map((row, i) => (
          <BookRow
            key={row.price}
            side="ask"
            price={row.price}
            amount={row.amount}
            scale={scale}
            onPick={onPick}
            flashes={flashes}
            tabbable={i === tabStop}
            onKeyDown={onRowKeyDown}
            onFocus={onRowFocus}
            onBlur={onRowBlur}
            hintId={hintId}
            mine={myAsks.has(levelKey(row.price))}
          />
        ))}
      </div>
      <SpreadRow
        lastPrice={props.lastPrice}
        lastDirection={props.lastDirection ?? 'flat'}
        scale={scale}
        spread={view.spread}
        spreadRatio={view.spreadRatio}
        emptyText={view.asks.length + view.bids.length === 0 ? 'The book is empty' : 'One side is empty'}
      />
      <div className="book-side book-side-bids" data-testid="book-bids">
        <DepthBars depths={bidDepths} />
        <BookTotals totals={bidTotals} scale={scale} />
        {view.bids.map((row, i) => (
          <BookRow
            key={row.price}
            side="bid"
            price={row.price}
            amount={row.amount}
            scale={scale}
            onPick={onPick}
            flashes={flashes}
            tabbable={asksTopDown.length + i === tabStop}
            onKeyDown={onRowKeyDown}
            onFocus={onRowFocus}
            onBlur={onRowBlur}
            hintId={hintId}
            mine={myBids.has(levelKey(row.price))}
          />
        ))}
      </div>
      <p className="book-legend" data-testid="book-legend">
        <span className="book-legend-mine" aria-hidden="true" /> your open order at that price ·{' '}
        <span className="book-legend-flash" aria-hidden="true" /> the amount just changed
      </p>
    </section>
  );
}
