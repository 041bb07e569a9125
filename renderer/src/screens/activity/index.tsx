/**
 * Activity: every money movement with its status, the audit log, and the complete history sync. In
 * team mode the audit view is the team's audit chain (every desk's entries, verified), and this
 * desk's own log is a tab of its own.
 */
import { useState } from 'react';
import { useDeskQuery } from '../../lib/desk';
import { PageHeader, Tabs } from '../../ui';
import { AuditLog } from './AuditLog';
import { HistorySync } from './HistorySync';
import { Movements } from './Movements';
import { TeamAuditChain } from './TeamAuditChain';
import './activity.css';

type Tab = 'movements' | 'teamAudit' | 'audit' | 'history';

export default function ActivityScreen() {
  const [tab, setTab] = useState<Tab>('movements');
  const inTeam = useDeskQuery(['team.status', {}]).data?.mode === 'team';
  return (
    <div className="treasury">
      <PageHeader title="Activity" subtitle="Money movements, the audit log and the complete history." />
      <Tabs
        label="Activity"
        value={tab}
        onChange={setTab}
        tabs={[
          { id: 'movements', label: 'Money movements' },
          ...(inTeam
            ? [
                { id: 'teamAudit' as const, label: 'Team audit chain' },
                { id: 'audit' as const, label: 'This desk’s audit log' },
              ]
            : [{ id: 'audit' as const, label: 'Audit log' }]),
          { id: 'history', label: 'History' },
        ]}
      >
        {tab === 'movements' ? <Movements /> : null}
        {tab === 'teamAudit' && inTeam ? <TeamAuditChain /> : null}
        {tab === 'audit' ? <AuditLog /> : null}
        {tab === 'history' ? <HistorySync /> : null}
      </Tabs>
    </div>
  );
}
