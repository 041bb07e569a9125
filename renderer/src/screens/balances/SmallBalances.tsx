/**
 * Balances too small to trade: choose some (or all), see exactly how much GT converting them gives
 * before confirming, and the history of past conversions.
 */
import Decimal from 'decimal.js';
import { useMemo, useState } from 'react';
import type { SmallBalance } from '../../../../shared/contract/balances';
import { useDeskMutation, useDeskQuery } from '../../lib/desk';
import { formatMoney } from '../../lib/format';
import { alignedAmounts, Button, ConfirmDialog, DataTable, EmptyState, QueryStatus, Time, TimeHeader } from '../../ui';

/** What converting the chosen balances gives, summed exactly. */
export const conversionPreview = (balances: readonly SmallBalance[], chosen: ReadonlySet<string>) => {
  let gt = new Decimal(0);
  let btc = new Decimal(0);
  for (const b of balances) {
    if (!chosen.has(b.currency)) continue;
    gt = gt.plus(b.convertibleToGt);
    btc = btc.plus(b.estimatedBtc);
  }
  return { gt: gt.toFixed(), btc: btc.toFixed(), count: balances.filter((b) => chosen.has(b.currency)).length };
};

export function SmallBalances() {
  const list = useDeskQuery(['balances.smallBalances', {}]);
  const history = useDeskQuery(['balances.smallBalanceHistory', {}]);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const convert = useDeskMutation('balances.convertSmallBalances', {
    invalidates: ['balances.smallBalances', 'balances.smallBalanceHistory', 'balances.spot', 'balances.total'],
    onSuccess: () => {
      setConfirming(false);
      setChosen(new Set());
    },
  });
  const balances = list.data ?? [];
  const preview = useMemo(() => conversionPreview(balances, chosen), [balances, chosen]);
  const toggle = (currency: string) =>
    setChosen((s) => {
      const next = new Set(s);
      if (next.has(currency)) next.delete(currency);
      else next.add(currency);
      return next;
    });

  return (
    <div className="stack">
      <section className="card" aria-label="Small balances">
        <h2>Small balances</h2>
        <QueryStatus query={list} />
        {list.data ? (
          <>
            <DataTable
              caption="Small balances"
              testId="small-balances"
              rows={balances}
              rowKey={(b) => b.currency}
              empty={<EmptyState title="No small balances">Nothing to convert.</EmptyState>}
              columns={[
                {
                  id: 'pick',
                  header: <span className="sr-only">Choose</span>,
                  cell: (b) => (
                    <input
                      type="checkbox"
                      aria-label={`Convert ${b.currency}`}
                      checked={chosen.has(b.currency)}
                      onChange={() => toggle(b.currency)}
                    />
                  ),
                },
                { id: 'currency', header: 'Currency', cell: (b) => b.currency },
                {
                  id: 'available',
                  header: 'Available',
                  numeric: true,
                  cell: alignedAmounts(balances, (b) => b.available),
                },
                {
                  id: 'btc',
                  header: 'About (BTC)',
                  numeric: true,
                  cell: alignedAmounts(balances, (b) => b.estimatedBtc),
                },
                {
                  id: 'gt',
                  header: 'Gives (GT)',
                  numeric: true,
                  cell: alignedAmounts(balances, (b) => b.convertibleToGt),
                },
              ]}
            />
            {balances.length > 0 ? (
              <div className="form-actions">
                <p role="status" data-testid="conversion-preview">
                  {preview.count === 0
                    ? 'Choose balances to convert.'
                    : `Converting ${preview.count} balance${preview.count === 1 ? '' : 's'} gives ${formatMoney(preview.gt, 'GT')} (${formatMoney(preview.btc, 'BTC', { estimate: true })}).`}
                </p>
                <Button onClick={() => setChosen(new Set(balances.map((b) => b.currency)))}>Choose all</Button>
                <Button variant="primary" disabled={preview.count === 0} onClick={() => setConfirming(true)}>
                  Convert to GT…
                </Button>
              </div>
            ) : null}
          </>
        ) : null}
      </section>
      <ConfirmDialog
        open={confirming}
        title="Convert small balances to GT?"
        confirmLabel={`Convert for ${formatMoney(preview.gt, 'GT')}`}
        busy={convert.isPending}
        error={convert.error ?? undefined}
        onConfirm={() => convert.mutate({ currencies: [...chosen] })}
        onCancel={() => {
          setConfirming(false);
          convert.reset();
        }}
      >
        <p>
          {[...chosen].sort().join(', ')} will be converted to about {formatMoney(preview.gt, 'GT')}. This cannot be
          undone.
        </p>
      </ConfirmDialog>
      <section className="card" aria-label="Conversion history">
        <h2>Conversion history</h2>
        <QueryStatus query={history} />
        {history.data ? (
          <DataTable
            caption="Small balance conversions"
            testId="small-balance-history"
            rows={history.data}
            rowKey={(h) => h.id}
            empty={<EmptyState title="No conversions yet" />}
            columns={[
              { id: 'time', header: <TimeHeader>Time</TimeHeader>, cell: (h) => <Time ms={h.createTime * 1000} /> },
              { id: 'currency', header: 'Currency', cell: (h) => h.currency },
              { id: 'amount', header: 'Amount', numeric: true, cell: alignedAmounts(history.data, (h) => h.amount) },
              { id: 'gt', header: 'GT received', numeric: true, cell: alignedAmounts(history.data, (h) => h.gtAmount) },
            ]}
          />
        ) : null}
      </section>
    </div>
  );
}
