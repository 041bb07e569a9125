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
 * refunded, received). The firm-wide view is not read again for it: only the main account's spot
 * balances are, and patched into it.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { SpotBalance } from '../../../shared/contract/balances';
import type { Phase } from '../../../shared/platform/statuses';
import { statusFacts } from '../../../shared/platform/statusTables';
import { type FundingRecordKind, statusTimeline } from '../../../shared/platform/timelines';
import { call, type DeskEventPayload, useDeskEvent } from '../lib/desk';
import { applyDeposit, applyMainSpot, applyPush, applyWithdrawal } from '../lib/eventCache';
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

const NOUN: Record<Kind, string> = { deposit: 'Deposit', withdrawal: 'Withdrawal', push: 'Transfer to another user' };
const SCREEN: Record<Kind, ScreenId> = { deposit: 'deposits', withdrawal: 'withdrawals', push: 'activity' };

/** The notice for one change, or undefined when nothing worth saying happened. */
export const describeChange = (kind: Kind, change: Change) => {
  if (change.previousStatus === change.status) return undefined;
  const phase = statusFacts(kind, change.status)?.phase;
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
 * Whether this change moved money the screens do not know about yet. Money comes in when a deposit
 * or a received transfer is credited (done). Money goes out when a withdrawal or a sent transfer is
 * made — this app's own sending screen read the balances then, someone else's shows at its first
 * sighting — and comes back when it fails or is cancelled (refunded). Every other step (reviewed,
 * sent on chain, done) moves nothing: the record the event carries is all there is to apply, so
 * following a withdrawal to DONE reads nothing again. A status the app does not know is read again.
 */
export const movesBalances = (kind: Kind, change: Change): boolean => {
  if (change.previousStatus === change.status) return false;
  const phase = statusFacts(kind, change.status)?.phase;
  if (phase === undefined) return true;
  const incoming =
    kind === 'deposit' ||
    (kind === 'push' &&
      (change.record as DeskEventPayload<'funding.pushChanged'>['record']).transactionType === 'deposit');
  if (incoming) return phase === 'done';
  if (change.previousStatus === undefined && !change.own) return true;
  return phase === 'failed' || phase === 'cancelled';
};

/** Several changes of one movement within this time update the firm-wide view once. */
const FIRM_PATCH_DEBOUNCE_MS = 2_000;

/** The firm-wide view (`balances.firm`) and its history: never read again for a funding change. */
const isFirmView = (name: string) => name.startsWith('balances.firm');

export const FundingNotifier = () => {
  const client = useQueryClient();
  const enabled = usePrefs((s) => s.fundingNotices);
  const firmTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(firmTimer.current), []);
  const refresh = (...prefixes: string[]) =>
    void client.invalidateQueries({
      predicate: (q) => {
        const name = String(q.queryKey[0]);
        // The firm-wide view reads every account of the firm (14 platform requests): it is patched below.
        return !isFirmView(name) && prefixes.some((p) => name.startsWith(p));
      },
    });
  /**
   * Deposits, withdrawals and UID transfers move the main account's spot balance only. The events
   * carry the record, not the balance it left (its amount alone does not say it exactly: a fee, a
   * refund, whether the platform had debited it already), so that one balance is read
   * (`balances.spot`, one request — the one `refresh` above asks for anyway when a screen shows it)
   * and put into every loaded firm-wide view of this profile, once per burst of changes.
   */
  const patchFirmView = (profileId: string) => {
    const since = Date.now();
    clearTimeout(firmTimer.current);
    firmTimer.current = setTimeout(async () => {
      const firmLoaded = client
        .getQueryCache()
        .findAll({ queryKey: ['balances.firm'] })
        .some((q) => q.state.data !== undefined);
      const active = client.getQueryData<{ profileId: string | null }>(['profiles.status', {}])?.profileId;
      // A change of another profile than the one on screen: not this view's to patch.
      if (!firmLoaded || (typeof active === 'string' && active !== profileId)) return;
      try {
        // Already read again since the change (a screen showing it refetched): use that answer.
        const read = client.getQueryState<SpotBalance[]>(['balances.spot', {}]);
        const fresh = read?.data !== undefined && !read.isInvalidated && read.dataUpdatedAt >= since;
        const spot = fresh
          ? read.data
          : await client.fetchQuery({ queryKey: ['balances.spot', {}], queryFn: () => call('balances.spot', {}) });
        if (spot !== undefined) applyMainSpot(client, spot);
      } catch {
        // The view's next read (Refresh, or opening it after 30 s) has it.
      }
    }, FIRM_PATCH_DEBOUNCE_MS);
  };
  const handle = (kind: Kind) => (change: Change) => {
    // The record itself goes into every list showing it, whether or not we notify.
    if (kind === 'deposit') applyDeposit(client, change.record as DeskEventPayload<'funding.depositChanged'>['record']);
    else if (kind === 'withdrawal')
      applyWithdrawal(client, change.record as DeskEventPayload<'funding.withdrawalChanged'>['record']);
    else applyPush(client, change.record as DeskEventPayload<'funding.pushChanged'>['record']);
    if (movesBalances(kind, change)) {
      refresh('balances.', 'transfers.available', ...(kind === 'withdrawal' ? ['funding.withdrawRules'] : []));
      patchFirmView(change.profileId);
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
