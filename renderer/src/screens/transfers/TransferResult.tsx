/**
 * How the last transfer ended. "Checking" means the platform's answer was lost: the core asks the
 * platform by the transfer's client id; this panel follows it until it is settled and tells the
 * person not to send it again meanwhile.
 */
import { useMemo } from 'react';
import type { TransferOutcome } from '../../../../shared/contract/transfers';
import { type DeskCallError, useDeskEvent, useDeskQuery } from '../../lib/desk';
import { Badge, ErrorNotice, FieldError, Notice, RetryCountdown } from '../../ui';

export interface LastTransfer {
  readonly summary: string;
  readonly outcome?: TransferOutcome;
  readonly error?: DeskCallError;
  /** Counts results, so a repeated identical transfer still gets a fresh panel. */
  readonly seq?: number;
}

const POLL_MS = 2000;

export const TransferResult = ({ last }: { readonly last: LastTransfer }) => {
  const id = last.outcome?.id ?? '';
  const tracking = useDeskQuery(['transfers.status', { id }], {
    enabled: last.outcome?.state === 'checking',
    refetchInterval: (query) =>
      query.state.data?.state === 'checking' || query.state.data === undefined ? POLL_MS : false,
  });
  // The journal announces every change; polling above is the fallback if an event is missed.
  useDeskEvent('activity.movementChanged', (movement) => {
    if (movement.id === id && last.outcome?.state === 'checking') void tracking.refetch();
  });
  const outcome = tracking.data ?? last.outcome;
  // A refusal for pacing (TOO_MANY_REQUESTS), as an error or as a failed outcome with its label:
  // the exact wait until the platform's window for transfers reopens (one object per refusal, so
  // the countdown starts once and is not restarted by a re-render).
  const paced = useMemo(
    () =>
      last.error ??
      (outcome?.state === 'failed' && outcome.label
        ? { operation: 'transfers.send', label: outcome.label }
        : undefined),
    [last.error, outcome],
  );

  return (
    <section
      aria-labelledby="transfer-result-heading"
      className="panel"
      data-testid="transfer-result"
      aria-live="polite"
    >
      <h2 id="transfer-result-heading">Last transfer</h2>
      <p>{last.summary}</p>
      {last.error ? <ErrorNotice error={last.error} /> : null}
      <FieldError
        message={!last.error && !last.outcome ? 'Not sent: see the marked fields of the form.' : undefined}
        testId="transfer-result-fields"
      />
      {outcome?.state === 'done' ? (
        <p data-testid="transfer-result-state" data-state="done">
          <Badge tone="good">Done</Badge> The funds have moved{outcome.txId ? ` (transaction ${outcome.txId})` : ''}.
        </p>
      ) : null}
      {outcome?.state === 'checking' ? (
        <p data-testid="transfer-result-state" data-state="checking">
          <Badge tone="warn">Unknown — checking</Badge> The platform’s answer was lost. The app is asking the platform
          whether it went through; do not send it again.
        </p>
      ) : null}
      {outcome?.state === 'checking' && outcome.attention ? (
        <Notice tone="warn" role="status" data-testid="transfer-result-attention">
          {outcome.attention} {outcome.label ? <code>{outcome.label}</code> : null}
        </Notice>
      ) : null}
      {outcome?.state === 'failed' ? (
        <div data-testid="transfer-result-state" data-state="failed">
          <p>
            <Badge tone="bad">Failed</Badge> {outcome.message ?? 'The transfer did not go through; nothing moved.'}
          </p>
          {outcome.label ? (
            <p className="small">
              Platform label <code>{outcome.label}</code>
              {outcome.requestId ? (
                <>
                  {' '}
                  · request id <code>{outcome.requestId}</code>
                </>
              ) : null}
            </p>
          ) : null}
        </div>
      ) : null}
      {paced ? <RetryCountdown error={paced} /> : null}
      {tracking.error ? <ErrorNotice error={tracking.error} compact /> : null}
    </section>
  );
};
