/**
 * Follows one withdrawal after it was sent: its status timeline, kept current by main's events,
 * which carry the record (the journal's movement events and the watchers' withdrawal events, both
 * put in this query's cache by the frame's FundingNotifier: nothing is read again), with Cancel
 * while the platform still accepts a cancellation.
 * An unknown outcome is shown as "unknown — checking": main reconciles it by its client id and
 * nothing is ever sent again from here.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { WithdrawalRecord } from '../../../../shared/contract/funding';
import { isWithdrawalCancellable, withdrawalTimeline } from '../../../../shared/platform/timelines';
import { useDeskEvent, useDeskMutation, useDeskQuery } from '../../lib/desk';
import { applyWithdrawal, applyWithdrawalMovement } from '../../lib/eventCache';
import { formatMoney } from '../../lib/format';
import {
  Button,
  ChainId,
  ConfirmDialog,
  DetailsList,
  ErrorNotice,
  Loading,
  LongId,
  Notice,
  StatusTimeline,
  Time,
} from '../../ui';

export function CancelWithdrawalButton({ record }: { readonly record: WithdrawalRecord }) {
  const [asking, setAsking] = useState(false);
  const client = useQueryClient();
  const cancel = useDeskMutation('funding.cancelWithdrawal', {
    // The answer is the record as it stands: it goes where it is shown; the refund moves the balance.
    invalidates: ['balances.spot'],
    onSuccess: (updated) => {
      applyWithdrawal(client, updated);
      setAsking(false);
    },
  });
  if (!isWithdrawalCancellable(record.status)) return null;
  return (
    <>
      <Button variant="danger" size="sm" onClick={() => setAsking(true)} data-testid="withdrawal-cancel">
        Cancel withdrawal
      </Button>
      {cancel.isError && !asking ? <ErrorNotice error={cancel.error} compact /> : null}
      <ConfirmDialog
        open={asking}
        title="Cancel this withdrawal?"
        confirmLabel="Yes, cancel it"
        cancelLabel="Keep it"
        tone="danger"
        busy={cancel.isPending}
        error={cancel.error ?? undefined}
        onConfirm={() => cancel.mutate({ id: record.id })}
        onCancel={() => {
          setAsking(false);
          cancel.reset();
        }}
        testId="cancel-withdrawal-dialog"
      >
        <p>
          {formatMoney(record.amount, record.currency)} to <LongId value={record.address ?? ''} />. The platform
          confirms the cancellation in the status; the amount and fee return to your spot account.
        </p>
      </ConfirmDialog>
    </>
  );
}

export function WithdrawalDetail({ record }: { readonly record: WithdrawalRecord }) {
  const timeline = withdrawalTimeline(record);
  return (
    <div className="withdrawal-detail" data-testid="withdrawal-detail" data-withdrawal-id={record.id}>
      <StatusTimeline timeline={timeline} label={`Withdrawal ${record.id} status`}>
        <CancelWithdrawalButton record={record} />
      </StatusTimeline>
      <DetailsList
        rows={[
          { label: 'Amount', value: formatMoney(record.amount, record.currency) },
          record.fee !== undefined ? { label: 'Fee', value: formatMoney(record.fee, record.currency) } : null,
          { label: 'Network', value: record.chain ?? '—' },
          record.address
            ? {
                label: 'Address',
                value: (
                  <ChainId chain={record.chain} target="address" value={record.address} testId="withdrawal-address" />
                ),
              }
            : { label: 'Address', value: '—' },
          record.memo ? { label: 'Memo', value: <code>{record.memo}</code> } : null,
          { label: 'Requested', value: <Time ms={record.time * 1000} withZone /> },
          record.finalTime
            ? {
                label: record.status === 'CANCEL' ? 'Cancelled' : 'Completed',
                value: <Time ms={record.finalTime * 1000} withZone />,
              }
            : null,
          record.txid
            ? {
                label: 'Transaction id',
                value: <ChainId chain={record.chain} target="tx" value={record.txid} testId="withdrawal-txid" />,
              }
            : null,
          {
            label: 'Withdrawal id',
            value: (
              <>
                <code>{record.id}</code>
                {record.withdrawOrderId ? <span className="muted"> · client id {record.withdrawOrderId}</span> : null}
              </>
            ),
          },
        ]}
      />
    </div>
  );
}

export interface WithdrawalTrackerProps {
  readonly withdrawOrderId: string;
  /** The record main answered with when it accepted the withdrawal: shown at once, not read again. */
  readonly record?: WithdrawalRecord | undefined;
  readonly outcome: 'accepted' | 'unknown';
  readonly note?: string | undefined;
}

export function WithdrawalTracker({ withdrawOrderId, outcome, note, record: accepted }: WithdrawalTrackerProps) {
  // Read once only when main's answer had no record (an unknown outcome). After that main's events
  // keep it current — every journal state and every platform status, each with the record — so it
  // is never stale and never polled (lib/eventCache.ts).
  const query = useDeskQuery(['funding.withdrawal', { withdrawOrderId }], {
    staleTime: Number.POSITIVE_INFINITY,
    ...(accepted ? { initialData: { record: accepted, journal: { state: 'done' as const } } } : {}),
  });
  // The journal's every state change carries the movement: its state, and the record it stands for
  // until the platform's own arrives (the watchers' event, applied by the frame's FundingNotifier).
  const client = useQueryClient();
  useDeskEvent('activity.movementChanged', (movement) => {
    if (movement.clientId === withdrawOrderId) applyWithdrawalMovement(client, movement);
  });
  const record = query.data?.record;
  const journal = query.data?.journal;
  return (
    <section className="card" aria-label="Sent withdrawal" data-testid="withdrawal-tracker">
      <h2>Sent withdrawal</h2>
      {record ? (
        <WithdrawalDetail record={record} />
      ) : query.isPending ? (
        <Loading label="Reading the withdrawal…" />
      ) : journal?.state === 'failed' ? (
        <Notice tone="bad" role="status" data-testid="withdrawal-not-executed">
          <strong>Not executed.</strong> {journal.message ?? 'The platform did not take this withdrawal.'}{' '}
          {journal.label ? <code>{journal.label}</code> : null} Nothing left your account; you may create it again.
        </Notice>
      ) : (
        <Notice tone="warn" role="status" data-testid="withdrawal-unknown">
          <strong>Unknown — checking.</strong>{' '}
          {outcome === 'unknown'
            ? (note ??
              'The platform did not confirm the request in time. The app is checking by its client id whether it arrived.')
            : 'The platform accepted the request; waiting for its record to appear.'}{' '}
          Do not send it again: if it did not arrive, this says so.
          {journal?.attention ? (
            <p data-testid="withdrawal-attention">
              <strong>Needs a person:</strong> {journal.attention} {journal.label ? <code>{journal.label}</code> : null}
            </p>
          ) : null}
          <div className="muted">Client id {withdrawOrderId}</div>
        </Notice>
      )}
      {query.isError ? <ErrorNotice error={query.error} compact /> : null}
    </section>
  );
}
