/**
 * Approvals: the movements that wait for an operator other than their maker, and the control
 * changes that wait for another administrator (docs/approvals.md). Pending items show who prepared
 * what, the amount and destination (a control change: each line before → after), why it needs
 * approval, a possible duplicate, and how long it still waits; an approver approves (main then asks
 * for the trusted confirmation and sends or applies it once) or rejects it with a reason. Decided
 * items keep their outcome. The page says plainly whether four eyes are in force for control changes.
 *
 * Main decides everything (roles, four eyes, limits again, expiry); this screen only shows it and
 * puts main's refusal next to the item it is about. An approver who is not signed in signs in here
 * (operators.signIn switches the operator at the desk).
 */
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { ROLE_NAMES } from '../../../../shared/contract/operators';
import type { Approval, ApprovalState } from '../../../../shared/contract/policies';
import { type DeskCallError, useDeskEvent, useDeskMutation, useDeskQuery } from '../../lib/desk';
import { formatMoney } from '../../lib/format';
import {
  Badge,
  Button,
  DataTable,
  EmptyState,
  ErrorNotice,
  FourEyesStatus,
  Loading,
  PageHeader,
  TextField,
  Time,
  type Tone,
} from '../../ui';

/** A control change's words where a movement's differ ("applied" rather than "sent"). */
const CONTROL_STATE_WORDS: Partial<Record<ApprovalState, string>> = {
  approved: 'Approved — applying',
  sent: 'Approved and applied',
  rejected: 'Rejected — never applied',
  expired: 'Expired — never applied',
  failed: 'Not applied',
};

const stateWords = (a: Approval) => ({
  ...STATE_WORDS[a.state],
  ...(a.kind === 'control' && CONTROL_STATE_WORDS[a.state] ? { text: CONTROL_STATE_WORDS[a.state] as string } : {}),
});

const STATE_WORDS: Readonly<Record<ApprovalState, { readonly text: string; readonly tone: Tone }>> = {
  pending: { text: 'Waiting for approval', tone: 'warn' },
  approved: { text: 'Approved — sending', tone: 'info' },
  sent: { text: 'Approved and sent', tone: 'good' },
  rejected: { text: 'Rejected — never sent', tone: 'bad' },
  expired: { text: 'Expired — never sent', tone: 'neutral' },
  failed: { text: 'Not sent', tone: 'bad' },
  cancelled: { text: 'Withdrawn — never sent', tone: 'neutral' },
};

const KIND_WORDS: Readonly<Record<Approval['kind'], string>> = {
  withdrawal: 'Withdrawal',
  push: 'UID transfer',
  batch: 'Batch',
  control: 'Control change',
};

/** A refusal in words, with main's advice when it has one. */
const refusal = (error: DeskCallError): string => (error.advice ? `${error.message} ${error.advice}` : error.message);

