/**
 * Complete history over any period: main fetches it window by window (30 days each) into a local
 * cache; this shows a real progress bar with an estimate, a Cancel button, and the cached records —
 * by default every money movement on the platform (deposits, withdrawals, sub-account and UID
 * transfers, whoever made them: this app, the website or a bot), merged newest first, exportable.
 */
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useRef, useState } from 'react';
import type { z } from 'zod';
import type { ExportProgress, HistoryKind, HistoryProgress, HistoryRecord } from '../../../../shared/contract/activity';
import { HISTORY_KIND_WORD, historyCurrency, historyStatusWords, recordText } from '../../../../shared/format/history';
import { call, useDeskEvent, useDeskMutation, useDeskQuery } from '../../lib/desk';
import { formatAmount, formatAmountOrText } from '../../lib/format';
import { notify } from '../../lib/notify';
import { usePeriod } from '../../lib/period';
import { usePrefs } from '../../lib/prefs';
import {
  Button,
  type Column,
  EmptyState,
  ErrorNotice,
  Loading,
  PeriodSelect,
  Select,
  Time,
  VirtualTable,
} from '../../ui';

type Record_ = z.output<typeof HistoryRecord>;
type Shown = HistoryKind | 'money';

/** What "All money movements" merges: every kind that moves funds in or out of an account. */
const MONEY_KINDS: HistoryKind[] = ['deposits', 'withdrawals', 'subAccountTransfers', 'pushes'];

const KINDS: { id: Shown; label: string }[] = [
  { id: 'money', label: 'All money movements' },
  { id: 'deposits', label: 'Deposits' },
  { id: 'withdrawals', label: 'Withdrawals' },
  { id: 'subAccountTransfers', label: 'Sub-account transfers' },
  { id: 'pushes', label: 'UID transfers' },
  { id: 'trades', label: 'Trades' },
];

/** Rows per request while scrolling: a screenful and a half, so a scroll needs one page at most. */
const PAGE = 100;

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

/** A count as people read it: "50,004". */
const count = (n: number): string => formatAmount(String(n));

/**
 * The cached records of some kinds in a period, read page by page as the table scrolls: `total`
 * is every record that matches, and each page is asked for only once it comes into view.
 */
const useCachedHistory = (kinds: readonly HistoryKind[], from: number, to: number) => {
  const query = useMemo(() => ({ kinds: [...kinds], from, to }), [kinds, from, to]);
  const [inView, setInView] = useState({ first: 0, last: 0 });
  const pageIndexes = useMemo(() => {
    const pages: number[] = [];
    for (let p = Math.floor(inView.first / PAGE); p <= Math.floor(inView.last / PAGE); p++) pages.push(p);
    return pages.includes(0) ? pages : [0, ...pages];
  }, [inView]);
  const results = useQueries({
    queries: pageIndexes.map((page) => {
      const input = { ...query, limit: PAGE, offset: page * PAGE };
      return {
        queryKey: ['activity.history', input] as const,
        queryFn: () => call('activity.history', input),
        staleTime: 30_000,
      };
    }),
  });
  const pages = new Map(pageIndexes.map((page, i) => [page, results[i]?.data?.records]));
  const first = results[0]?.data;
  const rowAt = (index: number): Record_ | undefined => pages.get(Math.floor(index / PAGE))?.[index % PAGE];
  const onRangeChange = useCallback(
    (firstRow: number, lastRow: number) =>
      setInView((v) => (v.first === firstRow && v.last === lastRow ? v : { first: firstRow, last: lastRow })),
    [],
  );
  return {
    total: first?.total,
    complete: first?.complete ?? true,
    error: results.find((r) => r.isError)?.error,
    rowAt,
    onRangeChange,
  };
};

/**
 * Exports every record that matches (main writes the file as it reads the cache): a progress bar
 * while it runs, then how many rows it wrote and where.
 */
