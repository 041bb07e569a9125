/**
 * Follows an order whose placement main could not confirm (OUTCOME_UNKNOWN) until it is found or
 * proven absent: it is looked up by its client id at once, every few seconds and whenever main
 * reports an order change. The platform accepts a signed request up to 60 s after its timestamp,
 * so a lookup started once that window has passed and answering "no such order" proves the order
 * was never placed. Until then, a miss proves nothing: the request may still arrive. An order with its
 * client id in the open orders (the stream told main of it) is found too: the ticket never says it is
 * checking an order the person sees in Open orders.
 */
import { useEffect, useRef } from 'react';
import type { Order } from '../../../../../shared/contract/trade';
import { call, useDeskEvent, useDeskQuery } from '../../../lib/desk';
import { type UnconfirmedOrder, useTradeUi } from '../store';

/** The platform's timestamp window for signed requests. */
export const SIGNATURE_WINDOW_MS = 60_000;
export const LOOKUP_EVERY_MS = 2_000;

/** The pair's unconfirmed order, if any; `onFound` receives the order once it turns up. */
export const useUnconfirmedOrder = (pair: string, onFound: (order: Order) => void): UnconfirmedOrder | undefined => {
  const unconfirmed = useTradeUi((s) => s.unconfirmed[pair]);
  const setUnconfirmed = useTradeUi((s) => s.setUnconfirmed);
  const found = useRef(onFound);
  found.current = onFound;
  const lookNow = useRef<() => void>(() => {});
  const text = unconfirmed && !unconfirmed.notFound ? unconfirmed.text : undefined;
  const since = unconfirmed?.since ?? 0;

  useEffect(() => {
    if (text === undefined) return undefined;
    let stopped = false;
    let looking = false;
    const look = async () => {
      if (looking) return;
      looking = true;
      // Decided before asking: only an answer given after the window proves absence.
      const conclusive = Date.now() - since >= SIGNATURE_WINDOW_MS;
      try {
        const order = await call('trade.findOrder', { pair, text });
        if (stopped) return;
        if (order) {
          setUnconfirmed(pair, undefined);
          found.current(order);
        } else if (conclusive) {
          setUnconfirmed(pair, { text, since, notFound: true });
        }
      } catch {
        // No answer (offline, platform error): nothing is proven either way; the next lookup tries again.
      } finally {
        looking = false;
      }
    };
    lookNow.current = () => void look();
    void look();
    const timer = setInterval(() => void look(), LOOKUP_EVERY_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
      lookNow.current = () => {};
    };
  }, [pair, text, since, setUnconfirmed]);

  useDeskEvent('trade.ordersChanged', (change) => {
    // The change may carry the order itself (the stream saw it placed): found without asking.
    const hit = text === undefined ? undefined : change.orders?.find((o) => o.pair === pair && o.text === text);
    if (hit) {
      setUnconfirmed(pair, undefined);
      found.current(hit);
    } else lookNow.current();
  });

  // The open orders the screen holds (the same cache as Open orders): the order may be there already.
  const open = useDeskQuery(['trade.openOrders', { pair }], { enabled: text !== undefined });
  const listed = text === undefined ? undefined : open.data?.find((o) => o.pair === pair && o.text === text);
  useEffect(() => {
    if (listed === undefined) return;
    setUnconfirmed(pair, undefined);
    found.current(listed);
  }, [listed, pair, setUnconfirmed]);
  return unconfirmed;
};
