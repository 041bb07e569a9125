/** Balances: the total by account type and over time, spot, every account side by side, small balances. */
import { useState } from 'react';
import { PageHeader, Tabs } from '../../ui';
import { FirmView } from './FirmView';
import { Overview } from './Overview';
import { SmallBalances } from './SmallBalances';
import './balances.css';

type Tab = 'overview' | 'accounts' | 'small';

export default function BalancesScreen() {
  const [tab, setTab] = useState<Tab>('overview');
  return (
    <div className="treasury">
      <PageHeader title="Balances" subtitle="Where the money is: totals, spot, every sub-account, small balances." />
      <Tabs
        label="Balances"
        value={tab}
        onChange={setTab}
        tabs={[
          { id: 'overview', label: 'Overview' },
          { id: 'accounts', label: 'Firm-wide' },
          { id: 'small', label: 'Small balances' },
        ]}
      >
        {tab === 'overview' ? <Overview /> : null}
        {tab === 'accounts' ? <FirmView /> : null}
        {tab === 'small' ? <SmallBalances /> : null}
      </Tabs>
    </div>
  );
}
