/**
 * Every screen of the app with its navigation entry. Screen engineers replace the component in
 * renderer/src/screens/<id>/index.tsx; the entry here stays.
 */
import type { ComponentType } from 'react';
import type { ScreenId } from '../lib/navigation';
import ActivityScreen from '../screens/activity';
import BalancesScreen from '../screens/balances';
import BulkScreen from '../screens/bulk';
import DepositsScreen from '../screens/deposits';
import SettingsScreen from '../screens/settings';
import SubAccountsScreen from '../screens/subAccounts';
import TradeScreen from '../screens/trade';
import TransfersScreen from '../screens/transfers';
import WithdrawalsScreen from '../screens/withdrawals';

export interface ScreenEntry {
  readonly id: ScreenId;
  readonly label: string;
  /** Ctrl/⌘ + this key opens the screen. */
  readonly key: string;
  readonly icon: string;
  readonly component: ComponentType;
}

export const SCREENS: readonly ScreenEntry[] = [
  { id: 'balances', label: 'Balances', key: '1', icon: '◫', component: BalancesScreen },
  { id: 'deposits', label: 'Deposits', key: '2', icon: '↓', component: DepositsScreen },
  { id: 'withdrawals', label: 'Withdrawals', key: '3', icon: '↑', component: WithdrawalsScreen },
  { id: 'transfers', label: 'Transfers', key: '4', icon: '⇄', component: TransfersScreen },
  { id: 'subAccounts', label: 'Sub-accounts', key: '5', icon: '⋔', component: SubAccountsScreen },
  { id: 'trade', label: 'Trade', key: '6', icon: '◈', component: TradeScreen },
  { id: 'activity', label: 'Activity', key: '7', icon: '≡', component: ActivityScreen },
  { id: 'settings', label: 'Settings', key: '8', icon: '⚙', component: SettingsScreen },
  { id: 'bulk', label: 'Bulk', key: '9', icon: '⧉', component: BulkScreen },
];
