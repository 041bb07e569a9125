/**
 * The total balance by account type (the platform's TotalBalance) with a chart, the total over time
 * from the snapshots main keeps, and the spot balances. The charts are ./charts.tsx; every amount
 * shown as text stays the platform's decimal string.
 */
import Decimal from 'decimal.js';
import { lazy, Suspense, useMemo, useState } from 'react';
import type { SpotBalance, ValuationCurrency } from '../../../../shared/contract/balances';
import { valuationIn } from '../../../../shared/platform/valuation';
import { useDeskQuery } from '../../lib/desk';
import { formatShare, formatTime, formatValue, valueFormat } from '../../lib/format';
import { useNavigation } from '../../lib/navigation';
import { usePrefs } from '../../lib/prefs';
import {
  alignedAmounts,
  Button,
  DataTable,
  EmptyState,
  ErrorNotice,
  Loading,
  QueryStatus,
  Select,
  Time,
} from '../../ui';

// The charts' code (recharts) is its own chunk, fetched when a chart first shows: the numbers paint first.
const charts = () => import('./charts');
const TotalByAccountChart = lazy(() => charts().then((m) => ({ default: m.TotalByAccountChart })));
const TotalHistoryChart = lazy(() => charts().then((m) => ({ default: m.TotalHistoryChart })));

const VALUATIONS: { value: ValuationCurrency; label: string }[] = [
  { value: 'USDT', label: 'USDT' },
  { value: 'BTC', label: 'BTC' },
  { value: 'USD', label: 'USD' },
  { value: 'CNY', label: 'CNY' },
];

const ACCOUNT_NAMES: Record<string, string> = {
  spot: 'Spot',
  margin: 'Isolated margin',
  cross_margin: 'Cross margin',
  futures: 'Perpetual futures',
  delivery: 'Delivery futures',
  options: 'Options',
  finance: 'Earn',
  quant: 'Quant',
  warrant: 'Warrants',
  cbbc: 'CBBC',
  meme_box: 'Meme box',
  payment: 'Payment',
};

export const accountName = (key: string): string => ACCOUNT_NAMES[key] ?? key;

/** How often the total is re-read while the screen is open (each read is also a snapshot). */
const TOTAL_REFRESH_MS = 60_000;

function TotalCard({ currency }: { readonly currency: ValuationCurrency }) {
  const total = useDeskQuery(['balances.total', { currency }], { refetchInterval: TOTAL_REFRESH_MS });
  if (total.isPending) return <Loading label="Loading the total balance…" />;
  if (total.isError) return <ErrorNotice error={total.error} onRetry={() => void total.refetch()} />;
  // Account types holding nothing are left out (the platform lists every type it has).
  const details = total.data.details
    .filter(
      (d) =>
        !new Decimal(d.amount).isZero() || (d.unrealisedPnl !== undefined && !new Decimal(d.unrealisedPnl).isZero()),
    )
    .sort((a, b) => new Decimal(b.amount).cmp(a.amount));
  const chartData = details
    .filter((d) => !new Decimal(d.amount).isZero())
    .map((d) => ({ name: accountName(d.account), value: new Decimal(d.amount).toNumber() }));
  return (
    <section className="card" aria-label="Total balance">
      <h2>Total balance</h2>
      <p className="big-number" data-testid="total-balance">
        {formatValue(total.data.total.amount, total.data.total.currency)}
      </p>
      <p className="muted">
        As of <Time ms={total.data.fetchedAt * 1000} withZone /> (the platform may cache balances for up to a minute).
      </p>
      {total.data.total.borrowed && !new Decimal(total.data.total.borrowed).isZero() ? (
        <p className="muted">Borrowed {formatValue(total.data.total.borrowed, total.data.total.currency)}</p>
      ) : null}
      <div className="chart-and-table">
        {chartData.length > 0 ? (
          <figure className="chart" aria-label="Total by account type (chart; the table lists the same values)">
            <Suspense fallback={<Loading label="Loading the chart…" />}>
              <TotalByAccountChart data={chartData} currency={currency} />
            </Suspense>
          </figure>
        ) : null}
        <DataTable
          caption="Total by account type"
          testId="total-by-account"
          rows={details}
          rowKey={(d) => d.account}
          empty={<EmptyState title="No account holds funds" />}
          columns={[
            { id: 'account', header: 'Account', cell: (d) => accountName(d.account) },
            {
              id: 'amount',
              header: `Value (${currency})`,
              numeric: true,
              cell: alignedAmounts(details, (d) => d.amount, { format: valueFormat(currency) }),
            },
            {
              id: 'share',
              header: 'Share',
              numeric: true,
              cell: (d) => formatShare(d.amount, total.data.total.amount),
            },
            {
              id: 'pnl',
              header: 'Unrealised PnL',
              numeric: true,
              cell: alignedAmounts(details, (d) => d.unrealisedPnl, { format: valueFormat(currency) }),
            },
          ]}
        />
      </div>
    </section>
  );
}

