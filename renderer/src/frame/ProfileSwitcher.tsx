/**
 * The active profile and its connection state, always visible in the top bar.
 */
import { useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ConnectionStatus, ProfileKind } from '../../../shared/contract/profiles';
import { useDeskEvent, useDeskQuery } from '../lib/desk';
import { Badge, type Tone } from '../ui';
import { useProfileSwitch } from './useProfileSwitch';

type Status = z.output<typeof ConnectionStatus>;

const KIND: Record<ProfileKind, { label: string; tone: Tone }> = {
  sandbox: { label: 'Sandbox', tone: 'info' },
  testnet: { label: 'Testnet', tone: 'neutral' },
  // Real money: the loudest badge.
  live: { label: 'LIVE', tone: 'bad' },
  futures_alt: { label: 'Live (alt. entry)', tone: 'bad' },
};

const STATE_TEXT: Record<Status['state'], string> = {
  connected: 'Connected',
  connecting: 'Connecting…',
  disconnected: 'Not connected',
  error: 'Connection problem',
};

const ConnectionIndicator = ({ status }: { readonly status: Status | undefined }) => {
  if (status === undefined) return null;
  const dot = status.state === 'connected' ? (status.clockWarning ? 'degraded' : 'connected') : status.state;
  const detail = [
    status.lastError
      ? `Last error: ${status.lastError.message}${status.lastError.label ? ` (${status.lastError.label})` : ''}`
      : '',
    status.clockOffsetMs !== undefined ? `Clock offset ${Math.round(status.clockOffsetMs)} ms` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <span className="connection" data-testid="connection-state" data-state={status.state} title={detail || undefined}>
      <span className="connection-dot" data-state={dot === 'error' ? 'disconnected' : dot} aria-hidden="true" />
      <span className="connection-text">{STATE_TEXT[status.state]}</span>
      {status.clockWarning ? (
        <Badge tone="warn" title="This computer's clock differs from the platform's; requests may be refused.">
          Clock
        </Badge>
      ) : null}
      {status.unresolvedMovements > 0 ? (
        <Badge tone="warn" title="Money movements whose outcome is still being checked with the platform">
          {status.unresolvedMovements} being checked
        </Badge>
      ) : null}
    </span>
  );
};

export const ProfileSwitcher = () => {
  const client = useQueryClient();
  const profiles = useDeskQuery(['profiles.list', {}]);
  const status = useDeskQuery(['profiles.status', {}], { refetchInterval: 30_000 });
  useDeskEvent('profiles.connectionChanged', (payload) => client.setQueryData(['profiles.status', {}], payload));
  const switcher = useProfileSwitch();

  if (profiles.isPending) {
    return (
      <div className="profile-switcher" data-testid="profile-switcher">
        <span className="profile-name">Loading profiles…</span>
      </div>
    );
  }
  if (profiles.isError) {
    return (
      <div className="profile-switcher" data-testid="profile-switcher" title={profiles.error.message}>
        <span className="profile-name">Profiles unavailable</span>
        <Badge tone="bad">{profiles.error.code}</Badge>
      </div>
    );
  }
  const list = profiles.data;
  const active = list.find((p) => p.active);
  const kind = active ? KIND[active.kind] : undefined;
  return (
    <div className="profile-switcher" data-testid="profile-switcher">
      <label htmlFor="profile-select" className="sr-only">
        Profile
      </label>
      <select
        id="profile-select"
        className="profile-select"
        data-testid="profile-select"
        value={active?.id ?? ''}
        disabled={switcher.pendingId !== undefined || list.length === 0}
        aria-busy={switcher.pendingId !== undefined || undefined}
        onChange={(event) => {
          const next = list.find((p) => p.id === event.target.value);
          if (next) switcher.request(next);
        }}
      >
        {active === undefined ? <option value="">No profile</option> : null}
        {list.map((profile) => (
          <option key={profile.id} value={profile.id}>
            {profile.name}
          </option>
        ))}
      </select>
      {kind ? (
        <Badge tone={kind.tone} testId="profile-kind">
          {kind.label}
        </Badge>
      ) : null}
      <ConnectionIndicator status={status.data} />
      {switcher.dialog}
    </div>
  );
};
