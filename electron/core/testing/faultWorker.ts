/**
 * The core in a child process for the fault test: issues the planned money movements (continuing
 * where the journal says it stopped), lets the journal settle every intent, and prints progress as
 * JSON lines. The test SIGKILLs it mid-flight and starts it again on the same data directory.
 */
import { createCore } from '../core';
import { MemoryKeyStore } from '../keychain/keyStore';

export interface FaultPlan {
  readonly dataDir: string;
  readonly baseUrl: string;
  readonly key: string;
  readonly secret: string;
  readonly total: number;
  readonly addresses: readonly string[];
  readonly receiverUid: number;
  readonly subs: readonly [number, number];
  readonly concurrency: number;
}

/**
 * The i-th planned operation: kinds rotate so every kind is hit by every fault. (Sub→sub transfers
 * are left out: the spec offers no way to settle their lost answers automatically.)
 */
export const planned = (plan: FaultPlan, i: number) => {
  const n = String(i).padStart(3, '0');
  switch (i % 6) {
    case 0:
    case 3:
      return {
        kind: 'withdrawal' as const,
        request: {
          currency: 'USDT',
          chain: 'TRX',
          address: plan.addresses[i % plan.addresses.length] as string,
          amount: `10.${n}`,
        },
      };
    case 1:
      return { kind: 'push' as const, request: { receive_uid: plan.receiverUid, currency: 'USDT', amount: `1.${n}` } };
    case 2:
      return {
        kind: 'transfer' as const,
        request: { currency: 'USDT', from: 'spot' as const, to: 'futures' as const, settle: 'usdt', amount: `2.${n}` },
      };
    default:
      return {
        kind: 'subAccountTransfer' as const,
        request: { sub_account: String(plan.subs[0]), currency: 'USDT', amount: `3.${n}`, direction: 'to' as const },
      };
  }
};

const main = async () => {
  const plan = JSON.parse(process.env.FAULT_PLAN ?? '{}') as FaultPlan;
  const say = (event: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(event)}\n`);
  const core = await createCore({
    dataDir: plan.dataDir,
    shell: 'chromium',
    trustedOrigins: [],
    emit: () => {},
    keyStore: new MemoryKeyStore(),
    sandbox: { mode: 'external', baseUrl: plan.baseUrl, key: plan.key, secret: plan.secret },
    timeoutMs: 1_500,
    limiterScale: 0.001,
    movements: { settleMs: 4_000, backgroundMs: 250, maxAttempts: 10 },
    watchIntervalMs: 0,
  });
  const m = core.ctx.movements;
  const count = () => (core.db.prepare('SELECT COUNT(*) AS n FROM intents').get() as { n: number }).n;
  let next = count();
  say({ event: 'started', intents: next, open: core.movementService.openCount() });
  const states = () =>
    Object.fromEntries(
      (
        core.db.prepare('SELECT state, COUNT(*) AS n FROM intents GROUP BY state').all() as {
          state: string;
          n: number;
        }[]
      ).map((r) => [r.state, r.n]),
    );
  const stuck = () =>
    core.db
      .prepare(
        "SELECT kind, attempts, label, message, sent_at FROM intents WHERE state NOT IN ('done','failed') LIMIT 3",
      )
      .all();
  const ticker = setInterval(() => say({ event: 'progress', next, states: states(), stuck: stuck() }), 2_000);
  const lane = async () => {
    for (;;) {
      const i = next++;
      if (i >= plan.total) return;
      const op = planned(plan, i);
      // Outcomes are the journal's business; a thrown OUTCOME_UNKNOWN is settled in the background.
      await (m[op.kind === 'withdrawal' ? 'withdraw' : op.kind] as (r: unknown) => Promise<unknown>)
        .call(m, op.request)
        .catch(() => undefined);
    }
  };
  await Promise.all(Array.from({ length: plan.concurrency }, lane));
  while (core.movementService.openCount() > 0) {
    await core.movementService.reconcile();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  clearInterval(ticker);
  say({ event: 'done', intents: count() });
  await core.close();
};

if (process.env.FAULT_PLAN) {
  main().catch((error) => {
    process.stdout.write(`${JSON.stringify({ event: 'crashed', error: String(error) })}\n`);
    process.exit(1);
  });
}
