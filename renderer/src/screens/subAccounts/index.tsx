/**
 * Sub-accounts: the list with state, type, mode and spot balances; create; and the selected
 * sub-account's detail (balances, freeze/unfreeze, API keys).
 */
import { useEffect, useMemo, useState } from 'react';
import type { SubAccountView } from '../../../../shared/contract/subAccounts';
import { useDeskQuery } from '../../lib/desk';
import { formatMoney } from '../../lib/format';
import { useNavigation } from '../../lib/navigation';
import {
  Badge,
  Button,
  type Column,
  EmptyState,
  ErrorNotice,
  PageHeader,
  QueryStatus,
  Uid,
  VirtualTable,
} from '../../ui';
import { CreateSubAccountDialog } from './CreateSubAccountDialog';
import { STATE_TEXT, TYPE_TEXT, unifiedModeText } from './labels';
import { SubAccountDetail } from './SubAccountDetail';
import { useSubAccountsUi } from './store';
import './subAccounts.css';

/** The few largest-looking balances as text, e.g. "1,000 USDT · 0.5 BTC (+3 more)". */
const balancesText = (spot: Record<string, string> | undefined): string => {
  if (spot === undefined) return '…';
  const entries = Object.entries(spot).filter(([, amount]) => !/^[0.]+$/.test(amount));
  if (entries.length === 0) return 'Empty';
  const shown = entries.slice(0, 3).map(([currency, amount]) => formatMoney(amount, currency));
  return entries.length > 3 ? `${shown.join(' · ')} (+${entries.length - 3} more)` : shown.join(' · ');
};

const SubAccountsScreen = () => {
  const list = useDeskQuery(['subAccounts.list', {}]);
  const balances = useDeskQuery(['subAccounts.balances', {}]);
  const modes = useDeskQuery(['subAccounts.unifiedMode', {}]);
  // Another screen may open a given sub-account: params.userId.
  const handedOver = useNavigation((state) => state.params.userId);
  useEffect(() => {
    if (handedOver && /^\d+$/.test(handedOver)) useSubAccountsUi.getState().patch({ selected: Number(handedOver) });
  }, [handedOver]);
  // Kept across navigation (a store per screen), not in component state.
  const selected = useSubAccountsUi((s) => s.selected);
  const setSelected = (id: number | undefined) => useSubAccountsUi.getState().patch({ selected: id });
  const [creating, setCreating] = useState(false);

  const spotOf = useMemo(() => new Map(balances.data?.balances.map((b) => [b.userId, b.spot])), [balances.data]);
  const modeOf = useMemo(() => new Map(modes.data?.modes.map((m) => [m.userId, m.mode])), [modes.data]);
  const accounts = list.data?.accounts ?? [];

  const columns: Column<SubAccountView>[] = [
    {
      id: 'name',
      header: 'Login name',
      cell: (a) => (
        <button
          type="button"
          className="link-button"
          onClick={() => setSelected(a.userId)}
          aria-label={`Open ${a.loginName}`}
        >
          {a.loginName}
        </button>
      ),
    },
    { id: 'uid', header: 'UID', cell: (a) => <Uid value={a.userId} /> },
    { id: 'type', header: 'Type', cell: (a) => TYPE_TEXT[a.type] },
    { id: 'mode', header: 'Mode', cell: (a) => (modes.error ? '—' : unifiedModeText(modeOf.get(a.userId))) },
    {
      id: 'state',
      header: 'State',
      cell: (a) => <Badge tone={STATE_TEXT[a.state].tone}>{STATE_TEXT[a.state].text}</Badge>,
    },
    {
      id: 'balances',
      header: 'Spot balances',
      cell: (a) => <span className="small">{balances.error ? 'Unavailable' : balancesText(spotOf.get(a.userId))}</span>,
    },
  ];

  return (
    <div className="subaccounts-screen">
      <PageHeader
        title="Sub-accounts"
        subtitle="Create sub-accounts, freeze or unfreeze them and manage their API keys."
        actions={
          <Button variant="primary" onClick={() => setCreating(true)} data-testid="open-create-subaccount">
            Create sub-account
          </Button>
        }
      />
      <div className="stack">
        <section aria-label="Sub-account list" className="panel">
          <QueryStatus query={list} loading="Loading sub-accounts…" />
          {balances.error ? <ErrorNotice error={balances.error} compact onRetry={() => balances.refetch()} /> : null}
          {list.data ? (
            <VirtualTable
              caption="Sub-accounts"
              columns={columns}
              rowCount={accounts.length}
              rowAt={(i) => accounts[i]}
              rowKey={(a) => String(a.userId)}
              maxHeight="45vh"
              testId="subaccounts-table"
              onRowClick={(a) => setSelected(a.userId)}
              {...(selected === undefined ? {} : { selectedKey: String(selected) })}
              empty={
                <EmptyState title="No sub-accounts yet">
                  Sub-accounts separate funds and API keys, e.g. one per bot or desk.
                </EmptyState>
              }
            />
          ) : null}
        </section>
        {selected !== undefined ? (
          <SubAccountDetail key={selected} userId={selected} />
        ) : (
          <EmptyState title="Select a sub-account">Its balances, state and API keys appear here.</EmptyState>
        )}
      </div>
      {creating ? (
        <CreateSubAccountDialog
          onClose={() => setCreating(false)}
          onCreated={(account) => {
            setCreating(false);
            setSelected(account.userId);
          }}
        />
      ) : null}
    </div>
  );
};

export default SubAccountsScreen;
