/**
 * Keeps every screen's funding data current and tells the person when a deposit, withdrawal or UID
 * push changes state, wherever they are in the app. Main's watchers follow what can still change and
 * send the events (shared/contract/events.ts); the journal reports each change of the app's own
 * movements. Mounted once, in the frame: the screens do not poll or subscribe for this themselves.
 *
 * Events carry data: each holds the whole record, which goes into every cached list and followed
 * withdrawal that shows it (lib/eventCache.ts) — nothing is read again for it. Balances are read
 * again only when the change moved money the screens do not know about yet: a record someone else
 * made (not this app, whose own screen already refreshed), or one that reached its end (credited,
 * refunded, received).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { ConsolidatedRow } from '../../../shared/contract/balances';
import { DEPOSIT_PHASE, type Phase, UID_PUSH_PHASE, WITHDRAWAL_PHASE } from '../../../shared/platform/statuses';
import { type FundingRecordKind, statusTimeline } from '../../../shared/platform/timelines';
import { call, type DeskEventPayload, useDeskEvent } from '../lib/desk';
import { applyDeposit, applyPush, applyWithdrawal } from '../lib/eventCache';
import { formatMoneyOrText } from '../lib/format';
import type { ScreenId, ScreenParams } from '../lib/navigation';
import { type NoticeTone, notify } from '../lib/notify';
import { usePrefs } from '../lib/prefs';

type Change = DeskEventPayload<'funding.depositChanged' | 'funding.withdrawalChanged' | 'funding.pushChanged'>;
type Kind = FundingRecordKind;

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

/** The notice for one change, or undefined when nothing worth saying happened. */
export const describeChange = (kind: Kind, change: Change) => {
  if (change.previousStatus === change.status) return undefined;
  const phase = PHASES[kind][change.status];
  const { words, tone } = phase ? PHASE_WORDS[phase] : { words: `now ${change.status}`, tone: 'info' as const };
  const title = `${NOUN[kind]} of ${formatMoneyOrText(change.amount, change.currency)} ${words}`;
  return {
    tone,
    title,
    message: `${statusTimeline(kind, change.status).headline} (${change.status})`,
    screen: SCREEN[kind],
    // "Open" opens this record (its timeline in the history), not the screen's first tab.
    params: (kind === 'push' ? { record: change.id } : { tab: 'history', record: change.id }) as ScreenParams,
    // One notice per record: its next status replaces this one.
    key: `${kind}:${change.id}`,
    // Failures stay until read: they need someone to act.
    sticky: tone === 'bad',
  };
};

/**
 * Whether this change moved money the screens do not know about yet: a record first seen that this
 * app did not send (its own sending screen refreshed the balances already), or a status that ends
 * the record (a deposit credited, a withdrawal refunded, a transfer received or refused).
 */
export const movesBalances = (kind: Kind, change: Change): boolean => {
  if (change.previousStatus === change.status) return false;
  if (change.previousStatus === undefined && !change.own) return true;
  const phase = PHASES[kind][change.status];
  return phase === 'done' || phase === 'failed' || phase === 'cancelled' || statusTimeline(kind, change.status).final;
};

/** Several changes of one movement within this time update the all-accounts view once. */
const MAIN_ROW_DEBOUNCE_MS = 2_000;

export const FundingNotifier = () => {
  const client = useQueryClient();
  const enabled = usePrefs((s) => s.fundingNotices);
  const mainRowTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(mainRowTimer.current), []);
  const refresh = (...prefixes: string[]) =>
    void client.invalidateQueries({
      predicate: (q) => {
        const name = String(q.queryKey[0]);
        // The all-accounts view reads every sub-account: only its main row is updated (below).
        return name !== 'balances.consolidated' && prefixes.some((p) => name.startsWith(p));
      },
    });
  /**
   * Deposits, withdrawals and UID transfers move the main account only: its row of the all-accounts
   * view is read again and put in place, once per burst of changes, if that view is loaded.
   */
  const updateMainRow = () => {
    clearTimeout(mainRowTimer.current);
    mainRowTimer.current = setTimeout(async () => {
      if (client.getQueryData(['balances.consolidated', {}]) === undefined) return;
      try {
        const main = await call('balances.mainAccount', {});
        client.setQueryData<ConsolidatedRow[]>(['balances.consolidated', {}], (rows) =>
          rows?.map((row) => (row.role === 'main' ? main : row)),
        );
      } catch {
        // The next refresh of the view reads it anyway.
      }
    }, MAIN_ROW_DEBOUNCE_MS);
  };
  const handle = (kind: Kind) => (change: Change) => {
    // The record itself goes into every list showing it, whether or not we notify.
    if (kind === 'deposit') applyDeposit(client, change.record as DeskEventPayload<'funding.depositChanged'>['record']);
    else if (kind === 'withdrawal')
      applyWithdrawal(client, change.record as DeskEventPayload<'funding.withdrawalChanged'>['record']);
    else applyPush(client, change.record as DeskEventPayload<'funding.pushChanged'>['record']);
    if (movesBalances(kind, change)) {
      refresh('balances.', 'transfers.available', ...(kind === 'withdrawal' ? ['funding.withdrawRules'] : []));
      updateMainRow();
    }
    if (!enabled) return;
    const notice = describeChange(kind, change);
    if (notice) notify(notice);
  };
  useDeskEvent('funding.depositChanged', handle('deposit'));
  useDeskEvent('funding.withdrawalChanged', handle('withdrawal'));
  useDeskEvent('funding.pushChanged', handle('push'));
  return null;
};
