/**
 * Money movements that the journal cannot settle by itself and that a person must check: shown on
 * top of the movements, each with what to check and where, and the manual settlement
 * (`activity.resolveMovement`) behind a confirmation that says what the person must have checked.
 * Settling never sends anything: it only records the verdict (audited by main).
 */
import { useState } from 'react';
import { AMBIGUOUS_RECORD, type MovementView } from '../../../../shared/contract/activity';
import { DUPLICATE_REQUEST_LABELS } from '../../../../shared/platform/labels';
import { useDeskMutation, useDeskQuery } from '../../lib/desk';
import { formatMoney } from '../../lib/format';
import { Button, Checkbox, ConfirmDialog, ErrorNotice, Notice, TextField, Time } from '../../ui';
import { KIND_WORDS } from './words';
import './NeedsPerson.css';

/**
 * When the platform said "you already sent this id" and its records then do not show the movement,
 * absence proves nothing, so the journal never resends nor fails it and waits for a person.
 */
const DUPLICATE_LABELS = DUPLICATE_REQUEST_LABELS;

export type Attention = {
  /** Why the app cannot settle it by itself. */
  readonly why: string;
  /** What the person should check, and where. */
  readonly check: string;
};

/** A request parameter the journal kept, as text (ids may be numbers or strings). */
const param = (m: MovementView, key: string): string | undefined => {
  const value = m.params[key];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
};

const whereToLook = (m: MovementView): string => {
  const ref = m.clientId ? ` (client id ${m.clientId})` : '';
  switch (m.kind) {
    case 'withdrawal':
      return `Look for this withdrawal${ref} in the platform’s withdrawal records (website or app) and in the spot balance of ${m.currency}.`;
    case 'push':
      return `Look for this UID transfer of ${formatMoney(m.amount, m.currency)} in the platform’s UID transfer records and in the spot balance.`;
    case 'transfer':
      return `Compare the ${m.currency} balances of both accounts with what they were before the transfer.`;
    case 'subAccountTransfer':
      return `Look for this transfer${ref} in the sub-account transfer records, and compare the main and sub-account balances of ${m.currency}.`;
    case 'subToSubTransfer': {
      const from = param(m, 'sub_account_from');
      const to = param(m, 'sub_account_to');
      const which = from && to ? ` (${from} → ${to})` : '';
      return `Compare the ${m.currency} balances of both sub-accounts${which} with what they were before the transfer.`;
    }
    case 'spotOrder':
      return `Look for this order${ref} in the platform’s open orders and order history of ${String(m.params.currency_pair ?? 'its pair')}.`;
  }
};

/** Whether (and why) the journal marks this movement as needing a person; undefined when it does not. */
export const needsPerson = (m: MovementView): Attention | undefined => {
  if (m.state !== 'unknown') return undefined;
  if (m.label !== undefined && DUPLICATE_LABELS.has(m.label)) {
    return {
      why: 'The platform said it already has this request, but its records do not show it. The app will not send it again and cannot tell by itself whether it happened.',
      check: whereToLook(m),
    };
  }
  if (m.label === AMBIGUOUS_RECORD) {
    return {
      why: 'The platform lists an identical movement from just before this one was recorded, and the app cannot tell whether it is this one. It will not send it again and will not call it done by itself.',
      check: whereToLook(m),
    };
  }
  if (m.kind === 'subToSubTransfer') {
    return {
      why: 'The answer was lost and the platform offers no way to look up a sub-account to sub-account transfer.',
      check: whereToLook(m),
    };
  }
  if (m.platformStatus !== undefined) {
    return {
      why: `The platform reports this transfer as “${m.platformStatus}”, not as done. The app keeps checking; if it stays like this, check it yourself.`,
      check: whereToLook(m),
    };
  }
  return undefined;
};

type Verdict = 'done' | 'failed';

const VERDICT = {
  done: {
    button: 'Settle as executed',
    title: 'Settle as executed?',
    checked: 'I found it on the platform: the funds moved.',
    effect: 'The app records it as executed. Nothing is sent.',
  },
  failed: {
    button: 'Settle as not executed',
    title: 'Settle as not executed?',
    checked: 'I checked the platform: it is not there and the funds did not move.',
    effect:
      'The app records that nothing moved and will never send it. If it is still wanted, create it again yourself. If it turns up later after all, it was executed once: do not send it a third time.',
  },
} as const;

