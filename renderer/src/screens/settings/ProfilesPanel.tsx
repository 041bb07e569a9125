/**
 * Settings → Profiles: where the app connects (built-in sandbox, testnet, live, the futures
 * alternative entry), each profile's API key (typed once, kept in the OS keychain, shown masked),
 * and the connection check (ConnectionCheck.tsx: reads only, or the deep check with test writes).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { z } from 'zod';
import { isRealMoney, type Profile, type ProfileKind } from '../../../../shared/contract/profiles';
import { useDeskMutation, useDeskQuery } from '../../lib/desk';
import { notify } from '../../lib/notify';
import {
  Badge,
  Button,
  ConfirmDialog,
  DataTable,
  Dialog,
  ErrorNotice,
  Loading,
  QueryStatus,
  Select,
  TextField,
  useProfileSwitch,
} from '../../ui';
import { ConnectionCheck } from './ConnectionCheck';

type ProfileView = z.output<typeof Profile>;
type AddableKind = Exclude<ProfileKind, 'sandbox'>;

const KIND_LABEL: Record<ProfileKind, string> = {
  sandbox: 'Built-in sandbox',
  testnet: 'Testnet',
  live: 'Live',
  futures_alt: 'Live (futures alternative entry)',
  custom: 'Custom endpoint (https, e.g. a proxy)',
};

/** Everything on screen belongs to the active profile: drop it all after a change. */
const useRefreshAll = () => {
  const client = useQueryClient();
  return () => client.invalidateQueries();
};

const AddProfileDialog = ({ open, onClose }: { readonly open: boolean; readonly onClose: () => void }) => {
  const [kind, setKind] = useState<AddableKind>('testnet');
  const [name, setName] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const refresh = useRefreshAll();
  const add = useDeskMutation('profiles.add', {
    onSuccess: async (profile) => {
      await refresh();
      notify({ tone: 'good', title: `Profile “${profile.name}” added`, message: 'Set its API key to connect.' });
      close();
    },
  });
  const close = () => {
    setName('');
    setBaseUrl('');
    add.reset();
    onClose();
  };
  const fields = add.error?.fields ?? {};
  return (
    <Dialog
      open={open}
      title="Add a profile"
      onClose={close}
      busy={add.isPending}
      testId="add-profile-dialog"
      footer={
        <>
          <Button onClick={close} disabled={add.isPending}>
            Cancel
          </Button>
          <Button
            variant="primary"
            busy={add.isPending}
            onClick={() => add.mutate({ kind, name, ...(kind === 'custom' ? { baseUrl: baseUrl.trim() } : {}) })}
          >
            Add profile
          </Button>
        </>
      }
    >
      <Select<AddableKind>
        label="Connects to"
        value={kind}
        onChange={setKind}
        options={[
          { value: 'testnet', label: KIND_LABEL.testnet },
          { value: 'live', label: KIND_LABEL.live },
          { value: 'futures_alt', label: KIND_LABEL.futures_alt },
          { value: 'custom', label: KIND_LABEL.custom },
        ]}
      />
      <TextField label="Name" value={name} onChange={setName} maxLength={60} error={fields.name} />
      {kind === 'custom' ? (
        <TextField
          label="Address"
          value={baseUrl}
          onChange={setBaseUrl}
          placeholder="https://host/api/v4"
          hint="https only. The key you set for this profile is bound to this host and never sent anywhere else; the address cannot be changed later."
          error={fields.baseUrl}
        />
      ) : (
        <p className="muted" data-testid="pinned-address">
          Connects to the platform’s own address; the app holds it and it cannot be changed.
        </p>
      )}
      {add.error && !add.error.fields ? <ErrorNotice error={add.error} /> : null}
    </Dialog>
  );
};

/** The secret lives in this dialog's state only while it is open, and goes to main once. */
const SetKeyDialog = ({ profile, onClose }: { readonly profile: ProfileView | null; readonly onClose: () => void }) => {
  const [key, setKey] = useState('');
  const [secret, setSecret] = useState('');
  const refresh = useRefreshAll();
  const save = useDeskMutation('profiles.setKey', {
    onSuccess: async (saved) => {
      await refresh();
      notify({
        tone: 'good',
        title: `Key saved for “${saved.name}”`,
        message: `Stored in the OS keychain as ${saved.keyMask ?? 'a masked key'}.`,
      });
      close();
    },
  });
  const close = () => {
    setKey('');
    setSecret('');
    save.reset();
    onClose();
  };
  const fields = save.error?.fields ?? {};
  return (
    <Dialog
      open={profile !== null}
      title={`API key for “${profile?.name ?? ''}”`}
      onClose={close}
      busy={save.isPending}
      testId="set-key-dialog"
      footer={
        <>
          <Button onClick={close} disabled={save.isPending}>
            Cancel
          </Button>
          <Button
            variant="primary"
            busy={save.isPending}
            disabled={key.trim() === '' || secret.trim() === ''}
            onClick={() => profile && save.mutate({ id: profile.id, key, secret })}
          >
            Save key
          </Button>
        </>
      }
    >
      <p className="field-hint">
        The key and secret go straight to the OS keychain. The app never shows the secret again and never stores it
        anywhere else.
      </p>
      <TextField label="API key" value={key} onChange={setKey} type="password" error={fields.key} />
      <TextField label="API secret" value={secret} onChange={setSecret} type="password" error={fields.secret} />
      {save.error && !save.error.fields ? <ErrorNotice error={save.error} /> : null}
    </Dialog>
  );
};

