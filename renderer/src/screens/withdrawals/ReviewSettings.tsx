/**
 * Per currency, the amount above which the review sheet asks for the amount to be typed. A currency
 * without an entry always asks (the safe default). Kept in main's settings.
 */
import { useEffect, useState } from 'react';
import { useDeskMutation, useDeskQuery } from '../../lib/desk';
import { Button, ErrorNotice, Loading, TextField } from '../../ui';

interface Row {
  readonly currency: string;
  readonly amount: string;
}

/** Each row's problems at their own field: a currency problem is never shown under the amount. */
const rowProblem = (row: Row): { readonly currency?: string; readonly amount?: string } | undefined => {
  const currency = /^[A-Za-z0-9_.-]{1,32}$/.test(row.currency.trim()) ? undefined : 'Enter a currency code, e.g. USDT.';
  const amount = /^\d+(\.\d+)?$/.test(row.amount.trim())
    ? undefined
    : 'Enter an amount with digits and an optional decimal point.';
  return currency || amount ? { ...(currency ? { currency } : {}), ...(amount ? { amount } : {}) } : undefined;
};

export function ReviewSettings() {
  const policy = useDeskQuery(['funding.reviewPolicy', {}]);
  const save = useDeskMutation('funding.setReviewPolicy', { invalidates: ['funding.reviewPolicy'] });
  const [rows, setRows] = useState<Row[]>([]);
  useEffect(() => {
    if (policy.data) {
      setRows(Object.entries(policy.data.typedConfirmAbove).map(([currency, amount]) => ({ currency, amount })));
    }
  }, [policy.data]);
  if (policy.isPending) return <Loading />;
  if (policy.isError) return <ErrorNotice error={policy.error} onRetry={() => void policy.refetch()} />;
  const problems = rows.map(rowProblem);
  return (
    <form
      className="stack"
      aria-label="Typed confirmation amounts"
      onSubmit={(event) => {
        event.preventDefault();
        if (problems.some(Boolean)) return;
        save.mutate({
          typedConfirmAbove: Object.fromEntries(rows.map((r) => [r.currency.trim().toUpperCase(), r.amount.trim()])),
        });
      }}
    >
      <p className="field-hint">
        Withdrawals above these amounts need the amount typed on the review sheet. Currencies not listed always need it.
      </p>
      {rows.map((row, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place; the index is their identity
        <div className="filters" key={i}>
          <TextField
            label="Currency"
            value={row.currency}
            onChange={(currency) => setRows(rows.map((r, j) => (j === i ? { ...r, currency } : r)))}
            error={problems[i]?.currency}
          />
          <TextField
            label="Typed confirmation above"
            value={row.amount}
            inputMode="decimal"
            onChange={(amount) => setRows(rows.map((r, j) => (j === i ? { ...r, amount } : r)))}
            error={problems[i]?.amount}
          />
          <Button
            variant="ghost"
            onClick={() => setRows(rows.filter((_, j) => j !== i))}
            aria-label={`Remove ${row.currency}`}
          >
            Remove
          </Button>
        </div>
      ))}
      <div className="form-actions">
        <Button onClick={() => setRows([...rows, { currency: '', amount: '' }])}>Add currency</Button>
        <Button type="submit" variant="primary" busy={save.isPending} disabled={problems.some(Boolean)}>
          Save
        </Button>
      </div>
      {save.isSuccess ? <p role="status">Saved.</p> : null}
      {save.isError ? <ErrorNotice error={save.error} /> : null}
    </form>
  );
}
