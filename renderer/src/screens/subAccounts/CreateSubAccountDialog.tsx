/** Creates a sub-account; the login-name rule is checked as the person types, before anything is sent. */
import { useState } from 'react';
import {
  LOGIN_NAME_MAX,
  LOGIN_NAME_MIN,
  loginNameProblem,
  type SubAccountView,
} from '../../../../shared/contract/subAccounts';
import { useDeskMutation } from '../../lib/desk';
import { Button, Dialog, ErrorNotice, TextField } from '../../ui';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const CreateSubAccountDialog = ({
  onClose,
  onCreated,
}: {
  readonly onClose: () => void;
  readonly onCreated: (account: SubAccountView) => void;
}) => {
  const [loginName, setLoginName] = useState('');
  const [remark, setRemark] = useState('');
  const [email, setEmail] = useState('');
  const [attempted, setAttempted] = useState(false);
  const create = useDeskMutation('subAccounts.create', {
    invalidates: ['subAccounts.list', 'subAccounts.balances', 'subAccounts.unifiedMode'],
  });

  const nameProblem = loginNameProblem(loginName);
  const emailProblem =
    email.trim() !== '' && !EMAIL.test(email.trim()) ? 'Enter a valid e-mail address or leave it empty.' : undefined;
  const remarkProblem = remark.length > 200 ? 'Use at most 200 characters.' : undefined;
  const valid = !nameProblem && !emailProblem && !remarkProblem;

  const submit = () => {
    setAttempted(true);
    if (!valid || create.isPending) return;
    create.mutate(
      {
        loginName,
        ...(remark.trim() ? { remark: remark.trim() } : {}),
        ...(email.trim() ? { email: email.trim() } : {}),
      },
      { onSuccess: (account) => onCreated(account) },
    );
  };

  return (
    <Dialog
      open
      title="Create a sub-account"
      onClose={onClose}
      busy={create.isPending}
      testId="create-subaccount"
      footer={
        <>
          <Button onClick={onClose} disabled={create.isPending}>
            Cancel
          </Button>
          <Button variant="primary" onClick={submit} busy={create.isPending} data-testid="create-subaccount-submit">
            Create sub-account
          </Button>
        </>
      }
    >
      <form
        noValidate
        className="stack"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <TextField
          label="Login name"
          value={loginName}
          onChange={setLoginName}
          error={attempted || loginName !== '' ? nameProblem : undefined}
          hint={`${LOGIN_NAME_MIN}–${LOGIN_NAME_MAX} characters: letters, digits and underscore, starting with a letter.`}
          maxLength={LOGIN_NAME_MAX + 8}
        />
        <TextField label="Remark (optional)" value={remark} onChange={setRemark} error={remarkProblem} />
        <TextField
          label="E-mail (optional)"
          value={email}
          onChange={setEmail}
          error={emailProblem}
          type="email"
          hint="Password and e-mail default to the main account’s."
        />
        {create.error ? <ErrorNotice error={create.error} /> : null}
        <button type="submit" hidden tabIndex={-1} aria-hidden="true" />
      </form>
    </Dialog>
  );
};
