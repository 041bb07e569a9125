/**
 * UID push to another main account (POST /withdrawals/push). The spec gives it no client id: it is
 * found among the sent push records (GET /wallet/push) with the same receiver, currency and amount;
 * the engine claims one in the lookup window that no other intent holds (docs/core.md, "Proven absent").
 */
import Decimal from 'decimal.js';
import type { PushRequest } from '../../../shared/platform/api/wallet';
import { asking, attempt, defineAdapter, recordRange } from '../adapter';

export const push = defineAdapter({
  kind: 'push',
  clientId: (_params: PushRequest) => '',
  money: (params) => ({ currency: params.currency, amount: params.amount }),
  resend: true,
  absentIsFinal: false,
  send: (api, intent, options) =>
    attempt(
      () => api.withdrawals.push(intent.params, options),
      (r) => ({ platformId: r.id }),
    ),
  findByClientId: (api, intent, window) =>
    asking(async () => {
      const records = await api.wallet.pushRecords({
        transaction_type: 'withdraw',
        ...recordRange(window.fromSec, window),
        limit: 1000,
      });
      const amount = new Decimal(intent.amount);
      const candidates = records
        .filter(
          (r) =>
            r.receive_uid === Number(intent.params.receive_uid) &&
            r.currency === intent.currency &&
            new Decimal(r.amount).equals(amount) &&
            r.create_time >= window.fromSec,
        )
        .sort((a, b) => a.create_time - b.create_time)
        .map((r) => ({ id: r.id, time: r.create_time, status: r.status }));
      return { state: 'candidates', candidates };
    }),
  describe: () => 'UID transfer',
});
