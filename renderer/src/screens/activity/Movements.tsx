/**
 * Every money movement the app journaled, with its journal state and the platform's status in plain
 * words; unresolved ones can be checked now. Exported as CSV by main (RFC 4180, UTC).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { MovementView } from '../../../../shared/contract/activity';
import { pushTimeline, withdrawalTimeline } from '../../../../shared/platform/timelines';
import { call, useDeskEvent, useDeskMutation, useDeskQuery } from '../../lib/desk';
import { usePeriod } from '../../lib/period';
import {
  alignedAmounts,
  Badge,
  Button,
  DataTable,
  EmptyState,
  ErrorNotice,
  ExportCsvButton,
  PeriodSelect,
  QueryStatus,
  Select,
  Time,
} from '../../ui';
import type { Tone } from '../../ui/Badge';
import { NeedsPerson, needsPerson } from './NeedsPerson';
import { KIND_WORDS, originWords } from './words';

export const STATE_WORDS: Record<MovementView['state'], { text: string; tone: Tone }> = {
  prepared: { text: 'Saved, not sent', tone: 'neutral' },
  sent: { text: 'Sent, awaiting answer', tone: 'info' },
  unknown: { text: 'Unknown — checking', tone: 'warn' },
  done: { text: 'Accepted by the platform', tone: 'good' },
  failed: { text: 'Refused / not executed', tone: 'bad' },
};

/** The platform's own status in words, for kinds that have a status pipeline. */
export const platformStatusWords = (m: MovementView): string | undefined => {
  if (!m.platformStatus) return undefined;
  if (m.kind === 'withdrawal') return withdrawalTimeline({ status: m.platformStatus }).headline;
  if (m.kind === 'push') return pushTimeline({ status: m.platformStatus }).headline;
  return m.platformStatus === 'success' ? 'Completed' : m.platformStatus;
};

export function Movements() {
  const client = useQueryClient();
  const [kind, setKind] = useState<'' | MovementView['kind']>('');
  const [state, setState] = useState<'' | MovementView['state']>('');
  const period = usePeriod(30);
  const from = period.range.from * 1000;
  const filter = { from, limit: 5000, ...(kind ? { kind } : {}), ...(state ? { state } : {}) };
  const query = useDeskQuery(['activity.movements', filter]);
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
          rows={query.data}
          rowKey={(m) => m.id}
          empty={<EmptyState title="No money movements in this period" />}
          columns={[
            { id: 'time', header: 'Time', width: '10em', cell: (m) => <Time ms={m.createdAt} /> },
            { id: 'kind', header: 'Kind', cell: (m) => KIND_WORDS[m.kind] },
            {
              id: 'amount',
              header: 'Amount',
              numeric: true,
              width: '8em',
              cell: alignedAmounts(query.data, (m) => m.amount),
            },
            { id: 'currency', header: 'Currency', width: '6em', cell: (m) => m.currency },
            {
              id: 'operator',
              header: 'Operator and origin',
              cell: (m) => (
                <>
                  {m.operator || '—'}
                  <br />
                  <span className="muted small" data-testid={`movement-origin-${m.id}`}>
                    {originWords(m.origin)}
                  </span>
                </>
              ),
            },
            {
              id: 'state',
              header: 'Journal',
              cell: (m) => (
                <>
                  <Badge tone={STATE_WORDS[m.state].tone} testId={`movement-state-${m.id}`}>
                    {STATE_WORDS[m.state].text}
                  </Badge>
                  {needsPerson(m) ? (
                    <>
                      {' '}
                      <Badge tone="bad">Needs a person</Badge>
                    </>
                  ) : null}
                </>
              ),
            },
            {
              id: 'status',
              header: 'Platform status',
              cell: (m) =>
                m.platformStatus ? (
                  <span>
                    {platformStatusWords(m)} <span className="muted">({m.platformStatus})</span>
                  </span>
                ) : m.label ? (
                  <span>
                    {m.message ?? ''} <code>{m.label}</code>
                  </span>
                ) : (
                  '—'
                ),
            },
            {
              id: 'ids',
              header: 'Ids (client / platform)',
              cell: (m) => (
                <code className="break-all small-ids">
                  {m.clientId || '—'}
                  <br />
                  {m.platformId ?? '—'}
                </code>
              ),
            },
          ]}
        />
      ) : null}
    </div>
  );
}
