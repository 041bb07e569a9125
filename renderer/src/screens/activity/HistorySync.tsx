/**
 * Complete history over any period: main fetches it window by window (30 days each) into a local
 * cache; this shows a real progress bar with an estimate, a Cancel button, and the cached records —
 * by default every money movement on the platform (deposits, withdrawals, sub-account and UID
 * transfers, whoever made them: this app, the website or a bot), merged newest first, exportable.
 */
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { z } from 'zod';
import type { HistoryKind, HistoryProgress, HistoryRecord } from '../../../../shared/contract/activity';
import { type FundingRecordKind, statusTimeline } from '../../../../shared/platform/timelines';
import { isoInZone, timeHeader, toCsv } from '../../lib/csv';
import { call, useDeskEvent, useDeskMutation, useDeskQuery } from '../../lib/desk';
import { formatAmountOrText } from '../../lib/format';
import { usePeriod } from '../../lib/period';
import { usePrefs } from '../../lib/prefs';
import {
  Button,
  DataTable,
  EmptyState,
  ErrorNotice,
  ExportCsvButton,
  Loading,
  PeriodSelect,
  Select,
  Time,
} from '../../ui';

type Record_ = z.output<typeof HistoryRecord>;
type Shown = HistoryKind | 'money';

/** What "All money movements" merges: every kind that moves funds in or out of an account. */
const MONEY_KINDS: readonly HistoryKind[] = ['deposits', 'withdrawals', 'subAccountTransfers', 'pushes'];

const KINDS: { id: Shown; label: string }[] = [
  { id: 'money', label: 'All money movements' },
  { id: 'deposits', label: 'Deposits' },
  { id: 'withdrawals', label: 'Withdrawals' },
  { id: 'subAccountTransfers', label: 'Sub-account transfers' },
  { id: 'pushes', label: 'UID transfers' },
  { id: 'trades', label: 'Trades' },
];

const KIND_WORD: Record<HistoryKind, string> = {
  deposits: 'Deposit',
  withdrawals: 'Withdrawal',
  subAccountTransfers: 'Sub-account transfer',
  pushes: 'UID transfer',
  trades: 'Trade',
};

const text = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

function Progress({ progress }: { readonly progress: HistoryProgress }) {
  const pct = progress.windowsTotal > 0 ? Math.round((progress.windowsDone / progress.windowsTotal) * 100) : 100;
  const words =
    progress.state === 'running'
      ? `Fetching… ${progress.windowsDone} of ${progress.windowsTotal} windows, ${progress.records} records${
          progress.etaMs !== undefined ? `, about ${Math.ceil(progress.etaMs / 1000)} s left` : ''
        }`
      : progress.state === 'done'
        ? `Done: ${progress.records} records fetched in ${progress.requests} requests.`
        : progress.state === 'cancelled'
          ? 'Cancelled; what was fetched stays cached.'
          : progress.state === 'failed'
            ? `Failed: ${progress.error ?? 'unknown error'}`
            : 'Idle';
  return (
    <div className="stack" data-testid="history-progress">
      <div
        role="progressbar"
        aria-label="History sync progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
        className="progress"
      >
        <div className="progress-bar" style={{ width: `${pct}%` }} />
      </div>
      <p role="status">{words}</p>
    </div>
  );
}

/** History kinds whose records have a status timeline. */
const RECORD_KIND: Partial<Record<HistoryKind, FundingRecordKind>> = {
  deposits: 'deposit',
  withdrawals: 'withdrawal',
  pushes: 'push',
};

/** A cached record's status in the timelines' plain words (code in brackets), as the live screens say it. */
const statusWords = (kind: HistoryKind, data: Record<string, unknown>): string => {
  const status = text(data.status);
  if (kind === 'trades') return text(data.side) || '—';
  if (status === '') return '—';
  const record = RECORD_KIND[kind];
  return record ? `${statusTimeline(record, status).headline} (${status})` : status;
};