/** "3 h 12 min", "4 min 05 s", "12 s". */
export const durationWords = (ms: number): string => {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h} h ${String(m).padStart(2, '0')} min`;
  if (m > 0) return `${m} min ${String(s).padStart(2, '0')} s`;
  return `${s} s`;
};

/** How long an item still waits, counting down each second. */
export const ExpiresIn = ({ at, testId }: { readonly at: number; readonly testId?: string }) => {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (at <= Date.now()) return undefined;
    const timer = setInterval(() => {
      const t = Date.now();
      setNow(t);
      if (t >= at) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [at]);
  const left = at - now;
  return (
    <span role="timer" aria-live="off" data-testid={testId} data-left-ms={Math.max(0, left)}>
      {left > 0 ? `Expires in ${durationWords(left)}` : 'Expired (main settles it within 30 s)'}
    </span>
  );
};

function SignInAsApprover({ who }: { readonly who: string | undefined }) {
  const [name, setName] = useState('');
  const [passphrase, setPassphrase] = useState('');
  const signIn = useDeskMutation('operators.signIn', {
    invalidates: ['operators.current', 'approvals.list'],
    onSuccess: () => setPassphrase(''),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '' || passphrase === '') return;
    signIn.mutate({ name: name.trim(), passphrase });
  };
  return (
    <form
      className="panel stack"
      onSubmit={submit}
      noValidate
      aria-labelledby="approvals-sign-in"
      data-testid="approver-sign-in"
    >
      <h2 id="approvals-sign-in">Sign in as an approver</h2>
      <p className="field-hint">
        {who
          ? `${who} is signed in. A movement is approved by an approver or administrator other than the operator who prepared it.`
          : 'Nobody is signed in.'}
      </p>
      <TextField label="Operator name" value={name} onChange={setName} autoComplete="off" data-testid="approver-name" />
      <TextField
        label="Passphrase"
        type="password"
        value={passphrase}
        onChange={setPassphrase}
        autoComplete="off"
        data-testid="approver-passphrase"
      />
      {signIn.error ? <ErrorNotice error={signIn.error} /> : null}
      <div>
        <Button type="submit" busy={signIn.isPending} data-testid="approver-sign-in-submit">
          Sign in
        </Button>
      </div>
    </form>
  );
}

function PendingItem({ item, operatorId }: { readonly item: Approval; readonly operatorId: string | undefined }) {
  const [reason, setReason] = useState('');
  const [tried, setTried] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const options = {
    invalidates: ['approvals.list'] as const,
    onSuccess: () => setError(undefined),
    onError: (failure: DeskCallError) => setError(refusal(failure)),
  };
  const approve = useDeskMutation('approvals.approve', { ...options, invalidates: [...options.invalidates] });
  const reject = useDeskMutation('approvals.reject', { ...options, invalidates: [...options.invalidates] });
  const ownItem = operatorId !== undefined && operatorId === item.makerId;
  const reasonProblem = reason.trim() === '' ? 'Give a reason (it is kept in the audit log).' : undefined;
  const decide = (which: 'approve' | 'reject') => {
    setTried(true);
    setError(undefined);
    if (reasonProblem) return;
    (which === 'approve' ? approve : reject).mutate({ id: item.id, reason: reason.trim() });
  };
  const busy = approve.isPending || reject.isPending;
  return (
    <li>
      <article
        className="panel stack"
        aria-labelledby={`approval-${item.id}-title`}
        data-testid={`approval-${item.id}`}
      >
        <h3 id={`approval-${item.id}-title`} data-testid="approval-summary">
          {item.summary}
        </h3>
        {item.possibleDuplicateOf ? (
          <p className="notice notice-warn" data-testid="approval-duplicate">
            <Badge tone="warn">Possible duplicate</Badge> {item.makerName} prepared another one with the same amount and
            destination within the hour: check that both are wanted before approving either.
          </p>
        ) : null}
        <dl className="facts">
          <dt>Prepared by</dt>
          <dd data-testid="approval-maker">
            {item.makerName} · <Time ms={item.createdAt} />
          </dd>
          <dt>What</dt>
          <dd>{KIND_WORDS[item.kind]}</dd>
          {item.origin && item.origin !== 'screen' ? (
            <>
              <dt>Prepared in</dt>
              <dd data-testid="approval-origin">{item.origin}</dd>
            </>
          ) : null}
          {item.control ? (
            <>
              <dt>What changes</dt>
              <dd>
                <ul data-testid="approval-changes">
                  {item.control.changes.map((c) => (
                    <li key={`${c.label}:${c.before}:${c.after}`}>
                      {c.label}: {c.before === c.after ? c.after : `${c.before} → ${c.after}`}
                    </li>
                  ))}
                </ul>
              </dd>
            </>
          ) : (
            <>
              <dt>Amount</dt>
              <dd data-testid="approval-amount">
                {formatMoney(item.amount, item.currency)}
                {item.usdtValue !== undefined && item.currency !== 'USDT'
                  ? ` (≈ ${formatMoney(item.usdtValue, 'USDT', { estimate: true })})`
                  : ''}
              </dd>
              <dt>Destination</dt>
              <dd data-testid="approval-destination" className="mono">
                {item.destination}
              </dd>
            </>
          )}
          <dt>Why it needs approval</dt>
          <dd>
            <ul data-testid="approval-reasons">
              {item.reasons.map((r) => (
                <li key={r}>{r}</li>
              ))}
            </ul>
          </dd>
          <dt>Waits until</dt>
          <dd>
            <Time ms={item.expiresAt} /> · <ExpiresIn at={item.expiresAt} testId="approval-expires" />
          </dd>
        </dl>
        {item.batch ? (
          <details>
            <summary>{`${item.batch.rows.length} rows of batch “${item.batch.name}”`}</summary>
            <ul>
              {item.batch.rows.map((row) => (
                <li key={row.row}>{`Row ${row.row}: ${row.summary}`}</li>
              ))}
            </ul>
          </details>
        ) : null}
        {ownItem ? (
          <p className="field-hint" data-testid="approval-own">
            You prepared this: another operator approves it. You may withdraw it by rejecting it.
          </p>
        ) : null}
        <TextField
          label="Reason for your decision"
          value={reason}
          onChange={setReason}
          maxLength={500}
          error={tried ? reasonProblem : undefined}
          data-testid="approval-reason"
        />
        {error ? (
          <p className="field-error" role="alert" data-testid="approval-error">
            {error}
          </p>
        ) : null}
        <div className="row-actions">
          <Button
            variant="primary"
            busy={approve.isPending}
            disabled={busy || ownItem}
            onClick={() => decide('approve')}
            data-testid="approval-approve"
          >
            {item.kind === 'control' ? 'Approve and apply' : 'Approve and send'}
          </Button>
          <Button
            variant="danger"
            busy={reject.isPending}
            disabled={busy}
            onClick={() => decide('reject')}
            data-testid="approval-reject"
          >
            Reject
          </Button>
        </div>
        <p className="field-hint">Approving asks you to confirm in the Treasury Desk confirmation window.</p>
      </article>
    </li>
  );
}

function Decided({ items }: { readonly items: readonly Approval[] }) {
  if (items.length === 0) return <EmptyState title="Nothing decided yet" />;
  return (
    <DataTable
      caption="Decided approvals"
      testId="approvals-decided"
      rows={items}
      rowKey={(a) => a.id}
      columns={[
        { id: 'summary', header: 'What', cell: (a) => a.summary, sortValue: (a) => a.summary },
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
        { id: 'reason', header: 'Reason', cell: (a) => a.reason ?? '—' },
        {
          id: 'decidedAt',
          header: 'When',
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
  useDeskEvent('approvals.changed', () => {
    void client.invalidateQueries({ queryKey: ['approvals.list'] });
    // An applied control change may have added or removed an administrator.
    void client.invalidateQueries({ queryKey: ['approvals.fourEyes'] });
  });
  const operator = session.data?.operator ?? undefined;
  const pending = list.data?.approvals.filter((a) => a.state === 'pending') ?? [];
  const decided = list.data?.approvals.filter((a) => a.state !== 'pending') ?? [];
  const canApprove = operator !== undefined && (operator.role === 'approver' || operator.role === 'admin');
  const onlyOwn = pending.length > 0 && pending.every((a) => a.makerId === operator?.id);
  return (
    <>
      <PageHeader
        title="Approvals"
        subtitle="Movements that wait for an operator other than the one who prepared them, and control changes that wait for another administrator. Approved ones are sent or applied once; rejected or expired ones never."
      />
      <p className="field-hint" data-testid="approvals-operator">
        {operator ? `Signed in: ${operator.name} (${ROLE_NAMES[operator.role]})` : 'Nobody is signed in.'}
      </p>
      <FourEyesStatus />
      {!canApprove || onlyOwn ? <SignInAsApprover who={operator?.name} /> : null}
      <section aria-labelledby="approvals-pending" className="stack">
        <h2 id="approvals-pending">Waiting for approval</h2>
        {list.isPending ? (
          <Loading />
        ) : list.isError ? (
          <ErrorNotice error={list.error} onRetry={() => list.refetch()} />
        ) : pending.length === 0 ? (
          <EmptyState title="Nothing waits for approval" />
        ) : (
          <ul
            className="stack"
            style={{ listStyle: 'none', padding: 0 }}
            data-testid="approvals-pending"
            data-count={pending.length}
          >
            {pending.map((item) => (
              <PendingItem key={item.id} item={item} operatorId={operator?.id} />
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="approvals-finished" className="stack">
        <h2 id="approvals-finished">Decided</h2>
        {list.data ? <Decided items={decided} /> : null}
      </section>
    </>
  );
}
