/**
 * Every money movement the app journaled: what it was, who prepared and who approved it, and ONE
 * state in plain words (the journal's where it decides, the platform's once it has a record — an
 * accepted withdrawal still on its way is "Awaiting confirmations", not "Done"); a text search over
 * ids, addresses, UIDs and references. Unresolved ones can be checked now. Exported as CSV by main.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { MovementView } from '../../../../shared/contract/activity';
import { pushTimeline, type Tone as TimelineTone, withdrawalTimeline } from '../../../../shared/platform/timelines';
import { call, useDeskEvent, useDeskMutation, useDeskQuery } from '../../lib/desk';
import { formatMoneyOrText } from '../../lib/format';
import { usePeriod } from '../../lib/period';
import { matchesSearch } from '../../lib/search';
import {
  Badge,
  Button,
  DataTable,
  EmptyState,
  ErrorNotice,
  ExportCsvButton,
  IdCell,
  PeriodSelect,
  QueryStatus,
  Select,
  TextField,
  Time,
  TimeHeader,
  type Tone,
} from '../../ui';
import { NeedsPerson, needsPerson } from './NeedsPerson';
import { KIND_WORDS, originWords } from './words';

/** The journal's own states in words (the filter's choices; a row shows movementState). */
export const STATE_WORDS: Record<MovementView['state'], { text: string; tone: Tone }> = {
  prepared: { text: 'Saved, not sent', tone: 'neutral' },
  sent: { text: 'Sent, awaiting answer', tone: 'info' },
  unknown: { text: 'Unknown — checking', tone: 'warn' },
  done: { text: 'Accepted by the platform', tone: 'good' },
  failed: { text: 'Refused / not executed', tone: 'bad' },
};

const TIMELINE_TONE: Record<TimelineTone, Tone> = {
  progress: 'info',
  success: 'good',
  failure: 'bad',
  attention: 'warn',
  unknown: 'warn',
};

/** A spot order's status words (the journal follows its amends, fills and cancels). */
const ORDER_WORDS: Record<string, { text: string; tone: Tone }> = {
  open: { text: 'Open order', tone: 'info' },
  closed: { text: 'Filled', tone: 'good' },
  filled: { text: 'Filled', tone: 'good' },
  cancelled: { text: 'Cancelled', tone: 'neutral' },
};

/**
 * The one state a movement row shows: a person is needed; else the journal's, until the platform
 * has said what became of it; then the platform's (accepted is not completed).
 */
export const movementState = (m: MovementView): { text: string; tone: Tone } => {
  if (needsPerson(m)) return { text: 'Needs a person', tone: 'bad' };
  if (m.state !== 'done' || !m.platformStatus) return STATE_WORDS[m.state];
  if (m.kind === 'withdrawal' || m.kind === 'push') {
    const timeline = (m.kind === 'withdrawal' ? withdrawalTimeline : pushTimeline)({ status: m.platformStatus });
    return { text: timeline.headline, tone: TIMELINE_TONE[timeline.tone] };
  }
  if (m.kind === 'spotOrder') return ORDER_WORDS[m.platformStatus] ?? STATE_WORDS.done;
  return m.platformStatus === 'success' ? { text: 'Completed', tone: 'good' } : STATE_WORDS.done;
};

const param = (m: MovementView, key: string): string => {
  const value = m.params[key];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
};

/** Where it went or what it was, in a few words: an address, a UID, a pair. */
const destination = (m: MovementView): string => {
  if (m.kind === 'withdrawal') return `to ${param(m, 'address')} (${param(m, 'chain')})`;
  if (m.kind === 'push') return `to UID ${param(m, 'receive_uid')}`;
  if (m.kind === 'subAccountTransfer') {
    return param(m, 'direction') === 'from'
      ? `from sub-account UID ${param(m, 'sub_account')}`
      : `to sub-account UID ${param(m, 'sub_account')}`;
  }
  if (m.kind === 'subToSubTransfer') return `UID ${param(m, 'sub_account_from')} → UID ${param(m, 'sub_account_to')}`;
  if (m.kind === 'transfer') return `${param(m, 'from')} → ${param(m, 'to')}`;
  if (m.kind === 'spotOrder') return `${param(m, 'side')} ${param(m, 'currency_pair').replace('_', ' / ')}`;
  return '';
};

/** Everything a person may paste into the search: ids, addresses, UIDs, references, the operator. */
const searchable = (m: MovementView): string[] =>
  [
    m.clientId,
    m.platformId,
    m.currency,
    m.operator,
    ...Object.values(m.params).map((v) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined)),
  ].filter((v): v is string => v !== undefined);

