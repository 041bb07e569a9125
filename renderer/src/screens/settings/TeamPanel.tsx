/**
 * Settings → Team (docs/team.md). Alone (the default) the panel says so; an administrator can create
 * a team on an empty PostgreSQL database or join one with the fingerprint its first desk shows. The
 * URL may carry the database's password: main keeps it in the OS keychain, and this window never
 * sees it again. In a team the panel shows the team as this desk verified it (its name, fingerprint,
 * database, operators with their key fingerprints), lets an operator of this desk ask to be enrolled,
 * lets a team administrator prepare the enrolments that wait, and takes the desk out of the team.
 * Creating, joining and leaving are control changes: main confirms them in the trusted window.
 */
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { OPERATOR_ROLES, type OperatorRole, ROLE_NAMES } from '../../../../shared/contract/operators';
import type { TeamStatus } from '../../../../shared/contract/team';
import { type DeskCallError, useDeskEvent, useDeskMutation, useDeskQuery } from '../../lib/desk';
import { Button, Checkbox, CopyButton, DataTable, ErrorNotice, Loading, Select, TextField, Time } from '../../ui';

const ROLE_OPTIONS = OPERATOR_ROLES.map((role) => ({ value: role, label: ROLE_NAMES[role] }));
const INVALIDATES = [
  'team.status',
  'operators.current',
  'approvals.list',
  'approvals.fourEyes',
  'policies.get',
] as const;

/** A change that waits for another administrator is not a failure. */
function Outcome({ error }: { readonly error: DeskCallError | null }) {
  if (error === null) return null;
  if (error.code === 'AWAITING_APPROVAL')
    return (
      <p className="notice notice-warn" role="status" data-testid="team-queued">
        Waits for another administrator in Approvals; nothing was changed yet.
      </p>
    );
  return <ErrorNotice error={error} />;
}

const databaseWords = (status: TeamStatus): string => {
  const db = status.database;
  if (db === undefined || db.state === 'connected') return 'Connected';
  if (db.state === 'connecting') return `Not reached yet${db.reason ? ` (${db.reason})` : ''}`;
  return `Unavailable${db.reason ? ` (${db.reason})` : ''}`;
};

function JoinOrCreate({ offeredUrl }: { readonly offeredUrl: string | undefined }) {
  const [mode, setMode] = useState<'join' | 'create'>('join');
  const [url, setUrl] = useState(offeredUrl ?? '');
  const [name, setName] = useState('');
  const [fingerprint, setFingerprint] = useState('');
  const [passphrase, setPassphrase] = useState('');
  const [role, setRole] = useState<OperatorRole>('admin');
  const [importJournal, setImportJournal] = useState(false);
  const join = useDeskMutation('team.join', { invalidates: INVALIDATES, onSettled: () => setPassphrase('') });
  const create = useDeskMutation('team.create', { invalidates: INVALIDATES, onSettled: () => setPassphrase('') });
  const busy = join.isPending || create.isPending;
  const error = mode === 'join' ? join.error : create.error;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (mode === 'join') join.mutate({ url, fingerprint, passphrase, role });
    else create.mutate({ url, name, passphrase, importJournal });
  };
  return (
    <form className="form-grid" onSubmit={submit} data-testid="team-join-form">
      <Select<'join' | 'create'>
        label="This desk"
        value={mode}
        onChange={setMode}
        options={[
          { value: 'join', label: 'Joins a team (another desk created it)' },
          { value: 'create', label: 'Creates a team (the first desk)' },
        ]}
        data-testid="team-mode"
      />
      <TextField
        label="Team database (PostgreSQL URL)"
        value={url}
        onChange={setUrl}
        placeholder="postgres://treasury_desk:PASSWORD@db.firm.example:5432/treasury?sslmode=verify-full"
        hint="sslmode: verify-full (default), verify-ca, require or disable; sslrootcert=/path/to/ca.pem. The password is kept in this computer’s keychain, never on disk."
        autoComplete="off"
        spellCheck={false}
        error={error?.fields?.url}
        data-testid="team-url"
      />
      {mode === 'create' ? (
        <>
          <TextField label="Team name" value={name} onChange={setName} data-testid="team-name" />
          <Checkbox
            label="Import this desk’s journal and audit log into the team"
            hint="Its money movements (with their states) and its audit log become the team’s history, signed by you. A movement still waiting for the platform’s answer is looked up there, never sent again. Only when the team is created, once."
            checked={importJournal}
            onChange={setImportJournal}
            testId="team-import-journal"
          />
        </>
      ) : (
        <>
          <TextField
            label="Team fingerprint"
            value={fingerprint}
            onChange={setFingerprint}
            hint="64 hexadecimal digits, shown in Settings → Team on the team’s first desk: compare them with its administrator."
            spellCheck={false}
            error={error?.fields?.fingerprint}
            data-testid="team-fingerprint-input"
          />
          <Select<OperatorRole>
            label="Your role in the team (asked for)"
            value={role}
            onChange={setRole}
            options={ROLE_OPTIONS}
            data-testid="team-role"
          />
        </>
      )}
      <TextField
        label="Your passphrase"
        type="password"
        value={passphrase}
        onChange={setPassphrase}
        autoComplete="current-password"
        hint="Your team signing key is made on this computer and locked with it."
        error={error?.fields?.passphrase}
        data-testid="team-passphrase"
      />
      <div>
        <Button type="submit" busy={busy} data-testid="team-submit">
          {mode === 'join' ? 'Join the team' : 'Create the team'}
        </Button>
      </div>
      <Outcome error={error} />
    </form>
  );
}

