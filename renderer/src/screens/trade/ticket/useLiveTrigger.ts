/**
 * The trigger order the ticket just placed, as it stands now: the result line must not keep saying
 * "waiting" once the platform fired it (or it failed, expired or was cancelled). While it waits it
 * is read from the pair's open triggers (the same query the open-triggers list shows, read every
 * 3 s while it waits); once it has left them it is found among the finished ones.
 */
import type { TriggerOrder } from '../../../../../shared/contract/trade';
import { useDeskQuery } from '../../../lib/desk';

const POLL_MS = 3000;

export const useLiveTrigger = (placed: { trigger: TriggerOrder; at: number } | undefined): TriggerOrder | undefined => {
  const trigger = placed?.trigger;
  const following = trigger?.status === 'open';
  const pair = trigger?.pair ?? '';
  const open = useDeskQuery(['trade.triggerOrders', { status: 'open', limit: 50, pair }], {
    enabled: following,
    refetchInterval: POLL_MS,
  });
  const waiting = following ? open.data?.find((t) => t.id === trigger.id) : undefined;
  // Read after the placement and not among the open ones: it fired, failed, expired or was cancelled.
  const gone = following && open.isSuccess && open.dataUpdatedAt >= (placed?.at ?? 0) && waiting === undefined;
  const finished = useDeskQuery(['trade.triggerOrders', { status: 'finished', limit: 50, pair }], {
    enabled: gone,
    // The platform may list it as finished a moment after it left the open list.
    refetchInterval: (q) => (q.state.data?.some((t) => t.id === trigger?.id) ? false : POLL_MS),
  });
  if (trigger === undefined) return undefined;
  return (gone ? finished.data?.find((t) => t.id === trigger.id) : waiting) ?? trigger;
};
