import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { BatchRowView } from '../../../../shared/contract/bulk';
import { call, useDeskEvent, useDeskQuery } from '../../lib/desk';
import { formatMoney } from '../../lib/format';
import { notify } from '../../lib/notify';
import { Badge, Button, type Column, ErrorNotice, Notice, QueryStatus, type Tone, VirtualTable } from '../../ui';

const TONE: Record<BatchRowView['state'], Tone> = {
  pending: 'neutral',
  sending: 'info',
  checking: 'warn',
  done: 'good',
  failed: 'bad',
  cancelled: 'neutral',
};
/** A row's state: "done" is the platform's acceptance (a withdrawal may still be on its way on chain). */
const WORDS: Record<BatchRowView['state'], string> = {
  pending: 'Waiting',
  sending: 'Sending',
  checking: 'Unknown — checking',
  done: 'Accepted by the platform',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

const columns: readonly Column<BatchRowView>[] = [
  { id: 'row', header: 'Row', cell: (r) => String(r.row), numeric: true, width: '4rem' },
  { id: 'amount', header: 'Amount', cell: (r) => formatMoney(r.amount, r.currency), numeric: true },
  { id: 'from', header: 'From', cell: (r) => r.from },
  { id: 'to', header: 'To', cell: (r) => <span className="mono">{r.to}</span> },
  {
    id: 'state',
    header: 'Status',
    cell: (r) => (
      <span data-testid={`bulk-row-state-${r.row}`}>
        <Badge tone={TONE[r.state]}>{WORDS[r.state]}</Badge>
        {r.message && r.state !== 'done' ? (
          <div className="muted">
            {r.label ? `${r.label}: ` : ''}
            {r.message}
          </div>
        ) : null}
      </span>
    ),
  },
  { id: 'client', header: 'Client id', cell: (r) => <span className="mono">{r.clientId ?? ''}</span> },
  { id: 'platform', header: 'Platform id', cell: (r) => <span className="mono">{r.platformId ?? ''}</span> },
];

/** A batch as it runs: progress, per-row status, pause / resume / cancel, the report. */
export const BatchProgress = ({ id }: { readonly id: string }) => {
  const client = useQueryClient();
  const query = useDeskQuery(['bulk.get', { id }]);
  const [busy, setBusy] = useState<string | undefined>();
  const [error, setError] = useState<unknown>();
  useDeskEvent('bulk.batchChanged', (event) => {
    if (event.id === id) void client.invalidateQueries({ queryKey: ['bulk.get', { id }] });
  });
  const act = async (op: 'bulk.start' | 'bulk.pause' | 'bulk.resume' | 'bulk.cancel' | 'bulk.retryFailed') => {
    setBusy(op);
    setError(undefined);
    try {
      await call(op, { id }, { action: true });
      await client.invalidateQueries({ queryKey: ['bulk.get', { id }] });
      await client.invalidateQueries({ queryKey: ['bulk.list', {}] });
    } catch (e) {
      setError(e);
    } finally {
      setBusy(undefined);
    }
  };
  const exportReport = async () => {
    setBusy('export');
    try {
      const saved = await call('bulk.exportReport', { id, timeZone: 'UTC' }, { action: true });
      if ('path' in saved) notify({ tone: 'good', title: 'Report saved', message: `Saved to ${saved.path}` });
    } catch (e) {
      setError(e);
    } finally {
      setBusy(undefined);
    }
  };
  if (!query.data) return <QueryStatus query={query} />;
  const { batch, rows } = query.data;
  const c = batch.counts;
  const settled = c.done + c.failed + c.cancelled;
  const rowsInBatch = c.total;
  return (
    <section aria-label={`Batch ${batch.name}`} data-testid="bulk-progress" data-state={batch.state}>
      <h2>
        {batch.name}{' '}
        <Badge tone={batch.state === 'finished' ? 'good' : batch.state === 'cancelled' ? 'neutral' : 'info'}>
          {batch.state}
        </Badge>
      </h2>
      <progress max={rowsInBatch} value={settled} aria-label="Rows settled" data-testid="bulk-progress-bar" />
      <p role="status" data-testid="bulk-counts">
        {settled} of {rowsInBatch} settled · {c.done} done · {c.failed} failed · {c.checking} checking ·{' '}
        {c.pending + c.sending} to send
        {c.cancelled ? ` · ${c.cancelled} cancelled` : ''}
      </p>
      {batch.state === 'approval' ? (
        <Notice tone="warn" data-testid="bulk-awaiting-approval">
          Waiting for approval: the whole batch is one item in Approvals. Nothing is sent before an operator other than
          you approves it; a rejected or expired batch sends nothing.
        </Notice>
      ) : null}
      {batch.note ? <Notice tone="warn">{batch.note}</Notice> : null}
      {error ? <ErrorNotice error={error} /> : null}
      <div className="button-row">
        {batch.state === 'ready' ? (
          <Button
            variant="primary"
            busy={busy === 'bulk.start'}
            onClick={() => void act('bulk.start')}
            data-testid="bulk-run"
          >
            Run batch ({rowsInBatch} rows)
          </Button>
        ) : null}
        {batch.state === 'running' ? (
          <Button busy={busy === 'bulk.pause'} onClick={() => void act('bulk.pause')} data-testid="bulk-pause">
            Pause
          </Button>
        ) : null}
        {batch.state === 'paused' ? (
          <Button
            variant="primary"
            busy={busy === 'bulk.resume'}
            onClick={() => void act('bulk.resume')}
            data-testid="bulk-resume"
          >
            Resume
          </Button>
        ) : null}
        {batch.state === 'running' || batch.state === 'paused' || batch.state === 'approval' ? (
          <Button
            variant="danger"
            busy={busy === 'bulk.cancel'}
            onClick={() => void act('bulk.cancel')}
            data-testid="bulk-cancel"
          >
            Cancel rows not sent
          </Button>
        ) : null}
        {(batch.state === 'finished' || batch.state === 'cancelled') && c.failed > 0 ? (
          <Button busy={busy === 'bulk.retryFailed'} onClick={() => void act('bulk.retryFailed')}>
            Send the failed rows again
          </Button>
        ) : null}
        {batch.state !== 'ready' ? (
          <Button busy={busy === 'export'} onClick={() => void exportReport()} data-testid="bulk-export">
            Export report (CSV)
          </Button>
        ) : null}
      </div>
      <VirtualTable
        caption="Rows and their status"
        columns={columns}
        rowCount={rows.length}
        rowAt={(i) => rows[i]}
        rowKey={(r) => String(r.row)}
        maxHeight="28rem"
        estimateRowHeight={40}
        testId="bulk-rows"
      />
    </section>
  );
};
