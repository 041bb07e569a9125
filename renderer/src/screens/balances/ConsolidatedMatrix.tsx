/**
 * Main and every sub-account side by side: spot, isolated margin, perpetual and cross margin. A cell
 * that could not be read says so (with the reason), never shows as empty or zero.
 */
import Decimal from 'decimal.js';
import { useDeferredValue, useMemo, useState } from 'react';
import type { AccountKind, CellAmount, ConsolidatedRow } from '../../../../shared/contract/balances';
import { useDeskQuery } from '../../lib/desk';
import { Amount, Badge, Button, type Column, QueryStatus, TextField, VirtualTable } from '../../ui';

const KINDS: { id: AccountKind; label: string }[] = [
  { id: 'spot', label: 'Spot' },
  { id: 'isolatedMargin', label: 'Isolated margin' },
  { id: 'perpetual', label: 'Perpetual' },
  { id: 'crossMargin', label: 'Cross margin' },
];

/** Per currency, the sum over every account and account type (exact decimals). */
export const totalsByCurrency = (rows: readonly ConsolidatedRow[]): { currency: string; amount: string }[] => {
  const sums = new Map<string, Decimal>();
  for (const row of rows) {
    for (const kind of KINDS) {
      for (const cell of row.cells[kind.id]) {
        if (cell.note === 'value of the account') continue; // a valuation, not an amount of the currency
        sums.set(cell.currency, (sums.get(cell.currency) ?? new Decimal(0)).plus(cell.amount));
      }
    }
  }
  return [...sums.entries()]
    .map(([currency, amount]) => ({ currency, amount: amount.toFixed() }))
    .sort((a, b) => a.currency.localeCompare(b.currency));
};

function Cell({
  amounts,
  error,
  filter,
}: {
  readonly amounts: readonly CellAmount[];
  readonly error?: string | undefined;
  readonly filter: string;
}) {
  if (error) {
    return (
      <span className="cell-error" role="note">
        Could not read: {error}
      </span>
    );
  }
  const shown = amounts.filter((a) => filter === '' || a.currency.toUpperCase().includes(filter));
  if (shown.length === 0) return <span className="muted">—</span>;
  return (
    <ul className="cell-amounts">
      {shown.map((a) => (
        <li key={`${a.currency}|${a.note ?? ''}`}>
          <Amount value={a.amount} currency={a.currency} />
          {a.note ? <span className="muted"> · {a.note}</span> : null}
        </li>
      ))}
    </ul>
  );
}

/** The account column: name, uid or "Main", frozen, and a sub-account list that could not be read. */
const accountCell = (row: ConsolidatedRow) => (
  <>
    <strong>{row.label}</strong>
    <div className="muted">
      {row.role === 'main' ? 'Main' : `UID ${row.uid}`} {row.frozen ? <Badge tone="bad">Frozen</Badge> : null}
    </div>
    {row.errors?.subAccounts ? <div className="cell-error">Sub-accounts: {row.errors.subAccounts}</div> : null}
  </>
);

export function ConsolidatedMatrix() {
  const query = useDeskQuery(['balances.consolidated', {}], { staleTime: 30_000 });
  const [filter, setFilter] = useState('');
  // Typing stays instant: the table catches up with the filter when React has time.
  const deferred = useDeferredValue(filter);
  const totals = useMemo(() => totalsByCurrency(query.data ?? []), [query.data]);
  const f = deferred.trim().toUpperCase();
  const rows = query.data ?? [];
  const columns = useMemo<Column<ConsolidatedRow>[]>(
    () => [
      { id: 'account', header: 'Account', width: '14rem', cell: accountCell },
      ...KINDS.map((k) => ({
        id: k.id,
        header: k.label,
        cell: (row: ConsolidatedRow) => <Cell amounts={row.cells[k.id]} error={row.errors?.[k.id]} filter={f} />,
      })),
    ],
    [f],
  );
  return (
    <div className="stack">
      <div className="filters">
        <TextField label="Currency filter" value={filter} onChange={setFilter} placeholder="e.g. USDT" />
        <Button onClick={() => void query.refetch()} busy={query.isFetching}>
          Refresh
        </Button>
      </div>
      <QueryStatus query={query} loading="Reading every account…" />
      {query.data ? (
        <VirtualTable
          caption="Balances of the main account and every sub-account by account type"
          testId="consolidated-matrix"
          columns={columns}
          rowCount={rows.length}
          rowAt={(i) => rows[i]}
          rowKey={(row) => `${row.role}-${row.uid}`}
          estimateRowHeight={48}
        />
      ) : null}
      {totals.length > 0 ? (
        <section className="card" aria-label="Totals per currency">
          <h2>Totals per currency (all accounts)</h2>
          <ul className="cell-amounts" data-testid="consolidated-totals">
            {totals
              .filter((t) => f === '' || t.currency.includes(f))
              .map((t) => (
                <li key={t.currency}>
                  <Amount value={t.amount} currency={t.currency} />
                </li>
              ))}
          </ul>
          <p className="muted">
            Main-account margin and futures are included in the total balance as values, not here.
          </p>
        </section>
      ) : null}
    </div>
  );
}
