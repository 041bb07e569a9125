/**
 * The pair picker: a button naming the pair; it opens a search box over a list of pairs with each
 * pair's last price (in its quote currency) and 24 h change from `trade.tickers`. Typing filters by
 * base and/or quote ("eth", "usdt", "eth/usdt", "eth u"); arrow keys, Page Up/Down move the
 * highlighted pair, Enter takes it, Escape closes. ARIA combobox with a listbox (the favourite star
 * of the highlighted pair sits beside the search box: a listbox option may hold no button).
 */
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { Pair, Ticker } from '../../../../../shared/contract/trade';
import { formatPrice } from '../../../lib/format';
import { ChangeText, hasTraded } from './ChangeText';

export interface PairPickerProps {
  pairs: readonly Pair[];
  pair: string;
  /** 24 h tickers of every pair (may be missing while they load). */
  tickers?: readonly Ticker[] | undefined;
  favourites: readonly string[];
  onSelect: (pair: string) => void;
  onToggleFavourite: (pair: string) => void;
  /** Told when the list opens or closes (the screen reads the tickers only while it is open). */
  onOpenChange?: (open: boolean) => void;
}

/** Most pairs listed at once (the live platform has thousands; typing narrows them). */
export const MAX_SHOWN = 100;
const PAGE = 10;

/** Pairs matching a search: "eth" (base or quote starts with it), "eth/usdt", "eth usdt", "eth_u". */
export const filterPairs = (pairs: readonly Pair[], query: string, favourites: ReadonlySet<string>): Pair[] => {
  const words = query
    .trim()
    .toUpperCase()
    .split(/[\s/_-]+/)
    .filter((w) => w !== '');
  const [first, second] = words;
  const matches = (p: Pair) => {
    if (first === undefined) return true;
    if (second !== undefined) return p.base.startsWith(first) && p.quote.startsWith(second);
    return p.base.startsWith(first) || p.quote.startsWith(first);
  };
  const rank = (p: Pair) => (favourites.has(p.id) ? 0 : 2) + (first !== undefined && p.base === first ? 0 : 1);
  return pairs
    .filter(matches)
    .sort((a, b) => rank(a) - rank(b) || a.id.localeCompare(b.id))
    .slice(0, MAX_SHOWN);
};

