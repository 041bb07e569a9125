/**
 * The total balance by account type (the platform's TotalBalance) with a chart, the total over time
 * from the snapshots main keeps, and the spot balances. Chart geometry uses numbers; every amount
 * shown as text stays the platform's decimal string.
 */
import Decimal from 'decimal.js';
import { useMemo, useState } from 'react';
import { Bar, BarChart, CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import type { ValuationCurrency } from '../../../../shared/contract/balances';
import { useDeskQuery } from '../../lib/desk';
import { formatAmount, formatMoney, formatTime } from '../../lib/format';
import { useNavigation } from '../../lib/navigation';
import { usePrefs } from '../../lib/prefs';
import { alignedAmounts, Button, DataTable, EmptyState, ErrorNotice, Loading, QueryStatus, Select } from '../../ui';

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

/** Digits shown for a valuation currency. */
const PRECISION: Record<string, number> = { BTC: 8, USDT: 2, USD: 2, CNY: 2 };

/** How often the total is re-read while the screen is open (each read is also a snapshot). */
const TOTAL_REFRESH_MS = 60_000;

function TotalCard({ currency }: { readonly currency: ValuationCurrency }) {
  const total = useDeskQuery(['balances.total', { currency }], { refetchInterval: TOTAL_REFRESH_MS });
  const precision = PRECISION[currency] ?? 8;
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
        {formatMoney(total.data.total.amount, total.data.total.currency, { precision })}
      </p>
      {total.data.total.borrowed && !new Decimal(total.data.total.borrowed).isZero() ? (
        <p className="muted">
          Borrowed {formatMoney(total.data.total.borrowed, total.data.total.currency, { precision })}
        </p>
      ) : null}
      <div className="chart-and-table">
        {chartData.length > 0 ? (
          <figure className="chart" aria-label="Total by account type (chart; the table lists the same values)">
            <BarChart width={420} height={Math.max(120, chartData.length * 36)} data={chartData} layout="vertical">
              <CartesianGrid strokeDasharray="3 3" horizontal={false} />
              <XAxis type="number" hide />
              <YAxis type="category" dataKey="name" width={130} />
              <Tooltip />
              <Bar
                dataKey="value"
                name={`Value in ${currency}`}
                fill="var(--accent, #3b82f6)"
                isAnimationActive={false}
              />
            </BarChart>
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
              cell: (d) => formatAmount(d.amount, { precision }),
            },
            {
              id: 'pnl',
              header: 'Unrealised PnL',
              numeric: true,
              cell: (d) => (d.unrealisedPnl ? formatAmount(d.unrealisedPnl, { precision }) : '—'),
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
        label: formatTime(p.time * 1000, zone),
        value: new Decimal(p.amount).toNumber(),
      })),
    [history.data, zone],
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
          <LineChart width={640} height={220} data={data}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="label" minTickGap={40} />
            <YAxis width={90} domain={['auto', 'auto']} />
            <Tooltip />
            <Line
              type="monotone"
              dataKey="value"
              name={`Total (${currency})`}
              dot={false}
              isAnimationActive={false}
              stroke="var(--accent, #3b82f6)"
            />
          </LineChart>
        </figure>
      ) : null}
    </section>
  );
}

function SpotBalances() {
  const spot = useDeskQuery(['balances.spot', {}]);
  const [showZero, setShowZero] = useState(false);
  const go = useNavigation((s) => s.go);
  const rows = (spot.data ?? []).filter((b) => showZero || !new Decimal(b.total).isZero());
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
      <SpotBalances />
    </div>
  );
}
