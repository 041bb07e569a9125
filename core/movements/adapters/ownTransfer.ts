/**
 * Transfer between the account's own accounts (POST /wallet/transfers: spot ↔ margin, futures,
 * delivery). The spec gives it no client id: it is found in the account book the spec names for
 * transfer records (margin; futures and delivery `type=dnw`) as an entry of ±amount; the engine
 * claims one in the lookup window that no other intent holds.
 */
import Decimal from 'decimal.js';
import type { TransferRequest } from '../../../shared/platform/api/wallet';
import { asking, attempt, defineAdapter, recordRange } from '../adapter';

export const ownTransfer = defineAdapter({
  kind: 'transfer',
  clientId: (_params: TransferRequest) => '',
  money: (params) => ({ currency: params.currency, amount: params.amount }),
  resend: true,
  absentIsFinal: false,
  send: (api, intent, options) =>
    attempt(
      () => api.wallet.transfer(intent.params, options),
      (r) => ({ platformId: r.tx_id }),
    ),
  findByClientId: (api, intent, window) =>
    asking(async () => {
      const request = intent.params;
      const other = request.from === 'spot' ? request.to : request.from;
      const sign = request.to === other ? 1 : -1; // the other side's book sees +amount when money goes in
      const expected = new Decimal(intent.amount).times(sign);
      const range = recordRange(window.fromSec, window);
      // Entries without an id are named by time, change and their rank among equal ones, which is
      // the same whatever window an intent queries (a rank within the window would shift).
      const seen = new Map<string, number>();
      const syntheticId = (e: { time: number; change: string }): string => {
        const base = `${e.time}:${e.change}`;
        const rank = seen.get(base) ?? 0;
        seen.set(base, rank + 1);
        return `${base}:${rank}`;
      };
      let entries: { id?: string; time: number; change: string; currency?: string; type?: string }[];
      if (other === 'margin') {
        entries = await api.books.margin({
          ...range,
          currency: intent.currency,
          currency_pair: request.currency_pair,
          limit: 1000,
        });
      } else if (other === 'futures' || other === 'delivery') {
        const settle = (request.settle ?? intent.currency).toLowerCase();
        const book = other === 'futures' ? api.books.futures : api.books.delivery;
        entries = await book(settle, { ...range, type: 'dnw', limit: 1000 });
      } else {
        return {
          state: 'unknown',
          reason: `no account book names transfers to/from ${other}; check the balances by hand`,
        };
      }
      const candidates = entries
        .filter(
          (e) =>
            (e.currency === undefined || e.currency === intent.currency) &&
            new Decimal(e.change).equals(expected) &&
            e.time >= window.fromSec,
        )
        .sort((a, b) => a.time - b.time)
        .map((e) => ({ id: e.id ?? syntheticId(e), time: e.time }));
      return { state: 'candidates', candidates };
    }),
  describe: () => 'transfer',
});
