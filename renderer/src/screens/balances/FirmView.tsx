/**
 * The firm-wide view: main and every sub-account × every account type, valued in one quote (USDT,
 * USD or BTC) from the platform's tickers. The firm total, a value per account and per account type,
 * totals per currency, sorting and search, the firm total over time, and an account's holdings on a
 * click. A source that could not be read or a currency without a price is said, never counted as zero.
 */
import Decimal from 'decimal.js';
import { useCallback, useDeferredValue, useMemo, useState } from 'react';
import { CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import type {
  FirmAccount,
  FirmAccountType,
  FirmQuote,
  FirmView as FirmViewData,
} from '../../../../shared/contract/balances';
import { useDeskQuery } from '../../lib/desk';
import { formatShare, formatTime, formatValue, valueFormat } from '../../lib/format';
import { usePrefs } from '../../lib/prefs';
import {
  Amount,
  Badge,
  Button,
  type Column,
  DataTable,
  EmptyState,
  QueryStatus,
  Select,
  TextField,
  Time,
  VirtualTable,
} from '../../ui';
import { axisValue, LeftOut, unpricedHoldings } from './totals';

export const ACCOUNT_TYPES: readonly { id: FirmAccountType; label: string }[] = [
  { id: 'spot', label: 'Spot' },
  { id: 'margin', label: 'Isolated margin' },
  { id: 'crossMargin', label: 'Cross margin' },
  { id: 'futures', label: 'Perpetual futures' },
  { id: 'delivery', label: 'Delivery futures' },
  { id: 'options', label: 'Options' },
];

const ZERO = new Decimal(0);

type TypeValues = Partial<Record<FirmAccountType, Decimal>>;
/** Each account's value per account type, summed once per view (cells and sorting read it many times). */
const typeValueCache = new WeakMap<FirmAccount, TypeValues>();

/** The value of one account type of an account, or undefined when it holds nothing priced there. */
export const typeValue = (account: FirmAccount, type: FirmAccountType): Decimal | undefined => {
  let values = typeValueCache.get(account);
  if (values === undefined) {
    values = {};
    for (const h of account.holdings) {
      if (h.value === null) continue;
      values[h.account] = (values[h.account] ?? ZERO).plus(h.value);
    }
    typeValueCache.set(account, values);
  }
  return values[type];
};

type SortKey = 'account' | 'value' | FirmAccountType;

/** Accounts matching the search (name, uid or a currency held), sorted. Main stays first when sorting by name. */
export const visibleAccounts = (
  view: FirmViewData,
  search: string,
  sort: { key: SortKey; descending: boolean },
): FirmAccount[] => {
  const q = search.trim().toLowerCase();
  const matches = view.accounts.filter(
    (a) =>
      q === '' ||
      a.label.toLowerCase().includes(q) ||
      a.uid.includes(q) ||
      a.holdings.some((h) => h.currency.toLowerCase() === q),
  );
  let sorted: FirmAccount[];
  if (sort.key === 'account') {
    sorted = [...matches].sort((a, b) => {
      if (a.role !== b.role) return a.role === 'main' ? -1 : 1;
      return a.label.localeCompare(b.label);
    });
  } else {
    // One Decimal per account, not two per comparison (500 accounts are ~4,500 comparisons).
    const key = sort.key;
    const sortValue = new Map(
      matches.map((a) => [a, key === 'value' ? new Decimal(a.value) : (typeValue(a, key) ?? ZERO)] as const),
    );
    sorted = [...matches].sort((a, b) => (sortValue.get(a) ?? ZERO).comparedTo(sortValue.get(b) ?? ZERO));
  }
  if (sort.descending) sorted.reverse();
  return sorted;
};

function SortHeader({
  label,
  id,
  sort,
  onSort,
}: {
  readonly label: string;
  readonly id: SortKey;
  readonly sort: { key: SortKey; descending: boolean };
  readonly onSort: (key: SortKey) => void;
}) {
  const active = sort.key === id;
  return (
    <button
      type="button"
      className="sort-header"
      onClick={() => onSort(id)}
      aria-label={`Sort by ${label}${active ? (sort.descending ? ', now highest first' : ', now lowest first') : ''}`}
      data-testid={`sort-${id}`}
    >
      {label}
      <span aria-hidden="true">{active ? (sort.descending ? ' ▼' : ' ▲') : ''}</span>
    </button>
  );
}

function FirmHistory({ quote }: { readonly quote: FirmQuote }) {
  const history = useDeskQuery(['balances.firmHistory', { quote }], { staleTime: 60_000 });
  const zone = usePrefs((s) => s.timeZone);
  const data = useMemo(
    () =>
      (history.data ?? []).map((p) => ({
        label: formatTime(p.time * 1000, zone, { timeOnly: true }),
        value: new Decimal(p.amount).toNumber(),
        text: formatValue(p.amount, quote),
      })),
    [history.data, zone, quote],
  );
  return (
    <section className="card" aria-label="Firm total over time">
      <h2>Firm total over time ({quote})</h2>
      <QueryStatus query={history} />
      {history.data && data.length < 2 ? (
        <EmptyState title="Not enough history yet">
          The app records the firm total each time it reads every account completely (at most once a minute). The line
          appears after two readings.
        </EmptyState>
      ) : null}
      {data.length >= 2 ? (
        <figure
          className="chart"
          aria-label={`Firm total in ${quote} over time, ${data.length} readings`}
          data-testid="firm-history-chart"
        >
          <LineChart width={640} height={220} data={data} margin={{ left: 16, right: 16 }}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="label" minTickGap={40} />
            <YAxis width={110} domain={['auto', 'auto']} tickFormatter={(v: number) => axisValue(v, quote)} />
            <Tooltip
              formatter={(_value, _name, item) => [(item.payload as { text: string }).text, 'Firm total']}
              contentStyle={{ background: 'var(--surface, #1b2029)', color: 'var(--text, #e6e9ef)' }}
              labelStyle={{ color: 'var(--text, #e6e9ef)' }}
            />
            <Line
              type="monotone"
              dataKey="value"
              name={`Firm total (${quote})`}
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

function AccountDetail({ account, quote }: { readonly account: FirmAccount; readonly quote: FirmQuote }) {
  const rows = account.holdings;
  return (
    <section className="card" aria-label={`Holdings of ${account.label}`} data-testid="firm-account-detail">
      <h2>
        {account.label} <span className="muted">{account.role === 'main' ? 'Main' : `UID ${account.uid}`}</span>
      </h2>
      {Object.entries(account.errors).map(([type, message]) => (
        <p key={type} className="cell-error" role="note">
          {ACCOUNT_TYPES.find((t) => t.id === type)?.label ?? type}: could not be read — {message}
        </p>
      ))}
      <DataTable
        caption={`Every holding of ${account.label}`}
        columns={[
          { id: 'type', header: 'Account type', cell: (h) => ACCOUNT_TYPES.find((t) => t.id === h.account)?.label },
          { id: 'currency', header: 'Currency', cell: (h) => h.currency },
          {
            id: 'amount',
            header: 'Amount',
            numeric: true,
            cell: (h) => <Amount value={h.amount} currency={h.currency} />,
          },
          {
            id: 'value',
            header: `Value (${quote})`,
            numeric: true,
            cell: (h) =>
              h.value === null ? (
                <span className="muted">no price</span>
              ) : (
                <Amount value={h.value} {...valueFormat(quote)} />
              ),
          },
          { id: 'note', header: 'Detail', cell: (h) => h.note ?? '' },
        ]}
        rows={rows}
        rowKey={(h) => `${h.account}|${h.currency}|${h.note ?? ''}`}
        empty="This account holds nothing."
      />
    </section>
  );
}

function CurrencyTotals({ view }: { readonly view: FirmViewData }) {
  const format = valueFormat(view.quote);
  const rows = useMemo(
    () => [...view.currencies].sort((a, b) => new Decimal(b.value ?? -1).comparedTo(new Decimal(a.value ?? -1))),
    [view.currencies],
  );
  return (
    <section className="card" aria-label="Totals per currency">
      <h2>Totals per currency (every account, every account type)</h2>
      <DataTable
        caption="Per currency: amount held across the firm and its value"
        columns={[
          { id: 'currency', header: 'Currency', cell: (c) => c.currency },
          {
            id: 'amount',
            header: 'Amount',
            numeric: true,
            cell: (c) => <Amount value={c.amount} currency={c.currency} />,
          },
          {
            id: 'value',
            header: `Value (${view.quote})`,
            numeric: true,
            cell: (c) =>
              c.value === null ? <span className="muted">no price</span> : <Amount value={c.value} {...format} />,
          },
          {
            id: 'share',
            header: 'Share',
            numeric: true,
            cell: (c) => (c.value === null ? '—' : formatShare(c.value, view.total)),
          },
        ]}
        rows={rows}
        rowKey={(c) => c.currency}
      />
    </section>
  );
}

export function FirmView() {
  const [quote, setQuote] = useState<FirmQuote>('USDT');
  const query = useDeskQuery(['balances.firm', { quote }], { staleTime: 30_000 });
  const [search, setSearch] = useState('');
  const deferred = useDeferredValue(search);
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean }>({ key: 'account', descending: false });
  const [selected, setSelected] = useState<string | undefined>();
  const onSort = useCallback(
    (key: SortKey) =>
      setSort((s) => (s.key === key ? { key, descending: !s.descending } : { key, descending: key !== 'account' })),
    [],
  );
  const view = query.data;
  // The sections below the table follow one render later, in the background (a transition React
  // splits into short tasks): the total and the table of 500 accounts are drawn first, and no single
  // task draws everything at once (issue 26: none over 50 ms).
  const below = useDeferredValue(view);
  const rows = useMemo(() => (view ? visibleAccounts(view, deferred, sort) : []), [view, deferred, sort]);
  const format = valueFormat(quote);
  const columns = useMemo<Column<FirmAccount>[]>(
    () => [
      {
        id: 'account',
        header: <SortHeader label="Account" id="account" sort={sort} onSort={onSort} />,
        width: '14rem',
        cell: (a) => (
          <>
            <strong>{a.label}</strong>
            <div className="muted">
              {a.role === 'main' ? 'Main' : `UID ${a.uid}`} {a.frozen ? <Badge tone="bad">Frozen</Badge> : null}
            </div>
          </>
        ),
      },
      {
        id: 'value',
        header: <SortHeader label={`Total (${quote})`} id="value" sort={sort} onSort={onSort} />,
        numeric: true,
        cell: (a) => <Amount value={a.value} {...format} />,
      },
      {
        id: 'share',
        header: 'Share',
        numeric: true,
        cell: (a) => (view ? formatShare(a.value, view.total) : '—'),
      },
      ...ACCOUNT_TYPES.map(
        (t): Column<FirmAccount> => ({
          id: t.id,
          header: <SortHeader label={t.label} id={t.id} sort={sort} onSort={onSort} />,
          numeric: true,
          cell: (a) => {
            if (a.errors[t.id]) {
              return (
                <span className="cell-error" role="note" title={a.errors[t.id]}>
                  not read
                </span>
              );
            }
            const v = typeValue(a, t.id);
            return v === undefined ? <span className="muted">—</span> : <Amount value={v.toFixed()} {...format} />;
          },
        }),
      ),
    ],
    [sort, quote, format, onSort, view],
  );
  const selectedAccount = view?.accounts.find((a) => `${a.role}-${a.uid}` === selected);
  const leftOut = useMemo(() => (view ? unpricedHoldings(view) : []), [view]);
  return (
    <div className="stack">
      <div className="filters">
        <Select
          label="Value in"
          value={quote}
          onChange={(v) => setQuote(v as FirmQuote)}
          options={[
            { value: 'USDT', label: 'USDT' },
            { value: 'USD', label: 'USD' },
            { value: 'BTC', label: 'BTC' },
          ]}
        />
        <TextField label="Search" value={search} onChange={setSearch} placeholder="Name, UID or currency" />
        <Button onClick={() => void query.refetch()} busy={query.isFetching}>
          Refresh
        </Button>
      </div>
      <QueryStatus query={query} loading="Reading every account of the firm…" />
      {view ? (
        <>
          <section className="card" aria-label="Firm total" data-testid="firm-total">
            <h2>Firm total{leftOut.length > 0 || view.incomplete ? ' (incomplete)' : ''}</h2>
            <p className="big-number" data-testid="firm-total-value">
              {formatValue(view.total, quote)}
            </p>
            <p className="muted">
              As of <Time ms={view.fetchedAt * 1000} withZone /> · {view.accounts.length} accounts: main and{' '}
              {view.accounts.length - 1} sub-accounts. {view.basis}
            </p>
            <LeftOut view={view} holdings={leftOut} />
          </section>
          <VirtualTable
            caption={`Value of every account by account type, in ${quote}`}
            testId="firm-accounts"
            columns={columns}
            rowCount={rows.length}
            rowAt={(i) => rows[i]}
            rowKey={(a) => `${a.role}-${a.uid}`}
            estimateRowHeight={48}
            onRowClick={(a) => setSelected(`${a.role}-${a.uid}`)}
            {...(selected ? { selectedKey: selected } : {})}
            empty="No account matches the search."
          />
          {selectedAccount ? <AccountDetail account={selectedAccount} quote={quote} /> : null}
          {below ? (
            <>
              <CurrencyTotals view={below} />
              <FirmHistory quote={below.quote} />
            </>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
