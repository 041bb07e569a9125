import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { KeyHealthRow, RotatedKey } from '../../../../shared/contract/bulk';
import { call, useDeskQuery } from '../../lib/desk';
import { formatTime } from '../../lib/format';
import {
  Badge,
  Button,
  Checkbox,
  type Column,
  ConfirmDialog,
  Dialog,
  ErrorNotice,
  QueryStatus,
  Select,
  TextField,
  VirtualTable,
} from '../../ui';
import { SubAccountPicker } from './SubAccountPicker';

const ISSUE_WORDS: Record<KeyHealthRow['issues'][number], string> = {
  noIpWhitelist: 'No IP whitelist',
  nearExpiry: 'Expires soon',
  expired: 'Expired',
  unused: 'Unused',
};
const REMIND_KEY = 'treasury-desk.bulk.keyHealthCheckedAt';
const REMIND_DAYS = 30;

const keyId = (k: { userId: number; key: string }) => `${k.userId}:${k.key}`;

/** Create many sub-accounts, freeze / unfreeze a selection, key health and key rotation. */
export const AccountsTab = () => {
  const client = useQueryClient();
  const subs = useDeskQuery(['subAccounts.list', {}]);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [createText, setCreateText] = useState('login_name,remark,email\n');
  const [createResult, setCreateResult] = useState<string | undefined>();
  const [freeze, setFreeze] = useState<boolean | undefined>();
  const [freezeResult, setFreezeResult] = useState<string | undefined>();
  const [health, setHealth] = useState<readonly KeyHealthRow[] | undefined>();
  const [unusedDays, setUnusedDays] = useState('30');
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const [rotateOpen, setRotateOpen] = useState(false);
  const [deliver, setDeliver] = useState<'screen' | 'file'>('screen');
  const [passphrase, setPassphrase] = useState('');
  const [rotated, setRotated] = useState<{ keys: readonly RotatedKey[]; file?: string } | undefined>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState<string | undefined>();
  const lastCheck = Number(globalThis.localStorage?.getItem(REMIND_KEY) ?? 0);
  const due = Date.now() - lastCheck > REMIND_DAYS * 86_400_000;

  const run = async (what: string, task: () => Promise<void>) => {
    setBusy(what);
    setError(undefined);
    try {
      await task();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(undefined);
    }
  };

  const createAll = () =>
    run('create', async () => {
      const answer = await call('bulk.createSubAccounts', { text: createText }, { action: true });
      const made = answer.results.filter((r) => r.state === 'created').length;
      const problems = [
        ...answer.fileProblems.map((p) => p.message),
        ...answer.results
          .filter((r) => r.state !== 'created')
          .map((r) => `Row ${r.row} (${r.loginName}): ${r.message ?? r.state}`),
      ];
      setCreateResult(`${made} created.${problems.length ? ` ${problems.join(' ')}` : ''}`);
      await client.invalidateQueries({ queryKey: ['subAccounts.list', {}] });
    });

  const setFrozen = (frozen: boolean) =>
    run('freeze', async () => {
      const answer = await call('bulk.setFrozen', { userIds: [...selected], frozen }, { action: true });
      const failed = answer.results.filter((r) => !r.ok);
      setFreezeResult(
        `${answer.results.length - failed.length} ${frozen ? 'frozen' : 'unfrozen'}${failed.length ? `; failed: ${failed.map((f) => `${f.userId} (${f.message ?? ''})`).join(', ')}` : ''}.`,
      );
      setFreeze(undefined);
      await client.invalidateQueries({ queryKey: ['subAccounts.list', {}] });
    });

  const checkKeys = () =>
    run('health', async () => {
      const days = Math.max(1, Math.min(3650, Number.parseInt(unusedDays, 10) || 30));
      const answer = await call('bulk.keyHealth', {
        unusedDays: days,
        ...(selected.size > 0 ? { userIds: [...selected] } : {}),
      });
      setHealth(answer.keys);
      globalThis.localStorage?.setItem(REMIND_KEY, String(answer.checkedAt));
    });

  const rotate = () =>
    run('rotate', async () => {
      const targets = (health ?? []).filter((k) => picked.has(keyId(k))).map((k) => ({ userId: k.userId, key: k.key }));
      const answer = await call(
        'bulk.rotateKeys',
        { targets, deliver: deliver === 'file' ? { to: 'file', passphrase } : { to: 'screen' } },
        { action: true },
      );
      setPassphrase('');
      setRotateOpen(false);
      setRotated(answer);
    });

  const confirmRotation = () =>
    run('confirm', async () => {
      const pairs = (rotated?.keys ?? []).flatMap((k) =>
        k.newKey ? [{ userId: k.userId, oldKey: k.oldKey, newKey: k.newKey }] : [],
      );
      const answer = await call('bulk.confirmRotation', { pairs }, { action: true });
      setRotated({ keys: answer.keys });
      setPicked(new Set());
    });

  const healthColumns: readonly Column<KeyHealthRow>[] = [
    {
      id: 'pick',
      header: '',
      width: '3rem',
      cell: (k) => (
        <Checkbox
          label={`Select key ${k.key}`}
          hideLabel
          checked={picked.has(keyId(k))}
          onChange={(on) => {
            const next = new Set(picked);
            if (on) next.add(keyId(k));
            else next.delete(keyId(k));
            setPicked(next);
          }}
          testId={`bulk-key-${k.key}`}
        />
      ),
    },
    { id: 'account', header: 'Sub-account', cell: (k) => `${k.loginName} (${k.userId})` },
    {
      id: 'key',
      header: 'Key',
      cell: (k) => <span className="mono">{`${k.key.slice(0, 6)}…${k.key.slice(-4)}`}</span>,
    },
    { id: 'ips', header: 'IP whitelist', cell: (k) => (k.ipWhitelist.length ? k.ipWhitelist.join(', ') : 'none') },
    { id: 'last', header: 'Last used', cell: (k) => (k.lastAccess ? formatTime(k.lastAccess, 'UTC') : 'never') },
    {
      id: 'issues',
      header: 'Health',
      cell: (k) =>
        k.issues.length === 0 ? (
          <Badge tone="good">OK</Badge>
        ) : (
          k.issues.map((i) => (
            <Badge key={i} tone={i === 'expired' ? 'bad' : 'warn'}>
              {ISSUE_WORDS[i]}
              {i === 'nearExpiry' && k.expiresInDays !== undefined ? ` (${k.expiresInDays} d)` : ''}
            </Badge>
          ))
        ),
    },
  ];

  if (!subs.data) return <QueryStatus query={subs} />;
  return (
    <div className="bulk-tab">
      {error ? <ErrorNotice error={error} /> : null}
      <section aria-label="Create sub-accounts">
        <h2>Create sub-accounts from CSV</h2>
        <label className="field">
          <span className="field-label">Rows: login_name,remark,email</span>
          <textarea
            className="mono"
            rows={4}
            value={createText}
            onChange={(e) => setCreateText(e.target.value)}
            data-testid="bulk-create-subs-text"
          />
        </label>
        <Button onClick={() => void createAll()} busy={busy === 'create'} data-testid="bulk-create-subs">
          Create sub-accounts
        </Button>
        {createResult ? <p role="status">{createResult}</p> : null}
      </section>

      <section aria-label="Selection">
        <h2>Freeze, unfreeze, key health</h2>
        <SubAccountPicker accounts={subs.data.accounts} selected={selected} onChange={setSelected} />
        <div className="button-row">
          <Button
            variant="danger"
            disabled={selected.size === 0}
            onClick={() => setFreeze(true)}
            data-testid="bulk-freeze"
          >
            Freeze selected
          </Button>
          <Button disabled={selected.size === 0} onClick={() => setFreeze(false)} data-testid="bulk-unfreeze">
            Unfreeze selected
          </Button>
        </div>
        {freezeResult ? <p role="status">{freezeResult}</p> : null}
      </section>

      <section aria-label="Key health">
        {due ? (
          <p className="notice notice-warn" data-testid="bulk-key-reminder">
            {lastCheck
              ? `Keys were last checked ${formatTime(lastCheck, 'UTC')}.`
              : 'Keys have not been checked on this computer yet.'}{' '}
            Check them every {REMIND_DAYS} days: keys without an IP whitelist are disabled by the platform after 90
            days.
          </p>
        ) : null}
        <div className="form-row">
          <TextField label="Unused for more than (days)" value={unusedDays} onChange={setUnusedDays} />
          <Button onClick={() => void checkKeys()} busy={busy === 'health'} data-testid="bulk-key-health">
            Check keys{selected.size ? ' of the selection' : ''}
          </Button>
          <Button
            variant="primary"
            disabled={picked.size === 0}
            onClick={() => setRotateOpen(true)}
            data-testid="bulk-rotate"
          >
            Rotate selected keys ({picked.size})
          </Button>
        </div>
        {health ? (
          <VirtualTable
            caption="API keys and their health"
            columns={healthColumns}
            rowCount={health.length}
            rowAt={(i) => health[i]}
            rowKey={keyId}
            maxHeight="20rem"
            estimateRowHeight={40}
            testId="bulk-key-table"
          />
        ) : null}
        {rotated ? (
          <div className="notice" data-testid="bulk-rotated">
            {rotated.file ? <p>The new secrets are in {rotated.file}, encrypted with your passphrase.</p> : null}
            <ul>
              {rotated.keys.map((k) => (
                <li key={`${k.userId}${k.oldKey}`} data-testid={`bulk-rotated-${k.userId}`}>
                  {k.userId}: {k.state}
                  {k.newKey ? ` · new key ${k.newKey}` : ''}
                  {k.secretShown === true ? ' · its secret was shown once in Treasury Desk’s own window' : null}
                  {k.secretShown === false ? ' · its secret could not be shown: delete this key' : null}
                  {k.message ? ` · ${k.message}` : ''}
                </li>
              ))}
            </ul>
            {rotated.keys.some((k) => k.state === 'verified' || k.state === 'created') ? (
              <Button
                variant="danger"
                onClick={() => void confirmRotation()}
                busy={busy === 'confirm'}
                data-testid="bulk-rotate-confirm"
              >
                The new keys work — test them again and delete the old keys
              </Button>
            ) : null}
          </div>
        ) : null}
      </section>

      <ConfirmDialog
        open={freeze !== undefined}
        title={freeze ? `Freeze ${selected.size} sub-accounts?` : `Unfreeze ${selected.size} sub-accounts?`}
        confirmLabel={freeze ? 'Freeze' : 'Unfreeze'}
        tone={freeze ? 'danger' : 'primary'}
        busy={busy === 'freeze'}
        onConfirm={() => void setFrozen(freeze === true)}
        onCancel={() => setFreeze(undefined)}
      >
        {freeze
          ? 'Their API keys are refused and transfers from them fail until they are unfrozen; their funds stay where they are.'
          : 'Their keys and transfers work again.'}
      </ConfirmDialog>
      <Dialog
        open={rotateOpen}
        title={`Rotate ${picked.size} API keys`}
        onClose={() => setRotateOpen(false)}
        busy={busy === 'rotate'}
        footer={
          <Button
            variant="primary"
            busy={busy === 'rotate'}
            disabled={deliver === 'file' && passphrase.length < 12}
            onClick={() => void rotate()}
            data-testid="bulk-rotate-go"
          >
            Create the new keys
          </Button>
        }
      >
        <p>
          Each selected key gets a new key with the same permissions and IP whitelist; the app tests it with a signed
          read. The old key is deleted only after you confirm the new one works.
        </p>
        <Select
          label="New secrets"
          value={deliver}
          onChange={setDeliver}
          options={[
            { value: 'screen', label: 'Show them once in Treasury Desk’s own window' },
            { value: 'file', label: 'Write them to an encrypted file (AES-256-GCM)' },
          ]}
        />
        {deliver === 'file' ? (
          <TextField
            label="Passphrase (at least 12 characters)"
            value={passphrase}
            onChange={setPassphrase}
            type="password"
          />
        ) : null}
      </Dialog>
    </div>
  );
};
