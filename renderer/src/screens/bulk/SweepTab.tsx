import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { BatchPreview, BatchRowInput } from '../../../../shared/contract/bulk';
import { call, useDeskQuery } from '../../lib/desk';
import { formatMoney, parseAmountInput } from '../../lib/format';
import { AmountField, Button, Checkbox, ErrorNotice, QueryStatus, Select, TextField } from '../../ui';
import { BatchProgress } from './BatchProgress';
import { PreviewTable } from './PreviewTable';
import { SubAccountPicker } from './SubAccountPicker';

/** Sweep to main (one currency or every one above a threshold) or top each sub-account up to a target. */
export const SweepTab = () => {
  const client = useQueryClient();
  const subs = useDeskQuery(['subAccounts.list', {}]);
  const [mode, setMode] = useState<'sweep' | 'topup'>('sweep');
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [spot, setSpot] = useState(true);
  const [futures, setFutures] = useState(false);
  const [currency, setCurrency] = useState('USDT');
  const [amount, setAmount] = useState('');
  const [preview, setPreview] = useState<BatchPreview | undefined>();
  const [batchId, setBatchId] = useState<string | undefined>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const amountValue = (() => {
    if (amount.trim() === '') return mode === 'sweep' ? '0' : undefined;
    const parsed = parseAmountInput(amount);
    return parsed.ok ? parsed.value : undefined;
  })();

  const plan = async () => {
    setBusy(true);
    setError(undefined);
    setPreview(undefined);
    try {
      const types = [...(spot ? ['spot' as const] : []), ...(futures ? ['futures' as const] : [])];
      const cur = currency.trim().toUpperCase();
      setPreview(
        await call('bulk.planSweep', {
          mode,
          subUserIds: [...selected],
          accountTypes: types,
          ...(cur ? { currency: cur } : {}),
          ...(mode === 'sweep' ? { threshold: amountValue ?? '0' } : { target: amountValue ?? '' }),
        }),
      );
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  const create = async () => {
    if (!preview) return;
    setBusy(true);
    try {
      const rows = preview.rows.flatMap((r) => (r.input ? [r.input as BatchRowInput] : []));
      const name =
        mode === 'sweep'
          ? `Sweep ${currency || 'all currencies'} to main`
          : `Top up to ${formatMoney(amountValue ?? '0', currency)}`;
      const answer = await call('bulk.create', { name, kind: mode, batch: { source: 'rows', rows } }, { action: true });
      if (answer.created) {
        setBatchId(answer.batch.id);
        setPreview(undefined);
        await client.invalidateQueries({ queryKey: ['bulk.list', {}] });
      } else setPreview(answer.preview);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  if (!subs.data) return <QueryStatus query={subs} />;
  const ready = preview !== undefined && preview.errorCount === 0 && preview.rows.length > 0;
  return (
    <div className="bulk-tab">
      <div className="form-row">
        <Select
          label="What"
          value={mode}
          onChange={(v) => {
            setMode(v);
            setPreview(undefined);
          }}
          options={[
            { value: 'sweep', label: 'Sweep to main (collect)' },
            { value: 'topup', label: 'Top up each to a target' },
          ]}
        />
        <TextField
          label={mode === 'sweep' ? 'Currency (empty: every currency)' : 'Currency'}
          value={currency}
          onChange={setCurrency}
        />
        <AmountField
          label={mode === 'sweep' ? 'Only balances above' : 'Target balance'}
          value={amount}
          onChange={setAmount}
          currency={currency}
        />
      </div>
      <div className="form-row">
        <Checkbox label="Spot accounts" checked={spot} onChange={setSpot} />
        <Checkbox label="Futures accounts" checked={futures} onChange={setFutures} />
      </div>
      <SubAccountPicker accounts={subs.data.accounts} selected={selected} onChange={setSelected} />
      <div className="button-row">
        <Button
          onClick={() => void plan()}
          busy={busy}
          disabled={selected.size === 0 || (!spot && !futures) || amountValue === undefined}
          data-testid="bulk-plan"
        >
          Preview
        </Button>
        <Button
          variant="primary"
          onClick={() => void create()}
          busy={busy}
          disabled={!ready}
          data-testid="bulk-sweep-create"
        >
          Create batch
        </Button>
      </div>
      {error ? <ErrorNotice error={error} /> : null}
      {preview ? <PreviewTable preview={preview} /> : null}
      {batchId ? <BatchProgress id={batchId} /> : null}
    </div>
  );
};
