/**
 * Settings → Operators. Everyone sees who they are and changes their own passphrase (the current one
 * is asked again); an administrator also sees every operator (role, last sign-in, who last granted
 * them anything), creates one, changes roles, resets a forgotten passphrase and removes operators.
 * Each of those is a control change: main shows it in the trusted confirmation, and once the desk has
 * two administrators it waits for another one's approval (the panel says whether four eyes are in
 * force, and why). Main decides (roles, the strength rule, the last administrator); the checks here
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
import {
  Button,
  ConfirmDialog,
  DataTable,
  ErrorNotice,
  FourEyesStatus,
  Loading,
  Select,
  TextField,
  Time,
} from '../../ui';

/** What every control change of this panel refreshes (the list, who is signed in, four eyes, the queue). */
const CONTROL_INVALIDATES = ['operators.list', 'operators.current', 'approvals.fourEyes', 'approvals.list'] as const;

/** A control change that waits for another administrator is not a failure: it is queued. */
const queued = (error: DeskCallError | null | undefined): boolean => error?.code === 'AWAITING_APPROVAL';

function Queued({ error, testId }: { readonly error: DeskCallError; readonly testId: string }) {
  return (
    <p className="notice notice-warn" role="status" data-testid={testId}>
      Waits for another administrator in Approvals; nothing was changed yet. {error.message}
    </p>
  );
}

const ROLE_OPTIONS = OPERATOR_ROLES.map((role) => ({ value: role, label: ROLE_NAMES[role] }));

/** A refusal in words, with main's advice when it has one. */
const refusal = (error: DeskCallError): string => (error.advice ? `${error.message} ${error.advice}` : error.message);

function RoleCell({ operator }: { readonly operator: Operator }) {
  const [error, setError] = useState<string | undefined>();
  const change = useDeskMutation('operators.changeRole', {
    invalidates: [...CONTROL_INVALIDATES],
    onSuccess: () => setError(undefined),
    onError: (failure) =>
      setError(queued(failure) ? 'Waits for another administrator in Approvals.' : refusal(failure)),
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

/** A new passphrase typed twice, checked as the person types (main checks the strength again). */
const useNewPassphrase = (name: string) => {
  const [value, setValue] = useState('');
  const [repeat, setRepeat] = useState('');
  const strength = value === '' ? 'Enter a passphrase' : passphraseProblem(value, name);
  const mismatch = repeat !== value ? 'The two passphrases differ' : undefined;
  return {
    value,
    setValue,
    repeat,
    setRepeat,
    problem: strength ?? mismatch,
    strength,
    mismatch,
    clear: () => {
      setValue('');
      setRepeat('');
    },
  };
};

/** The two fields of a new passphrase; the strength shows once it is long enough or after a first try. */
function NewPassphraseFields({
  field,
  labels,
  tried,
  mainError,
  hint,
  testIds,
}: {
  readonly field: ReturnType<typeof useNewPassphrase>;
  readonly labels: readonly [string, string];
  readonly tried: boolean;
  /** Main's refusal of the field, when it made one. */
  readonly mainError: string | undefined;
  readonly hint?: string;
  readonly testIds: readonly [string, string];
}) {
  return (
    <>
      <TextField
        label={labels[0]}
        type="password"
        value={field.value}
        onChange={field.setValue}
        autoComplete="new-password"
        {...(hint ? { hint } : {})}
        error={(tried || field.value.length >= 12 ? field.strength : undefined) ?? mainError}
        data-testid={testIds[0]}
      />
      <TextField
        label={labels[1]}
        type="password"
        value={field.repeat}
        onChange={field.setRepeat}
        autoComplete="new-password"
        error={tried ? field.mismatch : undefined}
        data-testid={testIds[1]}
      />
    </>
  );
}

/** Gives an operator who forgot theirs a new passphrase (a control change: you will know it). */
function ResetPassphrase({ operator, onDone }: { readonly operator: Operator; readonly onDone: () => void }) {
  const passphrase = useNewPassphrase(operator.name);
  const [tried, setTried] = useState(false);
  const reset = useDeskMutation('operators.resetPassphrase', {
    invalidates: [...CONTROL_INVALIDATES],
    onSuccess: onDone,
  });
  const submit = () => {
    setTried(true);
    if (passphrase.problem) return;
    reset.mutate({ id: operator.id, passphrase: passphrase.value });
  };
  return (
    <ConfirmDialog
      open
      title={`New passphrase for ${operator.name}`}
      confirmLabel="Reset passphrase"
      busy={reset.isPending}
      onConfirm={submit}
      onCancel={onDone}
      testId="operator-reset-dialog"
    >
      <p className="field-hint">
        You will know this passphrase: for the policy’s cooling-off period {operator.name} may not approve what you
        prepare. Tell it to them in person and ask them to change it.
      </p>
      <NewPassphraseFields
        field={passphrase}
        labels={['New passphrase', 'New passphrase again']}
        tried={tried}
        mainError={reset.error?.fields?.passphrase}
        testIds={['operator-reset-passphrase', 'operator-reset-repeat']}
      />
      {reset.error ? (
        queued(reset.error) ? (
          <Queued error={reset.error} testId="operator-reset-queued" />
        ) : (
          <ErrorNotice error={reset.error} compact />
        )
      ) : null}
    </ConfirmDialog>
  );
}

function OperatorActions({ operator, me }: { readonly operator: Operator; readonly me: string }) {
  const [resetting, setResetting] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const remove = useDeskMutation('operators.remove', {
    invalidates: [...CONTROL_INVALIDATES],
    onSuccess: () => setError(undefined),
    onError: (failure) =>
      setError(queued(failure) ? 'Waits for another administrator in Approvals.' : refusal(failure)),
  });
  // Repeated wrong passphrases made their sign-in wait: another administrator lifts it (main asks for
  // the trusted confirmation and records it).
  const lift = useDeskMutation('operators.liftLockout', {
    invalidates: ['operators.list'],
    onSuccess: () => setError(undefined),
    onError: (failure) => setError(refusal(failure)),
  });
  if (operator.id === me) return <span className="muted">You</span>;
  return (
    <span className="row-actions">
      {operator.lockedOutUntil ? (
        <Button
          variant="ghost"
          busy={lift.isPending}
          onClick={() => lift.mutate({ id: operator.id })}
          title="Repeated wrong passphrases made this operator's sign-in wait"
          data-testid={`operator-lift-${operator.name}`}
        >
          Lift the sign-in wait
        </Button>
      ) : null}
      <Button variant="ghost" onClick={() => setResetting(true)} data-testid={`operator-reset-${operator.name}`}>
        Reset passphrase
      </Button>
      <Button
        variant="danger"
        busy={remove.isPending}
        onClick={() => remove.mutate({ id: operator.id })}
        data-testid={`operator-remove-${operator.name}`}
      >
        Remove
      </Button>
      {error ? (
        <span className="field-error" role="alert" data-testid={`operator-action-error-${operator.name}`}>
          {error}
        </span>
      ) : null}
      {resetting ? <ResetPassphrase operator={operator} onDone={() => setResetting(false)} /> : null}
    </span>
  );
}

function OperatorList({ me }: { readonly me: string }) {
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
          cell: (o) => (
            <>
              {o.lastSignInAt ? <Time ms={o.lastSignInAt} /> : 'Never'}
              {o.lockedOutUntil ? (
                <span className="muted" data-testid={`operator-waits-${o.name}`}>
                  {' '}
                  · sign-in waits until <Time ms={o.lockedOutUntil} />
                </span>
              ) : null}
            </>
          ),
          sortValue: (o) => o.lastSignInAt,
        },
        { id: 'createdBy', header: 'Created by', cell: (o) => o.createdBy || '—' },
        {
          id: 'grant',
          header: 'Last granted',
          cell: (o) =>
            o.grantedBy && o.grantedAt ? (
              <span data-testid={`operator-grant-${o.name}`}>
                by {o.grantedBy}, <Time ms={o.grantedAt} />
                {o.passphraseSetBy ? ` · passphrase chosen by ${o.passphraseSetBy}, not changed yet` : ''}
              </span>
            ) : (
              '—'
            ),
        },
        { id: 'actions', header: 'Actions', cell: (o) => <OperatorActions operator={o} me={me} /> },
      ]}
    />
  );
}