function ExportHistory({
  name,
  kinds,
  from,
  to,
  total,
}: {
  /** Names the file: "history-<name>-<date>.csv". */
  readonly name: string;
  readonly kinds: readonly HistoryKind[];
  readonly from: number;
  readonly to: number;
  readonly total: number | undefined;
}) {
  const zone = usePrefs((s) => s.timeZone);
  const exportId = useRef<string | undefined>(undefined);
  const [progress, setProgress] = useState<ExportProgress | undefined>();
  /** The person pressed "Cancel export" for the running export. */
  const stopping = useRef(false);
  useDeskEvent('activity.exportProgress', (p) => {
    if (p.exportId === exportId.current) setProgress(p);
  });
  const run = useDeskMutation('activity.exportHistoryCsv', {
    onSuccess: (result) => {
      if ('cancelled' in result) {
        // The save dialog closed (nothing to say), or the person stopped it: main removed the partial file.
        if (stopping.current) notify({ tone: 'info', title: 'Export cancelled', message: 'No file was kept.' });
        return;
      }
      notify({
        tone: 'good',
        title: 'Export saved',
        message: `${count(result.rows)} row${result.rows === 1 ? '' : 's'} written to ${result.path}`,
      });
    },
    onSettled: () => setProgress(undefined),
  });
  const running = run.isPending;
  return (
    <>
      <Button
        busy={running}
        disabled={!total}
        data-testid="history-export"
        onClick={() => {
          exportId.current = crypto.randomUUID();
          stopping.current = false;
          setProgress(undefined);
          run.mutate({
            kinds: [...kinds],
            from,
            to,
            timeZone: zone,
            exportId: exportId.current,
            suggestedName: `history-${name}-${new Date().toISOString().slice(0, 10)}.csv`,
          });
        }}
      >
        {total ? `Export CSV (${count(total)} rows)` : 'Export CSV'}
      </Button>
      {running ? (
        <Button
          size="sm"
          variant="ghost"
          onClick={() => {
            stopping.current = true;
            run.cancel();
          }}
          data-testid="history-export-cancel"
        >
          Cancel export
        </Button>
      ) : null}
      {running && progress ? (
        <div
          role="progressbar"
          aria-label="Export progress"
          aria-valuemin={0}
          aria-valuemax={progress.total}
          aria-valuenow={progress.written}
          className="progress"
          data-testid="history-export-progress"
          title={`Writing ${count(progress.written)} of ${count(progress.total)} rows…`}
        >
          <div
            className="progress-bar"
            style={{ width: `${progress.total ? Math.round((progress.written / progress.total) * 100) : 100}%` }}
          />
        </div>
      ) : null}
      {run.isError ? <ErrorNotice error={run.error} compact /> : null}
    </>
  );
}

const columnsFor = (kind: Shown): Column<Record_>[] => [
  { id: 'time', header: 'Time', width: '11rem', cell: (r) => <Time ms={r.time * 1000} /> },
  ...(kind === 'money'
    ? [{ id: 'kind', header: 'Kind', width: '10rem', cell: (r: Record_) => HISTORY_KIND_WORD[r.kind] }]
    : []),
  { id: 'id', header: 'ID', cell: (r) => <code>{r.id}</code> },
  { id: 'currency', header: 'Currency', width: '7rem', cell: (r) => historyCurrency(r.data) || '—' },
  {
    id: 'amount',
    header: 'Amount',
    numeric: true,
    width: '10rem',
    cell: (r) => {
      const amount = recordText(r.data.amount);
      return amount === '' ? '—' : formatAmountOrText(amount);
    },
  },
  { id: 'status', header: 'Status', width: '14rem', cell: (r) => historyStatusWords(r.kind, r.data) },
];

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
  const kinds = useMemo(() => (kind === 'money' ? MONEY_KINDS : [kind]), [kind]);
  const cached = useCachedHistory(kinds, range.from, range.to);
  const columns = useMemo(() => columnsFor(kind), [kind]);

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
        <ExportHistory name={kind} kinds={kinds} from={range.from} to={range.to} total={cached.total} />
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
      {cached.error ? <ErrorNotice error={cached.error} /> : null}
      {cached.total === undefined && !cached.error ? <Loading label="Reading the local cache…" /> : null}
      {cached.total !== undefined ? (
        <>
          {!cached.complete ? (
            <p className="notice notice-warn" role="note">
              The cache does not cover this whole period yet: run “Sync history” to fill the gaps.
            </p>
          ) : null}
          <VirtualTable
            caption={`Cached ${KINDS.find((k) => k.id === kind)?.label.toLowerCase() ?? kind}`}
            testId="history-records"
            columns={columns}
            rowCount={cached.total}
            rowAt={cached.rowAt}
            rowKey={(r) => `${r.kind}-${r.id}`}
            onRangeChange={cached.onRangeChange}
            empty={<EmptyState title="Nothing cached for this period" />}
          />
          <p className="muted" data-testid="history-count">
            {count(cached.total)} record{cached.total === 1 ? '' : 's'} in the cache for this period, all shown above
            and all written by “Export CSV”.
          </p>
        </>
      ) : null}
    </div>
  );
}
