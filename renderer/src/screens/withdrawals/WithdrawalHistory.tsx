/**
 * Withdrawal history: filters (range, currency, state), a table, the selected record's timeline with
 * Cancel, and a CSV export of exactly the rows shown.
 */
import { useMemo, useState } from 'react';
import type { WithdrawalRecord } from '../../../../shared/contract/funding';
import { useDeskQuery } from '../../lib/desk';
import { type DisplayTimeZone, formatAmount } from '../../lib/format';
import { usePrefs } from '../../lib/prefs';
import { Button, DataTable, EmptyState, ErrorNotice, Loading, Select, Time } from '../../ui';
import { downloadCsv, isoInZone, timeHeader, toCsv } from './export/csv';
import { lastDays, type Range, rangeOptions } from './history/range';
import { type Timeline, withdrawalTimeline } from './timeline/statuses';
import { FOLLOW_INTERVAL_MS, WithdrawalDetail } from './WithdrawalTracker';

export type StateFilter = 'all' | 'active' | 'done' | 'failed';

export const STATE_OPTIONS: { value: StateFilter; label: string }[] = [
  { value: 'all', label: 'Any state' },
  { value: 'active', label: 'In progress' },
  { value: 'done', label: 'Done' },
  { value: 'failed', label: 'Failed or cancelled' },
];

export const matchesState = (timeline: Timeline, filter: StateFilter): boolean => {
  if (filter === 'all') return true;
  if (filter === 'done') return timeline.final && timeline.tone === 'success';
  if (filter === 'failed') return timeline.tone === 'failure';
  return !timeline.final && timeline.tone !== 'failure';
};

export const withdrawalsCsv = (rows: readonly WithdrawalRecord[], zone: DisplayTimeZone): string =>
  toCsv(
    [
      timeHeader('Time', zone),
      timeHeader('Final time', zone),
      'Withdrawal ID',
      'Client ID',
      'Currency',
      'Chain',
      'Amount',
      'Fee',
      'Address',
      'Memo',
      'Status code',
      'Status',
      'Fail reason',
      'TXID',
      'Block number',
    ],
    rows.map((r) => [
      isoInZone(r.time * 1000, zone),
      r.finalTime ? isoInZone(r.finalTime * 1000, zone) : '',
      r.id,
      r.withdrawOrderId ?? '',
      r.currency,
      r.chain ?? '',
      r.amount,
      r.fee ?? '',
      r.address ?? '',
      r.memo ?? '',
      r.status,
      withdrawalTimeline(r).headline,
      r.failReason ?? '',
      r.txid ?? '',
      r.blockNumber ?? '',
    ]),
  );

export function WithdrawalHistory() {
  const zone = usePrefs((s) => s.timeZone);
  const [days, setDays] = useState('30');
  const [range, setRange] = useState<Range>(() => lastDays(30));
  const [currency, setCurrency] = useState('');
  const [state, setState] = useState<StateFilter>('all');
  const [selected, setSelected] = useState<string | undefined>();

  const query = useDeskQuery(['funding.withdrawals', { range, ...(currency ? { currency } : {}) }], {
    // Keep following while something is still moving.
    refetchInterval: (q) => (q.state.data?.some((r) => !withdrawalTimeline(r).final) ? FOLLOW_INTERVAL_MS * 2 : false),
  });
  const rules = useDeskQuery(['funding.withdrawRules', {}], { staleTime: 60_000 });

  const rows = useMemo(
    () =>
      [...(query.data ?? [])]
        .filter((r) => matchesState(withdrawalTimeline(r), state))
        .sort((a, b) => b.time - a.time || b.id.localeCompare(a.id)),
    [query.data, state],
  );
  const chosen = rows.find((r) => r.id === selected);

  return (
    <div className="stack">
      <fieldset className="filters">
        <legend className="sr-only">Withdrawal filters</legend>
        <Select
          label="Period"
          value={days}
          options={rangeOptions}
          onChange={(value) => {
            setDays(value);
            setRange(lastDays(Number(value)));
          }}
        />
        <Select
          label="Currency"
          value={currency}
          options={[
            { value: '', label: 'All currencies' },
            ...(rules.data ?? [])
              .map((r) => r.currency)
              .sort()
              .map((c) => ({ value: c, label: c })),
          ]}
          onChange={setCurrency}
        />
        <Select label="State" value={state} options={STATE_OPTIONS} onChange={setState} />
        <Button onClick={() => setRange(lastDays(Number(days)))} busy={query.isFetching}>
          Refresh
        </Button>
        <Button
          disabled={rows.length === 0}
          data-testid="withdrawals-export"
          onClick={() =>
            downloadCsv(`withdrawals-${new Date().toISOString().slice(0, 10)}.csv`, withdrawalsCsv(rows, zone))
          }
        >
          Export CSV
        </Button>
      </fieldset>
      {query.isFetching && query.isPending ? (
        <div role="progressbar" aria-label="Loading withdrawal history" className="progress-indeterminate" />
      ) : null}
      {query.isPending ? <Loading label="Loading withdrawals…" /> : null}
      {query.isError ? <ErrorNotice error={query.error} onRetry={() => void query.refetch()} /> : null}
      {query.data ? (
        <DataTable
          caption="Withdrawals"
          testId="withdrawals-table"
          rows={rows}
          rowKey={(r) => r.id}
          selectedKey={selected}
          onRowClick={(r) => setSelected(r.id)}
          empty={
            <EmptyState title="No withdrawals in this period">Change the filters to look further back.</EmptyState>
          }
          columns={[
            { id: 'time', header: 'Time', cell: (r) => <Time ms={r.time * 1000} /> },
            { id: 'currency', header: 'Currency', cell: (r) => r.currency },
            { id: 'amount', header: 'Amount', numeric: true, cell: (r) => formatAmount(r.amount) },
            { id: 'fee', header: 'Fee', numeric: true, cell: (r) => (r.fee ? formatAmount(r.fee) : '—') },
            { id: 'chain', header: 'Network', cell: (r) => r.chain ?? '—' },
            { id: 'address', header: 'Address', cell: (r) => <code className="break-all">{r.address}</code> },
            {
              id: 'status',
              header: 'Status',
              cell: (r) => (
                <span data-status={r.status}>
                  {withdrawalTimeline(r).headline} <span className="muted">({r.status})</span>
                </span>
              ),
            },
            {
              id: 'open',
              header: <span className="sr-only">Details</span>,
              cell: (r) => (
                <Button size="sm" variant="ghost" onClick={() => setSelected(r.id)} aria-label={`Details of ${r.id}`}>
                  Details
                </Button>
              ),
            },
          ]}
        />
      ) : null}
      {chosen ? <WithdrawalDetail record={chosen} /> : null}
    </div>
  );
}
