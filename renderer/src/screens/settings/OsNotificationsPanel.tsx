/**
 * OS notifications of deposit, withdrawal and UID-transfer changes. Main decides and shows them
 * (electron/core/notifications), so the setting lives in main too: it applies while the window is
 * hidden, and in every window of this app on this computer.
 */
import type { NotificationSettings } from '../../../../shared/contract/app';
import { useDeskMutation, useDeskQuery } from '../../lib/desk';
import { Checkbox, ErrorNotice, Loading } from '../../ui';

const KINDS: readonly { key: Exclude<keyof NotificationSettings, 'enabled'>; label: string }[] = [
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
  const settings = save.isPending && save.variables ? save.variables : view.data.settings;
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
      {save.isError ? <ErrorNotice error={save.error} /> : null}
    </div>
  );
};
