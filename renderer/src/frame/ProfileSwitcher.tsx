/**
 * The active profile and its connection state, always visible in the top bar. The state opens the
 * connection details: clock offset, the rate limiter's budget and queue (live), the last error.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import type { z } from 'zod';
import type { ConnectionStatus, ProfileKind } from '../../../shared/contract/profiles';
import { ruleOfBucket, rulesThatMatter, windowWords } from '../../../shared/platform/pacing';
import { useDeskEvent, useDeskQuery } from '../lib/desk';
import { useNavigation } from '../lib/navigation';
import { Badge, DetailsList, secondsLeft, Time, type Tone } from '../ui';
import { useNow } from '../ui/Countdown';
import { forgetOtherProfile, useProfileSwitch } from './useProfileSwitch';

type Status = z.output<typeof ConnectionStatus>;

const KIND: Record<ProfileKind, { label: string; tone: Tone }> = {
  sandbox: { label: 'Sandbox', tone: 'info' },
  testnet: { label: 'Testnet', tone: 'neutral' },
  // Real money: the loudest badge.
  live: { label: 'LIVE', tone: 'bad' },
  futures_alt: { label: 'Live (alt. entry)', tone: 'bad' },
  custom: { label: 'Custom endpoint', tone: 'bad' },
};

const STATE_TEXT: Record<Status['state'], string> = {
  connected: 'Connected',
  connecting: 'Connecting…',
  disconnected: 'Not connected',
  error: 'Connection problem',
};

/** The rate-limit budget needs a look: requests are waiting, the platform paused us, or little is left. */
export const limiterNeedsAttention = (limiter: Status['limiter'], now: number): boolean =>
  limiter.queued > 0 || limiter.headroom < 0.25 || limiter.buckets.some((b) => (b.blockedUntil ?? 0) > now);

type Bucket = Status['limiter']['buckets'][number];

/**
 * The budget that matters to what the person is doing (the open screen's windows, shared/platform/
 * pacing.ts): requests waiting, a pause with its end, or the tightest window's real remaining count.
 * Undefined when nothing there needs a look. A single withdrawal spends the 1-per-3-s window; that is
 * no reason for an amber "0 % left" on another screen.
 */
export const relevantBudget = (
  limiter: Status['limiter'],
  screen: string,
  now: number,
): { queued: number; blockedUntil?: number; tightest?: Bucket } | undefined => {
  const matters = new Set(rulesThatMatter(screen));
  const buckets = limiter.buckets.filter((b) => {
    const rule = ruleOfBucket(b.key);
    return rule === undefined || matters.has(rule);
  });
  const queued = buckets.reduce((sum, b) => sum + b.queued, 0);
  const blockedUntil = Math.max(0, ...buckets.map((b) => b.blockedUntil ?? 0));
  let tightest: Bucket | undefined;
  for (const b of buckets) if (!tightest || 1 - b.used / b.limit < 1 - tightest.used / tightest.limit) tightest = b;
  const low = tightest !== undefined && tightest.limit > 1 && 1 - tightest.used / tightest.limit < 0.25;
  if (queued === 0 && blockedUntil <= now && !low) return undefined;
  return {
    queued,
    ...(blockedUntil > now ? { blockedUntil } : {}),
    ...(tightest ? { tightest } : {}),
  };
};

/** The badge: a pause counting down, requests waiting, or what is left of the tightest window. */
const BudgetBadge = ({ budget }: { budget: NonNullable<ReturnType<typeof relevantBudget>> }) => {
  const now = useNow(budget.blockedUntil);
  const { tightest } = budget;
  const text =
    budget.blockedUntil !== undefined && budget.blockedUntil > now
      ? `Paused by the platform: ${secondsLeft(budget.blockedUntil, now)} s left`
      : budget.queued > 0
        ? `${budget.queued} waiting`
        : tightest
          ? `Rate limit: ${tightest.limit - tightest.used} of ${tightest.limit} left per ${windowWords(tightest.windowMs)}`
          : 'Rate limit';
  return (
    <Badge
      tone="warn"
      testId="rate-limit-badge"
      title={tightest ? `Requests wait for the platform's rate limits (${tightest.scope})` : undefined}
    >
      {text}
    </Badge>
  );
};

const percent = (fraction: number) => `${Math.round(Math.max(0, Math.min(1, fraction)) * 100)} %`;

