/**
 * POST /sandbox/scale at full size (`npm run test:soak`): 50,000 deposits and 1,000 sub-accounts in
 * one call. What the seeded records look like through the signed API is in scale.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { controlAnswer, startTestSandbox } from '../testing/harness';

type ScaleAnswer = { deposits: number; withdrawals: number; sub_accounts: number; from: number; to: number };

describe('POST /sandbox/scale', () => {
  // How fast it is, is bench work (bench/core-process.ts seeds the same way): a test asserts no clock time.
  it('seeds 50,000 deposits and 1,000 sub-accounts in one call', async () => {
    const fresh = await startTestSandbox({ seed: 12 });
    try {
      const started = performance.now();
      const answer = await controlAnswer<ScaleAnswer>(fresh, 'POST', '/scale', {
        deposits: 50_000,
        sub_accounts: 1000,
      });
      const ms = performance.now() - started;
      console.log(`POST /sandbox/scale 50,000 deposits + 1,000 sub-accounts: ${ms.toFixed(0)} ms`);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ deposits: 50_000, withdrawals: 0, sub_accounts: 1000 });
      const n = (fresh.ctx.db.prepare('SELECT COUNT(*) AS n FROM deposits').get() as { n: number }).n;
      expect(n).toBe(50_000 + 3);
      expect(fresh.ctx.users.subAccounts(fresh.userId).length).toBe(1000 + 2);
    } finally {
      await fresh.close();
    }
  });
});
