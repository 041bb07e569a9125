/**
 * In-app notices (toasts). Screens call `notify()`; the frame shows them in a polite live region
 * and, when the person allows it, as OS notifications too.
 */
import { create } from 'zustand';
import type { ScreenId } from './navigation';

export type NoticeTone = 'info' | 'good' | 'warn' | 'bad';

export interface Notice {
  readonly id: number;
  readonly tone: NoticeTone;
  readonly title: string;
  readonly message?: string;
  /** Screen to open when the notice is clicked. */
  readonly screen?: ScreenId;
  /** Sticky notices stay until dismissed (failures, unknown outcomes). */
  readonly sticky?: boolean;
  /**
   * What the notice is about (e.g. one withdrawal): a newer notice with the same key replaces the
   * older one, so a record moving through its statuses shows one notice, not a pile.
   */
  readonly key?: string;
}

interface NoticeState {
  readonly notices: readonly Notice[];
  dismiss(id: number): void;
}

let nextId = 1;

export const useNotices = create<NoticeState>((set) => ({
  notices: [],
  dismiss: (id) => set((s) => ({ notices: s.notices.filter((n) => n.id !== id) })),
}));

const MAX_VISIBLE = 5;

/**
 * Also shows an OS notification when the window is in the background and the shell allows it
 * (Electron grants notifications to our origin; the Chromium shell denies every permission).
 */
const osNotify = (notice: Omit<Notice, 'id'>) => {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted' || document.hasFocus()) return;
  try {
    new Notification(notice.title, notice.message ? { body: notice.message } : {});
  } catch {
    // An OS notification is a courtesy; the in-app notice is shown regardless.
  }
};

export const notify = (notice: Omit<Notice, 'id'>): number => {
  const id = nextId++;
  useNotices.setState((s) => ({
    notices: [...s.notices.filter((n) => notice.key === undefined || n.key !== notice.key), { ...notice, id }].slice(
      -MAX_VISIBLE,
    ),
  }));
  osNotify(notice);
  return id;
};
