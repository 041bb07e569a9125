/**
 * Follows one withdrawal after it was sent: its status timeline, refreshed when main reports a change
 * (the journal's movement events here, the watchers' withdrawal events through the frame's FundingNotifier), with
 * Cancel while the platform still accepts a cancellation.
 * An unknown outcome is shown as "unknown — checking": main reconciles it by its client id and
 * nothing is ever sent again from here.
 */
import { useState } from 'react';
import type { WithdrawalRecord } from '../../../../shared/contract/funding';
import { isWithdrawalCancellable, withdrawalTimeline } from '../../../../shared/platform/timelines';
import { useDeskEvent, useDeskMutation, useDeskQuery } from '../../lib/desk';
import { chunk, formatMoney } from '../../lib/format';
import { Button, ConfirmDialog, DetailsList, ErrorNotice, Loading, Time } from '../../ui';
import { StatusTimeline } from './timeline/StatusTimeline';

export function CancelWithdrawalButton({ record }: { readonly record: WithdrawalRecord }) {
  const [asking, setAsking] = useState(false);
  const cancel = useDeskMutation('funding.cancelWithdrawal', {
    invalidates: ['funding.withdrawal', 'funding.withdrawals', 'balances.spot'],
    onSuccess: () => setAsking(false),
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
          {formatMoney(record.amount, record.currency)} to <code>{chunk(record.address ?? '')}</code>. The platform
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
          { label: 'Address', value: <code className="address-chunks">{chunk(record.address ?? '')}</code> },
          record.memo ? { label: 'Memo', value: <code>{record.memo}</code> } : null,
          { label: 'Requested', value: <Time ms={record.time * 1000} withZone /> },
          record.finalTime
            ? {
                label: record.status === 'CANCEL' ? 'Cancelled' : 'Completed',
                value: <Time ms={record.finalTime * 1000} withZone />,
              }
            : null,
          record.txid ? { label: 'Transaction id', value: <code className="break-all">{record.txid}</code> } : null,
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
  readonly outcome: 'accepted' | 'unknown';
  readonly note?: string | undefined;
}

export function WithdrawalTracker({ withdrawOrderId, outcome, note }: WithdrawalTrackerProps) {
  const query = useDeskQuery(['funding.withdrawal', { withdrawOrderId }]);
  // Main's journal reports every state change of a movement (sent, unknown, done, failed) and the
  // watchers every platform status of it: nothing here needs polling. Re-read at once.
  useDeskEvent('activity.movementChanged', (movement) => {
    if (movement.clientId === withdrawOrderId) void query.refetch();
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
        <div className="notice notice-bad" role="status" data-testid="withdrawal-not-executed">
          <strong>Not executed.</strong> {journal.message ?? 'The platform did not take this withdrawal.'}{' '}
          {journal.label ? <code>{journal.label}</code> : null} Nothing left your account; you may create it again.
        </div>
      ) : (
        <div className="notice notice-warn" role="status" data-testid="withdrawal-unknown">
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
        </div>
      )}
      {query.isError ? <ErrorNotice error={query.error} compact /> : null}
    </section>
  );
}
