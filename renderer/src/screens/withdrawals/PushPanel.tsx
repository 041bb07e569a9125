/**
 * UID transfer (push) to another main account on the platform: free and instant to send, then the
 * receiver accepts or refuses it. Sent through main's journal like a withdrawal; history of sent and
 * received transfers with their status timelines.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import Decimal from 'decimal.js';
import { useEffect, useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { PushDetails, type PushResult } from '../../../../shared/contract/funding';
import { pushTimeline } from '../../../../shared/platform/timelines';
import { useDeskEvent, useDeskMutation, useDeskQuery } from '../../lib/desk';
import { formatMoney, parseAmountInput } from '../../lib/format';
import { type FormFields, fieldMessage, type LabelFields, placeRefusal } from '../../lib/formErrors';
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

/** The form's strings, read with the screen's friendly rules, then held to the contract's `PushDetails`. */
type PushValues = { receiveUid: string; currency: string; amount: string };
const checked = (problem: (value: string) => string | undefined) =>
  z.string().superRefine((value, ctx) => {
    const why = problem(value);
    if (why) ctx.addIssue({ code: 'custom', message: why });
  });
const pushSchema = (available: string | undefined, currency: string) =>
  z.object({
    receiveUid: checked(uidProblem)
      .transform((v) => Number(v.trim()))
      .pipe(PushDetails.shape.receiveUid),
    currency: checked((v) => (v === '' ? 'Choose a currency.' : undefined)).pipe(PushDetails.shape.currency),
    amount: checked((v) => pushAmountProblem(v, available, currency))
      .transform((v) => amountValue(v) ?? v)
      .pipe(PushDetails.shape.amount),
  });
const PUSH_FIELDS: FormFields<PushValues> = { receiveUid: 'Receiving user id', currency: 'Currency', amount: 'Amount' };
/** Platform refusals about one field of the form. */
const PUSH_LABELS: LabelFields<PushValues> = {
  BALANCE_NOT_ENOUGH: 'amount',
  INVALID_PRECISION: 'amount',
  AMOUNT_TOO_LITTLE: 'amount',
  AMOUNT_TOO_MUCH: 'amount',
  INVALID_CURRENCY: 'currency',
};

