/** Transfers of a period, newest first: sub-account transfer records plus own-account transfers from the journal. */
import { useState } from 'react';
import type { TransferRecord } from '../../../../shared/contract/transfers';
import { useDeskQuery } from '../../lib/desk';
import {
  Amount,
  Badge,
  type Column,
  CopyButton,
  DataTable,
  EmptyState,
  ErrorNotice,
  Loading,
  Select,
  Time,
  type Tone,
} from '../../ui';

const PERIODS = { '1': 'Last 24 hours', '7': 'Last 7 days', '30': 'Last 30 days' } as const;
type Period = keyof typeof PERIODS;

const TONE: Record<TransferRecord['state'], Tone> = { done: 'good', checking: 'warn', pending: 'info', failed: 'bad' };

const KIND_TEXT: Record<TransferRecord['kind'], string> = {
  own: 'Own accounts',
  mainSub: 'Main ↔ sub',
  subSub: 'Sub ↔ sub',
};

export const TransferHistory = () => {
  const [period, setPeriod] = useState<Period>('7');
  const [sub, setSub] = useState('');
  // The window is fixed per choice (rounded to the minute) so the query key is stable between renders.
  const to = Math.floor(Date.now() / 60_000) * 60 + 60;
  const from = to - Number(period) * 86_400;
  const subs = useDeskQuery(['subAccounts.list', {}]);
  const history = useDeskQuery(['transfers.history', { from, to, ...(sub === '' ? {} : { subUserId: Number(sub) }) }]);

  const columns: Column<TransferRecord>[] = [
    { id: 'time', header: 'Time', cell: (r) => <Time ms={r.time} /> },
    { id: 'kind', header: 'Kind', cell: (r) => KIND_TEXT[r.kind] },
    { id: 'from', header: 'From', cell: (r) => r.from },
    { id: 'to', header: 'To', cell: (r) => r.to },
    { id: 'amount', header: 'Amount', numeric: true, cell: (r) => <Amount value={r.amount} currency={r.currency} /> },
    {
      id: 'state',
      header: 'Status',
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
          <Select
            label="Period"
            value={period}
            onChange={setPeriod}
            options={(Object.keys(PERIODS) as Period[]).map((p) => ({ value: p, label: PERIODS[p] }))}
          />
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
        </div>
      </div>
      {history.isPending ? <Loading label="Loading transfers…" /> : null}
      {history.error ? <ErrorNotice error={history.error} onRetry={() => history.refetch()} /> : null}
      {history.data ? (
        <DataTable
          caption="Transfers"
          columns={columns}
          rows={history.data.records}
          rowKey={(r) => r.id}
          testId="transfer-history-table"
          empty={<EmptyState title="No transfers in this period" />}
        />
      ) : null}
    </section>
  );
};
