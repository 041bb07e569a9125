/**
 * Settings → connection of the active profile. "Test connection" only reads (what the app also runs
 * on connect), so a group it can read shows as "may read; writing not tested". The deep check also
 * sends, per group, a write the platform must refuse on its input (DEEP_CHECK_PROBES): it is listed
 * first and confirmed (typed on a live profile), since those requests reach the real platform and
 * are recorded in the audit log.
 */
import { useState } from 'react';
import type { z } from 'zod';
import {
  type ConnectionCheck as CheckResult,
  DEEP_CHECK_PROBES,
  isRealMoney,
  type PermissionGroup,
  type PermissionLevel,
  type Profile,
} from '../../../../shared/contract/profiles';
import { useDeskMutation } from '../../lib/desk';
import { Badge, Button, ConfirmDialog, DataTable, ErrorNotice, Notice, TextField, type Tone } from '../../ui';

type ProfileView = z.output<typeof Profile>;
type Group = z.output<typeof PermissionGroup>;
type Level = z.output<typeof PermissionLevel>;

const CHECK_LABEL: Record<string, string> = {
  reachability: 'Platform reachable',
  clock: 'Clock',
  signature: 'Signature',
  ipWhitelist: 'IP whitelist',
  permissions: 'Permissions',
  environment: 'Key matches this address',
};

const OUTCOME_TONE: Record<string, Tone> = { ok: 'good', warning: 'warn', failed: 'bad', skipped: 'neutral' };

const GROUP_LABEL: Record<Group, string> = {
  spot: 'Spot trading',
  wallet: 'Wallet (transfers)',
  withdrawal: 'Withdrawals',
  subAccounts: 'Sub-accounts',
};

export const LEVEL_WORDS: Record<Level, { text: string; tone: Tone }> = {
  'read-write': { text: 'Read and write', tone: 'good' },
  'read-only': { text: 'Read only: writes are refused', tone: 'warn' },
  read: { text: 'May read; writing not tested', tone: 'info' },
  none: { text: 'No access', tone: 'bad' },
  unknown: { text: 'Could not tell', tone: 'neutral' },
};

/** Live money is at stake on these: the deep check asks for the profile's name to be typed. */
const isLive = (profile: ProfileView | undefined) => isRealMoney(profile?.kind);

const Permissions = ({ result }: { readonly result: CheckResult }) => (
  <DataTable
    caption="Permissions per group"
    testId="check-permissions"
    rowKey={(row) => row.group}
    rows={Object.entries(result.permissions).map(([group, level]) => ({ group: group as Group, level }))}
    columns={[
      { id: 'group', header: 'Group', cell: (row) => GROUP_LABEL[row.group] ?? row.group },
      {
        id: 'level',
        header: 'The key may',
        cell: (row) => (
          <span data-testid={`permission-${row.group}`} data-level={row.level}>
            <Badge tone={LEVEL_WORDS[row.level].tone}>{LEVEL_WORDS[row.level].text}</Badge>
          </span>
        ),
      },
    ]}
  />
);

const DeepCheckDialog = ({
  open,
  profile,
  busy,
  error,
  onConfirm,
  onCancel,
}: {
  readonly open: boolean;
  readonly profile: ProfileView | undefined;
  readonly busy: boolean;
  readonly error: unknown;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
}) => {
  const [typed, setTyped] = useState('');
  const live = isLive(profile);
  const expected = profile?.name ?? '';
  const typedOk = !live || typed.trim() === expected;
  return (
    <ConfirmDialog
      open={open}
      title="Send test writes to check permissions?"
      confirmLabel="Send test writes"
      tone={live ? 'danger' : 'primary'}
      busy={busy}
      confirmDisabled={!typedOk}
      error={error}
      testId="deep-check-dialog"
      onCancel={() => {
        setTyped('');
        onCancel();
      }}
      onConfirm={() => {
        if (!typedOk) return;
        setTyped('');
        onConfirm();
      }}
    >
      <p>
        After the reads, the deep check sends one write per group to{' '}
        <strong>{profile ? `${profile.name} (${profile.baseUrl})` : 'the active profile'}</strong>. Each is made so the
        platform must refuse it on its input; how it refuses tells whether the key may write. Nothing can be executed,
        and each request is recorded in the audit log.
      </p>
      <ol data-testid="deep-check-probes">
        {DEEP_CHECK_PROBES.map((probe) => (
          <li key={probe}>{probe}</li>
        ))}
      </ol>
      {live ? (
        <>
          <Notice tone="warn" role="note">
            This is a live profile: these requests reach the real platform with your real key.
          </Notice>
          <TextField
            label={`Type the profile’s name (${expected}) to confirm`}
            value={typed}
            onChange={setTyped}
            autoComplete="off"
            error={typed !== '' && !typedOk ? 'The name does not match.' : undefined}
          />
        </>
      ) : null}
    </ConfirmDialog>
  );
};

