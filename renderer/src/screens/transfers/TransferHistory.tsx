/**
 * Transfers of a period (at most 30 days: the platform's limit for these records), newest first:
 * sub-account transfer records plus own-account transfers from the journal; sortable, searchable,
 * and exported as CSV with the time zone in the column titles.
 */
import { useMemo, useState } from 'react';
import type { TransferRecord } from '../../../../shared/contract/transfers';
import { toCsv } from '../../../../shared/format/csv';
import { type DisplayTimeZone, isoInZone, timeHeader } from '../../../../shared/format/time';
import { useDeskQuery } from '../../lib/desk';
import { usePeriod } from '../../lib/period';
import { usePrefs } from '../../lib/prefs';
import { matchesSearch } from '../../lib/search';
import {
  Amount,
  Badge,
  type Column,
  CopyButton,
  DataTable,
  EmptyState,
  ErrorNotice,
  ExportCsvButton,
  Loading,
  PeriodSelect,
  Select,
  TextField,
  Time,
  TimeHeader,
  type Tone,
} from '../../ui';

/** The platform lists sub-account transfers for at most 30 days per request. */
const MAX_DAYS = 30;

const TONE: Record<TransferRecord['state'], Tone> = { done: 'good', checking: 'warn', pending: 'info', failed: 'bad' };

const KIND_TEXT: Record<TransferRecord['kind'], string> = {
  own: 'Own accounts',
  mainSub: 'Main ↔ sub',
  subSub: 'Sub ↔ sub',
};

/** The CSV of the rows shown: times in the display zone, named in the column titles. */
export const transfersCsv = (rows: readonly TransferRecord[], zone: DisplayTimeZone): string =>
  toCsv(
    [timeHeader('Time', zone), 'Kind', 'From', 'To', 'Currency', 'Amount', 'Status', 'Client id', 'Recorded by'],
    rows.map((r) => [
      isoInZone(r.time, zone),
      KIND_TEXT[r.kind],
      r.from,
      r.to,
      r.currency,
      r.amount,
      r.stateText,
      r.clientOrderId ?? '',
      r.source === 'journal' ? 'this app' : 'the platform',
    ]),
  );

export const TransferHistory = () => {
  const period = usePeriod(7);
  const [sub, setSub] = useState('');
  const [search, setSearch] = useState('');
  const zone = usePrefs((s) => s.timeZone);
  const { from, to } = period.range;
  const subs = useDeskQuery(['subAccounts.list', {}]);
  const history = useDeskQuery(['transfers.history', { from, to, ...(sub === '' ? {} : { subUserId: Number(sub) }) }]);
  const rows = useMemo(
    () => (history.data?.records ?? []).filter((r) => matchesSearch(search, [r.id, r.clientOrderId, r.from, r.to])),
    [history.data, search],
  );

  const columns: Column<TransferRecord>[] = [
    { id: 'time', header: <TimeHeader>Time</TimeHeader>, cell: (r) => <Time ms={r.time} />, sortValue: (r) => r.time },
    { id: 'kind', header: 'Kind', cell: (r) => KIND_TEXT[r.kind], sortValue: (r) => KIND_TEXT[r.kind] },
    { id: 'from', header: 'From', cell: (r) => r.from, sortValue: (r) => r.from },
    { id: 'to', header: 'To', cell: (r) => r.to, sortValue: (r) => r.to },
    {
      id: 'amount',
      header: 'Amount',
      numeric: true,
      cell: (r) => <Amount value={r.amount} currency={r.currency} />,
      sortValue: (r) => r.amount,
    },
    {
      id: 'state',
      header: 'Status',
      sortValue: (r) => r.stateText,
      cell: (r) => (
        <Badge
          tone={TONE[r.state]}
          title={r.source === 'journal' ? 'As recorded by this app' : 'As recorded by the platform'}
        >
          {r.stateText}
        </Badge>
      ),
    },
    {
      id: 'client',
      header: 'Client id',
      cell: (r) =>
        r.clientOrderId ? (
          <span className="row-actions">
            <code className="small" title={r.clientOrderId}>
              {r.clientOrderId.length > 12 ? `${r.clientOrderId.slice(0, 12)}…` : r.clientOrderId}
            </code>
            <CopyButton value={r.clientOrderId} label="Copy client id" />
          </span>
        ) : (
          '—'
        ),
    },
  ];

  return (
    <section aria-labelledby="transfer-history-heading" className="panel" data-testid="transfer-history">
      <div className="section-header">
        <h2 id="transfer-history-heading">History</h2>
        <div className="form-row">
          <PeriodSelect period={period} maxDays={MAX_DAYS} />
          <Select
            label="Sub-account"
            value={sub}
            onChange={setSub}
            options={[
              { value: '', label: 'All' },
              ...(subs.data?.accounts ?? []).map((a) => ({
                value: String(a.userId),
                label: `${a.loginName} (UID ${a.userId})`,
              })),
            ]}
          />
          <TextField label="Search" value={search} onChange={setSearch} placeholder="Client id, account or id" />
          <ExportCsvButton
            disabled={rows.length === 0}
            testId="transfers-export"
            build={() => ({
              fileName: `transfers-${new Date().toISOString().slice(0, 10)}.csv`,
              csv: transfersCsv(rows, zone),
            })}
          />
        </div>
      </div>
      {history.isPending ? <Loading label="Loading transfers…" /> : null}
      {history.error ? <ErrorNotice error={history.error} onRetry={() => history.refetch()} /> : null}
      {history.data ? (
        <DataTable
          caption="Transfers"
          columns={columns}
          rows={rows}
          rowKey={(r) => r.id}
          testId="transfer-history-table"
          empty={<EmptyState title="No transfers in this period" />}
        />
      ) : null}
    </section>
  );
};
