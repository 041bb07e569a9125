/**
 * The review before anything is sent: asked when a soft check warns (price far from the mid or the
 * trigger price, the same order again, a trigger that fires at once) or when every order is
 * confirmed (Settings → Safety). Warnings turn "Confirm …" into "Check this …" and "Place anyway".
 */
import type { ReactNode } from 'react';
import { ConfirmDialog } from '../../../../ui';
import type { Review, ReviewWarning } from '../useTicketSubmit';

/** The soft warnings as a list (the tickets' review, the amend dialog); nothing when there are none. */
export function WarningList({ warnings, testId }: { warnings: readonly ReviewWarning[]; testId: string }) {
  return warnings.length > 0 ? (
    <ul className="ticket-warnings" data-testid={testId}>
      {warnings.map((w) => (
        <li key={w.kind} data-kind={w.kind}>
          {w.message}
        </li>
      ))}
    </ul>
  ) : null;
}

export function ReviewDialog<D>({
  noun,
  review,
  onCancel,
  onConfirm,
  testId,
  warningsTestId,
  summary,
}: {
  /** "order" or "trigger": "Confirm order", "Place trigger", "Check this trigger". */
  noun: string;
  review: Review<D> | undefined;
  onCancel: () => void;
  onConfirm: () => void;
  testId: string;
  warningsTestId: string;
  /** What will be sent, in one paragraph. */
  summary: (draft: D) => ReactNode;
}) {
  const warned = (review?.warnings.length ?? 0) > 0;
  return (
    <ConfirmDialog
      open={review !== undefined}
      title={warned ? `Check this ${noun}` : `Confirm ${noun}`}
      confirmLabel={warned ? 'Place anyway' : `Place ${noun}`}
      onCancel={onCancel}
      onConfirm={onConfirm}
      testId={testId}
    >
      {review ? (
        <>
          {summary(review.draft)}
          <WarningList warnings={review.warnings} testId={warningsTestId} />
        </>
      ) : null}
    </ConfirmDialog>
  );
}
