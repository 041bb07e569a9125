/** What stays chosen on the Deposits screen across navigation: the tab and the deposit whose timeline is open. */
import { screenStore } from '../../lib/screenState';

export const useDepositsUi = screenStore({
  tab: 'address' as 'address' | 'history',
  selected: undefined as string | undefined,
});
