/**
 * Test support for the batch-approval tests (a batch that waits as one item in Approvals): their
 * operators, their policy, and a second sandbox user that the batches push to, counted in the
 * sandbox's own records.
 */
import { control, type TestSandbox } from '../../sandbox/testing/harness';
import type { PolicyInput } from '../../shared/contract/policies';
import type { OperatorInfo } from '../operators';

export const ADMIN: OperatorInfo = { id: 'op-admin', name: 'Ada (admin)', role: 'admin' };
export const MAKER: OperatorInfo = { id: 'op-maker', name: 'Max (maker)', role: 'maker' };
export const APPROVER: OperatorInfo = { id: 'op-approver', name: 'Alice (approver)', role: 'approver' };

/** Pushes over 50 USDT need an approver, a batch of them waits as one item; over 500 is refused. */
export const BATCH_APPROVAL_POLICY: PolicyInput = {
  limits: { USDT: { perTransaction: '500' } },
  usdtLimits: {},
  allowlist: { required: false, coolingOffHours: 24, entries: [] },
  approval: { aboveUsdt: '50', newDestination: false, anyPush: false, approveBatchesAsAWhole: true, expiresHours: 1 },
};

export interface PushReceiver {
  /** withSandboxCore's `beforeCore`: the platform's pace off, and the receiving user created. */
  beforeCore(sandbox: TestSandbox): Promise<void>;
  /** The sandbox's own records: pushes to the receiver of this amount. */
  pushed(sandbox: TestSandbox, amount: string): number;
  /** A batch's CSV: one push of each amount to the receiver, referenced `${tag} ${i}`. */
  csv(amounts: readonly string[], tag: string): string;
}

export const pushReceiver = (): PushReceiver => {
  let receiver = 0;
  return {
    beforeCore: async (sandbox) => {
      // Pushes are limited to 1 per 10 s: these tests are about approvals, not the platform's pace.
      await control(sandbox, '/rate_limits', { enforce: false });
      receiver = ((await control(sandbox, '/users', {})) as { user_id: number }).user_id;
    },
    pushed: (sandbox, amount) =>
      (
        sandbox.ctx.db
          .prepare('SELECT COUNT(*) AS n FROM pushes WHERE receive_uid = ? AND CAST(amount AS REAL) = ?')
          .get(receiver, Number(amount)) as { n: number }
      ).n,
    csv: (amounts, tag) =>
      [
        'type,currency,amount,to,reference',
        ...amounts.map((a, i) => `push,USDT,${a},uid:${receiver},${tag} ${i}`),
      ].join('\n'),
  };
};
