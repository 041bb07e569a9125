import type { Ticker } from '../../../../../shared/contract/trade';
import { formatChange, isDecimalString } from '../../../lib/format';

/** Whether the pair has traded in the last 24 hours (a market without trades has no change to show). */
export const hasTraded = (ticker: Ticker | null | undefined): ticker is Ticker =>
  ticker != null && isDecimalString(ticker.last) && isDecimalString(ticker.changePercentage);

/** The 24 h change, signed, coloured up or down; "—" (not a green "+0%") for a market without trades. */
export const ChangeText = ({ ticker }: { ticker: Ticker | null | undefined }) => {
  if (!hasTraded(ticker)) return <span className="muted">—</span>;
  const change = ticker.changePercentage;
  const tone = /^-?[0.]+$/.test(change) ? '' : change.startsWith('-') ? 'text-sell' : 'text-buy';
  return <span className={tone || undefined}>{formatChange(change)}</span>;
};
