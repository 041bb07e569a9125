/**
 * After a key is created: its id, and where its secret went. The secret itself never reaches this
 * window — main showed it once in Treasury Desk's own window (the shell's page, which this window
 * cannot read) and kept it in the keychain when asked. When it was neither shown nor kept, the key
 * is useless: the dialog says to delete it.
 */

import { Button, CopyButton, Dialog } from '../../../ui';
import type { KeyCreated } from './KeyFormDialog';

export const KeyCreatedDialog = ({
  created,
  onClose,
}: {
  readonly created: KeyCreated;
  readonly onClose: () => void;
}) => (
  <Dialog
    open
    title="API key created"
    onClose={onClose}
    testId="key-created"
    footer={
      <Button variant="primary" onClick={onClose} data-testid="key-created-done">
        Done
      </Button>
    }
  >
    <div className="stack">
      <dl className="facts">
        <dt>Key</dt>
        <dd>
          <code data-testid="created-key">{created.key.key}</code>{' '}
          <CopyButton value={created.key.key} label="Copy key" />
        </dd>
      </dl>
      {created.secretShown ? (
        <p data-testid="secret-shown">
          Its secret was shown once in Treasury Desk’s own window. This window never receives it, and nothing can show
          it again.
        </p>
      ) : null}
      {created.secretStored ? (
        <p data-testid="secret-stored">The secret is kept in this computer’s keychain.</p>
      ) : created.storeProblem ? (
        <p className="field-error" role="alert">
          It could not be kept in the keychain: {created.storeProblem}
        </p>
      ) : null}
      {!created.secretShown && !created.secretStored ? (
        <div className="notice notice-bad" role="alert" data-testid="secret-lost">
          The secret was neither shown nor kept, so nobody can use this key. Delete it and create another.
        </div>
      ) : null}
    </div>
  </Dialog>
);
