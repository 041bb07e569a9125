/**
 * The team's audit chain (team mode, docs/team.md): who did what on which desk, as every desk of the
 * team sees it, verified by this desk when shown and again on "Verify again" — each entry's link to
 * the one before it and its operator's signature. An entry after the first that fails is not vouched
 * for, and says so.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { TeamAuditEntry } from '../../../../shared/contract/team';
import { useDeskEvent, useDeskQuery } from '../../lib/desk';
import { Badge, Button, DataTable, EmptyState, Notice, QueryStatus, TextField, Time, TimeHeader } from '../../ui';

const matches = (e: TeamAuditEntry, text: string) =>
  [e.action, e.operatorName ?? '', e.operator ?? '', e.desk, e.params, e.outcome].some((field) =>
    field.toLowerCase().includes(text),
  );

const who = (e: TeamAuditEntry) =>
  e.operator === undefined ? 'the desk itself' : (e.operatorName ?? `${e.operator} (not enrolled now)`);

export function TeamAuditChain() {
  const [text, setText] = useState('');
  const client = useQueryClient();
  const query = useDeskQuery(['team.auditChain', {}]);
  // A change of the team (another desk's entry, a chain that stops verifying) reads the chain again.
  useDeskEvent('team.statusChanged', () => void client.invalidateQueries({ queryKey: ['team.auditChain'] }));
  const chain = query.data;
  const search = text.trim().toLowerCase();
  const rows = chain ? (search ? chain.entries.filter((e) => matches(e, search)) : chain.entries) : [];
  return (
    <div className="stack">
      <fieldset className="filters">
        <legend className="sr-only">Team audit chain filters</legend>
        <TextField label="Search" value={text} onChange={setText} placeholder="action, operator, desk, parameters" />
        <Button onClick={() => void query.refetch()} busy={query.isFetching} data-testid="team-audit-verify">
          Verify again
        </Button>
      </fieldset>
      {chain ? (
        chain.ok ? (
          <Notice tone="good" role="status" data-testid="team-audit-verified">
            The team’s audit chain verifies: {chain.count} entries, each linked to the one before it, and every
            operator’s entry signed with the key the team enrolled for them.
          </Notice>
        ) : (
          <Notice tone="bad" role="alert" data-testid="team-audit-altered">
            The team’s audit chain does not verify. {chain.problem} Entries from there on are not vouched for.
          </Notice>
        )
      ) : null}
      <QueryStatus query={query} loading="Reading and verifying the team’s audit chain…" />
      {chain ? (
        <DataTable
          caption="Team audit chain"
          testId="team-audit-table"
          rows={rows}
          rowKey={(e) => String(e.seq)}
          empty={<EmptyState title="Nothing recorded in the team yet" />}
          columns={[
            { id: 'time', header: <TimeHeader>Time</TimeHeader>, cell: (e) => <Time ms={e.at} /> },
            { id: 'who', header: 'Who', cell: (e) => <span data-testid="team-audit-who">{who(e)}</span> },
            {
              id: 'desk',
              header: 'Desk',
              cell: (e) => (e.thisDesk ? 'this desk' : <code title={e.desk}>{e.desk.slice(0, 13)}</code>),
            },
            { id: 'what', header: 'What', cell: (e) => <code>{e.action}</code> },
            { id: 'outcome', header: 'Result', cell: (e) => e.outcome },
            {
              id: 'verified',
              header: 'Verified',
              cell: (e) => (
                <span data-testid="team-audit-state">
                  {!e.verified ? (
                    <Badge tone="bad">Not verified</Badge>
                  ) : e.signed ? (
                    <Badge tone="good">Signed and linked</Badge>
                  ) : (
                    <Badge tone="warn">Linked, unsigned (desk)</Badge>
                  )}
                </span>
              ),
            },
            {
              id: 'details',
              header: 'Details',
              cell: (e) => (
                <details className="audit-details">
                  <summary>Entry {e.seq}</summary>
                  <code className="params">{e.params}</code>
                </details>
              ),
            },
          ]}
        />
      ) : null}
    </div>
  );
}