function TotalOverTime({ currency }: { readonly currency: ValuationCurrency }) {
  const zone = usePrefs((s) => s.timeZone);
  const history = useDeskQuery(['balances.totalHistory', { currency }], { refetchInterval: TOTAL_REFRESH_MS });
  const data = useMemo(
    () =>
      (history.data ?? []).map((p) => ({
        time: p.time,
        label: formatTime(p.time * 1000, zone, { timeOnly: true }),
        value: new Decimal(p.amount).toNumber(),
        text: formatValue(p.amount, currency),
      })),
    [history.data, zone, currency],
  );
  return (
    <section className="card" aria-label="Total over time">
      <h2>Total over time</h2>
      <QueryStatus query={history} />
      {history.data && data.length < 2 ? (
        <EmptyState title="Not enough history yet">
          The app records the total each time it reads it (at most once a minute). The line appears after two readings.
        </EmptyState>
      ) : null}
      {data.length >= 2 ? (
        <figure
          className="chart"
          aria-label={`Total in ${currency} over time, ${data.length} readings`}
          data-testid="total-history-chart"
        >
          <Suspense fallback={<Loading label="Loading the chart…" />}>
            <TotalHistoryChart data={data} currency={currency} />
          </Suspense>
        </figure>
      ) : null}
    </section>
  );
}

/** The tickers price every currency but CNY (no pair quotes it). */
const PRICED_IN = new Set<ValuationCurrency>(['USDT', 'BTC', 'USD']);

/** Each spot balance's value in `currency`, by the firm view's route (shared/platform/valuation.ts). */
const useSpotValues = (rows: readonly SpotBalance[], currency: ValuationCurrency) => {
  const tickers = useDeskQuery(['trade.tickers', {}], { staleTime: 60_000, enabled: PRICED_IN.has(currency) });
  return useMemo(() => {
    if (!tickers.data || !PRICED_IN.has(currency)) return undefined;
    const value = valuationIn(
      currency,
      tickers.data.map((t) => ({ ...t })),
    );
    const values = new Map<string, string>();
    let sum = new Decimal(0);
    for (const b of rows) {
      const v = value(b.currency);
      if (v === undefined) continue;
      const amount = new Decimal(b.total).times(v.price);
      values.set(b.currency, amount.toFixed());
      sum = sum.plus(amount);
    }
    return { values, sum: sum.toFixed() };
  }, [tickers.data, rows, currency]);
};

function SpotBalances({ currency }: { readonly currency: ValuationCurrency }) {
  const spot = useDeskQuery(['balances.spot', {}]);
  const [showZero, setShowZero] = useState(false);
  const go = useNavigation((s) => s.go);
  const rows = useMemo(
    () => (spot.data ?? []).filter((b) => showZero || !new Decimal(b.total).isZero()),
    [spot.data, showZero],
  );
  const valued = useSpotValues(rows, currency);
  return (
    <section className="card" aria-label="Spot balances">
      <div className="card-header">
        <h2>Spot account</h2>
        <label className="checkbox">
          <input type="checkbox" checked={showZero} onChange={(e) => setShowZero(e.target.checked)} /> Show zero
          balances
        </label>
      </div>
      <QueryStatus query={spot} />
      {spot.data ? (
        <p className="muted" data-testid="spot-as-of">
          As of <Time ms={spot.dataUpdatedAt} withZone />
          {valued ? `; values from the last spot prices (${formatValue(valued.sum, currency)} in all).` : '.'}
        </p>
      ) : null}
      {spot.data ? (
        <DataTable
          caption="Spot balances"
          testId="spot-balances"
          rows={rows}
          rowKey={(b) => b.currency}
          empty={<EmptyState title="The spot account is empty">Deposit funds to see them here.</EmptyState>}
          columns={[
            { id: 'currency', header: 'Currency', cell: (b) => b.currency },
            { id: 'available', header: 'Available', numeric: true, cell: alignedAmounts(rows, (b) => b.available) },
            { id: 'locked', header: 'In orders', numeric: true, cell: alignedAmounts(rows, (b) => b.locked) },
            { id: 'total', header: 'Total', numeric: true, cell: alignedAmounts(rows, (b) => b.total) },
            ...(valued
              ? [
                  {
                    id: 'value',
                    header: `Value (${currency})`,
                    numeric: true,
                    cell: alignedAmounts(rows, (b) => valued.values.get(b.currency), {
                      format: valueFormat(currency),
                      empty: 'no price',
                    }),
                  },
                  {
                    id: 'share',
                    header: 'Share',
                    numeric: true,
                    cell: (b: SpotBalance) => {
                      const v = valued.values.get(b.currency);
                      return v === undefined ? '—' : formatShare(v, valued.sum);
                    },
                  },
                ]
              : []),
            {
              id: 'actions',
              header: <span className="sr-only">Actions</span>,
              cell: (b) => (
                <span className="row-actions">
                  <Button
                    size="sm"
                    variant="ghost"
                    onClick={() => go('deposits', { currency: b.currency })}
                    aria-label={`Deposit ${b.currency}`}
                  >
                    Deposit
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    onClick={() => go('withdrawals', { currency: b.currency })}
                    aria-label={`Withdraw ${b.currency}`}
                  >
                    Withdraw
                  </Button>
                </span>
              ),
            },
          ]}
        />
      ) : null}
    </section>
  );
}

export function Overview() {
  const [currency, setCurrency] = useState<ValuationCurrency>('USDT');
  return (
    <div className="stack">
      <div className="filters">
        <Select label="Value in" value={currency} options={VALUATIONS} onChange={setCurrency} />
      </div>
      <TotalCard currency={currency} />
      <TotalOverTime currency={currency} />
      <SpotBalances currency={currency} />
    </div>
  );
}
