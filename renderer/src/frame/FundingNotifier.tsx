/**
 * Tells the person when a deposit, withdrawal or UID push changes state, wherever they are in
 * the app (the core's watchers send the events; see shared/contract/events.ts).
 */
import { useQueryClient } from '@tanstack/react-query';
import { DEPOSIT_PHASE, type Phase, UID_PUSH_PHASE, WITHDRAWAL_PHASE } from '../../../shared/platform/statuses';
import { type DeskEventPayload, useDeskEvent } from '../lib/desk';
import { formatAmount } from '../lib/format';
import type { ScreenId } from '../lib/navigation';
import { type NoticeTone, notify } from '../lib/notify';
import { usePrefs } from '../lib/prefs';

type Change = DeskEventPayload<'funding.depositChanged'>;
type Kind = 'deposit' | 'withdrawal' | 'push';

const PHASE_WORDS: Record<Phase, { words: string; tone: NoticeTone }> = {
  pending: { words: 'in progress', tone: 'info' },
  review: { words: 'under review', tone: 'warn' },
  done: { words: 'completed', tone: 'good' },
  failed: { words: 'failed', tone: 'bad' },
  cancelled: { words: 'cancelled', tone: 'warn' },
};

const PHASES: Record<Kind, Record<string, Phase>> = {
  deposit: DEPOSIT_PHASE,
  withdrawal: WITHDRAWAL_PHASE,
  push: UID_PUSH_PHASE,
};

const NOUN: Record<Kind, string> = { deposit: 'Deposit', withdrawal: 'Withdrawal', push: 'Transfer to another user' };
const SCREEN: Record<Kind, ScreenId> = { deposit: 'deposits', withdrawal: 'withdrawals', push: 'activity' };

const safeAmount = (amount: string): string => {
  try {
    return formatAmount(amount);
  } catch {
    return amount;
  }
};

/** The notice for one change, or undefined when nothing worth saying happened. */
export const describeChange = (kind: Kind, change: Change) => {
  if (change.previousStatus === change.status) return undefined;
  const phase = PHASES[kind][change.status];
  const { words, tone } = phase ? PHASE_WORDS[phase] : { words: `now ${change.status}`, tone: 'info' as const };
  const title = `${NOUN[kind]} of ${safeAmount(change.amount)} ${change.currency} ${words}`;
  return {
    tone,
    title,
    message: change.previousStatus ? `Status ${change.previousStatus} → ${change.status}` : `Status ${change.status}`,
    screen: SCREEN[kind],
    // Failures stay until read: they need someone to act.
    sticky: tone === 'bad',
  };
};

export const FundingNotifier = () => {
  const client = useQueryClient();
  const enabled = usePrefs((s) => s.fundingNotices);
  const handle = (kind: Kind, refresh: string) => (change: Change) => {
    // Lists showing this record are out of date whether or not we notify.
    void client.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith(refresh) });
    if (!enabled) return;
    const notice = describeChange(kind, change);
    if (notice) notify(notice);
  };
  useDeskEvent('funding.depositChanged', handle('deposit', 'funding.'));
  useDeskEvent('funding.withdrawalChanged', handle('withdrawal', 'funding.'));
  useDeskEvent('funding.pushChanged', handle('push', 'funding.'));
  return null;
};
