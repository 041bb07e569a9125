import Decimal from 'decimal.js';
import { memo } from 'react';
import type { PublicTrade } from '../../../../../shared/contract/trade';

const clock = (ms: number) => new Date(ms).toISOString().slice(11, 19);

/** The market's latest trades, newest first, coloured by the taker's side. */
export const RecentTrades = memo(function RecentTrades({
  trades,
  base,
  precision,
  amountPrecision,
}: {
  trades: PublicTrade[];
  base: string;
  precision: number;
  amountPrecision: number;
}) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
    <section className="recent-trades" aria-label="Recent trades" data-testid="recent-trades" tabIndex={0}>
      <h3>Recent trades</h3>
      <table className="mini-table">
        <caption className="sr-only">Recent trades</caption>
        <thead>
          <tr>
            <th scope="col">Price</th>
            <th scope="col">Amount ({base})</th>
            <th scope="col">Time (UTC)</th>
          </tr>
        </thead>
        <tbody>
          {trades.map((t) => (
            <tr key={t.id} data-testid="recent-trade">
              <td className={`num ${t.side === 'buy' ? 'text-buy' : 'text-sell'}`}>
                {new Decimal(t.price).toFixed(precision)}
              </td>
              <td className="num">{new Decimal(t.amount).toFixed(amountPrecision)}</td>
              <td className="num">{clock(t.createTimeMs)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {trades.length === 0 ? <p className="muted">No trades yet.</p> : null}
    </section>
  );
});
