/**
 * Withdrawal history: filters (range, currency, state), a table, the selected record's timeline with
 * Cancel, and a CSV export of exactly the rows shown.
 */
import { useMemo } from 'react';
import type { WithdrawalRecord } from '../../../../shared/contract/funding';
import { withdrawalTimeline } from '../../../../shared/platform/timelines';
import { isoInZone, timeHeader, toCsv } from '../../lib/csv';
import { useDeskQuery } from '../../lib/desk';
import type { DisplayTimeZone } from '../../lib/format';
import { usePrefs } from '../../lib/prefs';
import { matchesSearch } from '../../lib/search';
import {
  alignedAmounts,
  ChainIdCell,
  DataTable,
  detailsColumn,
  EmptyState,
  ErrorNotice,
  HistoryFilterBar,
  Loading,
  matchesState,
  recordColumns,
  statusColumn,
  useHistoryFilters,
} from '../../ui';
import { useWithdrawalsUi } from './store';
import { WithdrawalDetail } from './WithdrawalTracker';

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
  const filters = useHistoryFilters();
  const { range } = filters.period;
  const { currency, state, search } = filters;
  const selected = useWithdrawalsUi((s) => s.selected);
  const setSelected = (id: string) => useWithdrawalsUi.getState().patch({ selected: id });

  // Refreshed on main's withdrawal events (the frame's FundingNotifier): main follows what is still moving.
  const query = useDeskQuery(['funding.withdrawals', { range, ...(currency ? { currency } : {}) }]);

  const rows = useMemo(
    () =>
      [...(query.data ?? [])]
        .filter((r) => matchesState(withdrawalTimeline(r), state))
        .filter((r) => matchesSearch(search, [r.id, r.txid, r.withdrawOrderId, r.address, r.memo]))
        .sort((a, b) => b.time - a.time || b.id.localeCompare(a.id)),
    [query.data, state, search],
  );
  const chosen = rows.find((r) => r.id === selected);

  return (
    <div className="stack">
      <HistoryFilterBar
        legend="Withdrawal filters"
        filters={filters}
        refreshing={query.isFetching}
        exportTestId="withdrawals-export"
        rowsShown={rows.length}
        exportFile={() => ({
          fileName: `withdrawals-${new Date().toISOString().slice(0, 10)}.csv`,
          csv: withdrawalsCsv(rows, zone),
        })}
      />
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
            ...recordColumns(rows),
            {
              id: 'fee',
              header: 'Fee',
              numeric: true,
              cell: alignedAmounts(rows, (r) => r.fee),
              sortValue: (r) => r.fee,
            },
            { id: 'chain', header: 'Network', cell: (r) => r.chain ?? '—', sortValue: (r) => r.chain },
            {
              id: 'address',
              header: 'Address',
              cell: (r) => <ChainIdCell chain={r.chain} target="address" value={r.address} />,
            },
            {
              id: 'txid',
              header: 'TXID',
              cell: (r) => (
                <ChainIdCell chain={r.chain} target="tx" value={r.txid} testId={`withdrawal-txid-${r.id}`} />
              ),
            },
            statusColumn(withdrawalTimeline),
            detailsColumn(setSelected),
          ]}
        />
      ) : null}
      {chosen ? <WithdrawalDetail record={chosen} /> : null}
    </div>
  );
}
