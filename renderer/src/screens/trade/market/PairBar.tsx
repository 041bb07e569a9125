/** Pair selector (search + favourites) and the chosen pair's 24 h ticker line. */
import { useId, useMemo, useState } from 'react';
import type { Pair, Ticker } from '../../../../../shared/contract/trade';
import { formatMoneyOrText } from '../../../lib/format';

export interface PairBarProps {
  pairs: Pair[];
  pair: string;
  ticker: Ticker | null;
  favourites: string[];
  onSelect: (pair: string) => void;
  onToggleFavourite: (pair: string) => void;
}

const changeClass = (change: string | undefined) =>
  change === undefined ? '' : change.startsWith('-') ? 'text-sell' : 'text-buy';

export function PairBar({ pairs, pair, ticker, favourites, onSelect, onToggleFavourite }: PairBarProps) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const listId = useId();
  const favs = useMemo(() => new Set(favourites), [favourites]);
  const shown = useMemo(() => {
    const q = query
      .trim()
      .toUpperCase()
      .replace(/[/\-\s]/g, '_');
    return pairs
      .filter((p) => q === '' || p.id.includes(q) || p.base.startsWith(q))
      .sort((a, b) => Number(favs.has(b.id)) - Number(favs.has(a.id)) || a.id.localeCompare(b.id))
      .slice(0, 100);
  }, [pairs, query, favs]);

  return (
    <div className="pair-bar">
      <div className="pair-select">
        <button
          type="button"
          className="pair-current"
          aria-expanded={open}
          aria-controls={listId}
          onClick={() => setOpen((o) => !o)}
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
          <div className="pair-popover" id={listId}>
            <input
              type="search"
              aria-label="Search pairs"
              placeholder="Search, e.g. ETH"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              // biome-ignore lint/a11y/noAutofocus: the popover exists to type a search
              autoFocus
              onKeyDown={(e) => {
                if (e.key === 'Escape') setOpen(false);
                if (e.key === 'Enter' && shown[0]) {
                  onSelect(shown[0].id);
                  setOpen(false);
                }
              }}
            />
            <ul className="pair-list" aria-label="Pairs">
              {shown.map((p) => (
                <li key={p.id}>
                  <button
                    type="button"
                    className="pair-fav"
                    aria-pressed={favs.has(p.id)}
                    aria-label={favs.has(p.id) ? `Remove ${p.id} from favourites` : `Add ${p.id} to favourites`}
                    onClick={() => onToggleFavourite(p.id)}
                  >
                    {favs.has(p.id) ? '★' : '☆'}
                  </button>
                  <button
                    type="button"
                    className="pair-option"
                    aria-current={p.id === pair ? 'true' : undefined}
                    onClick={() => {
                      onSelect(p.id);
                      setOpen(false);
                      setQuery('');
                    }}
                  >
                    {p.base} / {p.quote}
                    {p.tradeStatus !== 'tradable' ? <span className="pair-status"> ({p.tradeStatus})</span> : null}
                  </button>
                </li>
              ))}
              {shown.length === 0 ? <li className="pair-none">No pair matches “{query}”.</li> : null}
            </ul>
          </div>
        ) : null}
      </div>
      <dl className="ticker-line" data-testid="ticker-line" aria-label={`${pair} 24 hour ticker`}>
        <div>
          <dt>Last</dt>
          <dd className="num" data-testid="ticker-last">
            {ticker?.last ?? '—'}
          </dd>
        </div>
        <div>
          <dt>24 h change</dt>
          <dd className={`num ${changeClass(ticker?.changePercentage)}`}>
            {ticker ? `${ticker.changePercentage.startsWith('-') ? '' : '+'}${ticker.changePercentage}%` : '—'}
          </dd>
        </div>
        <div>
          <dt>24 h high</dt>
          <dd className="num">{ticker?.high24h ?? '—'}</dd>
        </div>
        <div>
          <dt>24 h low</dt>
          <dd className="num">{ticker?.low24h ?? '—'}</dd>
        </div>
        <div>
          <dt>24 h volume</dt>
          <dd className="num">
            {ticker
              ? `${formatMoneyOrText(ticker.baseVolume, pair.split('_')[0] ?? '', { precision: 4 })} · ${formatMoneyOrText(ticker.quoteVolume, pair.split('_')[1] ?? '', { precision: 2 })}`
              : '—'}
          </dd>
        </div>
      </dl>
    </div>
  );
}
