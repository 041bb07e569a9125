/**
 * Settings → Operators. Everyone sees who they are and changes their own passphrase (the current one
 * is asked again); an administrator also sees every operator (role, last sign-in), creates one and
 * changes roles. Main decides (roles, the strength rule, the last administrator); the checks here
 * only say it sooner, and main's refusals show at the field they are about.
 */
import { type FormEvent, useState } from 'react';
import {
  OPERATOR_ROLES,
  type Operator,
  OperatorName,
  type OperatorRole,
  passphraseProblem,
  ROLE_DESCRIPTIONS,
  ROLE_NAMES,
} from '../../../../shared/contract/operators';
import { type DeskCallError, useDeskMutation, useDeskQuery } from '../../lib/desk';
import { Button, DataTable, ErrorNotice, Loading, Select, TextField, Time } from '../../ui';

const ROLE_OPTIONS = OPERATOR_ROLES.map((role) => ({ value: role, label: ROLE_NAMES[role] }));

/** A refusal in words, with main's advice when it has one. */
const refusal = (error: DeskCallError): string => (error.advice ? `${error.message} ${error.advice}` : error.message);

function RoleCell({ operator }: { readonly operator: Operator }) {
  const [error, setError] = useState<string | undefined>();
  const change = useDeskMutation('operators.changeRole', {
    invalidates: ['operators.list', 'operators.current'],
    onSuccess: () => setError(undefined),
    onError: (failure) => setError(refusal(failure)),
  });
  return (
    <Select<OperatorRole>
      label={`Role of ${operator.name}`}
      hideLabel
      value={operator.role}
      options={ROLE_OPTIONS}
      disabled={change.isPending}
      error={error}
      onChange={(role) => {
        if (role !== operator.role) change.mutate({ id: operator.id, role });
      }}
      data-testid={`operator-role-${operator.name}`}
    />
  );
}

function OperatorList() {
  const list = useDeskQuery(['operators.list', {}]);
  if (list.isPending) return <Loading />;
  if (list.isError) return <ErrorNotice error={list.error} onRetry={() => list.refetch()} />;
  return (
    <DataTable
      caption="Operators of this desk"
      testId="operators-table"
      rows={list.data}
      rowKey={(o) => o.id}
      columns={[
        { id: 'name', header: 'Name', cell: (o) => o.name, sortValue: (o) => o.name },
        { id: 'role', header: 'Role', cell: (o) => <RoleCell operator={o} /> },
        {
          id: 'lastSignIn',
          header: 'Last sign-in',
          cell: (o) => (o.lastSignInAt ? <Time ms={o.lastSignInAt} /> : 'Never'),
          sortValue: (o) => o.lastSignInAt,
        },
        { id: 'createdBy', header: 'Created by', cell: (o) => o.createdBy || '—' },
      ]}
    />
  );
}

function CreateOperator() {
  const [name, setName] = useState('');
  const [role, setRole] = useState<OperatorRole>('viewer');
  const [passphrase, setPassphrase] = useState('');
  const [repeat, setRepeat] = useState('');
  const [tried, setTried] = useState(false);
  const [created, setCreated] = useState<string | undefined>();
  const create = useDeskMutation('operators.create', {
    invalidates: ['operators.list'],
    onSuccess: (operator) => {
      setCreated(`${operator.name} can now sign in as ${ROLE_NAMES[operator.role].toLowerCase()}.`);
      setName('');
      setPassphrase('');
      setRepeat('');
      setRole('viewer');
      setTried(false);
    },
  });
  const parsedName = OperatorName.safeParse(name);
  const nameProblem = parsedName.success ? undefined : parsedName.error.issues[0]?.message;
  const strength = passphrase === '' ? 'Enter a passphrase' : passphraseProblem(passphrase, name);
  const mismatch = repeat !== passphrase ? 'The two passphrases differ' : undefined;
  const fields = create.error?.fields ?? {};
  const duplicate = create.error && /already an operator named/.test(create.error.message);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    setCreated(undefined);
    if (nameProblem || strength || mismatch) return;
    create.mutate({ name: name.trim(), role, passphrase });
  };
  return (
    <form
      className="stack"
      onSubmit={submit}
      noValidate
      aria-labelledby="operators-create"
      data-testid="operator-create"
    >
      <h3 id="operators-create">Add an operator</h3>
      <TextField
        label="Name"
        value={name}
        onChange={setName}
        autoComplete="off"
        error={(tried ? nameProblem : undefined) ?? fields.name ?? (duplicate ? create.error?.message : undefined)}
        data-testid="operator-create-name"
      />
      <Select<OperatorRole>
        label="Role"
        value={role}
        options={ROLE_OPTIONS}
        onChange={setRole}
        data-testid="operator-create-role"
      />
      <div className="field-hint" data-testid="operator-create-role-hint">
        {ROLE_DESCRIPTIONS[role]}
      </div>
      <TextField
        label="First passphrase"
        type="password"
        value={passphrase}
        onChange={setPassphrase}
        autoComplete="new-password"
        hint="At least 12 characters; a few unrelated words work well. Tell it to the operator in person."
        error={(tried || passphrase.length >= 12 ? strength : undefined) ?? fields.passphrase}
        data-testid="operator-create-passphrase"
      />
      <TextField
        label="Passphrase again"
        type="password"
        value={repeat}
        onChange={setRepeat}
        autoComplete="new-password"
        error={tried ? mismatch : undefined}
        data-testid="operator-create-repeat"
      />
      {create.error && !duplicate && Object.keys(fields).length === 0 ? (
        <ErrorNotice error={create.error} compact />
      ) : null}
      {created ? (
        <p className="notice notice-good" role="status" data-testid="operator-created">
          {created}
        </p>
      ) : null}
      <div>
        <Button type="submit" variant="primary" busy={create.isPending} data-testid="operator-create-submit">
          Add operator
        </Button>
      </div>
    </form>
  );
}

