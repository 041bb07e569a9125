/**
 * Withdrawals: send (with review), follow the status live, cancel while possible, history with CSV
 * export, UID transfers, and the typed-confirmation settings.
 */
import { useEffect, useState } from 'react';
import type { WithdrawResult } from '../../../../shared/contract/funding';
import { useNavigation } from '../../lib/navigation';
import { PageHeader, Tabs } from '../../ui';
import { PushPanel } from './PushPanel';
import { ReviewSettings } from './ReviewSettings';
import { useWithdrawalsUi, type WithdrawalsTab } from './store';
import { WithdrawalHistory } from './WithdrawalHistory';
import { WithdrawalTracker } from './WithdrawalTracker';
import { useWithdrawDraft, WithdrawForm } from './WithdrawForm';
import './withdrawals.css';

type Tab = WithdrawalsTab;
const TABS: readonly Tab[] = ['send', 'history', 'push', 'settings'];

export default function WithdrawalsScreen() {
  // Another screen or a notice may open a tab or a record: params.tab, params.record.
  const params = useNavigation((s) => s.params);
  useEffect(() => {
    const tab = params.tab as Tab | undefined;
    if (tab && TABS.includes(tab)) useWithdrawalsUi.getState().patch({ tab });
    if (params.record) useWithdrawalsUi.getState().patch({ tab: 'history', selected: params.record });
  }, [params]);
  const currency = useNavigation((s) => s.params.currency);
  // Balances → "Withdraw" hands over a currency: start a fresh draft with it.
  useEffect(() => {
    if (currency) useWithdrawDraft.getState().set({ currency, chain: '', address: '', memo: '', amount: '' });
  }, [currency]);
  const tab = useWithdrawalsUi((s) => s.tab);
  const setTab = (next: Tab) => useWithdrawalsUi.getState().patch({ tab: next });
  const [sent, setSent] = useState<WithdrawResult[]>([]);
  return (
    <div className="treasury">
      <PageHeader
        title="Withdrawals"
        subtitle="Send funds out to saved addresses, with review; follow and cancel them."
      />
      <Tabs
        label="Withdrawals"
        value={tab}
        onChange={setTab}
        tabs={[
          { id: 'send', label: 'New withdrawal' },
          { id: 'history', label: 'History' },
          { id: 'push', label: 'UID transfer' },
          { id: 'settings', label: 'Review settings' },
        ]}
      >
        {tab === 'send' ? (
          <div className="stack">
            <WithdrawForm onSent={(result) => setSent((list) => [result, ...list].slice(0, 5))} />
            <div className="stack" data-testid="withdrawals-sent">
              {sent.map((s) => (
                <WithdrawalTracker
                  key={s.withdrawOrderId}
                  withdrawOrderId={s.withdrawOrderId}
                  record={s.record}
                  outcome={s.outcome}
                  note={s.note}
                />
              ))}
            </div>
          </div>
        ) : null}
        {tab === 'history' ? <WithdrawalHistory /> : null}
        {tab === 'push' ? <PushPanel /> : null}
        {tab === 'settings' ? <ReviewSettings /> : null}
      </Tabs>
    </div>
  );
}
