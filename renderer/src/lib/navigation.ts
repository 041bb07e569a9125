/**
 * Which screen is open. Kept in memory, not in the URL: the app's document never navigates, so
 * the shells can refuse every navigation outright.
 */
import { create } from 'zustand';

export const SCREEN_IDS = [
  'balances',
  'deposits',
  'withdrawals',
  'transfers',
  'subAccounts',
  'trade',
  'activity',
  'settings',
  'bulk',
  'approvals',
] as const;
export type ScreenId = (typeof SCREEN_IDS)[number];

/** Optional hand-over between screens, e.g. Balances → Deposits of one currency. */
export type ScreenParams = Readonly<Record<string, string>>;

interface NavigationState {
  readonly screen: ScreenId;
  readonly params: ScreenParams;
  go(screen: ScreenId, params?: ScreenParams): void;
}

export const useNavigation = create<NavigationState>((set) => ({
  screen: 'balances',
  params: {},
  go: (screen, params = {}) => set({ screen, params }),
}));

/** Navigate from outside React (keyboard shortcuts, notices). */
export const goTo = (screen: ScreenId, params?: ScreenParams): void => useNavigation.getState().go(screen, params);
