/**
 * Keeps the funding screens current: main's watchers report every status change of a deposit,
 * withdrawal or UID transfer (and the journal every movement change); the matching queries are
 * refreshed at once instead of waiting for the next poll.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useDeskEvent } from '../../lib/desk';

export function useFundingLive(): void {
  const client = useQueryClient();
  const refresh = (...names: string[]) => {
    for (const name of names) void client.invalidateQueries({ queryKey: [name] });
  };
  useDeskEvent('funding.withdrawalChanged', () =>
    refresh('funding.withdrawal', 'funding.withdrawals', 'balances.spot'),
  );
  useDeskEvent('funding.depositChanged', () => refresh('funding.deposits', 'balances.spot'));
  useDeskEvent('funding.pushChanged', () => refresh('funding.pushes', 'balances.spot'));
  useDeskEvent('activity.movementChanged', () => refresh('funding.withdrawal', 'funding.pushes'));
}
