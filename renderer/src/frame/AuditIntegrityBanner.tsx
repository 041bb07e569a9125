/**
 * The audit log's failed check, on every screen (main checks the log against the OS keychain at
 * every start: core/activity/auditTrust.ts). It stays until an administrator acknowledges
 * it — after the trusted confirmation, recorded in the log itself; nothing else is stopped.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useDeskEvent, useDeskMutation, useDeskQuery } from '../lib/desk';
import { useLock } from '../lib/lock';
import { Button, ErrorNotice, TextField } from '../ui';
import './AuditIntegrityBanner.css';

export const AuditIntegrityBanner = () => {
  const client = useQueryClient();
  const locked = useLock((s) => s.locked);
  const integrity = useDeskQuery(['activity.auditIntegrity', {}], { enabled: !locked });
  const session = useDeskQuery(['operators.current', {}], { enabled: !locked });
  useDeskEvent('activity.auditIntegrityChanged', (state) =>
    client.setQueryData(['activity.auditIntegrity', {}], state),
  );
  const [note, setNote] = useState('');
  const [open, setOpen] = useState(false);
  const acknowledge = useDeskMutation('activity.acknowledgeAuditFailure', {
    onSuccess: (state) => {
      client.setQueryData(['activity.auditIntegrity', {}], state);
      setOpen(false);
      setNote('');
    },
  });
  const state = integrity.data;
  if (state === undefined || state.ok) return null;
  const admin = session.data?.operator?.role === 'admin';
  return (
    <section className="notice notice-bad audit-banner" role="alert" data-testid="audit-integrity-banner">
      <p className="notice-title">The audit log failed its check</p>
      <p className="notice-text" data-testid="audit-integrity-problem">
        {state.problem}
      </p>
      <p className="notice-advice">
        {admin
          ? 'Find out what happened (an earlier export of the log shows what it held), then acknowledge it: the failure and your note stay in the log.'
          : 'The app works on. An administrator must look at it and acknowledge it.'}
      </p>
      {admin && !open ? (
        <div>
          <Button size="sm" onClick={() => setOpen(true)} data-testid="audit-acknowledge-open">
            Acknowledge…
          </Button>
        </div>
      ) : null}
      {admin && open ? (
        <form
          className="audit-banner-form"
          onSubmit={(event) => {
            event.preventDefault();
            acknowledge.mutate(note.trim() ? { note: note.trim() } : {});
          }}
        >
          <TextField label="What you found (kept in the log)" value={note} onChange={setNote} maxLength={500} />
          <div className="audit-banner-buttons">
            <Button type="submit" busy={acknowledge.isPending} data-testid="audit-acknowledge">
              Acknowledge
            </Button>
            <Button type="button" variant="ghost" onClick={() => setOpen(false)}>
              Cancel
            </Button>
          </div>
          {acknowledge.isError ? <ErrorNotice error={acknowledge.error} /> : null}
        </form>
      ) : null}
    </section>
  );
};
