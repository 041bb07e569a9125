/**
 * Shows a new key's secret exactly once. The secret lives only in this dialog's props: closing it
 * drops the last reference (the caller resets its state), and no operation can fetch it again.
 * Escape and × do nothing until the person confirms the copy, so it is not lost by a stray key.
 * Locking closes it like every dialog — the secret is then gone, which the lock screen says.
 */
import { useState } from 'react';
import { useLock } from '../../../lib/lock';
import { Button, CopyButton, Dialog, FieldError, Notice } from '../../../ui';
import type { CreatedKey } from './KeyFormDialog';

export const SecretOnceDialog = ({
  created,
  onClose,
}: {
  readonly created: CreatedKey;
  readonly onClose: () => void;
}) => {
  const [acknowledged, setAcknowledged] = useState(false);
  return (
    <Dialog
      open
      title="Copy the new key’s secret now"
      onClose={(cause) => {
        if (cause === 'locked') useLock.getState().noteSecretHidden();
        onClose();
      }}
      dismissible={acknowledged}
      testId="secret-once"
      footer={
        <Button variant="primary" onClick={onClose} disabled={!acknowledged} data-testid="secret-done">
          Done — hide the secret
        </Button>
      }
    >
      <div className="stack">
        <Notice tone="warn" role="alert">
          This is the only time the secret is shown. After you close this window it cannot be shown again, by this app
          or by the platform.
        </Notice>
        <dl className="facts">
          <dt>Key</dt>
          <dd>
            <code data-testid="created-key">{created.key.key}</code>{' '}
            <CopyButton value={created.key.key} label="Copy key" />
          </dd>
          <dt>Secret</dt>
          <dd>
            <code className="secret" data-testid="created-secret">
              {created.secret}
            </code>{' '}
            {/* The first focus: Enter copies, never closes. */}
            <CopyButton value={created.secret} label="Copy secret" testId="copy-secret" autoFocus />
          </dd>
        </dl>
        {created.secretStored ? (
          <p data-testid="secret-stored">The secret is also kept in this computer’s keychain.</p>
        ) : created.storeProblem ? (
          <FieldError message={`It could not be kept in the keychain: ${created.storeProblem} Copy it now.`} />
        ) : (
          <p>The app does not keep the secret.</p>
        )}
        <label className="field-check">
          <input type="checkbox" checked={acknowledged} onChange={(event) => setAcknowledged(event.target.checked)} />I
          have copied the secret or no longer need it
        </label>
      </div>
    </Dialog>
  );
};
