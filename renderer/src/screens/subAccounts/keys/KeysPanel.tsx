/**
 * API keys of one sub-account: permissions, IP whitelist, last access, age and the 90-day expiry
 * of keys without IP binding; create (its secret shown once in Treasury Desk’s own window, never here), edit, delete with confirmation.
 */
import { useState } from 'react';
import type { KeyView } from '../../../../../shared/contract/keys';
import { useDeskMutation, useDeskQuery } from '../../../lib/desk';
import { Badge, Button, type Column, ConfirmDialog, DataTable, EmptyState, QueryStatus, Time } from '../../../ui';
import { ageText, KEY_STATE_TEXT, maskKey } from '../labels';
import { KeyCreatedDialog } from './KeyCreatedDialog';
import { type KeyCreated, KeyFormDialog } from './KeyFormDialog';
import { permissionSummary } from './permissions';

const ExpiryBadge = ({ expiry }: { readonly expiry: KeyView['expiry'] }) => {
  if (expiry.ipBound) return <Badge tone="good">IP-bound, no expiry</Badge>;
  if (expiry.level === 'expired') return <Badge tone="bad">Expired (no IP binding)</Badge>;
  const left = expiry.daysLeft === undefined ? 'within 90 days of creation' : `in ${expiry.daysLeft} days`;
  return (
    <Badge
      tone={expiry.level === 'warning' ? 'bad' : 'warn'}
      title="Keys without an IP whitelist stop working 90 days after creation. Add an IP address to keep it."
    >
      No IP binding: expires {left}
    </Badge>
  );
};

export const KeysPanel = ({ userId, frozen }: { readonly userId: number; readonly frozen: boolean }) => {
  const list = useDeskQuery(['keys.list', { userId }]);
  const [form, setForm] = useState<{ readonly editing?: KeyView } | undefined>(undefined);
  const [created, setCreated] = useState<KeyCreated | undefined>(undefined);
  const [deleting, setDeleting] = useState<KeyView | undefined>(undefined);
  const remove = useDeskMutation('keys.delete', { invalidates: ['keys.list'] });
  const now = Date.now();

  const columns: Column<KeyView>[] = [
    {
      id: 'name',
      header: 'Name',
      cell: (k) => (
        <>
          <div>{k.name ?? '—'}</div>
          <code className="muted small" title="Public key id">
            {maskKey(k.key)}
          </code>
        </>
      ),
    },
    { id: 'perms', header: 'Permissions', cell: (k) => <span className="small">{permissionSummary(k.perms)}</span> },
    {
      id: 'ips',
      header: 'IP whitelist',
      cell: (k) => (
        <div className="stack-tight">
          {k.ipWhitelist.length > 0 ? <span className="small">{k.ipWhitelist.join(', ')}</span> : null}
          <ExpiryBadge expiry={k.expiry} />
        </div>
      ),
    },
    {
      id: 'last',
      header: 'Last access',
      cell: (k) =>
        k.lastAccess === undefined ? <span className="muted">Never</span> : <Time ms={k.lastAccess * 1000} />,
    },
    { id: 'age', header: 'Age', cell: (k) => ageText(k.createdAt, now) },
    {
      id: 'state',
      header: 'State',
      cell: (k) => (
        <div className="stack-tight">
          <Badge tone={KEY_STATE_TEXT[k.state].tone}>{KEY_STATE_TEXT[k.state].text}</Badge>
          {k.secretInKeychain ? <Badge tone="info">Secret in keychain</Badge> : null}
        </div>
      ),
    },
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      cell: (k) => (
        <div className="row-actions">
          <Button size="sm" onClick={() => setForm({ editing: k })} aria-label={`Edit key ${k.name ?? maskKey(k.key)}`}>
            Edit
          </Button>
          <Button
            size="sm"
            variant="danger"
            onClick={() => setDeleting(k)}
            aria-label={`Delete key ${k.name ?? maskKey(k.key)}`}
          >
            Delete
          </Button>
        </div>
      ),
    },
  ];

  return (
    <section aria-labelledby="keys-heading" className="stack" data-testid="keys-panel">
      <div className="section-header">
        <h3 id="keys-heading">API keys</h3>
        <Button variant="primary" size="sm" onClick={() => setForm({})} data-testid="create-key">
          Create key
        </Button>
      </div>
      {frozen ? (
        <p className="notice notice-warn">
          This sub-account is frozen: its keys are refused by the platform until it is unfrozen.
        </p>
      ) : null}
      <QueryStatus query={list} loading="Loading keys…" />
      {list.data ? (
        <DataTable
          caption="API keys of this sub-account"
          columns={columns}
          rows={list.data.keys}
          rowKey={(k) => k.key}
          testId="keys-table"
          empty={
            <EmptyState title="No API keys yet">
              Create one to let a bot or a colleague use this sub-account.
            </EmptyState>
          }
        />
      ) : null}

      {form ? (
        <KeyFormDialog
          userId={userId}
          {...(form.editing ? { editing: form.editing } : {})}
          onClose={() => setForm(undefined)}
          onCreated={(answer) => {
            setForm(undefined);
            setCreated(answer);
          }}
        />
      ) : null}
      {created ? <KeyCreatedDialog created={created} onClose={() => setCreated(undefined)} /> : null}
      <ConfirmDialog
        open={deleting !== undefined}
        title="Delete this API key?"
        tone="danger"
        confirmLabel="Delete key"
        busy={remove.isPending}
        error={remove.error}
        testId="delete-key-confirm"
        onCancel={() => {
          remove.reset();
          setDeleting(undefined);
        }}
        onConfirm={() =>
          deleting && remove.mutate({ userId, key: deleting.key }, { onSuccess: () => setDeleting(undefined) })
        }
      >
        <p>
          Key <strong>{deleting?.name ?? ''}</strong> (<code>{deleting ? maskKey(deleting.key) : ''}</code>) stops
          working within 5 minutes. Anything using it will be refused. Its secret is also removed from this computer’s
          keychain.
        </p>
      </ConfirmDialog>
    </section>
  );
};
