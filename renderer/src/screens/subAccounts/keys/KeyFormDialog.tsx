/**
 * Create or edit a sub-account key. A react-hook-form form driven by the contract's own input
 * schema (`keys.create`): the name, at least one permission and each whitelist address are checked
 * here with main's rules before sending, each error once, at its field. On edit the full whitelist
 * and the full permission set are sent, so nothing is dropped by accident. A refusal that names a
 * field (main's INVALID_INPUT `fields`, e.g. `ipWhitelist.2`) goes to that field; the rest is one
 * banner (lib/formErrors.ts).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { keys as contract, type KeyView, type PermMatrix } from '../../../../../shared/contract/keys';
import { useDeskMutation } from '../../../lib/desk';
import { type FormFields, fieldMessage, placeRefusal } from '../../../lib/formErrors';
import { Button, Dialog, ErrorNotice, Select, TextField } from '../../../ui';
import { IpWhitelistEditor } from './IpWhitelistEditor';
import { PermissionsMatrix } from './PermissionsMatrix';

/** What `keys.create` answers: the key, and where its secret went (never the secret). */
export type KeyCreated = {
  readonly key: KeyView;
  readonly secretShown: boolean;
  readonly secretStored: boolean;
  readonly storeProblem?: string | undefined;
};

export interface KeyFormDialogProps {
  readonly userId: number;
  /** The key being edited; absent to create one. */
  readonly editing?: KeyView;
  readonly onClose: () => void;
  /** Create only: receives the answer (the key; its secret was shown in the shell's own page). */
  readonly onCreated?: (created: KeyCreated) => void;
}

const input = contract.create.input;
/** The fields the person fills in, with main's rules for each (`keys.create`; `keys.update` has the same). */
const FormSchema = z
  .object({
    name: input.shape.name,
    mode: input.shape.mode,
    perms: input.shape.perms,
    ipWhitelist: input.shape.ipWhitelist,
    keepSecretInKeychain: input.shape.keepSecretInKeychain,
  })
  .refine((v) => Object.values(v.perms).some((access) => access !== 'none'), {
    message: 'Give the key at least one permission.',
    path: ['perms'],
  });
type FormValues = z.input<typeof FormSchema>;
const FIELDS: FormFields<FormValues> = {
  name: 'Key name',
  mode: 'Account mode',
  perms: 'Permissions',
  ipWhitelist: 'IP whitelist',
  keepSecretInKeychain: 'Keep the secret',
};