const windowText = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1)} s` : `${ms} ms`);

const clockText = (offsetMs: number) => {
  const seconds = Math.abs(offsetMs) / 1000;
  if (seconds < 0.05) return 'In step with the platform';
  return `This computer is ${seconds.toFixed(1)} s ${offsetMs >= 0 ? 'behind' : 'ahead of'} the platform; signed requests are corrected for it`;
};

/** The busiest rate-limit windows first: what is closest to its limit is what a person wants to see. */
const busiest = (buckets: Status['limiter']['buckets'], now: number) =>
  [...buckets]
    .sort((a, b) => {
      const blocked = Number((b.blockedUntil ?? 0) > now) - Number((a.blockedUntil ?? 0) > now);
      return blocked || b.queued - a.queued || b.used / b.limit - a.used / a.limit;
    })
    .slice(0, 6);

/** Everything known about the active connection: clock, rate-limit budget and queue, last error. */
export const ConnectionDetails = ({ status, id }: { readonly status: Status; readonly id: string }) => {
  const now = Date.now();
  const { limiter } = status;
  const buckets = busiest(limiter.buckets, now);
  return (
    <section id={id} className="connection-details" aria-label="Connection details" data-testid="connection-details">
      <DetailsList
        rows={[
          { label: 'State', value: STATE_TEXT[status.state] },
          status.clockOffsetMs !== undefined
            ? { label: 'Clock', value: clockText(status.clockOffsetMs), testId: 'connection-clock' }
            : null,
          {
            label: 'Rate limits',
            testId: 'connection-budget',
            value: `${percent(limiter.headroom)} left in the tightest window · ${
              limiter.queued === 0 ? 'nothing waiting' : `${limiter.queued} waiting for a slot`
            }`,
          },
          status.lastError
            ? {
                label: 'Last error',
                testId: 'connection-last-error',
                value: (
                  <>
                    {status.lastError.message} {status.lastError.label ? <code>{status.lastError.label}</code> : null}{' '}
                    <span className="muted">
                      (<Time ms={status.lastError.at} />)
                    </span>
                    {status.lastError.advice ? <div className="muted">{status.lastError.advice}</div> : null}
                  </>
                ),
              }
            : { label: 'Last error', value: 'None', testId: 'connection-last-error' },
          status.unresolvedMovements > 0
            ? { label: 'Being checked', value: `${status.unresolvedMovements} money movements (see Activity)` }
            : null,
          status.checkedAt !== undefined ? { label: 'Checked', value: <Time ms={status.checkedAt} /> } : null,
        ]}
      />
      {buckets.length > 0 ? (
        <table className="table connection-buckets" data-testid="connection-buckets">
          <caption className="sr-only">Rate-limit windows in use</caption>
          <thead>
            <tr>
              <th scope="col">Limit</th>
              <th scope="col" className="num">
                Used
              </th>
              <th scope="col" className="num">
                Waiting
              </th>
            </tr>
          </thead>
          <tbody>
            {buckets.map((b) => (
              <tr key={b.key}>
                <td>
                  {b.scope}
                  {(b.blockedUntil ?? 0) > now ? (
                    <Badge tone="warn">
                      Paused by the platform until <Time ms={b.blockedUntil as number} />
                    </Badge>
                  ) : null}
                </td>
                <td className="num">
                  {b.used} of {b.limit} per {windowText(b.windowMs)}
                </td>
                <td className="num">{b.queued}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">No request sent yet on this connection.</p>
      )}
    </section>
  );
};

const ConnectionIndicator = ({ status }: { readonly status: Status | undefined }) => {
  const screen = useNavigation((s) => s.screen);
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    if (!open) return undefined;
    const close = (event: Event) => {
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !root.current?.contains(event.target as Node)) {
        setOpen(false);
      }
    };
    document.addEventListener('keydown', close);
    document.addEventListener('mousedown', close);
    return () => {
      document.removeEventListener('keydown', close);
      document.removeEventListener('mousedown', close);
    };
  }, [open]);
  if (status === undefined) return null;
  const dot = status.state === 'connected' ? (status.clockWarning ? 'degraded' : 'connected') : status.state;
  const budget = relevantBudget(status.limiter, screen, Date.now());
  return (
    <span className="connection" ref={root}>
      <button
        type="button"
        className="connection-toggle"
        data-testid="connection-state"
        data-state={status.state}
        aria-expanded={open}
        aria-controls={panelId}
        title="Connection details: clock, rate limits, last error"
        onClick={() => setOpen((o) => !o)}
      >
        <span className="connection-dot" data-state={dot === 'error' ? 'disconnected' : dot} aria-hidden="true" />
        <span className="connection-text">{STATE_TEXT[status.state]}</span>
      </button>
      {status.clockWarning ? (
        <Badge tone="warn" title="This computer's clock differs from the platform's; requests may be refused.">
          Clock
        </Badge>
      ) : null}
      {budget ? <BudgetBadge budget={budget} /> : null}
      {status.unresolvedMovements > 0 ? (
        <Badge tone="warn" title="Money movements whose outcome is still being checked with the platform">
          {status.unresolvedMovements} being checked
        </Badge>
      ) : null}
      {status.lastError && status.state !== 'connected' ? (
        <span className="connection-error" data-testid="connection-error-line">
          {status.lastError.message}
        </span>
      ) : null}
      {open ? <ConnectionDetails status={status} id={panelId} /> : null}
    </span>
  );
};

export const ProfileSwitcher = () => {
  const client = useQueryClient();
  const profiles = useDeskQuery(['profiles.list', {}]);
  const status = useDeskQuery(['profiles.status', {}], { refetchInterval: 30_000 });
  // A profile change made anywhere (this window, Settings, main at start) drops the other profile's data.
  const shownProfile = useRef<string | null | undefined>(undefined);
  useDeskEvent('profiles.connectionChanged', (payload) => {
    client.setQueryData(['profiles.status', {}], payload);
    if (shownProfile.current !== undefined && shownProfile.current !== payload.profileId)
      void forgetOtherProfile(client);
    shownProfile.current = payload.profileId;
  });
  useEffect(() => {
    if (shownProfile.current === undefined && status.data) shownProfile.current = status.data.profileId;
  }, [status.data]);
  // The limiter's queue and budget change with every request: main coalesces them to ~4 a second.
  useDeskEvent('profiles.limiterChanged', (limiter) =>
    client.setQueryData<Status>(['profiles.status', {}], (old) => (old ? { ...old, limiter } : old)),
  );
  const switcher = useProfileSwitch();
  // Main lets makers and up switch the desk's profile (every screen and movement follows it).
  const role = useDeskQuery(['operators.current', {}]).data?.operator?.role;
  const viewer = role === 'viewer';

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
        disabled={switcher.pendingId !== undefined || list.length === 0 || viewer}
        title={viewer ? 'A viewer cannot switch the desk’s profile: ask a maker or an administrator.' : undefined}
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
