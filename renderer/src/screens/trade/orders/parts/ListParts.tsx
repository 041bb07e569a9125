/**
 * What the order, trade and trigger lists show alike: their read's state, sides, pairs, prices and
 * amounts written as the pair writes them, client ids, Cancel.
 */
import type { Pair, Side } from '../../../../../../shared/contract/trade';
import { decimalPlaces, formatBase, formatPrice, isDecimalString } from '../../../../lib/format';
import { Amount, Button, EmptyState, ErrorNotice, Loading, Td } from '../../../../ui';

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

/** The side in words ("Buy", "Sell"). */
export const sideWords = (side: Side): string => (side === 'buy' ? 'Buy' : 'Sell');

/** "BTC / USDT": a pair as people write it (never wraps: the cell is a token). */
export const pairWords = (id: string): string => id.replace('_', ' / ');

/** A price of the pair at its tick; a text the platform sent that is not a number, as it came. */
export const priceText = (value: string, pair: Pair | undefined, unit = false): string =>
  pair !== undefined && isDecimalString(value) ? formatPrice(value, pair, { unit }) : value;

/** How many decimals the widest of these base amounts shows (each at its pair's amount decimals). */
export const baseAlignment = (values: readonly (readonly [string, Pair | undefined])[]): number =>
  values.reduce(
    (most, [value, pair]) =>
      isDecimalString(value) ? Math.max(most, decimalPlaces(pair ? formatBase(value, pair) : value)) : most,
    0,
  );

/** A base amount at most at the pair's amount decimals, its point lined up with the column's (`alignTo`). */
export function BaseAmount({ value, pair, alignTo }: { value: string; pair: Pair | undefined; alignTo: number }) {
  if (!isDecimalString(value)) return <>{value}</>;
  return pair ? (
    <Amount value={value} precision={pair.amountPrecision} trim alignTo={alignTo} />
  ) : (
    <Amount value={value} alignTo={alignTo} />
  );
}

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