function ChangePassphrase({ name }: { readonly name: string }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [tried, setTried] = useState(false);
  const change = useDeskMutation('operators.changePassphrase', {
    onSuccess: () => {
      setCurrent('');
      setNext('');
      setRepeat('');
      setTried(false);
    },
  });
  const strength = next === '' ? 'Enter a new passphrase' : passphraseProblem(next, name);
  const mismatch = repeat !== next ? 'The two passphrases differ' : undefined;
  const currentProblem = current === '' ? 'Enter your current passphrase' : undefined;
  const error = change.error;
  // A wrong (or, after too many, unchecked) current passphrase is about that field; anything else is a banner.
  const atCurrent = error && (error.label === 'WRONG_PASSPHRASE' || error.label === 'TOO_MANY_ATTEMPTS');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (currentProblem || strength || mismatch) return;
    change.mutate({ current, next });
  };
  return (
    <form
      className="stack"
      onSubmit={submit}
      noValidate
      aria-labelledby="operators-passphrase"
      data-testid="passphrase-change"
    >
      <h3 id="operators-passphrase">Change my passphrase</h3>
      <TextField
        label="Current passphrase"
        type="password"
        value={current}
        onChange={(value) => {
          setCurrent(value);
          change.reset();
        }}
        autoComplete="current-password"
        error={
          (tried ? currentProblem : undefined) ?? (atCurrent ? error.message : undefined) ?? error?.fields?.current
        }
        data-testid="passphrase-current"
      />
      <TextField
        label="New passphrase"
        type="password"
        value={next}
        onChange={setNext}
        autoComplete="new-password"
        hint="At least 12 characters; a few unrelated words work well."
        error={(tried || next.length >= 12 ? strength : undefined) ?? error?.fields?.next}
        data-testid="passphrase-next"
      />
      <TextField
        label="New passphrase again"
        type="password"
        value={repeat}
        onChange={setRepeat}
        autoComplete="new-password"
        error={tried ? mismatch : undefined}
        data-testid="passphrase-repeat"
      />
      {error && !atCurrent && !error.fields ? <ErrorNotice error={error} compact /> : null}
      {change.isSuccess ? (
        <p className="notice notice-good" role="status" data-testid="passphrase-changed">
          Your passphrase was changed. Use the new one from the next unlock on.
        </p>
      ) : null}
      <div>
        <Button type="submit" busy={change.isPending} data-testid="passphrase-change-submit">
          Change passphrase
        </Button>
      </div>
    </form>
  );
}

export function OperatorsPanel() {
  const session = useDeskQuery(['operators.current', {}]);
  const me = session.data?.operator;
  return (
    <section className="panel" aria-labelledby="settings-operators" data-testid="operators-panel">
      <h2 id="settings-operators">Operators</h2>
      {session.isPending ? <Loading /> : null}
      {session.isError ? <ErrorNotice error={session.error} onRetry={() => session.refetch()} /> : null}
      {me ? (
        <>
          <p data-testid="operators-me">
            You are signed in as <strong>{me.name}</strong> ({ROLE_NAMES[me.role]}). {ROLE_DESCRIPTIONS[me.role]}
          </p>
          {me.role === 'admin' ? (
            <>
              <OperatorList />
              <CreateOperator />
            </>
          ) : null}
          <ChangePassphrase name={me.name} />
        </>
      ) : null}
    </section>
  );
}
