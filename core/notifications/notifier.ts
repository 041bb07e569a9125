/**
 * OS notifications of deposit, withdrawal and UID-push changes, decided in main (so they arrive
 * while the window is hidden or the renderer is busy) and shown through a capability each shell
 * injects (Electron's Notification, notify-send/osascript in the Chromium shell). What is worth
 * telling comes from the status tables (shared/platform/statusTables.ts) and the words are the status
 * timelines' built from them, so the notification says what the screen says.
 * Only amount, currency, the profile's name and the status words go out: never an address, memo,
 * txid or anything from the key.
 */
import Decimal from 'decimal.js';
import {
  DEFAULT_NOTIFICATION_SETTINGS,
  NotificationSettings,
  type NotificationSettingsView,
} from '../../shared/contract/app';
import { formatMoneyOrText } from '../../shared/format/money';
import { statusFacts } from '../../shared/platform/statusTables';
import { type FundingRecordKind, statusTimeline } from '../../shared/platform/timelines';
import type { Settings } from '../journal/types';

export interface OsNotification {
  readonly title: string;
  readonly body: string;
}

/** What a shell gives the core to show OS notifications with. */
export interface OsNotificationCapability {
  /** Shows one notification. Must not throw: failures are the capability's to log. */
  showOsNotification(notification: OsNotification): void;
  /** Set when this machine cannot show them (e.g. no notify-send): why, in words. */
  readonly unavailableReason?: string;
}

export type FundingEvent = 'funding.depositChanged' | 'funding.withdrawalChanged' | 'funding.pushChanged';
type Kind = FundingRecordKind;

/** The parts of a watcher event the notifier reads (see FundingRecordChanged in shared/contract/events.ts). */
export interface FundingChange {
  readonly profileId: string;
  readonly currency: string;
  readonly amount: string;
  readonly status: string;
  readonly previousStatus?: string | undefined;
  readonly record: Readonly<Record<string, unknown>>;
}

const KIND: Record<FundingEvent, Kind> = {
  'funding.depositChanged': 'deposit',
  'funding.withdrawalChanged': 'withdrawal',
  'funding.pushChanged': 'push',
};
const SETTING: Record<Kind, 'deposits' | 'withdrawals' | 'pushes'> = {
  deposit: 'deposits',
  withdrawal: 'withdrawals',
  push: 'pushes',
};

export const SETTINGS_KEY = 'notifications.os';

/** The event's record is the contract's PushRecord (shared/contract/funding.ts). */
const isIncomingPush = (change: FundingChange): boolean => change.record.transactionType === 'deposit';

const NOUN: Record<Kind, string> = { deposit: 'Deposit', withdrawal: 'Withdrawal', push: 'Transfer to another user' };

/** The notification for one change, or undefined when the change is not worth interrupting anyone for. */
export const describeForOs = (kind: Kind, change: FundingChange, profileName: string): OsNotification | undefined => {
  if (change.previousStatus === change.status) return undefined;
  const what = formatMoneyOrText(change.amount, change.currency);
  const where = profileName ? ` · ${profileName}` : '';
  if (kind === 'push' && isIncomingPush(change)) {
    // The push timeline speaks for the sender; for the receiver only the arrival is news.
    if (change.status !== 'RECEIVED') return undefined;
    return { title: `Transfer from another user: ${what}${where}`, body: 'Received in your spot account.' };
  }
  const facts = statusFacts(kind, change.status);
  // An unrecognised code: the in-app notice and the screens show it; an OS notification would only confuse.
  if (facts === undefined) return undefined;
  // What a person waits for: a final state, a failure, a state that needs attention, a milestone
  // (money usable, money gone on chain).
  const worthTelling = facts.final || facts.tone === 'failure' || facts.tone === 'attention' || facts.milestone;
  if (!worthTelling) return undefined;
  return { title: `${NOUN[kind]} ${what}${where}`, body: statusTimeline(kind, change.status).headline };
};

/**
 * Whether the change is smaller than the minimum set for its currency. An amount that is not a
 * number notifies (better one notification too many than a silent failure).
 */
const isBelowMinimum = (change: FundingChange, settings: NotificationSettings): boolean => {
  const minimum = settings.minAmounts[change.currency.toUpperCase()];
  if (minimum === undefined) return false;
  try {
    return new Decimal(change.amount).abs().lessThan(minimum);
  } catch {
    return false;
  }
};

export interface FundingNotifierOptions {
  readonly settings: Settings;
  /** Absent: this shell shows no OS notifications (the settings say so). */
  readonly capability?: OsNotificationCapability;
  /** The profile's display name (the watchers only report the active profile). */
  readonly profileName: (profileId: string) => string | undefined;
  readonly logError?: (operation: string, error: unknown) => void;
}

export class FundingNotifier {
  constructor(private readonly options: FundingNotifierOptions) {}

  /** The stored settings; anything unreadable falls back to the defaults (on). */
  settings(): NotificationSettings {
    const stored = NotificationSettings.safeParse(this.options.settings.get<unknown>(SETTINGS_KEY, undefined));
    return stored.success ? stored.data : { ...DEFAULT_NOTIFICATION_SETTINGS };
  }

  setSettings(settings: NotificationSettings): NotificationSettingsView {
    this.options.settings.set(SETTINGS_KEY, NotificationSettings.parse(settings));
    return this.view();
  }

  view(): NotificationSettingsView {
    const reason = this.options.capability
      ? this.options.capability.unavailableReason
      : 'This build of the app shows no OS notifications.';
    return {
      settings: this.settings(),
      available: reason === undefined,
      ...(reason ? { unavailableReason: reason } : {}),
    };
  }

  /** An item started to wait in Approvals: the people who approve are told (when notifications are on). */
  approvalWaiting(): void {
    const capability = this.options.capability;
    if (!capability || capability.unavailableReason !== undefined || !this.settings().enabled) return;
    try {
      capability.showOsNotification(APPROVAL_WAITING);
    } catch (error) {
      this.options.logError?.('notifications.show', error);
    }
  }

  /** Called with every watcher event; shows at most one notification for it. */
  observe(event: FundingEvent, change: FundingChange): void {
    const capability = this.options.capability;
    if (!capability || capability.unavailableReason !== undefined) return;
    const kind = KIND[event];
    const settings = this.settings();
    if (!settings.enabled || !settings[SETTING[kind]]) return;
    if (settings.mutedProfiles.includes(change.profileId)) return;
    if (isBelowMinimum(change, settings)) return;
    const notification = describeForOs(kind, change, this.options.profileName(change.profileId) ?? '');
    if (!notification) return;
    try {
      capability.showOsNotification(notification);
    } catch (error) {
      // A notification is a courtesy: it never breaks the watchers.
      this.options.logError?.('notifications.show', error);
    }
  }
}

export const isFundingEvent = (name: string): name is FundingEvent => Object.hasOwn(KIND, name);

/** What an approver is told when an item starts to wait (never its amount or destination: the app shows them). */
export const APPROVAL_WAITING: OsNotification = {
  title: 'Waiting for approval',
  body: 'A money movement or a control change waits for another operator in Approvals.',
};
