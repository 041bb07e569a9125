/**
 * UID transfer (push) to another main account on the platform: free and instant to send, then the
 * receiver accepts or refuses it. Sent through main's journal like a withdrawal; history of sent and
 * received transfers with their status timelines.
 */
import Decimal from 'decimal.js';
import { useMemo, useState } from 'react';
import type { PushDetails, PushResult } from '../../../../shared/contract/funding';
import { pushTimeline } from '../../../../shared/platform/timelines';
import { useDeskEvent, useDeskMutation, useDeskQuery } from '../../lib/desk';
import { formatMoney, parseAmountInput } from '../../lib/format';
import { lastDays, usePeriod } from '../../lib/period';
import {
  alignedAmounts,
  amountValue,
  Button,
  ConfirmDialog,
  DataTable,
  DetailsList,
  EmptyState,
  ErrorNotice,
  Loading,
  PeriodSelect,
  RetryCountdown,
  Select,
  Tabs,
  TextField,
  Time,
} from '../../ui';
import { nothingMoved, useConfirmation, useSingleFlight } from './confirmation';
import { StatusTimeline } from './timeline/StatusTimeline';

const uidProblem = (uid: string): string | undefined => {
  if (uid.trim() === '') return 'Enter the receiving account’s user id.';
  if (!/^\d{1,15}$/.test(uid.trim()) || /^0+$/.test(uid.trim())) return 'A user id is a positive whole number.';
  return undefined;
};

const pushAmountProblem = (amount: string, available: string | undefined, currency: string): string | undefined => {
  const typed = parseAmountInput(amount);
  if (!typed.ok) return typed.message;
  const a = new Decimal(typed.value);
  if (a.lte(0)) return 'The amount must be more than zero.';
  if (a.decimalPlaces() > 8) return 'Use at most 8 digits after the point.';
  if (available !== undefined && a.gt(available)) return `Only ${formatMoney(available, currency)} is available.`;
  return undefined;
};

function PushForm({ onSent }: { readonly onSent: (result: PushResult) => void }) {
  const spot = useDeskQuery(['balances.spot', {}]);
  const [uid, setUid] = useState('');
  const [currency, setCurrency] = useState('');
  const [amount, setAmount] = useState('');
  const [showErrors, setShowErrors] = useState(false);
  // Opening the confirmation freezes what it shows under a new request key (see confirmation.ts).
  const { confirmation, open, close, renew } = useConfirmation<PushDetails>();
  const singleFlight = useSingleFlight();
  const push = useDeskMutation('funding.push', {
    // The sent list gets the record from main's funding.pushChanged event (FundingNotifier).
    invalidates: ['balances.spot'],
    onSuccess: (result) => {
      close();
      setAmount('');
      setShowErrors(false);
      onSent(result);
    },
  });
  const funded = (spot.data ?? []).filter((b) => new Decimal(b.available).gt(0));
  const available = funded.find((b) => b.currency === currency)?.available;
  const problems = {
    uid: uidProblem(uid),
    currency: currency === '' ? 'Choose a currency.' : undefined,
    amount: pushAmountProblem(amount, available, currency),
  };
  const first = Object.values(problems).find(Boolean);

  if (spot.isPending) return <Loading label="Loading balances…" />;
  if (spot.isError) return <ErrorNotice error={spot.error} onRetry={() => void spot.refetch()} />;
  return (
    <form
      className="stack"
      aria-label="UID transfer"
      onSubmit={(event) => {
        event.preventDefault();
        setShowErrors(true);
        if (!first) open({ receiveUid: Number(uid), currency, amount: amountValue(amount) ?? amount });
      }}
    >
      <p className="field-hint">
        Sends from your spot account to another main account on the platform by its user id (not to a sub-account). The
        receiver must accept it; a refused transfer comes back.
      </p>
      <TextField
        label="Receiving user id"
        value={uid}
        onChange={(v) => setUid(v.trim())}
        inputMode="numeric"
        error={showErrors ? problems.uid : undefined}
      />
      <Select
        label="Currency"
        value={currency}
        options={[
          { value: '', label: 'Choose a currency' },
          ...funded.map((b) => ({ value: b.currency, label: b.currency })),
        ]}
        onChange={setCurrency}
        error={showErrors ? problems.currency : undefined}
      />
      <TextField
        label="Amount"
        value={amount}
        onChange={setAmount}
        inputMode="decimal"
        suffix={currency}
        hint={available ? `Available: ${formatMoney(available, currency)}` : undefined}
        error={showErrors || amount !== '' ? problems.amount : undefined}
      />
      <div className="form-actions">
        <Button type="submit" variant="primary" data-testid="push-review">
          Review transfer
        </Button>
      </div>
      <ConfirmDialog
        open={confirmation !== undefined}
        title="Send UID transfer?"
        confirmLabel={
          confirmation ? `Send ${formatMoney(confirmation.details.amount, confirmation.details.currency)}` : 'Send'
        }
        busy={push.isPending}
        error={push.error ?? undefined}
        onConfirm={() => {
          if (confirmation === undefined) return;
          const { details, requestKey } = confirmation;
          singleFlight(requestKey, (done) =>
            push.mutate(
              { ...details, requestKey },
              {
                onSettled: done,
                onError: (error) => {
                  if (nothingMoved(error.error)) renew();
                },
              },
            ),
          );
        }}
        onCancel={() => {
          close();
          push.reset();
        }}
        testId="push-confirm"
      >
        <DetailsList
          variant="review"
          rows={[
            {
              label: 'To user id',
              value: <strong data-testid="push-review-uid">{confirmation?.details.receiveUid}</strong>,
            },
            {
              label: 'Amount',
              value: confirmation ? formatMoney(confirmation.details.amount, confirmation.details.currency) : null,
            },
          ]}
        />
        <p className="muted">
          Check the user id with the receiver: a transfer to the wrong account cannot be pulled back.
        </p>
        {/* One UID transfer every 10 s: a TOO_FAST / TOO_MANY_REQUESTS refusal says exactly how long to wait. */}
        {push.isError ? <RetryCountdown error={push.error} /> : null}
      </ConfirmDialog>
    </form>
  );
}

