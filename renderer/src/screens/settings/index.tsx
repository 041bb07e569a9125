import { useDeskQuery } from '../../lib/desk';
import { DISPLAY_TIME_ZONES, type DisplayTimeZone, formatTime, zoneLabel } from '../../lib/format';
import { IDLE_LOCK_CHOICES, type Theme, type UpColour, usePrefs } from '../../lib/prefs';
import { Button, Checkbox, ErrorNotice, Loading, PageHeader, Select } from '../../ui';
import { ConfirmOrdersSetting } from './ConfirmOrdersSetting';
import { OperatorsPanel } from './OperatorsPanel';
import { OsNotificationsPanel } from './OsNotificationsPanel';
import { PoliciesPanel } from './PoliciesPanel';
import { ProfilesPanel } from './ProfilesPanel';
import { TeamPanel } from './TeamPanel';

const About = () => {
  const info = useDeskQuery(['app.info', {}]);
  if (info.isPending) return <Loading />;
  if (info.isError) return <ErrorNotice error={info.error} onRetry={() => info.refetch()} />;
  return (
    <dl className="facts" data-testid="about">
      <dt>Version</dt>
      <dd>{info.data.version}</dd>
      <dt>Running in</dt>
      <dd>{info.data.shell === 'electron' ? 'Electron' : 'Chromium (fallback shell)'}</dd>
      <dt>Platform</dt>
      <dd>{info.data.platform}</dd>
    </dl>
  );
};

/** Preferences of this person on this machine (kept locally; nothing here is sent anywhere). */
export default function SettingsScreen() {
  const prefs = usePrefs();
  const now = Date.now();
  return (
    <>
      <PageHeader title="Settings" subtitle="How the app looks and behaves on this computer." />
      <div className="settings-grid">
        <ProfilesPanel />
        <OperatorsPanel />
        <PoliciesPanel />
        <TeamPanel />
        <section className="panel" aria-labelledby="settings-display">
          <h2 id="settings-display">Display</h2>
          <Select<Theme>
            label="Theme"
            value={prefs.theme}
            onChange={(theme) => prefs.set({ theme })}
            options={[
              { value: 'dark', label: 'Dark' },
              { value: 'light', label: 'Light' },
            ]}
            data-testid="pref-theme"
          />
          <Select<DisplayTimeZone>
            label="Show times in"
            value={prefs.timeZone}
            onChange={(timeZone) => prefs.set({ timeZone })}
            options={DISPLAY_TIME_ZONES.map((zone) => ({
              value: zone,
              label:
                zone === 'local'
                  ? `This computer’s time zone (${zoneLabel('local', now)})`
                  : zone === 'UTC+8'
                    ? 'UTC+8 (the platform’s day boundary)'
                    : 'UTC',
            }))}
            data-testid="pref-time-zone"
          />
          <div className="field-hint" data-testid="time-zone-example">
            Now: {formatTime(now, prefs.timeZone, { withZone: true })}
          </div>
          <Select<UpColour>
            label="Rising prices are shown in"
            value={prefs.upColour}
            onChange={(upColour) => prefs.set({ upColour })}
            options={[
              { value: 'green', label: 'Green (falling in red)' },
              { value: 'red', label: 'Red (falling in green)' },
            ]}
            data-testid="pref-up-colour"
          />
        </section>
        <section className="panel" aria-labelledby="settings-safety">
          <h2 id="settings-safety">Safety</h2>
          <Select<string>
            label="Lock the app after inactivity"
            value={String(prefs.idleLockMinutes)}
            onChange={(value) => prefs.set({ idleLockMinutes: Number(value) })}
            options={IDLE_LOCK_CHOICES.map((minutes) => ({
              value: String(minutes),
              label: minutes === 0 ? 'Never' : `After ${minutes} minutes`,
            }))}
            data-testid="pref-idle-lock"
          />
          <div className="field-hint">The app never locks while an operation is still running.</div>
          <ConfirmOrdersSetting />
          <div>
            <Button size="sm" onClick={() => prefs.reset()}>
              Restore defaults
            </Button>
          </div>
        </section>
        <section className="panel" aria-labelledby="settings-notifications">
          <h2 id="settings-notifications">Notifications</h2>
          <Checkbox
            label="Tell me in the app when a deposit or withdrawal changes state"
            checked={prefs.fundingNotices}
            onChange={(fundingNotices) => prefs.set({ fundingNotices })}
            testId="pref-funding-notices"
          />
          <OsNotificationsPanel />
        </section>
        <section className="panel" aria-labelledby="settings-about">
          <h2 id="settings-about">About</h2>
          <About />
        </section>
      </div>
    </>
  );
}
