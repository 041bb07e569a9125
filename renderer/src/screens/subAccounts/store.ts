/** What stays chosen on the Sub-accounts screen across navigation: the selected sub-account. */
import { screenStore } from '../../lib/screenState';

export const useSubAccountsUi = screenStore({ selected: undefined as number | undefined });