function PushHistory({ kind }: { readonly kind: 'withdraw' | 'deposit' }) {
  const period = usePeriod(30);
  const { range } = period;
  const [selected, setSelected] = useState<string | undefined>();
  // Refreshed on main's push events (the frame's FundingNotifier): main follows what is still moving.
  const query = useDeskQuery(['funding.pushes', { transactionType: kind, range }]);
  const rows = useMemo(() => [...(query.data ?? [])].sort((a, b) => b.createTime - a.createTime), [query.data]);
  const chosen = rows.find((r) => r.id === selected);
  return (
    <div className="stack">
      <fieldset className="filters">
        <legend className="sr-only">UID transfer filters</legend>
        <PeriodSelect period={period} />
        <Button onClick={period.refresh} busy={query.isFetching}>
          Refresh
        </Button>
      </fieldset>
      {query.isPending ? <Loading label="Loading UID transfers…" /> : null}
      {query.isError ? <ErrorNotice error={query.error} onRetry={() => void query.refetch()} /> : null}
      {query.data ? (
        <DataTable
          caption={kind === 'withdraw' ? 'UID transfers sent' : 'UID transfers received'}
          testId={`pushes-${kind}`}
          rows={rows}
          rowKey={(r) => r.id}
          selectedKey={selected}
          onRowClick={(r) => setSelected(r.id)}
          empty={<EmptyState title="No UID transfers in this period" />}
          columns={[
            { id: 'time', header: 'Time', cell: (r) => <Time ms={r.createTime * 1000} /> },
            { id: 'id', header: 'ID', cell: (r) => <code>{r.id}</code> },
            {
              id: 'uid',
              header: kind === 'withdraw' ? 'To user id' : 'From user id',
              cell: (r) => String(kind === 'withdraw' ? r.receiveUid : r.pushUid),
            },
            { id: 'currency', header: 'Currency', cell: (r) => r.currency },
            { id: 'amount', header: 'Amount', numeric: true, cell: alignedAmounts(rows, (r) => r.amount) },
            {
              id: 'status',
              header: 'Status',
              cell: (r) => (
                <span data-status={r.status}>
                  {pushTimeline(r).headline} <span className="muted">({r.status})</span>
                </span>
              ),
            },
          ]}
        />
      ) : null}
      {chosen ? <StatusTimeline timeline={pushTimeline(chosen)} label={`UID transfer ${chosen.id} status`} /> : null}
    </div>
  );
}

export function SentPush({ result }: { readonly result: PushResult }) {
  // Read the record from the sent list of the last day. The list is refreshed when main's watchers see
  // the record appear or change (the frame's FundingNotifier). An unknown outcome has no platform id yet: main's
  // journal reconciles it and then carries the id (or says it was not executed).
  const [range] = useState(() => lastDays(1));
  const query = useDeskQuery(['funding.pushes', { transactionType: 'withdraw', range }]);
  const movement = useDeskQuery(['activity.movement', { id: result.intentId }], { enabled: !result.id });
  useDeskEvent('activity.movementChanged', (changed) => {
    // The sent list itself is refreshed by the frame's FundingNotifier on the same event.
    if (changed.id === result.intentId && !result.id) void movement.refetch();
  });
  const id = result.id ?? movement.data?.platformId;
  const record = id ? query.data?.find((r) => r.id === id) : undefined;
  const failed = !result.id && movement.data?.state === 'failed' ? movement.data : undefined;
  return (
    <section className="card" aria-label="Sent UID transfer" data-testid="push-tracker">
      <h2>Sent UID transfer</h2>
      {record ? (
        <StatusTimeline timeline={pushTimeline(record)} label={`UID transfer ${record.id} status`} />
      ) : failed ? (
        <div className="notice notice-bad" role="status" data-testid="push-not-executed">
          <strong>Not executed.</strong> {failed.message ?? 'The platform did not take this transfer.'}{' '}
          {failed.label ? <code>{failed.label}</code> : null} Nothing left your account; you may send it again.
        </div>
      ) : (
        <div className="notice notice-warn" role="status">
          <strong>
            {result.outcome === 'unknown' && !id ? 'Unknown — checking.' : 'Accepted — waiting for its record.'}
          </strong>{' '}
          {result.note ?? ''} Do not send it again.
        </div>
      )}
    </section>
  );
}

export function PushPanel() {
  const [tab, setTab] = useState<'send' | 'sent' | 'received'>('send');
  const [last, setLast] = useState<PushResult | undefined>();
  return (
    <Tabs
      label="UID transfer"
      value={tab}
      onChange={setTab}
      tabs={[
        { id: 'send', label: 'Send' },
        { id: 'sent', label: 'Sent' },
        { id: 'received', label: 'Received' },
      ]}
    >
      {tab === 'send' ? (
        <div className="stack">
          <PushForm onSent={setLast} />
          {last ? <SentPush result={last} /> : null}
        </div>
      ) : (
        <PushHistory kind={tab === 'sent' ? 'withdraw' : 'deposit'} />
      )}
    </Tabs>
  );
}
