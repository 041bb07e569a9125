/**
 * An open list (orders or triggers) under its toolbar: "All pairs" decides what the list shows, and
 * "Cancel all …" cancels what it shows, asked first; the question stays until main has answered.
 */
import { type ReactNode, useState } from 'react';
import { Button, ConfirmDialog } from '../../../../ui';

/** What the list needs of the cancel-all mutation (trade.cancelAll, trade.cancelAllTriggers). */
export interface CancelAllMutation {
  mutate(scope: { pair?: string }, options: { onSuccess: () => void }): void;
  readonly isPending: boolean;
  readonly error: unknown;
}

export function OpenList({
  pair,
  allPairs,
  onAllPairsChange,
  count,
  button,
  testId,
  title,
  what,
  note,
  cancelAll,
  children,
}: {
  pair: string;
  allPairs: boolean;
  onAllPairsChange: (allPairs: boolean) => void;
  /** How many the list shows (none: nothing to cancel). */
  count: number;
  /** The button's words before the pair: "Cancel all", "Cancel all triggers". */
  button: string;
  /** The button's test id; its confirmation's is `${testId}-confirm`. */
  testId: string;
  title: string;
  /** What is cancelled, singular: "open order" ("This cancels 2 open order(s) on BTC_USDT."). */
  what: string;
  /** Said after that sentence. */
  note?: ReactNode;
  cancelAll: CancelAllMutation;
  /** The list and what goes with it (its errors, its empty state, its dialogs). */
  children: ReactNode;
}) {
  const [asking, setAsking] = useState(false);
  return (
    <div>
      <div className="orders-toolbar">
        <label>
          <input type="checkbox" checked={allPairs} onChange={(e) => onAllPairsChange(e.target.checked)} /> All pairs
        </label>
        <Button size="sm" disabled={count === 0} onClick={() => setAsking(true)} data-testid={testId}>
          {button}
          {allPairs ? '' : ` ${pair}`}
        </Button>
      </div>
      {children}
      <ConfirmDialog
        open={asking}
        title={title}
        confirmLabel="Cancel all"
        cancelLabel="Keep them"
        busy={cancelAll.isPending}
        error={cancelAll.error}
        onConfirm={() => cancelAll.mutate(allPairs ? {} : { pair }, { onSuccess: () => setAsking(false) })}
        onCancel={() => setAsking(false)}
        testId={`${testId}-confirm`}
      >
        <p>
          This cancels {count} {what}(s){allPairs ? ' on all pairs' : ` on ${pair}`}.{note ? <> {note}</> : null}
        </p>
      </ConfirmDialog>
    </div>
  );
}
