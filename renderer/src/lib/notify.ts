/**
 * In-app notices. Screens call `notify()`; every notice goes into the notification centre (the bell
 * in the top bar, with its history) and shows briefly as a toast in the bottom-left corner, where it
 * covers no ticket or order action. Toasts always time out — information sooner, a failure later —
 * and a failure stays in the centre, unread, until it is read there. Each notice can open its record.
 */
import { create } from 'zustand';
import type { ScreenId, ScreenParams } from './navigation';

export type NoticeTone = 'info' | 'good' | 'warn' | 'bad';

export interface Notice {
  readonly id: number;
  readonly tone: NoticeTone;
  readonly title: string;
  readonly message?: string;
  /** Screen to open when the notice is clicked… */
  readonly screen?: ScreenId;
  /** …and what to open there (e.g. `{ tab: 'history', record: 'd1' }`): the record, not the screen's first tab. */
  readonly params?: ScreenParams;
  /**
   * Failures and unknown outcomes: they stay unread in the centre until opened there (their toast
   * stays longer, but still goes: it must not cover the controls the person needs to act).
   */
  readonly sticky?: boolean;
  /**
   * What the notice is about (e.g. one withdrawal): a newer notice with the same key replaces the
   * older one, so a record moving through its statuses shows one notice, not a pile.
   */
  readonly key?: string;
  /** When it was raised (ms). */
  readonly at: number;
}

interface NoticeState {
  /** Toasts on screen now. */
  readonly notices: readonly Notice[];
  /** The centre's history, newest first. */
  readonly history: readonly Notice[];
  /** Ids in the history not read yet. */
  readonly unread: readonly number[];
  /** Removes a toast (it stays in the history). */
  dismiss(id: number): void;
  markRead(id?: number): void;
  clearHistory(): void;
}

let nextId = 1;

export const useNotices = create<NoticeState>((set) => ({
  notices: [],
  history: [],
  unread: [],
  dismiss: (id) => set((s) => ({ notices: s.notices.filter((n) => n.id !== id) })),
  markRead: (id) => set((s) => ({ unread: id === undefined ? [] : s.unread.filter((u) => u !== id) })),
  clearHistory: () => set({ history: [], unread: [] }),
}));

const MAX_VISIBLE = 3;
const MAX_HISTORY = 200;
/** How long a toast stays: information and successes 6 s, warnings and failures 12 s. */
export const TOAST_MS: Record<NoticeTone, number> = { info: 6_000, good: 6_000, warn: 12_000, bad: 12_000 };

/**
 * Also shows an OS notification when the window is in the background and the shell allows it
 * (Electron grants notifications to our origin; the Chromium shell denies every permission).
 */
const osNotify = (notice: Omit<Notice, 'id' | 'at'>) => {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted' || document.hasFocus()) return;
  try {
    new Notification(notice.title, notice.message ? { body: notice.message } : {});
  } catch {
    // An OS notification is a courtesy; the in-app notice is shown regardless.
  }
};

export const notify = (notice: Omit<Notice, 'id' | 'at'>): number => {
  const id = nextId++;
  const full: Notice = { ...notice, id, at: Date.now() };
  const sameRecord = (n: Notice) => notice.key !== undefined && n.key === notice.key;
  useNotices.setState((s) => {
    const replaced = s.history.filter(sameRecord).map((n) => n.id);
    return {
      notices: [...s.notices.filter((n) => !sameRecord(n)), full].slice(-MAX_VISIBLE),
      history: [full, ...s.history.filter((n) => !sameRecord(n))].slice(0, MAX_HISTORY),
      unread: [id, ...s.unread.filter((u) => !replaced.includes(u))].slice(0, MAX_HISTORY),
    };
  });
  osNotify(notice);
  return id;
};
