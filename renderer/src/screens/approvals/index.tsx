/**
 * Approvals: the approver's queue (docs/approvals.md). The movements that wait for an operator other
 * than their maker, and the control changes that wait for another administrator, each a compact item
 * with where it goes (the address book's name, the address in groups), its risk flags, why it needs
 * approval, the balance after and how long it still waits; an approver approves (main then asks for
 * the trusted confirmation and sends or applies it once) or rejects it with a reason, its maker may
 * retract it. Decided items keep their outcome. The page says whose session the desk is in (a button
 * switches it to an approver) and whether four eyes are in force for control changes.
 *
 * Main decides everything (roles, four eyes, limits again, expiry); this screen only shows it and
 * puts main's refusal next to the item it is about.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { Approval } from '../../../../shared/contract/policies';
import { type AddressBook, useAddressBookState } from '../../lib/addressBook';
import { useDeskEvent, useDeskQuery } from '../../lib/desk';
import { applyApproval } from '../../lib/eventCache';
import {
  Badge,
  DataTable,
  EmptyState,
  ErrorNotice,
  FourEyesStatus,
  Loading,
  PageHeader,
  Time,
  TimeHeader,
} from '../../ui';
import { approvalTitle, PendingItem } from './PendingItem';
import { SwitchOperator } from './SwitchOperator';
import { stateWords } from './words';
import './approvals.css';

export { ExpiresIn } from './ExpiresIn';
export { durationWords } from './words';

function Decided({ items, book }: { readonly items: readonly Approval[]; readonly book: AddressBook }) {
  if (items.length === 0) return <EmptyState title="Nothing decided yet" />;
  return (
    <DataTable
      caption="Decided approvals"
      testId="approvals-decided"
      rows={items}
      rowKey={(a) => a.id}
      columns={[
        { id: 'summary', header: 'What', cell: (a) => approvalTitle(a, book), sortValue: (a) => a.summary },
        { id: 'maker', header: 'Prepared by', cell: (a) => a.makerName, sortValue: (a) => a.makerName },
        {
          id: 'state',
          header: 'Outcome',
          cell: (a) => (
            <span data-testid={`approval-state-${a.id}`} data-state={a.state}>
              <Badge tone={stateWords(a).tone}>{stateWords(a).text}</Badge>
              {a.outcome ? ` ${a.outcome}` : ''}
            </span>
          ),
          sortValue: (a) => a.state,
        },
        { id: 'decidedBy', header: 'Decided by', cell: (a) => a.decidedBy ?? '—' },
        // Typed by a person: shown as they wrote it.
        { id: 'reason', header: 'Reason', cell: (a) => (a.reason ? <span data-verbatim>{a.reason}</span> : '—') },
        {
          id: 'decidedAt',
          header: <TimeHeader>When</TimeHeader>,
          cell: (a) => <Time ms={a.decidedAt ?? a.expiresAt} />,
          sortValue: (a) => a.decidedAt ?? a.expiresAt,
        },
      ]}
    />
  );
}

export default function ApprovalsScreen() {
  const client = useQueryClient();
  const session = useDeskQuery(['operators.current', {}]);
  const list = useDeskQuery(['approvals.list', {}]);
  const spot = useDeskQuery(['balances.spot', {}], { staleTime: 10_000 });
  useDeskEvent('approvals.changed', ({ approval }) => {
    if (approval) applyApproval(client, approval);
    void client.invalidateQueries({ queryKey: ['approvals.list'] });
    // An applied control change may have added or removed an administrator.
    void client.invalidateQueries({ queryKey: ['approvals.fourEyes'] });
    // A sent one moved money.
    void client.invalidateQueries({ queryKey: ['balances.spot'] });
  });
  const operator = session.data?.operator ?? undefined;
  const pending = list.data?.approvals.filter((a) => a.state === 'pending') ?? [];
  const decided = list.data?.approvals.filter((a) => a.state !== 'pending') ?? [];
  const destinations = useMemo(
    () =>
      (list.data?.approvals ?? []).flatMap((a) =>
        a.to && 'chain' in a.to ? [{ currency: a.currency, chain: a.to.chain }] : [],
      ),
    [list.data],
  );
  const book = useAddressBookState(destinations);
  const canApprove = operator !== undefined && (operator.role === 'approver' || operator.role === 'admin');
  return (
    <div className="approvals-screen stack">
      <PageHeader
        title="Approvals"
        subtitle="Movements waiting for an operator other than the one who prepared them, and control changes waiting for another administrator. Approved ones are sent or applied once; rejected, retracted or expired ones never."
      />
      <SwitchOperator operator={operator} canApprove={canApprove} />
      <section aria-labelledby="approvals-pending" className="stack">
        <h2 id="approvals-pending">Waiting for approval</h2>
        {list.isPending ? (
          <Loading />
        ) : list.isError ? (
          <ErrorNotice error={list.error} onRetry={() => list.refetch()} />
        ) : pending.length === 0 ? (
          <EmptyState title="Nothing waits for approval" />
        ) : (
          <ul className="approvals-list" data-testid="approvals-pending" data-count={pending.length}>
            {pending.map((item) => (
              <PendingItem key={item.id} item={item} operatorId={operator?.id} book={book} spot={spot.data} />
            ))}
          </ul>
        )}
      </section>
      <FourEyesStatus />
      <section aria-labelledby="approvals-finished" className="stack">
        <h2 id="approvals-finished">Decided</h2>
        {list.data ? <Decided items={decided} book={book} /> : null}
      </section>
    </div>
  );
}
