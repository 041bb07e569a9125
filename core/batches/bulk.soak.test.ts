/**
 * A batch through faults at full size (`npm run test:soak`; the small version is in
 * bulk.integration.test.ts, what it does is in testing/batchFaults.ts).
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { control, type SandboxHandle, startTestSandbox } from '../../sandbox/testing/harness';
import { runBatchThroughFaults } from '../testing/batchFaults';

let sandbox: SandboxHandle;

beforeAll(async () => {
  // Real clock: own-transfer lookups compare platform record times with the journal's.
  sandbox = await startTestSandbox({ clock: 'real', market: 'off' });
  await control(sandbox, '/rate_limits', { enforce: false });
  await control(sandbox, '/balances', { user_id: sandbox.userId, account: 'spot', currency: 'USDT', amount: '100000' });
});

afterAll(async () => {
  await sandbox?.close();
});

describe('a batch through faults', () => {
  it('60 rows under 30 % faults and three restarts mid-run: every row executed exactly once', async () => {
    await control(sandbox, '/scale', { sub_accounts: 1 });
    const sub = sandbox.ctx.db
      .prepare("SELECT id FROM users WHERE parent_id = ? AND login_name LIKE 'scale_sub_%'")
      .get(sandbox.userId) as { id: number };
    await runBatchThroughFaults(sandbox, sub.id, 60);
  }, 300_000);
});
