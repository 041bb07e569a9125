/**
 * Every screen of the app with its navigation entry. Screen engineers replace the component in
 * renderer/src/screens/<id>/index.tsx; the entry here stays.
 *
 * Balances, the screen the app opens on, is in the first chunk; every other screen is its own chunk,
 * loaded the first time it is opened — and fetched ahead while the app is idle after the first
 * screen painted (`preloadScreens`), so opening one does not wait for its code.
 */

import { type ComponentType, lazy } from 'react';
import type { ScreenId } from '../lib/navigation';
import BalancesScreen from '../screens/balances';
import {
  ArrowDownToLine,
  ArrowLeftRight,
  ArrowUpFromLine,
  CandlestickChart,
  History,
  Layers,
  type LucideIcon,
  Network,
  Settings,
  ShieldCheck,
  Wallet,
} from '../ui/icons';

/** A screen whose code is fetched when first needed; `load` is also what preloading calls. */
const later = (load: () => Promise<{ default: ComponentType }>) => ({ component: lazy(load), load });

const deposits = later(() => import('../screens/deposits'));
const withdrawals = later(() => import('../screens/withdrawals'));
const transfers = later(() => import('../screens/transfers'));
const subAccounts = later(() => import('../screens/subAccounts'));
const trade = later(() => import('../screens/trade'));
const activity = later(() => import('../screens/activity'));
const settings = later(() => import('../screens/settings'));
const bulk = later(() => import('../screens/bulk'));
const approvals = later(() => import('../screens/approvals'));

export interface ScreenEntry {
  readonly id: ScreenId;
  readonly label: string;
  /** Ctrl/⌘ + this key opens the screen. */
  readonly key: string;
  /** An SVG icon (lucide); shown aria-hidden beside the label, which names the entry. */
  readonly icon: LucideIcon;
  readonly component: ComponentType;
}

export const SCREENS: readonly ScreenEntry[] = [
  { id: 'balances', label: 'Balances', key: '1', icon: Wallet, component: BalancesScreen },
  // Near the top: what waits for a second person is the first thing to look at (its shortcut stays 0).
  { id: 'approvals', label: 'Approvals', key: '0', icon: ShieldCheck, component: approvals.component },
  { id: 'deposits', label: 'Deposits', key: '2', icon: ArrowDownToLine, component: deposits.component },
  { id: 'withdrawals', label: 'Withdrawals', key: '3', icon: ArrowUpFromLine, component: withdrawals.component },
  { id: 'transfers', label: 'Transfers', key: '4', icon: ArrowLeftRight, component: transfers.component },
  { id: 'subAccounts', label: 'Sub-accounts', key: '5', icon: Network, component: subAccounts.component },
  { id: 'trade', label: 'Trade', key: '6', icon: CandlestickChart, component: trade.component },
  { id: 'activity', label: 'Activity', key: '7', icon: History, component: activity.component },
  { id: 'settings', label: 'Settings', key: '8', icon: Settings, component: settings.component },
  { id: 'bulk', label: 'Bulk', key: '9', icon: Layers, component: bulk.component },
];

/**
 * Fetches every other screen's code, one after the other, when the window is idle: call it once the
 * first screen has painted. Opening a screen later then finds its code loaded.
 */
export const preloadScreens = (): void => {
  const queue = [approvals, deposits, withdrawals, transfers, subAccounts, trade, activity, settings, bulk];
  const next = () => {
    const screen = queue.shift();
    if (screen === undefined) return;
    void screen.load().finally(() => whenIdle(next));
  };
  whenIdle(next);
};

/** After the current work, when the browser has time (a timer where requestIdleCallback is missing). */
const whenIdle = (run: () => void): void => {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 2_000 });
  else setTimeout(run, 50);
};