function RequestEnrolment() {
  const [passphrase, setPassphrase] = useState('');
  const [role, setRole] = useState<OperatorRole>('maker');
  const request = useDeskMutation('team.requestEnrolment', {
    invalidates: INVALIDATES,
    onSettled: () => setPassphrase(''),
  });
  return (
    <form
      className="form-grid"
      onSubmit={(event) => {
        event.preventDefault();
        request.mutate({ passphrase, role });
      }}
      data-testid="team-request-enrolment"
    >
      <p>You are not enrolled in the team: you can read, but nothing you do is signed yet.</p>
      <Select<OperatorRole> label="Role asked for" value={role} onChange={setRole} options={ROLE_OPTIONS} />
      <TextField
        label="Your passphrase"
        type="password"
        value={passphrase}
        onChange={setPassphrase}
        autoComplete="current-password"
        data-testid="team-enrol-passphrase"
      />
      <div>
        <Button type="submit" busy={request.isPending} data-testid="team-enrol-submit">
          Make my key and ask to be enrolled
        </Button>
      </div>
      {request.error ? <ErrorNotice error={request.error} /> : null}
    </form>
  );
}

function Enrolments({ status, admin }: { readonly status: TeamStatus; readonly admin: boolean }) {
  const prepare = useDeskMutation('team.prepareEnrolment', { invalidates: INVALIDATES });
  if (status.enrolments.length === 0) return null;
  return (
    <>
      <h3>Waiting to be enrolled</h3>
      <DataTable
        caption="Enrolment requests"
        rows={status.enrolments}
        rowKey={(e) => e.operatorId}
        testId="team-enrolments"
        columns={[
          { id: 'name', header: 'Operator', cell: (e) => e.name },
          { id: 'role', header: 'Role asked', cell: (e) => ROLE_NAMES[e.role] },
          { id: 'key', header: 'Key fingerprint (compare it with them)', cell: (e) => <code>{e.keyFingerprint}</code> },
          { id: 'when', header: 'Asked', cell: (e) => <Time ms={e.requestedAt} /> },
          {
            id: 'action',
            header: '',
            cell: (e) =>
              e.prepared ? (
                'Waits in Approvals'
              ) : admin ? (
                <Button
                  size="sm"
                  busy={prepare.isPending && prepare.variables?.operatorId === e.operatorId}
                  onClick={() => prepare.mutate({ operatorId: e.operatorId })}
                  data-testid={`team-enrol-${e.name}`}
                >
                  Enrol
                </Button>
              ) : null,
          },
        ]}
      />
      {prepare.error ? <ErrorNotice error={prepare.error} /> : null}
    </>
  );
}