export function PairPicker({
  pairs,
  pair,
  tickers,
  favourites,
  onSelect,
  onToggleFavourite,
  onOpenChange,
}: PairPickerProps) {
  const [open, setOpenState] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const box = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const listId = useId();
  const favs = useMemo(() => new Set(favourites), [favourites]);
  const shown = useMemo(() => filterPairs(pairs, query, favs), [pairs, query, favs]);
  const byPair = useMemo(() => new Map((tickers ?? []).map((t) => [t.pair, t])), [tickers]);
  const current = shown[Math.min(active, shown.length - 1)];
  const notify = useRef(onOpenChange);
  notify.current = onOpenChange;

  const setOpen = (next: boolean) => {
    setOpenState(next);
    notify.current?.(next);
    if (!next) {
      setQuery('');
      setActive(0);
    }
  };
  const take = (id: string) => {
    onSelect(id);
    setOpen(false);
    trigger.current?.focus();
  };

  // A click anywhere outside closes the list.
  useEffect(() => {
    if (!open) return undefined;
    const outside = (event: PointerEvent) => {
      if (box.current && !box.current.contains(event.target as Node)) {
        setOpenState(false);
        setQuery('');
        setActive(0);
        notify.current?.(false);
      }
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  // The highlighted pair stays in view while moving with the keys.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new highlighted pair (active) is why it runs.
  useEffect(() => {
    if (!open) return;
    const option = list.current?.querySelector<HTMLElement>('[aria-selected="true"]');
    option?.scrollIntoView?.({ block: 'nearest' });
  }, [open, active]);

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const last = shown.length - 1;
    const move = (to: number) => {
      event.preventDefault();
      setActive(Math.max(0, Math.min(to, last)));
    };
    if (event.key === 'ArrowDown') move(active >= last ? 0 : active + 1);
    else if (event.key === 'ArrowUp') move(active <= 0 ? last : active - 1);
    else if (event.key === 'PageDown') move(active + PAGE);
    else if (event.key === 'PageUp') move(active - PAGE);
    else if (event.key === 'Enter') {
      event.preventDefault();
      if (current) take(current.id);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      setOpen(false);
      trigger.current?.focus();
    }
  };

  const optionId = (id: string) => `${listId}-${id}`;
  return (
    <div className="pair-select" ref={box}>
      <button
        ref={trigger}
        type="button"
        className="pair-current"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        aria-label={`Pair ${pair.replace('_', ' / ')}; choose another`}
        onClick={() => setOpen(!open)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' && !open) {
            e.preventDefault();
            setOpen(true);
          }
        }}
        data-testid="pair-current"
      >
        {pair.replace('_', ' / ')} ▾
      </button>
      <button
        type="button"
        className="pair-fav"
        aria-pressed={favs.has(pair)}
        aria-label={favs.has(pair) ? `Remove ${pair} from favourites` : `Add ${pair} to favourites`}
        onClick={() => onToggleFavourite(pair)}
      >
        {favs.has(pair) ? '★' : '☆'}
      </button>
      {open ? (
        <div className="pair-popover" data-testid="pair-picker">
          <div className="pair-search">
            <input
              type="search"
              role="combobox"
              aria-label="Search pairs"
              aria-expanded="true"
              aria-controls={listId}
              aria-autocomplete="list"
              aria-activedescendant={current ? optionId(current.id) : undefined}
              placeholder="Search by base or quote, e.g. ETH"
              value={query}
              onChange={(e) => {
                setQuery(e.target.value);
                setActive(0);
              }}
              // biome-ignore lint/a11y/noAutofocus: the list opens to type a search
              autoFocus
              onKeyDown={onKeyDown}
              data-testid="pair-search"
            />
            {current ? (
              <button
                type="button"
                className="pair-fav"
                aria-pressed={favs.has(current.id)}
                aria-label={
                  favs.has(current.id) ? `Remove ${current.id} from favourites` : `Add ${current.id} to favourites`
                }
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => onToggleFavourite(current.id)}
              >
                {favs.has(current.id) ? '★' : '☆'}
              </button>
            ) : null}
          </div>
          <div className="pair-row pair-row-head" aria-hidden="true">
            <span>Pair</span>
            <span>Last price</span>
            <span>24 h</span>
          </div>
          {/* Options take no focus: the search box keeps it (aria-activedescendant), so a click must not blur it. */}
          <div
            ref={list}
            id={listId}
            role="listbox"
            aria-label="Pairs"
            className="pair-list"
            onMouseDown={(e) => e.preventDefault()}
          >
            {shown.map((p, i) => {
              const ticker = byPair.get(p.id);
              return (
                // biome-ignore lint/a11y/useKeyWithClickEvents: keys are handled by the search box (combobox pattern)
                <div
                  key={p.id}
                  id={optionId(p.id)}
                  role="option"
                  tabIndex={-1}
                  aria-selected={p.id === current?.id}
                  aria-current={p.id === pair ? 'true' : undefined}
                  className="pair-row pair-option"
                  data-pair={p.id}
                  data-testid="pair-option"
                  onMouseMove={() => {
                    if (i !== active) setActive(i);
                  }}
                  onClick={() => take(p.id)}
                >
                  <span className="pair-name">
                    {favs.has(p.id) ? (
                      <span className="pair-star">
                        <span aria-hidden="true">★ </span>
                        <span className="sr-only">Favourite: </span>
                      </span>
                    ) : null}
                    {p.base} / {p.quote}
                    {p.tradeStatus !== 'tradable' ? <span className="pair-status"> ({p.tradeStatus})</span> : null}
                  </span>
                  <span className="num pair-last" data-testid="pair-last">
                    {hasTraded(ticker) ? formatPrice(ticker.last, p, { unit: true }) : '—'}
                  </span>
                  <span className="num pair-change">
                    <ChangeText ticker={ticker} />
                  </span>
                </div>
              );
            })}
          </div>
          {shown.length === 0 ? <p className="pair-none">No pair matches “{query}”.</p> : null}
          {tickers === undefined ? <p className="pair-none muted">Loading prices…</p> : null}
        </div>
      ) : null}
    </div>
  );
}
