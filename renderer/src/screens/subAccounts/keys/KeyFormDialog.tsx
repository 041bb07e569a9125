/**
 * Create or edit a sub-account key. Everything is checked here before sending (name, at least one
 * permission, each whitelist address); main checks the same rules again. On edit the full
 * whitelist and the full permission set are sent, so nothing is dropped by accident.
 */
import { useState } from 'react';
import { type KeyView, type PermMatrix, whitelistProblems } from '../../../../../shared/contract/keys';
import { useDeskMutation } from '../../../lib/desk';
import { Button, Dialog, ErrorNotice, Select, TextField } from '../../../ui';
import { IpWhitelistEditor } from './IpWhitelistEditor';
import { PermissionsMatrix } from './PermissionsMatrix';

export type CreatedKey = {
  readonly key: KeyView;
  readonly secret: string;
  readonly secretStored: boolean;
  readonly storeProblem?: string | undefined;
};

export interface KeyFormDialogProps {
  readonly userId: number;
  /** The key being edited; absent to create one. */
  readonly editing?: KeyView;
  readonly onClose: () => void;
  /** Create only: receives the answer that carries the secret (shown once by the caller). */
  readonly onCreated?: (created: CreatedKey) => void;
}

const nameProblem = (name: string): string | undefined => {
  if (name.trim() === '') return 'Give the key a name.';
  if (name.trim().length > 50) return 'Use at most 50 characters.';
  return undefined;
};

export const KeyFormDialog = ({ userId, editing, onClose, onCreated }: KeyFormDialogProps) => {
  const [name, setName] = useState(editing?.name ?? '');
  const [mode, setMode] = useState<'classic' | 'unified'>(editing?.mode === 'unified' ? 'unified' : 'classic');
  const [perms, setPerms] = useState<PermMatrix>(editing?.perms ?? { wallet: 'read', spot: 'read' });
  const [ips, setIps] = useState<string[]>(editing ? [...editing.ipWhitelist] : []);
  const [keep, setKeep] = useState(true);
  const [attempted, setAttempted] = useState(false);

  // gcTime 0: the answer carries the secret, so react-query must not keep it after it is handed over.
  const create = useDeskMutation('keys.create', { invalidates: ['keys.list'], gcTime: 0 });
  const update = useDeskMutation('keys.update', { invalidates: ['keys.list'] });
  const mutation = editing ? update : create;

  const problems = {
    name: nameProblem(name),
    perms: Object.values(perms).some((access) => access !== 'none')
      ? undefined
      : 'Give the key at least one permission.',
    ips: whitelistProblems(ips),
  };
  const valid = !problems.name && !problems.perms && problems.ips.entries.size === 0 && !problems.ips.list;
  const droppingBinding = editing !== undefined && editing.ipWhitelist.length > 0 && ips.length === 0;

  const submit = () => {
    setAttempted(true);
    if (!valid || mutation.isPending) return;
    const ipWhitelist = ips.map((ip) => ip.trim());
    if (editing) {
      update.mutate({ userId, key: editing.key, name: name.trim(), perms, ipWhitelist }, { onSuccess: onClose });
    } else {
      create.mutate(
        { userId, name: name.trim(), mode, perms, ipWhitelist, keepSecretInKeychain: keep },
        {
          onSuccess: (created) => {
            onCreated?.(created);
            create.reset();
          },
        },
      );
    }
  };

  return (
    <Dialog
      open
      title={editing ? `Edit key ${editing.name ?? ''}`.trim() : 'Create an API key'}
      onClose={onClose}
      busy={mutation.isPending}
      size="lg"
      testId="key-form"
      footer={
        <>
          <Button onClick={onClose} disabled={mutation.isPending}>
            Cancel
          </Button>
          <Button variant="primary" onClick={submit} busy={mutation.isPending} data-testid="key-form-submit">
            {editing ? 'Save key' : 'Create key'}
          </Button>
        </>
      }
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
        className="stack"
      >
        <TextField
          label="Key name"
          value={name}
          onChange={setName}
          error={attempted || name !== '' ? problems.name : undefined}
          maxLength={60}
        />
        {editing ? (
          <p className="muted">
            Mode: {editing.mode === 'unified' ? 'Unified' : 'Classic'} (the platform cannot change a key’s mode).
          </p>
        ) : (
          <Select
            label="Account mode"
            value={mode}
            onChange={setMode}
            options={[
              { value: 'classic', label: 'Classic account' },
              { value: 'unified', label: 'Unified account' },
            ]}
          />
        )}
        <PermissionsMatrix value={perms} onChange={setPerms} error={attempted ? problems.perms : undefined} />
        <IpWhitelistEditor value={ips} onChange={setIps} showAll={attempted} />
        {droppingBinding ? (
          <div className="notice notice-warn" role="alert">
            Saving removes every address: the key will then work from any IP and expire 90 days after its creation.
          </div>
        ) : null}
        {editing ? null : (
          <label className="field-check">
            <input type="checkbox" checked={keep} onChange={(event) => setKeep(event.target.checked)} />
            Keep the secret in this computer’s keychain (otherwise it is shown once and then forgotten)
          </label>
        )}
        {attempted && !valid ? (
          <p className="field-error" role="alert" data-testid="key-form-invalid">
            Fix the marked fields; nothing was sent.
          </p>
        ) : null}
        {mutation.error ? <ErrorNotice error={mutation.error} /> : null}
        {/* Enter in a field submits through the form. */}
        <button type="submit" hidden tabIndex={-1} aria-hidden="true" />
      </form>
    </Dialog>
  );
};
