/** What the open-order and trigger lists show alike: their read's state, sides, client ids, Cancel. */
import type { Side } from '../../../../../../shared/contract/trade';
import { Button, EmptyState, ErrorNotice, Loading, Td } from '../../../../ui';

/** Loading, the failure with Retry, or the empty state; nothing once there are rows (the list shows them). */
export function ListStatus({
  list,
  empty,
}: {
  list: { isLoading: boolean; error: unknown; data: readonly unknown[] | undefined; refetch: () => unknown };
  /** The empty state's title. */
  empty: string;
}) {
  return (
    <>
      {list.isLoading ? <Loading /> : null}
      {list.error ? <ErrorNotice error={list.error} onRetry={() => void list.refetch()} /> : null}
      {list.data && list.data.length === 0 ? <EmptyState title={empty} /> : null}
    </>
  );
}

/** The side's colour for a cell (buy green, sell red). */
export const sideClass = (side: Side): string => (side === 'buy' ? 'text-buy' : 'text-sell');

/** The client id the app gave it (`t-…`), as code. */
export function ClientIdCell({ text }: { text: string }) {
  return (
    <Td>
      <code>{text}</code>
    </Td>
  );
}

/** "Cancel", named for screen readers by what it cancels and its client id (or the platform's id). */
export function CancelButton({
  what,
  name,
  busy,
  onCancel,
}: {
  /** "order" or "trigger". */
  what: string;
  name: string;
  busy: boolean;
  onCancel: () => void;
}) {
  return (
    <Button size="sm" busy={busy} onClick={onCancel} aria-label={`Cancel ${what} ${name}`}>
      Cancel
    </Button>
  );
}
