/**
 * Sweep and top-up (docs/bulk.md): the rows that collect every selected sub-account's balances
 * above a threshold to main spot, or bring each selected account up to a target from main spot.
 */
import Decimal from 'decimal.js';
import type { DeskHandlers } from '../../shared/contract';
import type { BatchRowInput } from '../../shared/contract/bulk';
import { TRANSFER_MAX_DECIMALS } from '../../shared/contract/transfers';
import type { PlatformApi } from '../api/platform';

/** The rows of a sweep (sub-accounts → main spot) or a top-up (main spot → sub-accounts). */
export const sweepRows = async (
  api: PlatformApi,
  input: Parameters<DeskHandlers['bulk']['planSweep']>[0],
): Promise<BatchRowInput[]> => {
  const rows: BatchRowInput[] = [];
  const uids = [...new Set(input.subUserIds)];
  const threshold = new Decimal(input.threshold ?? '0');
  const spotRows = input.accountTypes.includes('spot')
    ? (await Promise.all(uids.map((uid) => api.wallet.subAccountBalances({ sub_uid: String(uid) })))).flat()
    : [];
  const futuresRows = input.accountTypes.includes('futures')
    ? (
        await Promise.all(
          uids.map((uid) => api.wallet.subAccountFuturesBalances({ sub_uid: String(uid) }).catch(() => [])),
        )
      ).flat()
    : [];
  const cap = (v: string) => new Decimal(v).toDecimalPlaces(TRANSFER_MAX_DECIMALS, Decimal.ROUND_DOWN);
  for (const uid of uids) {
    for (const type of input.accountTypes) {
      const balances: [string, string][] =
        type === 'spot'
          ? Object.entries(spotRows.find((r) => Number(r.uid) === uid)?.available ?? {})
          : Object.entries(futuresRows.find((r) => Number(r.uid) === uid)?.available ?? {}).map(([settle, a]) => [
              settle.toUpperCase(),
              a.available ?? '0',
            ]);
      if (input.mode === 'sweep') {
        for (const [currency, amount] of balances) {
          if (input.currency && currency !== input.currency) continue;
          const value = cap(amount);
          if (value.lte(0) || value.lte(threshold)) continue;
          rows.push({
            type: 'transfer',
            currency,
            amount: value.toFixed(),
            from: { owner: uid, account: type },
            to: { owner: 'main', account: 'spot' },
            reference: `sweep ${type}`,
          });
        }
      } else {
        const currency = input.currency as string;
        const have = new Decimal(balances.find(([c]) => c === currency)?.[1] ?? '0');
        const need = cap(new Decimal(input.target as string).minus(have).toFixed());
        if (need.lte(0)) continue;
        rows.push({
          type: 'transfer',
          currency,
          amount: need.toFixed(),
          from: { owner: 'main', account: 'spot' },
          to: { owner: uid, account: type },
          reference: `top-up to ${input.target}`,
        });
      }
    }
  }
  return rows;
};
