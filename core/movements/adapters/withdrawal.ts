/**
 * Withdrawal on chain (POST /withdrawals) with our `withdraw_order_id`; found by it in
 * GET /wallet/withdrawals. The spec does not say a repeated withdraw_order_id is refused, so
 * absence counts only once settled.
 */
import type { WithdrawRequest } from '../../../shared/platform/api/wallet';
import { asking, attempt, defineAdapter, recordRange } from '../adapter';
import { newClientId } from '../clientId';

export const withdrawal = defineAdapter({
  kind: 'withdrawal',
  clientId: (_params: WithdrawRequest) => newClientId(),
  money: (params) => ({ currency: params.currency, amount: params.amount }),
  resend: true,
  absentIsFinal: false,
  send: (api, intent, options) =>
    attempt(
      () => api.withdrawals.create({ ...intent.params, withdraw_order_id: intent.clientId }, options),
      (r) => ({ platformId: r.id, status: r.status }),
    ),
  findByClientId: (api, intent, window) =>
    asking(async () => {
      const records = await api.wallet.withdrawals({
        withdraw_order_id: intent.clientId,
        currency: intent.currency,
        // An hour before the doubt band: the record's time is when the platform created it.
        ...recordRange(window.fromSec - 3600, window),
        limit: 100,
      });
      const match = records.find((r) => r.withdraw_order_id === intent.clientId);
      return match
        ? { state: 'found', platformId: match.id, status: match.status, record: match }
        : { state: 'absent' };
    }),
  describe: () => 'withdrawal',
});