function PushForm({ onSent }: { readonly onSent: (result: PushResult) => void }) {
  const spot = useDeskQuery(['balances.spot', {}]);
  const funded = (spot.data ?? []).filter((b) => new Decimal(b.available).gt(0));
  const [currencyNow, setCurrencyNow] = useState('');
  const available = funded.find((b) => b.currency === currencyNow)?.available;
  const form = useForm<PushValues, unknown, z.output<ReturnType<typeof pushSchema>>>({
    // Read again every render: the amount is checked against the chosen currency's balance.
    resolver: zodResolver(pushSchema(available, currencyNow)),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    defaultValues: { receiveUid: '', currency: '', amount: '' },
  });
  // Another currency or a new balance: the amount typed is checked again against it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new currency or balance is why it runs.
  useEffect(() => {
    if (form.getValues('amount') !== '') void form.trigger('amount');
  }, [available, currencyNow, form]);
  // A refusal the form could not put at a field: one banner, in the confirmation.
  const [banner, setBanner] = useState<unknown>();
  // The last UID transfer queued for an approver (main's words), until another is reviewed.
  const [queued, setQueued] = useState<string | undefined>();
  // Opening the confirmation freezes what it shows under a new request key (see confirmation.ts).
  const { confirmation, open, close, renew } = useConfirmation<PushDetails>();
  const singleFlight = useSingleFlight();
  const push = useDeskMutation('funding.push', {
    // The sent list gets the record from main's funding.pushChanged event (FundingNotifier).
    invalidates: ['balances.spot'],
    onSuccess: (result) => {
      close();
      form.reset({ ...form.getValues(), amount: '' });
      setBanner(undefined);
      onSent(result);
    },
  });

  if (spot.isPending) return <Loading label="Loading balances…" />;
  if (spot.isError) return <ErrorNotice error={spot.error} onRetry={() => void spot.refetch()} />;
  return (
    <form
      className="stack"
      aria-label="UID transfer"
      onSubmit={form.handleSubmit((details) => {
        setBanner(undefined);
        setQueued(undefined);
        push.reset();
        open(details);
      })}
    >
      <p className="field-hint">
        Sends from your spot account to another main account on the platform by its user id (not to a sub-account). The
        receiver must accept it; a refused transfer comes back.
      </p>
      <Controller
        control={form.control}
        name="receiveUid"
        render={({ field, fieldState }) => (
          <TextField
            label="Receiving user id"
            value={field.value}
            onChange={(v) => field.onChange(v.trim())}
            onBlur={field.onBlur}
            inputMode="numeric"
            error={fieldMessage(fieldState.error)}
            invalid={fieldState.invalid}
          />
        )}
      />
      <Controller
        control={form.control}
        name="currency"
        render={({ field, fieldState }) => (
          <Select
            label="Currency"
            value={field.value}
            options={[
              { value: '', label: 'Choose a currency' },
              ...funded.map((b) => ({ value: b.currency, label: b.currency })),
            ]}
            onChange={(v) => {
              field.onChange(v);
              setCurrencyNow(v);
            }}
            error={fieldMessage(fieldState.error)}
            invalid={fieldState.invalid}
          />
        )}
      />
      <Controller
        control={form.control}
        name="amount"
        render={({ field, fieldState }) => (
          <TextField
            label="Amount"
            value={field.value}
            onChange={(v) => {
              field.onChange(v);
              // The amount's rules show as it is typed; "required" only after a first attempt.
              if (form.formState.isSubmitted) return;
              if (v === '') form.clearErrors('amount');
              else void form.trigger('amount');
            }}
            onBlur={field.onBlur}
            inputMode="decimal"
            suffix={currencyNow}
            hint={available ? `Available: ${formatMoney(available, currencyNow)}` : undefined}
            error={fieldMessage(fieldState.error)}
            invalid={fieldState.invalid}
          />
        )}
      />
      <div className="form-actions">
        <Button type="submit" variant="primary" data-testid="push-review">
          Review transfer
        </Button>
      </div>
      {queued ? (
        <p className="notice notice-warn" role="status" data-testid="push-queued">
          This needs another operator’s approval. It waits in Approvals; nothing was sent yet. {queued}
        </p>
      ) : null}
      <ConfirmDialog
        open={confirmation !== undefined}
        title="Send UID transfer?"
        confirmLabel={
          confirmation ? `Send ${formatMoney(confirmation.details.amount, confirmation.details.currency)}` : 'Send'
        }
        busy={push.isPending}
        error={banner}
        onConfirm={() => {
          if (confirmation === undefined) return;
          const { details, requestKey } = confirmation;
          singleFlight(requestKey, (done) =>
            push.mutate(
              { ...details, requestKey },
              {
                onSettled: done,
                onError: (error) => {
                  // Queued for an approver under this key: the review is over (as the withdrawal's).
                  if (error.code === 'AWAITING_APPROVAL') {
                    close();
                    form.reset({ ...form.getValues(), amount: '' });
                    setQueued(error.advice ? `${error.message} ${error.advice}` : error.message);
                    return;
                  }
                  if (nothingMoved(error.error)) renew();
                  // Each problem once: main's field messages at the fields (the confirmation closes
                  // so they can be fixed), a platform refusal as one banner here, its field highlighted.
                  const left = placeRefusal(error, form.setError, PUSH_FIELDS, PUSH_LABELS);
                  setBanner(left);
                  if (left === undefined) close();
                },
              },
            ),
          );
        }}
        onCancel={() => {
          close();
          setBanner(undefined);
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
