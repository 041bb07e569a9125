/**
 * bench:team — two desks, one firm, under fire (issue 22; docs/team.md).
 *
 * Two desks (two data directories, two cores each in its own process, as the app runs them) share one
 * PostgreSQL (the test harness's server) and one sandbox. 500 withdrawals are prepared across the two
 * desks (half on each), every one needs an approver (the team policy: above 1 USDT) and is approved
 * from the OTHER desk as soon as it shows in that desk's Approvals list. Meanwhile the sandbox fails
 * 30 % of all requests (answers lost after the work, connections dropped before it, 500, 429, answers
 * slower than the client waits: the fault soak's mix), each desk's core is SIGKILLed three times (the
 * shell restarts it on the same data folder) and the PostgreSQL server is restarted once.
 *
 * Measured:
 * - doubled: platform withdrawals sharing a client id, or a planned amount executed twice (each
 *   planned withdrawal has its own amount) — target 0;
 * - lost: a planned withdrawal the platform never executed — target 0;
 * - prepare-to-visible on the other desk: from the maker's call answering AWAITING_APPROVAL (the
 *   team journal committed it) to the other desk's `approvals.list` showing it, read as its Approvals
 *   screen does on the `approvals.changed` event — target p95 < 1 s; given for all, for those
 *   prepared while the other desk's core and PostgreSQL were up, and for all counted from when the
 *   other desk could show them (a desk that is down shows nothing: from its restarted core's team
 *   connected, or PostgreSQL back);
 * - total time against the **rate-limit floor**: the minimum time the account's rate limit allows for
 *   the withdrawals' requests. POST /withdrawals is one request per 3 s per account
 *   (shared/platform/limits.ts); the bench runs the client's limiter at BENCH_TEAM_SCALE of the
 *   platform's windows (the sandbox counts but does not refuse, as in the fault soak), so the window is
 *   3 s × scale and N requests need at least (N − 1) windows (the first goes at once). The floor for
 *   the 500 movements is (500 − 1) × window; with faults some requests must be sent again (those the
 *   platform never executed), so the floor of the requests the run had to send is also given:
 *   (P − 1) × window, P = every POST /withdrawals the two desks sent. Target: total ≤ 1.1 × floor.
 *
 * `npm run bench:team` (BENCH_TEAM_MOVEMENTS, BENCH_TEAM_SCALE to change the size). Results:
 * bench/results/team.json. Exits 1 when anything was doubled or lost.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import Decimal from 'decimal.js';
import type { CoreProcessOptions } from '../core/host/messages';
import { nodeCoreLauncher } from '../core/host/nodeLauncher';
import { type RemoteCore, startRemoteCore } from '../core/host/remoteCore';
import { TEST_SCRYPT_COST } from '../core/operators/passphrase';
import { startTestPostgres } from '../core/team/testing/postgres';
import { control, startTestSandbox } from '../sandbox/testing/harness';
import type { Approval, PolicyInput } from '../shared/contract/policies';
import type { TeamStatus } from '../shared/contract/team';
import type { EventEntry } from '../shared/ipc/channel';
import type { Result } from '../shared/ipc/result';
import { RATE_LIMITS } from '../shared/platform/limits';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const N = Number(process.env.BENCH_TEAM_MOVEMENTS ?? 500);
const SCALE = Number(process.env.BENCH_TEAM_SCALE ?? 0.1);
const LEASE_MS = 5_000;
const ORIGIN = 'https://treasury-desk.invalid';
const SENDER = { url: `${ORIGIN}/`, isMainFrame: true };
const ALICE = { name: 'Alice', passphrase: 'first desk admin 1' };
const BOB = { name: 'Bob', passphrase: 'second desk admin 2' };
/** Prepares (and approvals) in flight per desk, as several people at two desks would. */
const IN_FLIGHT = 6;

/** The fault soak's mix (core/testing/faultSoak.ts): about 30 % of all requests. */
const FAULTS = [
  { kind: 'drop_after', probability: 0.1 },
  { kind: 'drop_before', probability: 0.08 },
  { kind: 'status_500', probability: 0.07 },
  { kind: 'status_429', probability: 0.05 },
  { kind: 'delay', probability: 0.04, ms: 4_000 },
].map((f) => ({ path: '/api/v4/*', ...f }));

