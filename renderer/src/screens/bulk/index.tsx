/**
 * Bulk operations (docs/bulk.md): batches of transfers, UID pushes and withdrawals from a CSV file
 * or pasted rows, sweeps and top-ups, and bulk sub-account and API-key management. Every batch is
 * checked in main before anything is sent and runs in main, exactly once per row.
 */
import { useState } from 'react';
import { PageHeader, Tabs } from '../../ui';
import { AccountsTab } from './AccountsTab';
import { BatchTab } from './BatchTab';
import { SweepTab } from './SweepTab';

type Tab = 'batch' | 'sweep' | 'accounts';

export default function BulkScreen() {
  const [tab, setTab] = useState<Tab>('batch');
  return (
    <>
      <PageHeader
        title="Bulk operations"
        subtitle="Batches from CSV, sweeps and top-ups, sub-accounts and keys in bulk"
      />
      <Tabs
        label="Bulk operations"
        tabs={[
          { id: 'batch', label: 'Batch from CSV' },
          { id: 'sweep', label: 'Sweep / top-up' },
          { id: 'accounts', label: 'Sub-accounts and keys' },
        ]}
        value={tab}
        onChange={setTab}
      >
        {tab === 'batch' ? <BatchTab /> : tab === 'sweep' ? <SweepTab /> : <AccountsTab />}
      </Tabs>
    </>
  );
}
