/**
 * Handlers of the `policies` and `approvals` areas. The rules themselves live in the guard
 * (services/guard.ts) and the pure check (policies/evaluate.ts); an approved movement is sent here,
 * through the movement journal, under the request key the maker's confirmation journaled.
 */
import type { DeskHandlers } from '../../../shared/contract';
import type { StoredApproval } from '../policies/approvals';
import type { ServiceContext } from './context';
import type { Guard } from './guard';
import { assertSafeText } from './textSafety';

export const createPoliciesHandlers = (_ctx: ServiceContext, guard: Guard): DeskHandlers['policies'] => ({
  get: async () => guard.policyView(),
  set: async (input) => {
    for (const entry of input.allowlist.entries) {
      assertSafeText({ address: [entry.address, 'address'], memo: [entry.memo, 'memo'], label: [entry.label, 'name'] });
    }
    return guard.setPolicy(input);
  },
});

export const createApprovalsHandlers = (ctx: ServiceContext, guard: Guard): DeskHandlers['approvals'] => {
  /** Sends an approved movement exactly as the maker confirmed it, under its request key (exactly once). */
  const send = (a: StoredApproval) => {
    const r = a.request;
    if (a.kind === 'withdrawal') {
      return ctx.movements.withdraw(
        {
          currency: String(r.currency),
          chain: String(r.chain),
          address: String(r.address),
          amount: String(r.amount),
          ...(typeof r.memo === 'string' && r.memo !== '' ? { memo: r.memo } : {}),
        },
        { requestKey: a.requestKey },
      );
    }
    return ctx.movements.push(
      { receive_uid: Number(r.receiveUid), currency: String(r.currency), amount: String(r.amount) },
      { requestKey: a.requestKey },
    );
  };
  return {
    list: async ({ state }) => ({ approvals: guard.listApprovals(state) }),
    approve: async ({ id, reason }) => guard.approve(id, reason, send),
    reject: async ({ id, reason }) => guard.reject(id, reason),
  };
};
