import { memo } from 'react';
import type { Pair, PublicTrade } from '../../../../../shared/contract/trade';
import { formatPrice, zoneLabel } from '../../../lib/format';
import { usePrefs } from '../../../lib/prefs';
import { Amount, alignmentOf, Time } from '../../../ui';

/** The market's latest trades, newest first, coloured by the taker's side. */
export const RecentTrades = memo(function RecentTrades({ trades, pair }: { trades: PublicTrade[]; pair: Pair }) {
  const zone = usePrefs((s) => s.timeZone);
  const amountFormat = { precision: pair.amountPrecision, trim: true };
  const alignTo = alignmentOf(
    trades.map((t) => t.amount),
    amountFormat,
  );
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
    <section className="recent-trades" aria-label="Recent trades" data-testid="recent-trades" tabIndex={0}>
      <h3>Recent trades</h3>
      <table className="mini-table">
        <caption className="sr-only">Recent trades</caption>
        <thead>
          <tr>
            <th scope="col">Price ({pair.quote})</th>
            <th scope="col">Amount ({pair.base})</th>
            <th scope="col">Time ({zoneLabel(zone)})</th>
          </tr>
        </thead>
        <tbody>
          {trades.map((t) => (
            <tr key={t.id} data-testid="recent-trade">
              <td className={`num ${t.side === 'buy' ? 'text-buy' : 'text-sell'}`}>{formatPrice(t.price, pair)}</td>
              <td className="num">
                <Amount value={t.amount} alignTo={alignTo} {...amountFormat} />
              </td>
              <td className="num">
                <Time ms={t.createTimeMs} timeOnly />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {trades.length === 0 ? <p className="muted">No trades yet.</p> : null}
    </section>
  );
});