const KeychainStatus = () => {
  const status = useDeskQuery(['profiles.keychainStatus', {}]);
  if (status.isPending) return <Loading inline label="Checking the keychain…" />;
  if (status.isError) return <ErrorNotice error={status.error} compact />;
  return status.data.available ? (
    <div className="field-hint" data-testid="keychain-status">
      API keys are kept in: {status.data.backend}.
    </div>
  ) : (
    <div className="notice notice-bad" role="alert" data-testid="keychain-status">
      <div className="notice-title">The OS keychain is not available: keys cannot be stored.</div>
      {status.data.problem ? <div className="notice-text">{status.data.problem}</div> : null}
      {status.data.advice ? <div className="notice-advice">{status.data.advice}</div> : null}
    </div>
  );
};

export const ProfilesPanel = () => {
  const profiles = useDeskQuery(['profiles.list', {}]);
  const refresh = useRefreshAll();
  const [adding, setAdding] = useState(false);
  const [keyFor, setKeyFor] = useState<ProfileView | null>(null);
  const [removing, setRemoving] = useState<{ profile: ProfileView; what: 'key' | 'profile' } | null>(null);
  const switcher = useProfileSwitch();
  const removeKey = useDeskMutation('profiles.removeKey', { onSuccess: () => refresh() });
  const removeProfile = useDeskMutation('profiles.remove', { onSuccess: () => refresh() });
  const removal = removing?.what === 'key' ? removeKey : removeProfile;

  return (
    <section className="panel panel-wide" aria-labelledby="settings-profiles" data-testid="profiles-panel">
      <div className="panel-head">
        <h2 id="settings-profiles">Profiles</h2>
        <Button size="sm" onClick={() => setAdding(true)} data-testid="add-profile">
          Add profile
        </Button>
      </div>
      <KeychainStatus />
      <QueryStatus query={profiles} />
      {profiles.data ? (
        <DataTable
          caption="Profiles"
          testId="profiles-table"
          rowKey={(p) => p.id}
          rows={profiles.data}
          columns={[
            {
              id: 'name',
              header: 'Name',
              cell: (p) => (
                <>
                  {p.name} {p.active ? <Badge tone="info">Active</Badge> : null}
                </>
              ),
            },
            {
              id: 'kind',
              header: 'Connects to',
              cell: (p) => <Badge tone={isRealMoney(p.kind) ? 'bad' : 'neutral'}>{KIND_LABEL[p.kind]}</Badge>,
            },
            { id: 'address', header: 'Address', cell: (p) => <code>{p.baseUrl}</code> },
            {
              id: 'key',
              header: 'API key',
              cell: (p) => (p.keyMask ? <code>{p.keyMask}</code> : <span className="field-hint">No key</span>),
            },
            {
              id: 'actions',
              header: <span className="sr-only">Actions</span>,
              cell: (p) => (
                <span className="row-actions">
                  {p.active ? null : (
                    <Button size="sm" onClick={() => switcher.request(p)} busy={switcher.pendingId === p.id}>
                      Use
                    </Button>
                  )}
                  {p.managed ? null : (
                    <>
                      <Button size="sm" onClick={() => setKeyFor(p)}>
                        {p.keyMask ? 'Replace key' : 'Set key'}
                      </Button>
                      {p.keyMask ? (
                        <Button size="sm" variant="ghost" onClick={() => setRemoving({ profile: p, what: 'key' })}>
                          Remove key
                        </Button>
                      ) : null}
                      {p.active ? null : (
                        <Button size="sm" variant="ghost" onClick={() => setRemoving({ profile: p, what: 'profile' })}>
                          Remove
                        </Button>
                      )}
                    </>
                  )}
                </span>
              ),
            },
          ]}
        />
      ) : null}
      <h3>Connection of the active profile</h3>
      <ConnectionCheck profile={profiles.data?.find((p) => p.active)} />
      {switcher.dialog}
      <AddProfileDialog open={adding} onClose={() => setAdding(false)} />
      <SetKeyDialog profile={keyFor} onClose={() => setKeyFor(null)} />
      <ConfirmDialog
        open={removing !== null}
        title={removing?.what === 'key' ? 'Remove the API key?' : 'Remove the profile?'}
        confirmLabel={removing?.what === 'key' ? 'Remove key' : 'Remove profile'}
        tone="danger"
        busy={removal.isPending}
        error={removal.error}
        onCancel={() => {
          removal.reset();
          setRemoving(null);
        }}
        onConfirm={() => {
          if (!removing) return;
          const done = { onSuccess: () => setRemoving(null) };
          if (removing.what === 'key') removeKey.mutate({ id: removing.profile.id }, done);
          else removeProfile.mutate({ id: removing.profile.id }, done);
        }}
      >
        {removing?.what === 'key'
          ? `The key of “${removing.profile.name}” is deleted from the OS keychain. The platform keeps the key; you can add it again later.`
          : `“${removing?.profile.name ?? ''}” and its key are removed from this computer.`}
      </ConfirmDialog>
    </section>
  );
};
