/**
 * Filters and columns shared by the withdrawal and deposit histories: the filter bar (period or a
 * custom range, currency, state over the status timelines, a search over txid / address / id,
 * Refresh, CSV export), the status column (plain words with the platform's code)
 * and the Details button.
 */
import { useState } from 'react';
import type { Timeline } from '../../../shared/platform/timelines';
import { useDeskQuery } from '../lib/desk';
import { usePeriod } from '../lib/period';
import { alignedAmounts } from './Amount';
import { Button } from './Button';
import { type CsvFile, ExportCsvButton } from './ExportCsvButton';
import { PeriodSelect } from './PeriodSelect';
import { Select } from './Select';
import type { Column } from './Table';
import { TextField } from './TextField';
import { Time, TimeHeader } from './Time';

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

export const StateSelect = ({
  value,
  onChange,
}: {
  readonly value: StateFilter;
  readonly onChange: (value: StateFilter) => void;
}) => <Select label="State" value={value} options={STATE_OPTIONS} onChange={onChange} />;

/** Every currency the platform lists (its withdrawal rules, cached for a minute), plus "All currencies". */
export const CurrencySelect = ({
  value,
  onChange,
}: {
  readonly value: string;
  readonly onChange: (value: string) => void;
}) => {
  const rules = useDeskQuery(['funding.withdrawRules', {}], { staleTime: 60_000 });
  return (
    <Select
      label="Currency"
      value={value}
      options={[
        { value: '', label: 'All currencies' },
        ...(rules.data ?? [])
          .map((r) => r.currency)
          .sort()
          .map((c) => ({ value: c, label: c })),
      ]}
      onChange={onChange}
    />
  );
};

interface HistoryRow {
  readonly id: string;
  readonly status: string;
}

/** Time, currency and amount: the first columns of every funding history, each sortable. */
export const recordColumns = <
  R extends HistoryRow & { readonly time: number; readonly currency: string; readonly amount: string },
>(
  rows: readonly R[],
): Column<R>[] => [
  {
    id: 'time',
    header: <TimeHeader>Time</TimeHeader>,
    cell: (r) => <Time ms={r.time * 1000} />,
    sortValue: (r) => r.time,
  },
  { id: 'currency', header: 'Currency', cell: (r) => r.currency, sortValue: (r) => r.currency },
  {
    id: 'amount',
    header: 'Amount',
    numeric: true,
    cell: alignedAmounts(rows, (r) => r.amount),
    sortValue: (r) => r.amount,
  },
];

/** The record's status in plain words (the platform's code in the tooltip and the record's Details). */
export const statusColumn = <R extends HistoryRow>(timelineOf: (row: R) => Timeline): Column<R> => ({
  id: 'status',
  header: 'Status',
  sortValue: (r) => timelineOf(r).headline,
  cell: (r) => (
    <span data-status={r.status} title={`Platform status ${r.status}`}>
      {timelineOf(r).headline}
    </span>
  ),
});

/** Opens the record's detail (its timeline) under the table. */
export const detailsColumn = <R extends HistoryRow>(open: (id: string) => void): Column<R> => ({
  id: 'open',
  header: <span className="sr-only">Details</span>,
  cell: (r) => (
    <Button size="sm" variant="ghost" onClick={() => open(r.id)} aria-label={`Details of ${r.id}`}>
      Details
    </Button>
  ),
});

/** The filters of one history list: period, currency, state and a search over ids and addresses. */
export const useHistoryFilters = () => {
  const period = usePeriod(30);
  const [currency, setCurrency] = useState('');
  const [state, setState] = useState<StateFilter>('all');
  const [search, setSearch] = useState('');
  return { period, currency, setCurrency, state, setState, search, setSearch };
};

export type HistoryFilters = ReturnType<typeof useHistoryFilters>;

/** The filter bar of a history list: period, currency, state, Refresh and the CSV export of the rows shown. */
export const HistoryFilterBar = ({
  legend,
  filters,
  refreshing,
  refreshTestId,
  exportTestId,
  exportFile,
  rowsShown,
}: {
  readonly legend: string;
  readonly filters: HistoryFilters;
  readonly refreshing: boolean;
  readonly refreshTestId?: string;
  readonly exportTestId: string;
  /** The CSV of the rows shown (the button is disabled while no row is shown). */
  readonly exportFile: () => CsvFile;
  readonly rowsShown: number;
}) => (
  <fieldset className="filters">
    <legend className="sr-only">{legend}</legend>
    <PeriodSelect period={filters.period} />
    <CurrencySelect value={filters.currency} onChange={filters.setCurrency} />
    <StateSelect value={filters.state} onChange={filters.setState} />
    <TextField
      label="Search"
      value={filters.search}
      onChange={filters.setSearch}
      placeholder="Txid, address or id"
      data-testid="history-search"
    />
    <Button onClick={filters.period.refresh} busy={refreshing} data-testid={refreshTestId}>
      Refresh
    </Button>
    <ExportCsvButton disabled={rowsShown === 0} testId={exportTestId} build={exportFile} />
  </fieldset>
);