const POLICY: PolicyInput = {
  limits: {},
  usdtLimits: {},
  allowlist: { required: false, coolingOffHours: 24, entries: [] },
  // Every withdrawal needs an approver; Alice enrolled Bob a moment ago, so no cooling-off.
  approval: { aboveUsdt: '1', newDestination: false, anyPush: false, expiresHours: 24, operatorCoolingOffHours: 0 },
};

const now = () => performance.now();
const pause = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};

const call = async (core: RemoteCore, operation: string, payload: unknown): Promise<Result<unknown>> =>
  core.dispatch(operation, payload, SENDER);
const value = async <T>(core: RemoteCore, operation: string, payload: unknown): Promise<T> => {
  const result = await call(core, operation, payload);
  if (!result.ok) throw new Error(`${operation}: ${JSON.stringify(result.error)}`);
  return result.value as T;
};

const main = async () => {
  const work = mkdtempSync(join(tmpdir(), 'td-bench-team-'));
  const pg = await startTestPostgres();
  const sandbox = await startTestSandbox({ clock: 'real', market: 'off', seed: 31 });
  const desks: Partial<Record<'A' | 'B', RemoteCore>> = {};
  try {
    await control(sandbox, '/rate_limits', { enforce: false });
    await control(sandbox, '/balances', {
      user_id: sandbox.userId,
      account: 'spot',
      currency: 'USDT',
      amount: '1000000',
    });
    const database = await pg.createDatabase();
    const url = `postgres://${pg.user}:${encodeURIComponent(pg.password)}@${pg.host}:${pg.port}/${database}?sslmode=disable`;
    /** The team journal's states, read as the database's administrator would (a new connection each time: it restarts). */
    const states = async (): Promise<Record<string, number>> => {
      const admin = await pg.admin(database).catch(() => undefined);
      if (admin === undefined) return {};
      admin.on('error', () => undefined);
      try {
        const { rows } = await admin.query<{ state: string; n: number }>(
          'SELECT state, count(*)::int AS n FROM movements GROUP BY state',
        );
        const counts: Record<string, number> = Object.fromEntries(rows.map((r) => [r.state, r.n]));
        // Why movements failed (the platform's label, or NOT_SENT): a failed movement was never executed.
        const failed = await admin.query<{ why: string; n: number }>(
          "SELECT coalesce(label, '?') || ': ' || left(coalesce(message, ''), 80) AS why, count(*)::int AS n FROM movements WHERE state = 'failed' GROUP BY 1",
        );
        for (const r of failed.rows) counts[`failed (${r.why})`] = r.n;
        return counts;
      } catch {
        return {};
      } finally {
        await admin.end().catch(() => undefined);
      }
    };

    // --- what each desk sees, as its window would -------------------------------------------------
    const plan = Array.from({ length: N }, (_, i) => ({
      i,
      maker: (i % 2 === 0 ? 'A' : 'B') as 'A' | 'B',
      amount: `10.${String(i).padStart(4, '0')}`,
      address: `T${String(i).padStart(5, '0')}TeamBenchAddr${'x'.repeat(16)}`,
      requestKey: crypto.randomUUID(),
      preparedAt: undefined as number | undefined,
      visibleAt: undefined as number | undefined,
      /** When the other desk's window first heard `approvals.changed` for it (the NOTIFY path alone). */
      heardAt: undefined as number | undefined,
      approvalId: undefined as string | undefined,
      approved: false,
    }));
    // The platform withdraws through the API only to saved addresses (api-facts: ADDRESS_NOT_USED).
    for (const p of plan)
      await control(sandbox, '/saved_addresses', {
        user_id: sandbox.userId,
        currency: 'USDT',
        chain: 'TRX',
        address: p.address,
      });
    const byAmount = new Map(plan.map((p) => [new Decimal(p.amount).toFixed(), p]));
    const approveQueue: (typeof plan)[number][] = [];
    const listing: Record<'A' | 'B', { running: boolean; again: boolean }> = {
      A: { running: false, again: false },
      B: { running: false, again: false },
    };
    /** The Approvals screen of a desk refreshes on `approvals.changed`: one read in flight, one queued. */
    const refreshList = (desk: 'A' | 'B') => {
      const state = listing[desk];
      if (state.running) {
        state.again = true;
        return;
      }
      state.running = true;
      void (async () => {
        do {
          state.again = false;
          const core = desks[desk];
          const result = core
            ? await call(core, 'approvals.list', { state: 'pending' }).catch(() => undefined)
            : undefined;
          if (result?.ok) {
            const at = now();
            for (const item of (result.value as { approvals: Approval[] }).approvals) {
              const p = item.amount ? byAmount.get(new Decimal(item.amount).toFixed()) : undefined;
              if (p === undefined || p.maker === desk || p.visibleAt !== undefined) continue;
              p.visibleAt = at;
              p.heardAt = heard[desk].get(item.id);
              p.approvalId = item.id;
              approveQueue.push(p);
            }
          }
        } while (state.again);
        state.running = false;
      })();
    };
    /** When each desk's window first heard `approvals.changed` for an item. */
    const heard: Record<'A' | 'B', Map<string, number>> = { A: new Map(), B: new Map() };
    const emitFor = (desk: 'A' | 'B') => (events: readonly EventEntry[]) => {
      const at = now();
      for (const [name, payload] of events) {
        if (name === 'team.statusChanged' && (payload as TeamStatus).database?.state === 'connected') {
          const restarted = outages.find((o) => o.who === desk && o.to !== Number.POSITIVE_INFINITY && !o.upAt);
          if (restarted) restarted.upAt = at;
        }
        const id = name === 'approvals.changed' ? String((payload as { id: string }).id) : '';
        if (id.startsWith('ap_tm-') && !heard[desk].has(id)) heard[desk].set(id, at);
      }
      if (
        events.some(
          ([name, payload]) =>
            name === 'approvals.changed' && String((payload as { id: string }).id).startsWith('ap_tm-'),
        )
      )
        refreshList(desk);
    };

    const options = (desk: 'A' | 'B', fingerprint?: string): Omit<CoreProcessOptions, 'shellOffers'> => ({
      dataDir: join(work, desk),
      shell: 'chromium',
      trustedOrigins: [ORIGIN],
      keyStore: 'memory',
      sandbox: { mode: 'external', baseUrl: sandbox.baseUrl, key: sandbox.key, secret: sandbox.secret },
      watchIntervalMs: 0,
      limiterScale: SCALE,
      timeoutMs: 3_000,
      movements: { settleMs: 4_000, backgroundMs: 500 },
      scryptCost: TEST_SCRYPT_COST,
      bootstrapOperator: desk === 'A' ? ALICE : BOB,
      team: {
        url,
        automate: desk === 'A' ? { teamName: 'Bench firm' } : { fingerprint: fingerprint!, role: 'admin' },
        leaseMs: LEASE_MS,
      },
    });
    /**
     * When each desk's core was down (SIGKILL → its restart ready) and PostgreSQL was away (stop →
     * started, plus the desks' 2 s probe): an approval prepared then cannot be on the other screen.
     */
    const outages: {
      who: 'A' | 'B' | 'postgres';
      from: number;
      to: number;
      /** A restarted core: when it said its team database is connected again (it can show approvals). */
      upAt?: number;
    }[] = [];
    const start = async (desk: 'A' | 'B', fingerprint?: string) => {
      mkdirSync(join(work, desk), { recursive: true });
      desks[desk] = await startRemoteCore({
        launch: nodeCoreLauncher(),
        log: (line: string) => console.error(`[${desk}] ${line}`),
        options: options(desk, fingerprint),
        emit: emitFor(desk),
        shell: {
          // The operator confirms in the trusted window, typing each amount it asks for.
          confirm: async ({ view }) => ({
            accepted: true,
            ...(view.typedAmounts ? { typedAmounts: view.typedAmounts.map((t) => t.amount) } : {}),
          }),
        },
        maxRestartsPerMinute: 20,
        onStart: () => {
          const open = outages.find((o) => o.who === desk && o.to === Number.POSITIVE_INFINITY);
          if (open) open.to = now();
        },
      });
      await desks[desk]!.ready();
    };

    // --- the team: Alice creates it on desk A, Bob joins from desk B and Alice enrols him ----------
    await start('A');
    await value(desks.A!, 'policies.set', POLICY);
    const fingerprint = (await value<TeamStatus>(desks.A!, 'team.status', {})).fingerprint!;
    await start('B', fingerprint);
    let request: TeamStatus['enrolments'][number] | undefined;
    while (request === undefined) {
      request = (await value<TeamStatus>(desks.A!, 'team.status', {})).enrolments[0];
      if (request === undefined) await pause(50);
    }
    await value(desks.A!, 'team.prepareEnrolment', { operatorId: request.operatorId });
    while ((await value<TeamStatus>(desks.B!, 'team.status', {})).me?.enrolled !== true) await pause(50);
    console.log(
      `Team ready (fingerprint ${fingerprint.slice(0, 16)}…); ${N} withdrawals, limiter at ${SCALE} × the platform's windows.`,
    );

    await control(sandbox, '/faults', { rules: FAULTS });
    const started = now();

    // --- makers on both desks ----------------------------------------------------------------------
    const prepare = async (p: (typeof plan)[number]) => {
      for (;;) {
        const core = desks[p.maker]!;
        const result = await call(core, 'funding.withdraw', {
          requestKey: p.requestKey,
          currency: 'USDT',
          chain: 'TRX',
          address: p.address,
          amount: p.amount,
        }).catch((error: Error) => ({ ok: false as const, error: { code: 'INTERNAL', message: error.message } }));
        if (!result.ok && result.error.code === 'AWAITING_APPROVAL') {
          p.preparedAt ??= now();
          return;
        }
        // A fault in the precheck, a core killed mid-call, the database restarting: the same
        // confirmation again (its request key joins what was journaled, never a second one).
        await pause(100);
      }
    };
    const makers = (['A', 'B'] as const).flatMap((desk) => {
      const mine = plan.filter((p) => p.maker === desk);
      return Array.from({ length: IN_FLIGHT }, async () => {
        for (let p = mine.shift(); p !== undefined; p = mine.shift()) await prepare(p);
      });
    });

    // --- approvers on the other desk, as items show ------------------------------------------------
    let approving = true;
    const approve = async (p: (typeof plan)[number]) => {
      const desk = p.maker === 'A' ? 'B' : 'A';
      for (;;) {
        const result = await call(desks[desk]!, 'approvals.approve', { id: p.approvalId!, reason: 'checked' }).catch(
          () => undefined,
        );
        if (result?.ok || (result && !result.ok && /no longer waits|already/.test(result.error.message))) {
          p.approved = true;
          return;
        }
        await pause(100);
      }
    };
    const approvers = Array.from({ length: 2 * IN_FLIGHT }, async () => {
      while (approving) {
        const p = approveQueue.shift();
        if (p === undefined) {
          await pause(20);
          continue;
        }
        await approve(p);
      }
    });

    // --- the faults of infrastructure: three kills of each core, one PostgreSQL restart -----------
    const kills: { desk: string; at: number }[] = [];
    // Three SIGKILLs of each desk's core, spread over the run (the shell restarts it on the same folder).
    const plannedKills = [
      { desk: 'A' as const, share: 0.15 },
      { desk: 'B' as const, share: 0.25 },
      { desk: 'A' as const, share: 0.4 },
      { desk: 'B' as const, share: 0.5 },
      { desk: 'A' as const, share: 0.7 },
      { desk: 'B' as const, share: 0.8 },
    ];
    let pgRestartedAt: number | undefined;
    let finished: Record<string, number> = {};
    for (;;) {
      finished = await states();
      const done = (finished.done ?? 0) + (finished.failed ?? 0);
      const next = plannedKills[0];
      if (next && done >= next.share * N) {
        plannedKills.shift();
        kills.push({ desk: next.desk, at: (now() - started) / 1000 });
        outages.push({ who: next.desk, from: now(), to: Number.POSITIVE_INFINITY });
        await desks[next.desk]!.crash();
      }
      if (pgRestartedAt === undefined && done >= 0.6 * N) {
        pgRestartedAt = (now() - started) / 1000;
        const from = now();
        await pg.stop();
        await pg.start();
        outages.push({ who: 'postgres', from, to: now() + 2_000 });
      }
      const settled = done + (finished.blocked ?? 0) + (finished.rejected ?? 0) + (finished.expired ?? 0);
      if (settled >= N && plan.every((p) => p.approved)) break;
      if (process.env.BENCH_TEAM_VERBOSE)
        console.log(
          `${Math.round((now() - started) / 1000)} s: ${JSON.stringify(finished)}, prepared ${plan.filter((p) => p.preparedAt).length}, approved ${plan.filter((p) => p.approved).length}`,
        );
      await pause(250);
    }
    const seconds = (now() - started) / 1000;
    approving = false;
    await Promise.all([...makers, ...approvers]);
    await control(sandbox, '/faults', { rules: [] }).catch(() => undefined);
    const restarts = { A: desks.A!.restarts, B: desks.B!.restarts };
    await desks.B!.close();
    await desks.A!.close();
    delete desks.A;
    delete desks.B;

    // --- what the platform executed ----------------------------------------------------------------
    const records = sandbox.ctx.db
      .prepare(
        "SELECT withdraw_order_id AS id, amount FROM withdrawals WHERE user_id = ? AND withdraw_order_id LIKE 'td%'",
      )
      .all(sandbox.userId) as { id: string; amount: string }[];
    const perId = new Map<string, number>();
    const perAmount = new Map<string, number>();
    for (const r of records) {
      perId.set(r.id, (perId.get(r.id) ?? 0) + 1);
      const amount = new Decimal(r.amount).toFixed();
      perAmount.set(amount, (perAmount.get(amount) ?? 0) + 1);
    }
    const doubled =
      [...perId.values()].filter((n) => n > 1).length + [...perAmount.values()].filter((n) => n > 1).length;
    const lost = plan.filter((p) => !perAmount.has(new Decimal(p.amount).toFixed())).length;
    // Every POST /withdrawals the desks sent (each desk's journal counts its attempts).
    const posts = (['A', 'B'] as const).reduce((sum, desk) => {
      const journal = new Database(join(work, desk, 'journal.sqlite'), { readonly: true });
      const { n } = journal
        .prepare("SELECT COALESCE(SUM(attempts), 0) AS n FROM intents WHERE kind = 'withdrawal'")
        .get() as { n: number };
      journal.close();
      return sum + n;
    }, 0);

    const visible = plan.flatMap((p) =>
      p.preparedAt !== undefined && p.visibleAt !== undefined ? [Math.max(0, p.visibleAt - p.preparedAt)] : [],
    );
    // When the other desk's window heard of it (the event), without the list read after it.
    const heardDelays = plan.flatMap((p) =>
      p.preparedAt !== undefined && p.heardAt !== undefined ? [Math.max(0, p.heardAt - p.preparedAt)] : [],
    );
    // The same, leaving out approvals prepared while the viewing desk's core or PostgreSQL was down.
    const undisturbed = plan.flatMap((p) => {
      if (p.preparedAt === undefined || p.visibleAt === undefined) return [];
      const viewer = p.maker === 'A' ? 'B' : 'A';
      const from = p.preparedAt;
      const to = p.visibleAt;
      const hit = outages.some((o) => (o.who === viewer || o.who === 'postgres') && o.from <= to && o.to >= from);
      return hit ? [] : [to - from];
    });
    // All of them, each counted from when the viewing desk could show it: an approval prepared while
    // that desk's core or PostgreSQL was down from the moment it was up again (its team connected).
    const fromUp = plan.flatMap((p) => {
      if (p.preparedAt === undefined || p.visibleAt === undefined) return [];
      const viewer = p.maker === 'A' ? 'B' : 'A';
      const prepared = p.preparedAt;
      const upAgain = outages
        .filter((o) => (o.who === viewer || o.who === 'postgres') && o.from <= prepared)
        .map((o) => o.upAt ?? o.to)
        .filter((up) => up > prepared);
      return [Math.max(0, p.visibleAt - Math.max(prepared, ...upAgain))];
    });
    const rule = RATE_LIMITS.withdraw;
    const windowS = (rule.windowMs * SCALE) / 1000 / rule.limit;
    const floor = (N - 1) * windowS;
    const floorOfSent = (Math.max(posts, N) - 1) * windowS;
    const figures = {
      movements: N,
      limiterScale: SCALE,
      withdrawWindowSeconds: windowS,
      doubled,
      lost,
      teamStates: finished,
      platformRecords: records.length,
      postsSent: posts,
      visibleP50Ms: Math.round(percentile(visible, 50)),
      visibleP95Ms: Math.round(percentile(visible, 95)),
      visibleMaxMs: Math.round(Math.max(...visible)),
      heardP50Ms: Math.round(percentile(heardDelays, 50)),
      heardP95Ms: Math.round(percentile(heardDelays, 95)),
      visibleUndisturbedCount: undisturbed.length,
      visibleUndisturbedP95Ms: Math.round(percentile(undisturbed, 95)),
      visibleFromUpP50Ms: Math.round(percentile(fromUp, 50)),
      visibleFromUpP95Ms: Math.round(percentile(fromUp, 95)),
      seconds: Math.round(seconds * 10) / 10,
      floorSeconds: Math.round(floor * 10) / 10,
      ratioToFloor: Math.round((seconds / floor) * 100) / 100,
      floorOfSentSeconds: Math.round(floorOfSent * 10) / 10,
      ratioToFloorOfSent: Math.round((seconds / floorOfSent) * 100) / 100,
      kills,
      coreRestarts: restarts,
      postgresRestartedAtSecond: pgRestartedAt,
      faults: '30 % of requests (drop after 10 %, drop before 8 %, 500 7 %, 429 5 %, 4 s delay 4 %)',
    };
    console.log('\n| figure | value | target |');
    console.log('| --- | --- | --- |');
    console.log(`| doubled | ${doubled} | 0 |`);
    console.log(`| lost | ${lost} | 0 |`);
    console.log(
      `| prepare → visible on the other desk, p95 | ${figures.visibleP95Ms} ms (p50 ${figures.visibleP50Ms}, max ${figures.visibleMaxMs}) | < 1000 ms |`,
    );
    console.log(
      `| the same, the ${undisturbed.length} prepared while the other desk's core and PostgreSQL were up, p95 | ${figures.visibleUndisturbedP95Ms} ms | |`,
    );
    console.log(
      `| the same, all ${fromUp.length}, counted from when the other desk was up (core restarted and its team connected), p95 | ${figures.visibleFromUpP95Ms} ms (p50 ${figures.visibleFromUpP50Ms}) | |`,
    );
    console.log(
      `| prepare → the other desk's window hears approvals.changed (NOTIFY), p95 | ${figures.heardP95Ms} ms (p50 ${figures.heardP50Ms}) | |`,
    );
    console.log(`| total time | ${figures.seconds} s | |`);
    console.log(
      `| rate-limit floor of the ${N} withdrawals ((N − 1) × ${windowS} s) | ${figures.floorSeconds} s → ratio ${figures.ratioToFloor} | ≤ 1.1 |`,
    );
    console.log(
      `| floor of the ${posts} POSTs the faults made necessary | ${figures.floorOfSentSeconds} s → ratio ${figures.ratioToFloorOfSent} | |`,
    );
    console.log(
      `| core kills (desk @ s) | ${kills.map((k) => `${k.desk}@${Math.round(k.at)}`).join(', ')} | 3 per desk |`,
    );
    console.log(`| PostgreSQL restarted at | ${pgRestartedAt?.toFixed(0)} s | once |`);
    const out = join(ROOT, 'bench/results/team.json');
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify({ ...figures, at: new Date().toISOString() }, null, 2)}\n`);
    console.log(`\nResults: ${out}`);
    if (doubled > 0 || lost > 0) process.exitCode = 1;
  } finally {
    await desks.B?.close().catch(() => undefined);
    await desks.A?.close().catch(() => undefined);
    await sandbox.close();
    await pg.close();
    rmSync(work, { recursive: true, force: true });
  }
};

void main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