export const ConnectionCheck = ({ profile }: { readonly profile: ProfileView | undefined }) => {
  const check = useDeskMutation('profiles.connectionCheck');
  const [confirming, setConfirming] = useState(false);
  const result = check.data;
  return (
    <div className="profile-check" data-testid="connection-check">
      <div>
        <span className="row-actions">
          <Button
            onClick={() => check.mutate({})}
            busy={check.isPending && check.variables?.deep !== true}
            disabled={check.isPending}
            data-testid="run-connection-check"
          >
            Test connection
          </Button>
          <Button
            onClick={() => setConfirming(true)}
            busy={check.isPending && check.variables?.deep === true}
            disabled={check.isPending || !profile?.keyMask}
            data-testid="run-deep-check"
          >
            Deep check (sends test writes)
          </Button>
        </span>
      </div>
      <p className="field-hint">
        Test connection only reads. The deep check also tells read-write from read-only by sending writes the platform
        refuses.
      </p>
      {check.error && !confirming ? <ErrorNotice error={check.error} /> : null}
      {result ? (
        <>
          <div data-testid="check-kind" data-deep={result.deep === true ? 'true' : 'false'}>
            <span className="row-actions">
              {result.ok ? <Badge tone="good">All checks passed</Badge> : <Badge tone="bad">Some checks failed</Badge>}
              {result.deep ? (
                <Badge tone="info">Deep check: test writes were sent</Badge>
              ) : (
                <Badge tone="neutral">Reads only: writing not tested</Badge>
              )}
            </span>
          </div>
          <DataTable
            caption="Connection checks"
            rowKey={(row) => row.name}
            rows={result.checks}
            columns={[
              { id: 'name', header: 'Check', cell: (row) => CHECK_LABEL[row.name] ?? row.name },
              {
                id: 'outcome',
                header: 'Result',
                cell: (row) => <Badge tone={OUTCOME_TONE[row.outcome] ?? 'neutral'}>{row.outcome}</Badge>,
              },
              {
                id: 'detail',
                header: 'What was found',
                cell: (row) => (
                  <span className="wrap">
                    {row.detail}
                    {row.advice ? <span className="field-hint"> {row.advice}</span> : null}
                    {row.label ? <code> {row.label}</code> : null}
                  </span>
                ),
              },
            ]}
          />
          <Permissions result={result} />
          <dl className="facts">
            <dt>IP whitelist</dt>
            <dd>{result.ipWhitelist.length === 0 ? 'Any IP' : result.ipWhitelist.join(', ')}</dd>
            {result.clockOffsetMs !== undefined ? (
              <>
                <dt>Clock offset</dt>
                <dd>{Math.round(result.clockOffsetMs)} ms</dd>
              </>
            ) : null}
          </dl>
        </>
      ) : null}
      <DeepCheckDialog
        open={confirming}
        profile={profile}
        busy={check.isPending}
        error={confirming ? check.error : null}
        onCancel={() => {
          check.reset();
          setConfirming(false);
        }}
        onConfirm={() => check.mutate({ deep: true }, { onSuccess: () => setConfirming(false) })}
      />
    </div>
  );
};
