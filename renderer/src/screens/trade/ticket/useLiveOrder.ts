/**
 * The order the ticket just placed, as it stands now: the result card must not keep saying
 * "Resting on the book" after the order was amended, filled or cancelled (here or in another
 * window). While it is open it is read from the pair's open orders (the same query the orders
 * panel shows, refreshed by trade events); once it has left them it is looked up by its client id.
 * A fill event carries the order as it stands and is taken at once.
 */
import { useEffect, useState } from 'react';
import type { Order } from '../../../../../shared/contract/trade';
import { useDeskEvent, useDeskQuery } from '../../../lib/desk';

/** The newest of several views of one order (by the platform's update time; later wins a tie). */
const newest = (candidates: readonly (Order | null | undefined)[]): Order | undefined => {
  let best: Order | undefined;
  for (const c of candidates) if (c && (best === undefined || c.updateTimeMs >= best.updateTimeMs)) best = c;
  return best;
};

export const useLiveOrder = (placed: { order: Order; at: number } | undefined): Order | undefined => {
  const order = placed?.order;
  const following = order?.status === 'open';
  const pair = order?.pair ?? '';
  const open = useDeskQuery(['trade.openOrders', { pair }], { enabled: following });
  const inBook = following ? open.data?.find((o) => o.id === order.id) : undefined;
  // Read after the placement and the order is not among the open ones: amended away, filled or cancelled.
  const gone = following && open.isSuccess && open.dataUpdatedAt >= (placed?.at ?? 0) && inBook === undefined;
  /** The order as the last event told it (a fill, an amendment, a cancellation). */
  const [filled, setFilled] = useState<Order | undefined>();
  const found = useDeskQuery(['trade.findOrder', { pair, text: order?.text ?? '' }], {
    // No need to look it up when an event already said how it left the book.
    enabled: gone && Boolean(order?.text) && !(filled?.id === order?.id && filled?.status !== 'open'),
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new placement starts afresh.
  useEffect(() => setFilled(undefined), [order?.id]);
  useDeskEvent('trade.orderFilled', ({ order: now }) => {
    if (order && now.id === order.id) setFilled(now);
  });
  useDeskEvent('trade.ordersChanged', (change) => {
    if (!following || (change.pair !== undefined && change.pair !== pair)) return;
    // An event naming the orders is applied to the open orders by the screen (trade/index.tsx) and
    // tells this order as it stands: nothing to read.
    if (change.orders !== undefined) {
      const now = change.orders.find((o) => o.id === order?.id);
      if (now) setFilled(now);
      return;
    }
    void open.refetch();
    if (gone) void found.refetch();
  });
  if (order === undefined) return undefined;
  return newest([order, filled, inBook, gone ? found.data : undefined]);
};
