/**
 * OS notifications of deposit, withdrawal and UID-transfer changes. Main decides and shows them
 * (core/notifications), so the setting lives in main too: it applies while the window is
 * hidden, and in every window of this app on this computer.
 */
import { useState } from 'react';
import type { NotificationSettings } from '../../../../shared/contract/app';
import { useDeskMutation, useDeskQuery } from '../../lib/desk';
import { formatMoney, parseAmountInput } from '../../lib/format';
import { Button, Checkbox, ErrorNotice, Loading, TextField } from '../../ui';

type KindKey = 'deposits' | 'withdrawals' | 'pushes';
const KINDS: readonly { key: KindKey; label: string }[] = [
  { key: 'deposits', label: 'Deposits' },
  { key: 'withdrawals', label: 'Withdrawals' },
  { key: 'pushes', label: 'Transfers to and from other users (UID)' },
];

export const OsNotificationsPanel = () => {
  const view = useDeskQuery(['app.notificationSettings', {}]);
  const save = useDeskMutation('app.setNotificationSettings', { invalidates: ['app.notificationSettings'] });
  if (view.isPending) return <Loading />;
  if (view.isError) return <ErrorNotice error={view.error} onRetry={() => view.refetch()} />;
  // While a change is being saved, show it (the answer replaces it).
  const settings: NotificationSettings =
    save.isPending && save.variables ? { mutedProfiles: [], minAmounts: {}, ...save.variables } : view.data.settings;
  const change = (patch: Partial<NotificationSettings>) => save.mutate({ ...settings, ...patch });
  return (
    <div data-testid="os-notifications">
      {view.data.available ? null : (
        <div className="field-hint" role="note" data-testid="os-notifications-unavailable">
          Not shown on this computer: {view.data.unavailableReason}
        </div>
      )}
      <Checkbox
        label="Show OS notifications when a deposit or withdrawal completes, fails or needs attention"
        hint="Amount, currency and profile only; never addresses or keys."
        checked={settings.enabled}
        onChange={(enabled) => change({ enabled })}
        testId="os-notifications-enabled"
      />
      {settings.enabled ? (
        <fieldset className="filters">
          <legend>Notify about</legend>
          {KINDS.map((kind) => (
            <Checkbox
              key={kind.key}
              label={kind.label}
              checked={settings[kind.key]}
              onChange={(on) => change({ [kind.key]: on })}
              testId={`os-notifications-${kind.key}`}
            />
          ))}
        </fieldset>
      ) : null}
      {settings.enabled ? (
        <>
          <ProfileMutes settings={settings} onChange={change} />
          <MinimumAmounts settings={settings} onChange={change} />
        </>
      ) : null}
      {save.isError ? <ErrorNotice error={save.error} /> : null}
    </div>
  );
};

interface PartProps {
  readonly settings: NotificationSettings;
  readonly onChange: (patch: Partial<NotificationSettings>) => void;
}

/** One tick per profile: unticked profiles (e.g. a test desk) never interrupt anyone. */
const ProfileMutes = ({ settings, onChange }: PartProps) => {
  const profiles = useDeskQuery(['profiles.list', {}]);
  if (!profiles.data || profiles.data.length === 0) return null;
  const muted = new Set(settings.mutedProfiles);
  return (
    <fieldset className="filters" data-testid="os-notifications-profiles">
      <legend>Notify for profiles</legend>
      {profiles.data.map((profile) => (
        <Checkbox
          key={profile.id}
          label={profile.name}
          checked={!muted.has(profile.id)}
          onChange={(on) =>
            onChange({
              mutedProfiles: on
                ? settings.mutedProfiles.filter((id) => id !== profile.id)
                : [...settings.mutedProfiles, profile.id],
            })
          }
          testId={`os-notifications-profile-${profile.id}`}
        />
      ))}
    </fieldset>
  );
};

const CURRENCY = /^[A-Z0-9_.-]{1,32}$/;
const PLAIN_DECIMAL = /^\d{1,30}(\.\d{1,30})?$/;

/** Per currency, the smallest amount worth a notification (smaller changes stay quiet). */
const MinimumAmounts = ({ settings, onChange }: PartProps) => {
  const [currency, setCurrency] = useState('');
  const [amount, setAmount] = useState('');
  const [problem, setProblem] = useState<{ currency?: string; amount?: string }>({});
  const entries = Object.entries(settings.minAmounts).sort(([a], [b]) => a.localeCompare(b));
  const add = () => {
    const code = currency.trim().toUpperCase();
    const typed = parseAmountInput(amount);
    const minimum = typed.ok ? typed.value : '';
    const found = {
      ...(CURRENCY.test(code) ? {} : { currency: 'Enter a currency such as USDT (letters, digits, "_", "-", ".")' }),
      ...(typed.ok && PLAIN_DECIMAL.test(typed.value)
        ? {}
        : { amount: typed.ok ? 'Use at most 30 digits before and after the point.' : typed.message }),
    };
    setProblem(found);
    if (found.currency || found.amount) return;
    onChange({ minAmounts: { ...settings.minAmounts, [code]: minimum } });
    setCurrency('');
    setAmount('');
  };
  const remove = (code: string) => {
    const { [code]: _removed, ...rest } = settings.minAmounts;
    onChange({ minAmounts: rest });
  };
  return (
    <fieldset className="filters" data-testid="os-notifications-minimums">
      <legend>Minimum amount to notify</legend>
      <div className="field-hint">
        Deposits, withdrawals and transfers smaller than this stay quiet. A currency not listed always notifies.
      </div>
      {entries.length > 0 ? (
        <ul>
          {entries.map(([code, minimum]) => (
            <li key={code} data-testid={`os-notifications-minimum-${code}`}>
              {code}: below {formatMoney(minimum, code)} not notified{' '}
              <Button
                size="sm"
                variant="ghost"
                onClick={() => remove(code)}
                aria-label={`Remove the minimum for ${code}`}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      <TextField
        label="Currency"
        value={currency}
        onChange={setCurrency}
        error={problem.currency}
        data-testid="os-notifications-minimum-currency"
      />
      <TextField
        label="Minimum amount"
        value={amount}
        onChange={setAmount}
        error={problem.amount}
        inputMode="decimal"
        data-testid="os-notifications-minimum-amount"
      />
      <Button onClick={add} data-testid="os-notifications-minimum-add">
        Set minimum
      </Button>
    </fieldset>
  );
};
