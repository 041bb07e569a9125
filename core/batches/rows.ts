/**
 * A batch's rows as what they are: each row as its movement's domain command (the same request a
 * single movement sends), and each as its trusted confirmation lists it — what, where to, how much —
 * with the total per currency.
 */
import Decimal from 'decimal.js';
import type { BatchRowInput } from '../../shared/contract/bulk';
import { type SubName, transferEnds } from '../../shared/contract/transfers';
import type { MovementRequests } from '../commands/movements';
import type { BatchLine } from '../policies/views';

/** A row as its domain command's request (the same shape a single movement sends). */
export const commandOf = (
  input: BatchRowInput,
):
  | { kind: 'withdrawal'; request: MovementRequests['withdrawal'] }
  | { kind: 'push'; request: MovementRequests['push'] }
  | { kind: 'transfer'; request: MovementRequests['transfer'] } => {
  if (input.type === 'push') {
    return { kind: 'push', request: { receiveUid: input.receiveUid, currency: input.currency, amount: input.amount } };
  }
  if (input.type === 'withdrawal') {
    return {
      kind: 'withdrawal',
      request: {
        currency: input.currency,
        chain: input.chain,
        address: input.address,
        amount: input.amount,
        ...(input.memo ? { memo: input.memo } : {}),
      },
    };
  }
  const { from, to, currency, amount } = input;
  if (from.owner === 'main' && to.owner === 'main') {
    return {
      kind: 'transfer',
      request: {
        kind: 'own',
        currency,
        from: from.account,
        to: to.account,
        amount,
        ...(from.pair || to.pair ? { currencyPair: from.pair ?? to.pair } : {}),
        ...(from.settle || to.settle ? { settle: from.settle ?? to.settle } : {}),
      },
    };
  }
  if (from.owner !== 'main' && to.owner !== 'main') {
    return {
      kind: 'transfer',
      request: {
        kind: 'subSub',
        fromUserId: from.owner,
        fromType: from.account as 'spot' | 'futures' | 'delivery',
        toUserId: to.owner,
        toType: to.account as 'spot' | 'futures' | 'delivery',
        currency,
        amount,
      },
    };
  }
  const sub = from.owner === 'main' ? to : from;
  return {
    kind: 'transfer',
    request: {
      kind: 'mainSub',
      direction: from.owner === 'main' ? 'to' : 'from',
      subUserId: sub.owner as number,
      subAccountType: sub.account as 'spot' | 'futures' | 'delivery' | 'options',
      currency,
      amount,
    },
  };
};

/** Every row as its confirmation lists it; `names` says sub-accounts' names ("desk_ops (UID 10000003)"). */
export const confirmationLines = (
  inputs: readonly { row: number; input: BatchRowInput }[],
  names: SubName,
): BatchLine[] =>
  inputs.map(({ row, input }) => {
    const command = commandOf(input);
    const base = { row, currency: input.currency, amount: input.amount };
    if (command.kind === 'withdrawal') {
      const r = command.request;
      return {
        ...base,
        what: 'Withdrawal',
        destination: `${r.address}${r.memo ? ` memo ${r.memo}` : ''} (${r.chain})`,
      };
    }
    if (command.kind === 'push')
      return { ...base, what: 'UID transfer', destination: `UID ${command.request.receiveUid}` };
    const ends = transferEnds(command.request, names);
    return { ...base, what: 'Transfer', destination: `${ends.to} (from ${ends.from})` };
  });

/** Whether the lines name sub-accounts (then their names are read). */
export const namesSubAccounts = (inputs: readonly { input: BatchRowInput }[]): boolean =>
  inputs.some((r) => r.input.type === 'transfer');

/** The total of the rows per currency, exactly (decimal strings). */
export const totalsOf = (inputs: readonly { input: BatchRowInput }[]): { currency: string; amount: string }[] => {
  const totals = new Map<string, Decimal>();
  for (const { input } of inputs)
    totals.set(input.currency, (totals.get(input.currency) ?? new Decimal(0)).plus(input.amount));
  return [...totals].map(([currency, total]) => ({ currency, amount: total.toFixed() }));
};
