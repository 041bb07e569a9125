/**
 * Whose session the desk is in, and a button to switch it to an approver. Signing in here switches
 * the whole desk's operator (operators.signIn), not only this screen: the dialog says so before
 * anyone types a passphrase, and the line above the queue always names who is signed in.
 */
import { useState } from 'react';
import { type Operator, ROLE_NAMES } from '../../../../shared/contract/operators';
import { useDeskMutation } from '../../lib/desk';
import { Button, Dialog, ErrorNotice, TextField } from '../../ui';

export function SwitchOperator({
  operator,
  canApprove,
}: {
  readonly operator: Pick<Operator, 'name' | 'role'> | undefined;
  /** The one signed in may approve what others prepared (the button is then secondary). */
  readonly canApprove: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [passphrase, setPassphrase] = useState('');
  const [tried, setTried] = useState(false);
  const signIn = useDeskMutation('operators.signIn', {
    invalidates: ['operators.current', 'approvals.list'],
    onSuccess: () => {
      setPassphrase('');
      setOpen(false);
    },
  });
  const close = () => {
    setOpen(false);
    setPassphrase('');
    setTried(false);
    signIn.reset();
  };
  const submit = () => {
    setTried(true);
    if (name.trim() === '' || passphrase === '') return;
    signIn.mutate({ name: name.trim(), passphrase });
  };
  return (
    <div className="approvals-session" data-testid="approvals-session">
      <p data-testid="approvals-operator">
        {operator ? (
          <>
            This desk’s session: <strong>{operator.name}</strong> ({ROLE_NAMES[operator.role]}).{' '}
            <span className="muted">Whatever is approved or rejected here is done as {operator.name}.</span>
          </>
        ) : (
          'Nobody is signed in at this desk.'
        )}
      </p>
      <Button
        variant={canApprove ? 'secondary' : 'primary'}
        size="sm"
        onClick={() => setOpen(true)}
        data-testid="approver-switch"
      >
        Switch to an approver
      </Button>
      <Dialog
        open={open}
        title="Switch this desk to an approver"
        onClose={close}
        busy={signIn.isPending}
        size="sm"
        onEnter={submit}
        testId="approver-dialog"
      >
        <form
          className="stack"
          noValidate
          data-testid="approver-sign-in"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <p>
            The approver signs in on this desk: the desk’s session switches from{' '}
            {operator ? <strong>{operator.name}</strong> : 'nobody'} to them, on every screen, until someone else signs
            in. An item is approved by an approver or administrator other than the operator who prepared it.
          </p>
          <TextField
            label="Approver’s name"
            value={name}
            onChange={setName}
            autoComplete="off"
            error={tried && name.trim() === '' ? 'Enter the approver’s name.' : undefined}
            data-testid="approver-name"
          />
          <TextField
            label="Their passphrase"
            type="password"
            value={passphrase}
            onChange={setPassphrase}
            autoComplete="off"
            error={tried && passphrase === '' ? 'Enter their passphrase.' : undefined}
            data-testid="approver-passphrase"
          />
          {signIn.error ? <ErrorNotice error={signIn.error} /> : null}
          <div className="row-actions">
            <Button type="submit" variant="primary" busy={signIn.isPending} data-testid="approver-sign-in-submit">
              Sign in and switch
            </Button>
            <Button onClick={close} disabled={signIn.isPending}>
              Cancel
            </Button>
          </div>
        </form>
      </Dialog>
    </div>
  );
}
