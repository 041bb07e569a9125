/**
 * Every screen of the app with its navigation entry. Screen engineers replace the component in
 * renderer/src/screens/<id>/index.tsx; the entry here stays.
 */
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
} from 'lucide-react';
import type { ComponentType } from 'react';
import type { ScreenId } from '../lib/navigation';
import ActivityScreen from '../screens/activity';
import ApprovalsScreen from '../screens/approvals';
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
  /** An SVG icon (lucide); shown aria-hidden beside the label, which names the entry. */
  readonly icon: LucideIcon;
  readonly component: ComponentType;
}

export const SCREENS: readonly ScreenEntry[] = [
  { id: 'balances', label: 'Balances', key: '1', icon: Wallet, component: BalancesScreen },
  // Near the top: what waits for a second person is the first thing to look at (its shortcut stays 0).
  { id: 'approvals', label: 'Approvals', key: '0', icon: ShieldCheck, component: ApprovalsScreen },
  { id: 'deposits', label: 'Deposits', key: '2', icon: ArrowDownToLine, component: DepositsScreen },
  { id: 'withdrawals', label: 'Withdrawals', key: '3', icon: ArrowUpFromLine, component: WithdrawalsScreen },
  { id: 'transfers', label: 'Transfers', key: '4', icon: ArrowLeftRight, component: TransfersScreen },
  { id: 'subAccounts', label: 'Sub-accounts', key: '5', icon: Network, component: SubAccountsScreen },
  { id: 'trade', label: 'Trade', key: '6', icon: CandlestickChart, component: TradeScreen },
  { id: 'activity', label: 'Activity', key: '7', icon: History, component: ActivityScreen },
  { id: 'settings', label: 'Settings', key: '8', icon: Settings, component: SettingsScreen },
  { id: 'bulk', label: 'Bulk', key: '9', icon: Layers, component: BulkScreen },
];
