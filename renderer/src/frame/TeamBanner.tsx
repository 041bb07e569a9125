/**
 * Team mode on every screen (docs/team.md): the team database away (new movements, approvals and
 * control changes wait; platform reads still show), the team's control chain not verifying, or a
 * movement a desk refused to send because its signatures did not verify (a row edited in the
 * database). Every desk of the team shows it, like the audit log's failed check.
 */
import { useQueryClient } from '@tanstack/react-query';
import type { TeamStatus } from '../../../shared/contract/team';
import { useDeskEvent, useDeskQuery } from '../lib/desk';
import { useLock } from '../lib/lock';
import { Time } from '../ui';

const problems = (status: TeamStatus): { key: string; title: string; text: string; at?: number }[] => {
  if (status.mode !== 'team') return [];
  const list: { key: string; title: string; text: string; at?: number }[] = [];
  const db = status.database;
  if (db && db.state !== 'connected')
    list.push({
      key: 'database',
      title: 'The team database is unavailable',
      text: `${db.reason ? `${db.reason}. ` : ''}New movements, approvals and control changes wait until it is back; balances and histories from the platform still show, and what this desk was already sending finishes.`,
      ...(db.since ? { at: db.since } : {}),
    });
  if (status.integrity && !status.integrity.ok)
    list.push({
      key: 'integrity',
      title: 'The team’s records do not verify',
      text: `${status.integrity.problem ?? ''} Nothing is sent or changed from this desk until an administrator has checked the team database.`,
    });
  for (const b of status.blocked)
    list.push({
      key: `blocked-${b.movementId}`,
      title: 'A movement was refused: it did not verify',
      text: `${b.problem}. It was not sent. Someone changed the team database behind the desks’ backs: an administrator checks it.`,
      at: b.at,
    });
  return list;
};

export const TeamBanner = () => {
  const client = useQueryClient();
  const locked = useLock((s) => s.locked);
  const status = useDeskQuery(['team.status', {}], { enabled: !locked });
  useDeskEvent('team.statusChanged', (next) =>
    client.setQueryData<TeamStatus>(['team.status', {}], (before) => ({
      ...next,
      ...(before?.me ? { me: before.me } : {}),
    })),
  );
  const shown = status.data ? problems(status.data) : [];
  if (shown.length === 0) return null;
  return (
    <section className="notice notice-bad audit-banner" role="alert" data-testid="team-banner">
      {shown.map((p) => (
        <div key={p.key} data-testid={`team-banner-${p.key.split('-')[0]}`}>
          <p className="notice-title">{p.title}</p>
          <p className="notice-text">
            {p.text}
            {p.at ? (
              <>
                {' '}
                (<Time ms={p.at} />)
              </>
            ) : null}
          </p>
        </div>
      ))}
    </section>
  );
};
