/**
 * Sub-accounts: the list with state, type, mode, spot balances and their total value in USDT (by the
 * firm view's route: shared/platform/valuation.ts), searchable by name, UID, note or email and
 * sortable by its columns; create; and the selected sub-account's detail (balances, freeze/unfreeze,
 * API keys).
 */
import Decimal from 'decimal.js';
import { useEffect, useMemo, useState } from 'react';
import type { SubAccountView } from '../../../../shared/contract/subAccounts';
import { valuationIn } from '../../../../shared/platform/valuation';
import { useDeskQuery } from '../../lib/desk';
import { formatMoney, valueFormat } from '../../lib/format';
import { useNavigation } from '../../lib/navigation';
import { matchesSearch } from '../../lib/search';
import {
  alignedAmounts,
  Badge,
  Button,
  type Column,
  EmptyState,
  ErrorNotice,
  PageHeader,
  QueryStatus,
  TextField,
  Uid,
  useSortedRows,
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

/** A sub-account's spot holdings valued in USDT: the sum, and the currencies no price reaches. */
export interface SpotValue {
  readonly usdt: string;
  readonly unpriced: readonly string[];
}

export const spotValueIn = (
  spot: Record<string, string> | undefined,
  price: ((currency: string) => { price: Decimal } | undefined) | undefined,
): SpotValue | undefined => {
  if (spot === undefined || price === undefined) return undefined;
  let sum = new Decimal(0);
  const unpriced: string[] = [];
  for (const [currency, amount] of Object.entries(spot)) {
    let held: Decimal;
    try {
      held = new Decimal(amount);
    } catch {
      continue;
    }
    if (held.isZero()) continue;
    const v = price(currency);
    if (v === undefined) unpriced.push(currency);
    else sum = sum.plus(held.times(v.price));
  }
  return { usdt: sum.toFixed(), unpriced };
};

const SubAccountsScreen = () => {
  const list = useDeskQuery(['subAccounts.list', {}]);
  const balances = useDeskQuery(['subAccounts.balances', {}]);
  const modes = useDeskQuery(['subAccounts.unifiedMode', {}]);
  const tickers = useDeskQuery(['trade.tickers', {}], { staleTime: 60_000 });
  const [search, setSearch] = useState('');
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
  const price = useMemo(() => (tickers.data ? valuationIn('USDT', tickers.data) : undefined), [tickers.data]);
  const valueById = useMemo(
    () => new Map(balances.data?.balances.map((b) => [b.userId, spotValueIn(b.spot, price)])),
    [balances.data, price],
  );
  const found = useMemo(
    () =>
      (list.data?.accounts ?? []).filter((a) =>
        matchesSearch(search, [a.loginName, String(a.userId), a.remark, a.email]),
      ),
    [list.data, search],
  );

  // Every row's value with the decimals lined up (the listed rows decide how many).
  const valueCell = alignedAmounts(found, (a) => valueById.get(a.userId)?.usdt, { format: valueFormat('USDT') });
  const columns: Column<SubAccountView>[] = [
    {
      id: 'name',
      header: 'Login name',
      sortValue: (a) => a.loginName.toLowerCase(),
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
    { id: 'uid', header: 'UID', cell: (a) => <Uid value={a.userId} />, sortValue: (a) => a.userId },
    { id: 'type', header: 'Type', cell: (a) => TYPE_TEXT[a.type], sortValue: (a) => TYPE_TEXT[a.type] },
    { id: 'mode', header: 'Mode', cell: (a) => (modes.error ? '—' : unifiedModeText(modeOf.get(a.userId))) },
    {
      id: 'state',
      header: 'State',
      cell: (a) => <Badge tone={STATE_TEXT[a.state].tone}>{STATE_TEXT[a.state].text}</Badge>,
      sortValue: (a) => STATE_TEXT[a.state].text,
    },
    {
      id: 'value',
      header: 'Spot value (USDT)',
      numeric: true,
      sortValue: (a) => valueById.get(a.userId)?.usdt,
      cell: (a) => {
        const v = valueById.get(a.userId);
        if (v === undefined) return <span className="muted">{balances.error || tickers.error ? '—' : '…'}</span>;
        return (
          <span data-testid={`subaccount-value-${a.userId}`}>
            {valueCell(a)}
            {v.unpriced.length > 0 ? (
              <span className="muted" title={`No price for ${v.unpriced.join(', ')}: left out of the value.`}>
                {' '}
                (incomplete)
              </span>
            ) : null}
          </span>
        );
      },
    },
    {
      id: 'balances',
      header: 'Spot balances',
      cell: (a) => <span className="small">{balances.error ? 'Unavailable' : balancesText(spotOf.get(a.userId))}</span>,
    },
  ];
  const { sorted: accounts, sort, toggle } = useSortedRows(found, columns);

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
          {list.data && list.data.accounts.length > 0 ? (
            <TextField
              label="Search"
              hint="Login name, UID, note or email."
              type="search"
              value={search}
              onChange={setSearch}
              className="subaccounts-search"
              data-testid="subaccounts-search"
            />
          ) : null}
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
              sort={sort}
              onSort={toggle}
              {...(selected === undefined ? {} : { selectedKey: String(selected) })}
              empty={
                search.trim() !== '' && list.data.accounts.length > 0 ? (
                  <EmptyState title="No sub-account matches">Search by login name, UID, note or email.</EmptyState>
                ) : (
                  <EmptyState title="No sub-accounts yet">
                    Sub-accounts separate funds and API keys, e.g. one per bot or desk.
                  </EmptyState>
                )
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
