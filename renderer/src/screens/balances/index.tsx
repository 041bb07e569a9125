/** Balances: the total by account type and over time, spot, every account side by side, small balances. */
import { lazy, Suspense, useState } from 'react';
import { Loading, PageHeader, Tabs } from '../../ui';
import { Overview } from './Overview';
import { SmallBalances } from './SmallBalances';
import './balances.css';

// The firm-wide tab is its own chunk (it draws with recharts): the Overview paints without that code.
const FirmView = lazy(() => import('./FirmView').then((m) => ({ default: m.FirmView })));

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
        {tab === 'accounts' ? (
          <Suspense fallback={<Loading label="Loading the firm-wide view…" />}>
            <FirmView />
          </Suspense>
        ) : null}
        {tab === 'small' ? <SmallBalances /> : null}
      </Tabs>
    </div>
  );
}
