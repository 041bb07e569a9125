/**
 * Deposit history with filters, each record's status timeline in plain words (with the network's
 * confirmations when known), refreshed on main's deposit events (the frame's FundingNotifier), and a CSV export.
 */
import { useMemo } from 'react';
import type { DepositRecord } from '../../../../shared/contract/funding';
import { depositTimeline } from '../../../../shared/platform/timelines';
import { isoInZone, timeHeader, toCsv } from '../../lib/csv';
import { useDeskQuery } from '../../lib/desk';
import { type DisplayTimeZone, formatMoney } from '../../lib/format';
import { usePrefs } from '../../lib/prefs';
import { matchesSearch } from '../../lib/search';
import {
  ChainId,
  ChainIdCell,
  DataTable,
  DetailsList,
  detailsColumn,
  EmptyState,
  HistoryFilterBar,
  matchesState,
  QueryStatus,
  recordColumns,
  StatusTimeline,
  statusColumn,
  Time,
  useHistoryFilters,
} from '../../ui';
import { useDepositsUi } from './store';

export const depositsCsv = (rows: readonly DepositRecord[], zone: DisplayTimeZone): string =>
  toCsv(
    [
      timeHeader('Time', zone),
      'Deposit ID',
      'Currency',
      'Chain',
      'Amount',
      'Address',
      'Memo',
      'Status code',
      'Status',
      'TXID',
    ],
    rows.map((r) => [
      isoInZone(r.time * 1000, zone),
      r.id,
      r.currency,
      r.chain ?? '',
      r.amount,
      r.address ?? '',
      r.memo ?? '',
      r.status,
      depositTimeline(r).headline,
      r.txid ?? '',
    ]),
  );

/**
 * How many network confirmations the deposit needs, and whether it has them: the platform reports
 * the count its network needs (deposit address) and the deposit's status, not the count so far.
 */
export const confirmationWords = (record: DepositRecord, needed: number | undefined): string => {
  const status = record.status.toUpperCase();
  if (needed === undefined) return status === 'DONE' ? 'Reached (credited)' : 'Not reported by the platform';
  const count = `${needed} needed`;
  switch (status) {
    case 'DONE':
      return `${count}: reached (credited)`;
    case 'DEP_CREDITED':
      return `${count}: credited before the last ones; withdrawing it unlocks when they are reached`;
    case 'REVIEW':
    case 'MANUAL':
      return `${count}: the platform reviews the deposit`;
    case 'BLOCKED':
    case 'INVALID':
      return `${count}: not credited`;
    default:
      return `${count}: still waiting (the platform does not report how many so far)`;
  }
};

function DepositDetail({ record }: { readonly record: DepositRecord }) {
  // The network's confirmation count, from the currency's address list (cached for a minute).
  const address = useDeskQuery(['funding.depositAddress', { currency: record.currency }], { staleTime: 60_000 });
  const confirms = address.data?.chains.find((c) => c.chain === record.chain)?.minConfirmations;
  return (
    <div className="deposit-detail" data-testid="deposit-detail" data-deposit-id={record.id}>
      <StatusTimeline timeline={depositTimeline(record, confirms)} label={`Deposit ${record.id} status`} />
      <DetailsList
        rows={[
          { label: 'Amount', value: formatMoney(record.amount, record.currency) },
          { label: 'Network', value: record.chain ?? '—' },
          { label: 'Confirmations', value: confirmationWords(record, confirms) },
          { label: 'Time', value: <Time ms={record.time * 1000} withZone /> },
          record.txid
            ? {
                label: 'Transaction id',
                value: <ChainId chain={record.chain} target="tx" value={record.txid} testId="deposit-txid" />,
              }
            : null,
          { label: 'Deposit id', value: <code>{record.id}</code> },
        ]}
      />
    </div>
  );
}

export function DepositHistory() {
  const zone = usePrefs((s) => s.timeZone);
  const filters = useHistoryFilters();
  const { range } = filters.period;
  const { currency, state, search } = filters;
  const selected = useDepositsUi((s) => s.selected);
  const setSelected = (id: string) => useDepositsUi.getState().patch({ selected: id });
  const query = useDeskQuery(['funding.deposits', { range, ...(currency ? { currency } : {}) }]);
  const rows = useMemo(
    () =>
      (query.data ?? []).filter(
        (r) => matchesState(depositTimeline(r), state) && matchesSearch(search, [r.id, r.txid, r.address, r.memo]),
      ),
    [query.data, state, search],
  );
  const chosen = rows.find((r) => r.id === selected);
  return (
    <div className="stack">
      <HistoryFilterBar
        legend="Deposit filters"
        filters={filters}
        refreshing={query.isFetching}
        refreshTestId="deposits-refresh"
        exportTestId="deposits-export"
        rowsShown={rows.length}
        exportFile={() => ({
          fileName: `deposits-${new Date().toISOString().slice(0, 10)}.csv`,
          csv: depositsCsv(rows, zone),
        })}
      />
      <QueryStatus query={query} loading="Loading deposits…" />
      {query.data ? (
        <DataTable
          caption="Deposits"
          testId="deposits-table"
          rows={rows}
          rowKey={(r) => r.id}
          selectedKey={selected}
          onRowClick={(r) => setSelected(r.id)}
          empty={<EmptyState title="No deposits in this period">Change the filters to look further back.</EmptyState>}
          columns={[
            ...recordColumns(rows),
            { id: 'chain', header: 'Network', cell: (r) => r.chain ?? '—', sortValue: (r) => r.chain },
            {
              id: 'txid',
              header: 'TXID',
              cell: (r) => <ChainIdCell chain={r.chain} target="tx" value={r.txid} testId={`deposit-txid-${r.id}`} />,
            },
            statusColumn((r: DepositRecord) => depositTimeline(r)),
            detailsColumn(setSelected),
          ]}
        />
      ) : null}
      {chosen ? <DepositDetail record={chosen} /> : null}
    </div>
  );
}
