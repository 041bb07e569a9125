/**
 * Main ↔ sub-account transfer (POST /wallet/sub_account_transfers) with our `client_order_id`;
 * found by it in GET /wallet/order_status. Only the documented success status (`SUCCESS`, any
 * case) is done; any other status keeps it checking with that status shown. A 4xx (other than
 * 401/403/429) means the platform does not know the id: absent at once, since the spec says the
 * client_order_id "prevents duplicate transfers", so a resend with it cannot double it.
 */
import type { SubAccountTransferRequest } from '../../../shared/platform/api/wallet';
import { asking, attempt, defineAdapter, isNotKnown } from '../adapter';
import { newClientId } from '../clientId';

/** The one status of GET /wallet/order_status the spec documents (its sample): the transfer happened. */
const ORDER_STATUS_SUCCESS = 'SUCCESS';

export const mainSub = defineAdapter({
  kind: 'subAccountTransfer',
  clientId: (_params: SubAccountTransferRequest) => newClientId(),
  money: (params) => ({ currency: params.currency, amount: params.amount }),
  resend: true,
  absentIsFinal: true,
  send: (api, intent, options) =>
    attempt(
      () => api.wallet.subAccountTransfer({ ...intent.params, client_order_id: intent.clientId }, options),
      (r) => ({ platformId: r.tx_id }),
    ),
  findByClientId: (api, intent) =>
    asking(async () => {
      try {
        const status = await api.wallet.orderStatus({ client_order_id: intent.clientId });
        if (status.status.toUpperCase() === ORDER_STATUS_SUCCESS) {
          return { state: 'found', platformId: status.tx_id, status: status.status };
        }
        // Known to the platform but not (yet) a success: neither done nor absent.
        return {
          state: 'unknown',
          reason: `the platform reports status ${status.status}`,
          platformStatus: status.status,
          message: `The platform reports this transfer as “${status.status}”, not as done; the app keeps checking.`,
        };
      } catch (error) {
        if (isNotKnown(error)) return { state: 'absent' };
        throw error;
      }
    }),
  describe: () => 'sub-account transfer',
});
