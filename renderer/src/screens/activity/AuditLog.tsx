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
  LongId,
  Notice,
  PeriodSelect,
  QueryStatus,
  Select,
  TextField,
  Time,
  TimeHeader,
} from '../../ui';
import { auditWords } from './auditWords';

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
          <Notice tone="good" role="status" data-testid="audit-verified">
            The audit log is intact ({verify.data.entries ?? 0} entries checked against the key and the last entry the
            system keychain keeps).
          </Notice>
        ) : (
          <Notice tone="bad" role="alert" data-testid="audit-altered">
            {verify.data.problem}
          </Notice>
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
            { id: 'time', header: <TimeHeader>Time</TimeHeader>, cell: (e) => <Time ms={e.at} /> },
            { id: 'operator', header: 'Operator', cell: (e) => e.operator || '—' },
            { id: 'what', header: 'What', cell: (e) => <span data-testid="audit-what">{auditWords(e)}</span> },
            {
              id: 'outcome',
              header: 'Result',
              cell: (e) => (
                <Badge tone={e.outcome === 'ok' ? 'good' : e.outcome === 'error' ? 'bad' : 'warn'}>
                  {e.outcome === 'ok' ? 'Succeeded' : e.outcome === 'error' ? 'Failed' : 'Unknown'}
                </Badge>
              ),
            },
            {
              id: 'details',
              header: 'Details',
              // The entry as recorded (action, account, code, request id, parameters), for support.
              cell: (e) => (
                <details className="audit-details">
                  <summary>Entry {e.seq}</summary>
                  <dl className="review-list">
                    <dt>Action</dt>
                    <dd>
                      <code>{e.action}</code>
                    </dd>
                    <dt>Account</dt>
                    <dd>{e.account || '—'}</dd>
                    {e.label ? (
                      <>
                        <dt>Code</dt>
                        <dd>
                          <code>{e.label}</code>
                        </dd>
                      </>
                    ) : null}
                    {e.requestId ? (
                      <>
                        <dt>Request id</dt>
                        <dd>
                          <LongId value={e.requestId} />
                        </dd>
                      </>
                    ) : null}
                    <dt>Parameters</dt>
                    <dd>
                      <code className="params">{e.params}</code>
                    </dd>
                  </dl>
                </details>
              ),
            },
          ]}
        />
      ) : null}
    </div>
  );
}