function InTeam({ status }: { readonly status: TeamStatus }) {
  const leave = useDeskMutation('team.leave', { invalidates: INVALIDATES });
  const importJournal = useDeskMutation('team.importJournal', {
    invalidates: [...INVALIDATES, 'team.auditChain'],
  });
  const me = status.me;
  const admin = me?.role === 'admin';
  return (
    <>
      <dl className="facts" data-testid="team-facts">
        <dt>Team</dt>
        <dd data-testid="team-name-shown">{status.name ?? '—'}</dd>
        <dt>Fingerprint</dt>
        <dd>
          <code data-testid="team-fingerprint">{status.fingerprint}</code>{' '}
          {status.fingerprint ? <CopyButton value={status.fingerprint} testId="team-fingerprint-copy" /> : null}
        </dd>
        <dt>Database</dt>
        <dd>
          {status.url} · <span data-testid="team-database-state">{databaseWords(status)}</span>
        </dd>
        <dt>Four eyes</dt>
        <dd>
          {status.fourEyes
            ? 'In force: a control change needs another team administrator.'
            : 'Not in force: the team has one administrator.'}
        </dd>
        <dt>You</dt>
        <dd data-testid="team-me">
          {me?.enrolled
            ? `${ROLE_NAMES[me.role ?? 'viewer']}; key ${me.keyFingerprint ?? ''}${me.keyUnlocked ? '' : ' (not unlocked on this desk)'}`
            : me?.requested
              ? `Waiting to be enrolled (key ${me.keyFingerprint ?? ''})`
              : 'Not enrolled'}
        </dd>
      </dl>
      {me && !me.enrolled && !me.requested ? <RequestEnrolment /> : null}
      <h3>Operators of the team</h3>
      <DataTable
        caption="Team operators"
        rows={status.operators}
        rowKey={(o) => o.id}
        testId="team-operators"
        columns={[
          { id: 'name', header: 'Name', cell: (o) => o.name },
          { id: 'role', header: 'Role', cell: (o) => (o.role ? ROLE_NAMES[o.role] : 'Removed') },
          { id: 'key', header: 'Key fingerprint', cell: (o) => <code>{o.keyFingerprint}</code> },
        ]}
      />
      <Enrolments status={status} admin={admin} />
      {admin ? (
        <div>
          <Button
            variant="ghost"
            busy={importJournal.isPending}
            onClick={() => importJournal.mutate({})}
            data-testid="team-import-journal-now"
          >
            Import this desk’s journal and audit log…
          </Button>
          <p className="muted">Only into a team that holds no movement or audit entry yet, and once.</p>
          <Outcome error={importJournal.error} />
        </div>
      ) : null}
      <div>
        <Button variant="ghost" busy={leave.isPending} onClick={() => leave.mutate({})} data-testid="team-leave">
          Take this desk out of the team…
        </Button>
      </div>
      <Outcome error={leave.error} />
    </>
  );
}

export function TeamPanel() {
  const client = useQueryClient();
  const status = useDeskQuery(['team.status', {}]);
  const session = useDeskQuery(['operators.current', {}]);
  // Every change (the database, the chain, an enrolment) is read again with who is signed in here.
  useDeskEvent('team.statusChanged', () => void client.invalidateQueries({ queryKey: ['team.status'] }));
  return (
    <section className="panel" aria-labelledby="settings-team" data-testid="team-panel">
      <h2 id="settings-team">Team</h2>
      {status.isPending ? <Loading /> : null}
      {status.isError ? <ErrorNotice error={status.error} onRetry={() => status.refetch()} /> : null}
      {status.data?.mode === 'solo' ? (
        <>
          <p data-testid="team-solo">
            This desk works alone: its operators, policies, approvals and journal are on this computer. In a team,
            several desks share them through the firm’s PostgreSQL database; API keys stay in each desk’s keychain.
          </p>
          {session.data?.operator?.role === 'admin' ? (
            <JoinOrCreate offeredUrl={status.data.offeredUrl} />
          ) : (
            <p>An administrator of this desk can take it into a team.</p>
          )}
        </>
      ) : null}
      {status.data?.mode === 'team' ? <InTeam status={status.data} /> : null}
    </section>
  );
}