function SettleDialog({
  movement,
  verdict,
  onClose,
}: {
  readonly movement: MovementView;
  readonly verdict: Verdict;
  readonly onClose: () => void;
}) {
  const [checked, setChecked] = useState(false);
  const [note, setNote] = useState('');
  const resolve = useDeskMutation('activity.resolveMovement', {
    invalidates: ['activity.movements'],
    onSuccess: onClose,
  });
  const words = VERDICT[verdict];
  const noteProblem = note.trim().length < 3 ? 'Say what you checked (at least 3 characters).' : undefined;
  return (
    <ConfirmDialog
      open
      title={words.title}
      confirmLabel={words.button}
      tone="danger"
      busy={resolve.isPending}
      confirmDisabled={!checked || noteProblem !== undefined}
      error={resolve.error}
      testId="settle-dialog"
      onCancel={onClose}
      onConfirm={() => resolve.mutate({ id: movement.id, outcome: verdict, note: note.trim() })}
    >
      <p>
        {KIND_WORDS[movement.kind]} of <strong>{formatMoney(movement.amount, movement.currency)}</strong>,{' '}
        <Time ms={movement.createdAt} withZone />.
      </p>
      <p>
        <strong>Before settling, check on the platform itself.</strong> {whereToLook(movement)}
      </p>
      <p>{words.effect}</p>
      <Checkbox label={words.checked} checked={checked} onChange={setChecked} testId="settle-checked" />
      <TextField
        label="What you checked (kept in the audit log)"
        value={note}
        onChange={setNote}
        placeholder="e.g. withdrawal records 10:40 UTC: not there; balance unchanged"
        error={note !== '' ? noteProblem : undefined}
      />
    </ConfirmDialog>
  );
}

/** The list on top of the movements; renders nothing while no movement needs a person. */
export function NeedsPerson() {
  // Every unresolved movement, whatever the period and filters below show.
  const query = useDeskQuery(['activity.movements', { state: 'unknown', limit: 5000 }]);
  const [settling, setSettling] = useState<{ movement: MovementView; verdict: Verdict } | undefined>();
  if (query.isError) return <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />;
  const items = (query.data ?? []).flatMap((m) => {
    const attention = needsPerson(m);
    return attention ? [{ movement: m, attention }] : [];
  });
  if (items.length === 0) return null;
  return (
    <Notice
      tone="bad"
      className="needs-person"
      role="region"
      aria-labelledby="needs-person-title"
      data-testid="needs-person"
      title={
        <h2 id="needs-person-title">
          {items.length === 1 ? '1 money movement needs a person' : `${items.length} money movements need a person`}
        </h2>
      }
    >
      <ul className="needs-person-list">
        {items.map(({ movement: m, attention }) => (
          <li key={m.id} data-testid={`needs-person-${m.id}`}>
            <p>
              <strong>
                {KIND_WORDS[m.kind]}: {formatMoney(m.amount, m.currency)}
              </strong>{' '}
              <span className="muted">
                · <Time ms={m.createdAt} /> · {m.clientId ? `client id ${m.clientId}` : `journal id ${m.id}`}
                {m.label ? (
                  <>
                    {' '}
                    · <code>{m.label}</code>
                  </>
                ) : null}
              </span>
            </p>
            <p>{attention.why}</p>
            <p>
              <strong>What to do:</strong> {attention.check} Then settle it here as executed or not executed.
            </p>
            <div className="row-actions">
              <Button size="sm" onClick={() => setSettling({ movement: m, verdict: 'done' })}>
                {VERDICT.done.button}
              </Button>
              <Button size="sm" onClick={() => setSettling({ movement: m, verdict: 'failed' })}>
                {VERDICT.failed.button}
              </Button>
            </div>
          </li>
        ))}
      </ul>
      {settling ? (
        <SettleDialog
          key={`${settling.movement.id}-${settling.verdict}`}
          movement={settling.movement}
          verdict={settling.verdict}
          onClose={() => setSettling(undefined)}
        />
      ) : null}
    </Notice>
  );
}