export const KeyFormDialog = ({ userId, editing, onClose, onCreated }: KeyFormDialogProps) => {
  const form = useForm<FormValues, unknown, z.output<typeof FormSchema>>({
    resolver: zodResolver(FormSchema),
    mode: 'onChange',
    reValidateMode: 'onChange',
    defaultValues: {
      name: editing?.name ?? '',
      mode: editing?.mode === 'unified' ? 'unified' : 'classic',
      perms: editing?.perms ?? { wallet: 'read', spot: 'read' },
      ipWhitelist: editing ? [...editing.ipWhitelist] : [],
      keepSecretInKeychain: true,
    },
  });
  const [attempted, setAttempted] = useState(false);
  const [banner, setBanner] = useState<unknown>();

  // gcTime 0: nothing of a creation is kept once handed over (the answer carries no secret: main shows it).
  const create = useDeskMutation('keys.create', { invalidates: ['keys.list'], gcTime: 0 });
  const update = useDeskMutation('keys.update', { invalidates: ['keys.list'] });
  const mutation = editing ? update : create;

  const { errors } = form.formState;
  const ips = form.watch('ipWhitelist');
  const droppingBinding = editing !== undefined && editing.ipWhitelist.length > 0 && ips.length === 0;
  const refused = (error: unknown) => setBanner(placeRefusal(error, form.setError, FIELDS));

  const submit = () => {
    setAttempted(true);
    if (mutation.isPending) return;
    void form.handleSubmit((values) => {
      setBanner(undefined);
      const ipWhitelist = values.ipWhitelist.map((ip) => ip.trim());
      if (editing) {
        update.mutate(
          { userId, key: editing.key, name: values.name, perms: values.perms, ipWhitelist },
          { onSuccess: onClose, onError: refused },
        );
      } else {
        create.mutate(
          {
            userId,
            name: values.name,
            mode: values.mode,
            perms: values.perms,
            ipWhitelist,
            keepSecretInKeychain: values.keepSecretInKeychain,
          },
          {
            onSuccess: (created) => {
              onCreated?.(created);
              create.reset();
            },
            onError: refused,
          },
        );
      }
    })();
  };
  // Problems the form found itself (not a refusal from main or the platform): "nothing was sent".
  const blocked =
    attempted && Object.values(errors).some((e) => e !== undefined && e.type !== 'server' && e.type !== 'platform');
  // The editor checks each row as it is typed; from the form it needs only main's refusals.
  const ipErrors = new Map<number, string>();
  if (Array.isArray(errors.ipWhitelist)) {
    errors.ipWhitelist.forEach((e, i) => {
      if (e?.type === 'server' && e.message) ipErrors.set(i, e.message);
    });
  }
  const ipListError = errors.ipWhitelist?.type === 'server' ? fieldMessage(errors.ipWhitelist) : undefined;

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
        <Controller
          control={form.control}
          name="name"
          render={({ field, fieldState }) => (
            <TextField
              label="Key name"
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              error={fieldMessage(fieldState.error)}
              invalid={fieldState.invalid}
              maxLength={60}
            />
          )}
        />
        {editing ? (
          <p className="muted">
            Mode: {editing.mode === 'unified' ? 'Unified' : 'Classic'} (the platform cannot change a key’s mode).
          </p>
        ) : (
          <Controller
            control={form.control}
            name="mode"
            render={({ field, fieldState }) => (
              <Select
                label="Account mode"
                value={field.value}
                onChange={field.onChange}
                error={fieldMessage(fieldState.error)}
                invalid={fieldState.invalid}
                options={[
                  { value: 'classic', label: 'Classic account' },
                  { value: 'unified', label: 'Unified account' },
                ]}
              />
            )}
          />
        )}
        <Controller
          control={form.control}
          name="perms"
          render={({ field, fieldState }) => (
            <PermissionsMatrix
              value={field.value as PermMatrix}
              onChange={field.onChange}
              // "At least one permission" once the person tried to send (or main said so).
              error={attempted || fieldState.error?.type === 'server' ? fieldMessage(fieldState.error) : undefined}
            />
          )}
        />
        <Controller
          control={form.control}
          name="ipWhitelist"
          render={({ field }) => (
            <IpWhitelistEditor
              value={field.value}
              onChange={field.onChange}
              showAll={attempted}
              errors={ipErrors}
              listError={ipListError}
            />
          )}
        />
        {droppingBinding ? (
          <div className="notice notice-warn" role="alert">
            Saving removes every address: the key will then work from any IP and expire 90 days after its creation.
          </div>
        ) : null}
        {editing ? null : (
          <Controller
            control={form.control}
            name="keepSecretInKeychain"
            render={({ field }) => (
              <label className="field-check">
                <input
                  type="checkbox"
                  checked={field.value}
                  onChange={(event) => field.onChange(event.target.checked)}
                />
                Keep the secret in this computer’s keychain (otherwise Treasury Desk shows it once in its own window and
                then forgets it)
              </label>
            )}
          />
        )}
        {blocked ? (
          <p className="field-error" role="alert" data-testid="key-form-invalid">
            Fix the marked fields; nothing was sent.
          </p>
        ) : null}
        {banner ? <ErrorNotice error={banner} /> : null}
        {/* Enter in a field submits through the form. */}
        <button type="submit" hidden tabIndex={-1} aria-hidden="true" />
      </form>
    </Dialog>
  );
};
