/** Deposits: where to send funds (address, memo, QR) and the history with status timelines. */
import { useEffect } from 'react';
import { useNavigation } from '../../lib/navigation';
import { PageHeader, Tabs } from '../../ui';
import { DepositAddressPanel } from './DepositAddressPanel';
import { DepositHistory } from './DepositHistory';
import { useDepositsUi } from './store';
import './deposits.css';

type Tab = 'address' | 'history';

export default function DepositsScreen() {
  // Another screen or a notice may open a tab or a record: params.tab, params.record.
  const params = useNavigation((s) => s.params);
  useEffect(() => {
    const tab = params.tab as Tab | undefined;
    if (tab === 'address' || tab === 'history') useDepositsUi.getState().patch({ tab });
    if (params.record) useDepositsUi.getState().patch({ tab: 'history', selected: params.record });
  }, [params]);
  const tab = useDepositsUi((s) => s.tab);
  const setTab = (next: Tab) => useDepositsUi.getState().patch({ tab: next });
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
