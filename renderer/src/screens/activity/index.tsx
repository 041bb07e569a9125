/** Activity: every money movement with its status, the audit log, and the complete history sync. */
import { useState } from 'react';
import { PageHeader, Tabs } from '../../ui';
import { AuditLog } from './AuditLog';
import { HistorySync } from './HistorySync';
import { Movements } from './Movements';
import './activity.css';

type Tab = 'movements' | 'audit' | 'history';

export default function ActivityScreen() {
  const [tab, setTab] = useState<Tab>('movements');
  return (
    <div className="treasury">
      <PageHeader title="Activity" subtitle="Money movements, the audit log and the complete history." />
      <Tabs
        label="Activity"
        value={tab}
        onChange={setTab}
        tabs={[
          { id: 'movements', label: 'Money movements' },
          { id: 'audit', label: 'Audit log' },
          { id: 'history', label: 'History' },
        ]}
      >
        {tab === 'movements' ? <Movements /> : null}
        {tab === 'audit' ? <AuditLog /> : null}
        {tab === 'history' ? <HistorySync /> : null}
      </Tabs>
    </div>
  );
}
