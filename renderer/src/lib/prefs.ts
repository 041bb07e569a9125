/**
 * The person's UI preferences, kept in localStorage of the app's own origin. Nothing here is a
 * secret or a money setting enforced by main; they only shape what the screens show and ask.
 */
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { DisplayTimeZone } from './format';

export type Theme = 'dark' | 'light';
/** Which colour means "up": green (international) or red (as many people in China expect). */
export type UpColour = 'green' | 'red';

export const IDLE_LOCK_CHOICES = [0, 5, 15, 30, 60] as const;

export interface Prefs {
  readonly theme: Theme;
  readonly timeZone: DisplayTimeZone;
  /** Minutes of inactivity before the app locks; 0 = never. */
  readonly idleLockMinutes: number;
  readonly upColour: UpColour;
  /**
   * A value of the old "Ask before placing an order" preference (stored here up to version 1) that
   * is still to be carried into the one setting, `confirmOrders` of the trade settings kept by main
   * (frame/PrefsMigration). That setting is the only one: main and the tickets read it.
   */
  readonly legacyConfirmOrders?: boolean;
  /** Show an OS-style notice when a deposit or withdrawal changes state. */
  readonly fundingNotices: boolean;
  /** The first-run set-up checklist was put away (it also goes once every step is done). */
  readonly setupChecklistDismissed?: boolean;
}

export const DEFAULT_PREFS: Prefs = {
  theme: 'dark',
  timeZone: 'local',
  idleLockMinutes: 15,
  upColour: 'green',
  fundingNotices: true,
};

interface PrefsStore extends Prefs {
  set(patch: Partial<Prefs>): void;
  reset(): void;
}

export const usePrefs = create<PrefsStore>()(
  persist(
    (set) => ({
      ...DEFAULT_PREFS,
      set: (patch) => set(patch),
      reset: () => set(DEFAULT_PREFS),
    }),
    {
      name: 'treasury-desk.prefs',
      version: 2,
      storage: createJSONStorage(() => localStorage),
      // Version 1 kept its own "confirm orders" flag, which nothing read: it moves to main's setting.
      migrate: (persisted, version) => {
        const { confirmOrders, ...rest } = (persisted ?? {}) as Partial<Prefs> & { confirmOrders?: unknown };
        return version < 2 && typeof confirmOrders === 'boolean'
          ? { ...rest, legacyConfirmOrders: confirmOrders }
          : rest;
      },
      partialize: ({ theme, timeZone, idleLockMinutes, upColour, fundingNotices, legacyConfirmOrders }) => ({
        theme,
        timeZone,
        idleLockMinutes,
        upColour,
        fundingNotices,
        ...(legacyConfirmOrders === undefined ? {} : { legacyConfirmOrders }),
      }),
    },
  ),
);