export function HistorySync() {
  const client = useQueryClient();
  const period = usePeriod(90);
  const { range } = period;
  const [kind, setKind] = useState<Shown>('money');
  const status = useDeskQuery(['activity.historyStatus', {}]);
  const [live, setLive] = useState<HistoryProgress | undefined>();
  useDeskEvent('activity.historyProgress', (p) => {
    setLive(p);
    if (p.state !== 'running') {
      void client.invalidateQueries({ queryKey: ['activity.history'] });
      void client.invalidateQueries({ queryKey: ['activity.historyStatus'] });
    }
  });
  const start = useDeskMutation('activity.startHistorySync', { onSuccess: (p) => setLive(p) });
  const cancel = useDeskMutation('activity.cancelHistorySync', { onSuccess: (p) => setLive(p) });
  const progress = live ?? status.data ?? undefined;
  const kinds = kind === 'money' ? MONEY_KINDS : [kind];
  const results = useQueries({
    queries: kinds.map((k) => {
      const input = { kind: k, from: range.from, to: range.to, limit: 2000 };
      return { queryKey: ['activity.history', input] as const, queryFn: () => call('activity.history', input) };
    }),
  });
  const failed = results.find((r) => r.isError)?.error;
  const pages = results.flatMap((r) => (r.data ? [r.data] : []));
  // Merged once every kind has answered (a few thousand rows at most: cheap to sort on render).
  const merged =
    pages.length === kinds.length
      ? {
          records: pages.flatMap((p) => p.records).sort((a, b) => b.time - a.time),
          total: pages.reduce((sum, p) => sum + p.total, 0),
          complete: pages.every((p) => p.complete),
        }
      : undefined;
  const zone = usePrefs((s) => s.timeZone);
  const exportCsv = (rows: readonly Record_[]) => ({
    fileName: `history-${kind}-${new Date().toISOString().slice(0, 10)}.csv`,
    csv: toCsv(
      [timeHeader('Time', zone), 'Kind', 'ID', 'Currency', 'Amount', 'Status'],
      rows.map((r) => [
        isoInZone(r.time * 1000, zone),
        KIND_WORD[r.kind],
        r.id,
        text(r.data.currency) || text(r.data.currency_pair),
        text(r.data.amount),
        statusWords(r.kind, r.data),
      ]),
    ),
  });

  return (
    <div className="stack">
      <fieldset className="filters">
        <legend className="sr-only">History sync</legend>
        <PeriodSelect period={period} />
        <Select
          label="Show"
          value={kind}
          options={KINDS.map((k) => ({ value: k.id, label: k.label }))}
          onChange={setKind}
        />
        <ExportCsvButton
          build={() => exportCsv(merged?.records ?? [])}
          disabled={!merged || merged.records.length === 0}
          testId="history-export"
        />
        <Button
          variant="primary"
          busy={start.isPending}
          disabled={progress?.state === 'running'}
          onClick={() => start.mutate({ from: range.from, to: range.to })}
          data-testid="history-sync-start"
        >
          Sync history
        </Button>
        {progress?.state === 'running' ? (
          <Button onClick={() => cancel.mutate({ syncId: progress.syncId })} busy={cancel.isPending}>
            Cancel sync
          </Button>
        ) : null}
      </fieldset>
      {start.isError ? <ErrorNotice error={start.error} /> : null}
      {cancel.isError ? <ErrorNotice error={cancel.error} /> : null}
      {progress ? <Progress progress={progress} /> : null}
      {failed ? <ErrorNotice error={failed} /> : null}
      {!merged && !failed ? <Loading label="Reading the local cache…" /> : null}
      {merged ? (
        <>
          {!merged.complete ? (
            <p className="notice notice-warn" role="note">
              The cache does not cover this whole period yet: run “Sync history” to fill the gaps.
            </p>
          ) : null}
          <DataTable
            caption={`Cached ${KINDS.find((k) => k.id === kind)?.label.toLowerCase() ?? kind}`}
            testId="history-records"
            rows={merged.records}
            rowKey={(r) => `${r.kind}-${r.id}`}
            empty={<EmptyState title="Nothing cached for this period" />}
            columns={[
              { id: 'time', header: 'Time', cell: (r) => <Time ms={r.time * 1000} /> },
              ...(kind === 'money' ? [{ id: 'kind', header: 'Kind', cell: (r: Record_) => KIND_WORD[r.kind] }] : []),
              { id: 'id', header: 'ID', cell: (r) => <code>{r.id}</code> },
              {
                id: 'currency',
                header: 'Currency',
                cell: (r) => text(r.data.currency) || text(r.data.currency_pair) || '—',
              },
              {
                id: 'amount',
                header: 'Amount',
                numeric: true,
                cell: (r) => {
                  const amount = text(r.data.amount);
                  return amount === '' ? '—' : formatAmountOrText(amount);
                },
              },
              { id: 'status', header: 'Status', cell: (r) => statusWords(r.kind, r.data) },
            ]}
          />
          <p className="muted">
            {merged.total} record{merged.total === 1 ? '' : 's'} in the cache for this period.
          </p>
        </>
      ) : null}
    </div>
  );
}