function CreateOperator() {
  const [name, setName] = useState('');
  const [role, setRole] = useState<OperatorRole>('viewer');
  const passphrase = useNewPassphrase(name);
  const [tried, setTried] = useState(false);
  const [created, setCreated] = useState<string | undefined>();
  const create = useDeskMutation('operators.create', {
    invalidates: [...CONTROL_INVALIDATES],
    onSuccess: (operator) => {
      setCreated(`${operator.name} can now sign in as ${ROLE_NAMES[operator.role].toLowerCase()}.`);
      setName('');
      passphrase.clear();
      setRole('viewer');
      setTried(false);
    },
  });
  const parsedName = OperatorName.safeParse(name);
  const nameProblem = parsedName.success ? undefined : parsedName.error.issues[0]?.message;
  const fields = create.error?.fields ?? {};
  const duplicate = create.error && /already an operator named/.test(create.error.message);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    setCreated(undefined);
    if (nameProblem || passphrase.problem) return;
    create.mutate({ name: name.trim(), role, passphrase: passphrase.value });
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
      <NewPassphraseFields
        field={passphrase}
        labels={['First passphrase', 'Passphrase again']}
        tried={tried}
        mainError={fields.passphrase}
        hint="At least 12 characters; a few unrelated words work well. Tell it to the operator in person."
        testIds={['operator-create-passphrase', 'operator-create-repeat']}
      />
      {create.error && queued(create.error) ? <Queued error={create.error} testId="operator-create-queued" /> : null}
      {create.error && !queued(create.error) && !duplicate && Object.keys(fields).length === 0 ? (
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
  const next = useNewPassphrase(name);
  const [tried, setTried] = useState(false);
  const change = useDeskMutation('operators.changePassphrase', {
    onSuccess: () => {
      setCurrent('');
      next.clear();
      setTried(false);
    },
  });
  const currentProblem = current === '' ? 'Enter your current passphrase' : undefined;
  const error = change.error;
  // A wrong (or, after too many, unchecked) current passphrase is about that field; anything else is a banner.
  const atCurrent = error && (error.label === 'WRONG_PASSPHRASE' || error.label === 'TOO_MANY_ATTEMPTS');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (currentProblem || next.problem) return;
    change.mutate({ current, next: next.value });
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
      <NewPassphraseFields
        field={next}
        labels={['New passphrase', 'New passphrase again']}
        tried={tried}
        mainError={error?.fields?.next}
        hint="At least 12 characters; a few unrelated words work well."
        testIds={['passphrase-next', 'passphrase-repeat']}
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
              <FourEyesStatus />
              <OperatorList me={me.id} />
              <CreateOperator />
            </>
          ) : null}
          <ChangePassphrase name={me.name} />
        </>
      ) : null}
    </section>
  );
}
