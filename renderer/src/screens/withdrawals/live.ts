/**
 * Keeps the funding screens current: main's watchers follow every deposit, withdrawal and UID
 * transfer that can still change and report each status change (and the journal every movement
 * change); the matching queries are refreshed at once. The screens do not poll these themselves.
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
  // A sent withdrawal's tracker re-reads its own movement's changes itself (WithdrawalTracker).
  useDeskEvent('activity.movementChanged', () => refresh('funding.pushes'));
}