export function Movements() {
  const client = useQueryClient();
  const [kind, setKind] = useState<'' | MovementView['kind']>('');
  const [state, setState] = useState<'' | MovementView['state']>('');
  const period = usePeriod(30);
  const from = period.range.from * 1000;
  const filter = { from, limit: 5000, ...(kind ? { kind } : {}), ...(state ? { state } : {}) };
  const [search, setSearch] = useState('');
  const query = useDeskQuery(['activity.movements', filter]);
  // Who approved a movement that needed it: the Approvals queue links each decision to its movement.
  const approvals = useDeskQuery(['approvals.list', {}], { staleTime: 30_000 });
  const approverOf = useMemo(
    () =>
      new Map(
        (approvals.data?.approvals ?? []).flatMap((a) =>
          a.movementId && a.decidedBy ? [[a.movementId, a.decidedBy] as const] : [],
        ),
      ),
    [approvals.data],
  );
  const rows = useMemo(
    () => (query.data ?? []).filter((m) => matchesSearch(search, searchable(m))),
    [query.data, search],
  );
  const reconcile = useDeskMutation('activity.reconcile', { invalidates: ['activity.movements'] });
  useDeskEvent('activity.movementChanged', () => void client.invalidateQueries({ queryKey: ['activity.movements'] }));

  return (
    <div className="stack">
      <NeedsPerson />
      <fieldset className="filters">
        <legend className="sr-only">Movement filters</legend>
        <Select
          label="Kind"
          value={kind}
          options={[
            { value: '', label: 'All kinds' },
            ...Object.entries(KIND_WORDS).map(([value, label]) => ({ value: value as MovementView['kind'], label })),
          ]}
          onChange={setKind}
        />
        <Select
          label="State"
          value={state}
          options={[
            { value: '', label: 'Any state' },
            ...Object.entries(STATE_WORDS).map(([value, w]) => ({
              value: value as MovementView['state'],
              label: w.text,
            })),
          ]}
          onChange={setState}
        />
        <PeriodSelect period={period} />
        <TextField
          label="Search"
          value={search}
          onChange={setSearch}
          placeholder="Id, address, UID, reference, operator"
          data-testid="movements-search"
        />
        <Button onClick={() => reconcile.mutate({})} busy={reconcile.isPending}>
          Check unresolved now
        </Button>
        <ExportCsvButton
          testId="movements-export"
          build={async () => {
            const file = await call('activity.exportMovementsCsv', filter);
            return { fileName: file.filename, csv: file.csv };
          }}
        />
      </fieldset>
      {reconcile.isError ? <ErrorNotice error={reconcile.error} /> : null}
      <QueryStatus query={query} loading="Loading movements…" />
      {query.data ? (
        <DataTable
          caption="Money movements"
          testId="movements-table"
          rows={rows}
          rowKey={(m) => m.id}
          empty={<EmptyState title={search ? 'No movement matches the search' : 'No money movements in this period'} />}
          columns={[
            {
              id: 'time',
              header: <TimeHeader>Time</TimeHeader>,
              cell: (m) => <Time ms={m.createdAt} />,
              sortValue: (m) => m.createdAt,
            },
            {
              id: 'what',
              header: 'What',
              cell: (m) => (
                <>
                  <span className="nowrap">
                    {KIND_WORDS[m.kind]}: {formatMoneyOrText(m.amount, m.currency)}
                  </span>
                  <div className="muted small">{destination(m)}</div>
                </>
              ),
            },
            {
              id: 'maker',
              header: 'Prepared by',
              // Who, and where it was asked for: a screen, or the batch row with its confirmation.
              cell: (m) => (
                <>
                  {m.operator || '—'}
                  <div className="muted small" data-testid={`movement-origin-${m.id}`}>
                    {originWords(m.origin)}
                  </div>
                </>
              ),
              sortValue: (m) => m.operator,
            },
            { id: 'approver', header: 'Approved by', cell: (m) => approverOf.get(m.id) ?? '—' },
            {
              id: 'state',
              header: 'State',
              cell: (m) => {
                const shown = movementState(m);
                return (
                  <Badge tone={shown.tone} testId={`movement-state-${m.id}`}>
                    {shown.text}
                  </Badge>
                );
              },
              sortValue: (m) => movementState(m).text,
            },
            {
              id: 'client',
              header: 'Client id',
              cell: (m) => <IdCell value={m.clientId} what="client id" />,
            },
            {
              id: 'platform',
              header: 'Platform id',
              cell: (m) => <IdCell value={m.platformId} what="platform id" />,
            },
          ]}
        />
      ) : null}
    </div>
  );
}
