/**
 * The tamper-evident audit log: every write the app made (who/what/when, result or label, request
 * id), filterable, with a check of its HMAC chain against the keychain and a CSV export made and
 * signed by main.
 */
import { useState } from 'react';
import { call, useDeskMutation, useDeskQuery } from '../../lib/desk';
import { usePeriod } from '../../lib/period';
import {
  Badge,
  Button,
  DataTable,
  EmptyState,
  ErrorNotice,
  ExportCsvButton,
  PeriodSelect,
  QueryStatus,
  Select,
  TextField,
  Time,
} from '../../ui';

type Outcome = '' | 'ok' | 'error' | 'unknown';

export function AuditLog() {
  const [text, setText] = useState('');
  const [outcome, setOutcome] = useState<Outcome>('');
  const period = usePeriod(30);
  const from = period.range.from * 1000;
  const filter = {
    from,
    limit: 1000,
    ...(text.trim() ? { text: text.trim() } : {}),
    ...(outcome ? { outcome } : {}),
  };
  const query = useDeskQuery(['activity.auditLog', filter]);
  const verify = useDeskMutation('activity.verifyAudit');
  const integrity = useDeskQuery(['activity.auditIntegrity', {}]);
  return (
    <div className="stack">
      <fieldset className="filters">
        <legend className="sr-only">Audit log filters</legend>
        <TextField
          label="Search"
          value={text}
          onChange={setText}
          placeholder="action, account, operator, label, request id"
        />
        <Select
          label="Result"
          value={outcome}
          options={[
            { value: '', label: 'Any result' },
            { value: 'ok', label: 'Succeeded' },
            { value: 'error', label: 'Failed' },
            { value: 'unknown', label: 'Unknown' },
          ]}
          onChange={setOutcome}
        />
        <PeriodSelect period={period} />
        <Button onClick={() => verify.mutate({})} busy={verify.isPending} data-testid="audit-verify">
          Verify integrity
        </Button>
        <ExportCsvButton
          testId="audit-export"
          build={async () => {
            const file = await call('activity.exportAuditCsv', filter);
            return { fileName: file.filename, csv: file.csv };
          }}
        />
      </fieldset>
      {verify.data ? (
        verify.data.ok ? (
          <p className="notice notice-good" role="status" data-testid="audit-verified">
            The audit log is intact ({verify.data.entries ?? 0} entries checked against the key and the last entry the
            system keychain keeps).
          </p>
        ) : (
          <p className="notice notice-bad" role="alert" data-testid="audit-altered">
            {verify.data.problem}
          </p>
        )
      ) : null}
      {integrity.data ? (
        <p className="muted" data-testid="audit-signing-key">
          Exports are signed with this desk’s key, fingerprint <code>{integrity.data.signingKey}</code>. An auditor
          checks a file with <code>npm run audit:verify -- file.csv --key "{integrity.data.signingKey}"</code>.
        </p>
      ) : null}
      {verify.isError ? <ErrorNotice error={verify.error} /> : null}
      <QueryStatus query={query} loading="Loading the audit log…" />
      {query.data ? (
        <DataTable
          caption="Audit log"
          testId="audit-table"
          rows={query.data}
          rowKey={(e) => String(e.seq)}
          empty={<EmptyState title="Nothing recorded in this period" />}
          columns={[
            { id: 'seq', header: '#', numeric: true, width: '4em', cell: (e) => e.seq },
            { id: 'time', header: 'Time', width: '10em', cell: (e) => <Time ms={e.at} /> },
            { id: 'operator', header: 'Operator', cell: (e) => e.operator || '—' },
            { id: 'action', header: 'Action', cell: (e) => <code>{e.action}</code> },
            { id: 'account', header: 'Account', cell: (e) => e.account || '—' },
            {
              id: 'outcome',
              header: 'Result',
              width: '7em',
              cell: (e) => (
                <Badge tone={e.outcome === 'ok' ? 'good' : e.outcome === 'error' ? 'bad' : 'warn'}>
                  {e.outcome === 'ok' ? 'Succeeded' : e.outcome === 'error' ? 'Failed' : 'Unknown'}
                </Badge>
              ),
            },
            { id: 'label', header: 'Label', cell: (e) => (e.label ? <code>{e.label}</code> : '—') },
            {
              id: 'request',
              header: 'Request id',
              cell: (e) => <code className="break-all">{e.requestId || '—'}</code>,
            },
            {
              id: 'params',
              header: 'Details',
              cell: (e) => (
                <code className="params" title={e.params}>
                  {e.params.length > 80 ? `${e.params.slice(0, 80)}…` : e.params}
                </code>
              ),
            },
          ]}
        />
      ) : null}
    </div>
  );
}
