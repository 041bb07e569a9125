/** What stays chosen on the Withdrawals screen across navigation: the tab and the withdrawal whose timeline is open. */
import { screenStore } from '../../lib/screenState';

export type WithdrawalsTab = 'send' | 'history' | 'push' | 'settings';

export const useWithdrawalsUi = screenStore({
  tab: 'send' as WithdrawalsTab,
  selected: undefined as string | undefined,
});
