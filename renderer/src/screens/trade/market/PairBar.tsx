/** Pair picker (search with prices, favourites) and the chosen pair's 24 h ticker line. */
import { useMemo } from 'react';
import type { Pair, Ticker } from '../../../../../shared/contract/trade';
import { formatBase, formatPrice, formatValue, isDecimalString } from '../../../lib/format';
import { ChangeText } from './ChangeText';
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
  /**
   * The last price as the spread row shows it (the newest trade, else the ticker's): the header and
   * the book never disagree. Without it, the ticker's.
   */
  last?: string | undefined;
}

/** A ticker's price field at the pair's tick, or "—" when the platform sent none (no trades yet). */
const price = (value: string | undefined, pair: Pair | undefined): string =>
  value !== undefined && pair !== undefined && isDecimalString(value) ? formatPrice(value, pair, { unit: true }) : '—';

export function PairBar({
  pairs,
  pair,
  ticker,
  tickers,
  favourites,
  onSelect,
  onToggleFavourite,
  onOpenChange,
  last,
}: PairBarProps) {
  const scale = pairs.find((p) => p.id === pair);
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
            {price(last ?? ticker?.last, scale)}
          </dd>
        </div>
        <div>
          <dt>24 h change</dt>
          <dd className="num">
            <ChangeText ticker={ticker} />
          </dd>
        </div>
        <div>
          <dt>24 h high</dt>
          <dd className="num">{price(ticker?.high24h, scale)}</dd>
        </div>
        <div>
          <dt>24 h low</dt>
          <dd className="num">{price(ticker?.low24h, scale)}</dd>
        </div>
        <div>
          <dt>24 h volume</dt>
          <dd className="num">
            {ticker && scale && isDecimalString(ticker.baseVolume) && isDecimalString(ticker.quoteVolume)
              ? `${formatBase(ticker.baseVolume, scale, { unit: true })} · ${formatValue(ticker.quoteVolume, scale.quote)}`
              : '—'}
          </dd>
        </div>
      </dl>
    </div>
  );
}
