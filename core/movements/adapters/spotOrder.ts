/**
 * A spot order (POST /spot/orders) whose client id is its `text` (t-desk-…); found by it with
 * GET /spot/orders/{text}?currency_pair=. Only the platform's ORDER_NOT_FOUND proves absence, and
 * only once settled (the order may still arrive). An order is never sent again and never sent late
 * (`resend: false`): one proven absent is recorded as not placed, and the person decides.
 */
import type { PlaceOrderRequest } from '../../../shared/platform/api/spot';
import { ApiError } from '../../api/apiError';
import { asking, attempt, defineAdapter } from '../adapter';

/** The pair's two currencies (BTC_USDT → BTC, USDT). */
const currencies = (pair: string): [string, string] => {
  const at = pair.indexOf('_');
  return at < 0 ? [pair, pair] : [pair.slice(0, at), pair.slice(at + 1)];
};

/** An order's body with its `text`: the client id it is journaled with, joined by and found by. */
type OrderWithText = PlaceOrderRequest & { readonly text: string };

export const spotOrder = defineAdapter({
  kind: 'spotOrder',
  clientId: (params: OrderWithText) => params.text,
  // A market buy is an amount of the quote currency; every other order one of the base.
  money: (params) => {
    const [base, quote] = currencies(params.currency_pair);
    return { currency: params.type === 'market' && params.side === 'buy' ? quote : base, amount: params.amount };
  },
  resend: false,
  absentIsFinal: false,
  send: (api, intent, options) =>
    attempt(
      () => api.spot.placeOrder({ ...intent.params, text: intent.clientId }, options),
      (r) => ({ platformId: String(r.id), ...(r.status ? { status: String(r.status) } : {}) }),
    ),
  findByClientId: (api, intent) =>
    asking(async () => {
      try {
        const order = await api.spot.getOrder(intent.clientId, { currency_pair: intent.params.currency_pair });
        return {
          state: 'found',
          platformId: String(order.id),
          ...(order.status ? { status: String(order.status) } : {}),
          record: order,
        };
      } catch (error) {
        // Only the platform's own "no such order" proves absence; anything else is not an answer.
        if (error instanceof ApiError && error.label === 'ORDER_NOT_FOUND') return { state: 'absent' };
        throw error;
      }
    }),
  describe: () => 'order',
});
