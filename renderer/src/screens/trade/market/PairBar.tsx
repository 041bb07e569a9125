/** Pair picker (search with prices, favourites) and the chosen pair's 24 h ticker line. */
import { useMemo } from 'react';
import type { Pair, Ticker } from '../../../../../shared/contract/trade';
import { formatMoneyOrText } from '../../../lib/format';
import { PairPicker } from './PairPicker';

export interface PairBarProps {
  pairs: Pair[];
  pair: string;
  ticker: Ticker | null;
  /** Every pair's 24 h ticker, for the picker's list (undefined while not read). */
  tickers?: readonly Ticker[] | undefined;
  favourites: string[];
  onSelect: (pair: string) => void;
  onToggleFavourite: (pair: string) => void;
  /** The picker's list opened or closed. */
  onOpenChange?: (open: boolean) => void;
}

const changeClass = (change: string | undefined) =>
  change === undefined ? '' : change.startsWith('-') ? 'text-sell' : 'text-buy';

export function PairBar({
  pairs,
  pair,
  ticker,
  tickers,
  favourites,
  onSelect,
  onToggleFavourite,
  onOpenChange,
}: PairBarProps) {
  const quote = pair.split('_')[1] ?? '';
  // The chosen pair's ticker is live (the feed); the others come from trade.tickers.
  const listed = useMemo(
    () =>
      tickers === undefined || ticker === null ? tickers : [...tickers.filter((t) => t.pair !== ticker.pair), ticker],
    [tickers, ticker],
  );
  return (
    <div className="pair-bar">
      <PairPicker
        pairs={pairs}
        pair={pair}
        tickers={listed}
        favourites={favourites}
        onSelect={onSelect}
        onToggleFavourite={onToggleFavourite}
        {...(onOpenChange ? { onOpenChange } : {})}
      />
      <dl className="ticker-line" data-testid="ticker-line" aria-label={`${pair} 24 hour ticker`}>
        <div>
          <dt>Last</dt>
          <dd className="num" data-testid="ticker-last">
            {ticker ? formatMoneyOrText(ticker.last, quote) : '—'}
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
          <dd className="num">{ticker ? formatMoneyOrText(ticker.high24h, quote) : '—'}</dd>
        </div>
        <div>
          <dt>24 h low</dt>
          <dd className="num">{ticker ? formatMoneyOrText(ticker.low24h, quote) : '—'}</dd>
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
