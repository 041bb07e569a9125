/** Deposits: where to send funds (address, memo, QR) and the history with status timelines. */
import '../withdrawals/treasury.css';
import { useState } from 'react';
import { useNavigation } from '../../lib/navigation';
import { PageHeader, Tabs } from '../../ui';
import { DepositAddressPanel } from './DepositAddressPanel';
import { DepositHistory } from './DepositHistory';

type Tab = 'address' | 'history';

export default function DepositsScreen() {
  const initial = useNavigation((s) => s.params.tab) as Tab | undefined;
  const [tab, setTab] = useState<Tab>(initial ?? 'address');
  return (
    <div className="treasury">
      <PageHeader title="Deposits" subtitle="Deposit addresses per network, and every deposit with its status." />
      <Tabs
        label="Deposits"
        value={tab}
        onChange={setTab}
        tabs={[
          { id: 'address', label: 'Deposit address' },
          { id: 'history', label: 'History' },
        ]}
      >
        {tab === 'address' ? <DepositAddressPanel /> : <DepositHistory />}
      </Tabs>
    </div>
  );
}
