/**
 * Sub-account → sub-account transfer (POST /wallet/sub_account_to_sub_account). The spec gives it
 * neither a client id nor a record listing: a lost answer cannot be settled automatically. It stays
 * `unknown` (never resent) until a person checks both balances and settles it by hand.
 */
import type { SubToSubTransferRequest } from '../../../shared/platform/api/wallet';
import { attempt, defineAdapter } from '../adapter';

export const subSub = defineAdapter({
  kind: 'subToSubTransfer',
  clientId: (_params: SubToSubTransferRequest) => '',
  money: (params) => ({ currency: params.currency, amount: params.amount }),
  resend: false,
  absentIsFinal: false,
  send: (api, intent, options) =>
    attempt(
      () => api.wallet.subToSubTransfer(intent.params, options),
      (r) => ({ platformId: r.tx_id }),
    ),
  findByClientId: async () => ({
    state: 'unknown',
    reason:
      'the platform offers no lookup for sub-account to sub-account transfers; check both balances and settle it by hand',
  }),
  describe: () => 'sub-account to sub-account transfer',
});
