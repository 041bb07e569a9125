/**
 * THE FAULT SOAK, at any size. Withdrawals, pushes and transfers (own and main↔sub) go through the
 * journal of a core in its own process (testing/faultWorker.ts) while the sandbox injects faults
 * into 30 % of requests (connection dropped before or after the work, 500, 429, delays longer than
 * the client's timeout). The core process may be SIGKILLed mid-flight and restarted on the same
 * journal, each run with its own clock (the computer's clock fast, corrected, slow: the offset
 * changes between an intent and its lookup); the clock may also be stepped while a run works (NTP,
 * a person, a VM resumed); 4 % of the journal's writes fail as on a full disk; a second process
 * started on the same data directory must refuse. Afterwards the journal is compared with the
 * sandbox's own records: every operation executed exactly once (0 doubled), none lost, every intent
 * resolved — and the requests that left never paused for more than one rate window (no stall).
 *
 * `npm test` runs a small version of each scenario (movements/fault.test.ts); `npm run test:soak`
 * runs them at full size (movements/fault.soak.test.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import Decimal from 'decimal.js';
import { expect } from 'vitest';
import { bundledEntry } from '../../sandbox/testing/bundledEntry';
import { control, startTestSandbox, type TestSandbox } from '../../sandbox/testing/harness';
import { type ClockStep, FAULT_TIMING, type FaultPlan, planned } from './faultWorker';
import { waitUntil } from './waitUntil';

export interface SoakScenario {
  /** Money movements, every kind in turn. */
  readonly total: number;
  /** Times the core process is SIGKILLed mid-flight (then restarted on the same journal). */
  readonly kills: number;
  /** This computer's clock minus the real time in each run (kills + 1 runs; missing: right). */
  readonly runSkewsMs?: readonly number[];
  /** Steps of the computer's clock while the last run works. */
  readonly liveSteps?: readonly ClockStep[];
  /** Share of the journal's writes that fail as on a full disk (default 4 %). */
  readonly journalFaultRate?: number;
}

export interface SoakResult {
  readonly movements: number;
  /** Movements sent again after they were proven absent (the faults really happened). */
  readonly resent: number;
  readonly doubled: number;
  readonly lost: number;
  /** The longest pause between two requests leaving the last run, ms. */
  readonly maxGapMs: number;
  readonly requests: number;
  readonly seconds: number;
}

/**
 * No pause longer than one window: the longest rate window of a movement (UID push, one per 10 s),
 * however far the clock stepped. The bug this guards against held every request for the step.
 */
export const MAX_GAP_MS = 10_000;

/** Every fault kind, about 30 % of all requests (writes and the reads that settle them). */
const FAULT_RULES = (() => {
  const rule = (kind: string, probability: number, extra: Record<string, unknown> = {}) => ({
    path: '/api/v4/*',
    kind,
    probability,
    ...extra,
  });
  return [
    rule('drop_after', 0.1),
    rule('drop_before', 0.08),
    rule('status_500', 0.07),
    rule('status_429', 0.05),
    rule('delay', 0.04, { ms: FAULT_TIMING.delayMs }),
  ];
})();

/** A core process (`worker`: the bundled faultWorker.ts) running part of the plan; its JSON lines as they come. */
const startWorker = (
  worker: string,
  plan: FaultPlan,
  env: {
    skewMs?: number;
    steps?: readonly ClockStep[];
    journalFaultRate: number;
    /** Loads, then waits for `start()` (see the second app on the same data directory). */
    startOnInput?: boolean;
    /** Runs until killed, even once everything is done (see faultWorker.ts). */
    untilKilled?: boolean;
  },
) => {
  const child = spawn(process.execPath, [worker], {
    env: {
      ...process.env,
      FAULT_PLAN: JSON.stringify(plan),
      CLOCK_SKEW_MS: String(env.skewMs ?? 0),
      CLOCK_STEPS: JSON.stringify(env.steps ?? []),
      JOURNAL_FAULT_RATE: String(env.journalFaultRate),
      ...(env.startOnInput ? { START_ON_INPUT: '1' } : {}),
      ...(env.untilKilled ? { UNTIL_KILLED: '1' } : {}),
    },
    stdio: [env.startOnInput ? 'pipe' : 'ignore', 'pipe', 'inherit'],
  });
  const lines: Record<string, unknown>[] = [];
  let buffer = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let nl = buffer.indexOf('\n');
    while (nl >= 0) {
      lines.push(JSON.parse(buffer.slice(0, nl)) as Record<string, unknown>);
      buffer = buffer.slice(nl + 1);
      nl = buffer.indexOf('\n');
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const last = (event: string) => [...lines].reverse().find((l) => l.event === event);
  /** A worker started with `startOnInput`: loaded, it starts now. */
  const start = () => child.stdin?.end('go\n');
  return { child, lines, exited, last, start };
};

/** How many intents the worker has journaled so far (by its own lines). */
const journaledBy = (lines: readonly Record<string, unknown>[]): number =>
  Number([...lines].reverse().find((l) => l.event === 'journaled' || l.event === 'started')?.intents ?? 0);

/**
 * Waits for the worker to finish while it makes progress: fails when its progress (the journal's
 * states) has not changed for `stallMs`. Settling under 30 % faults takes as long as the machine is
 * slow; a stalled journal is the failure, not a slow one.
 */
const finishWhileProgressing = async (run: ReturnType<typeof startWorker>, stallMs: number) => {
  let seen = '';
  let changedAt = Date.now();
  await waitUntil(
    () => {
      if (run.last('done') || run.last('crashed')) return true;
      const progress = run.last('progress');
      const now = JSON.stringify([progress?.left, progress?.states, journaledBy(run.lines)]);
      if (now !== seen) {
        seen = now;
        changedAt = Date.now();
      }
      if (Date.now() - changedAt > stallMs) throw new Error(`no progress for ${stallMs / 1000} s: ${seen}`);
      return false;
    },
    { timeoutMs: 600_000, what: 'the last run to settle everything', everyMs: 20 },
  );
};

/**
 * The live clock-step case: the computer's clock stepped +10 min, −10 min, +30 s while `total`
 * movements run (after a quarter, half and three quarters of them are journaled).
 */
export const clockStepsWhileRunning = (total: number): ClockStep[] => [
  { afterJournaled: Math.round(total / 4), byMs: 600_000 },
  { afterJournaled: Math.round(total / 2), byMs: -600_000 },
  { afterJournaled: Math.round((3 * total) / 4), byMs: 30_000 },
];

/** Runs one scenario against a fresh sandbox and checks it; returns its figures. */
export const runFaultSoak = async (scenario: SoakScenario): Promise<SoakResult> => {
  const started = Date.now();
  const journalFaultRate = scenario.journalFaultRate ?? 0.04;
  const worker = await bundledEntry(path.join(import.meta.dirname, 'faultWorker.ts'));
  // Real clock: record times must be wall times for the push and transfer lookups (with the manual
  // clock the sandbox's business time stands still while the test runs).
  const sandbox: TestSandbox = await startTestSandbox({ clock: 'real' });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'td-fault-'));
  const children: ChildProcess[] = [];
  try {
    // Limits are the limiter tests' business; here the sandbox counts but does not refuse, and the
    // client runs with shortened windows, so hundreds of movements fit in a minute or two.
    await control(sandbox, '/rate_limits', { enforce: false });
    const receiver = await control<{ user_id: number }>(sandbox, '/users', {});
    const subs = (
      sandbox.ctx.db.prepare('SELECT id FROM users WHERE parent_id = ? ORDER BY id').all(sandbox.userId) as {
        id: number;
      }[]
    ).map((r) => r.id);
    const addresses: string[] = [];
    for (let i = 0; i < Math.ceil(scenario.total / 3); i++) {
      const address = `T${String(i).padStart(4, '0')}FaultTestAddr${'x'.repeat(16)}`;
      await control(sandbox, '/saved_addresses', { user_id: sandbox.userId, currency: 'USDT', chain: 'TRX', address });
      addresses.push(address);
    }
    const plan: FaultPlan = {
      dataDir,
      baseUrl: sandbox.baseUrl,
      key: sandbox.key,
      secret: sandbox.secret,
      total: scenario.total,
      addresses,
      receiverUid: receiver.user_id,
      subs: [subs[0] as number, subs[1] as number],
      concurrency: 4,
    };
    await control(sandbox, '/faults', { rules: FAULT_RULES });

    // Each run but the last is killed once it has journaled a few more movements (a random share of
    // what is left): mid-flight, wherever that falls on a slow or a fast machine.
    const perRun = Math.max(2, Math.floor(scenario.total / (scenario.kills + 2)));
    for (let kill = 0; kill < scenario.kills; kill++) {
      const run = startWorker(worker, plan, {
        skewMs: scenario.runSkewsMs?.[kill] ?? 0,
        journalFaultRate,
        untilKilled: true,
      });
      children.push(run.child);
      // A second app on the same data directory while the first works: refused, touching nothing.
      // Loaded beside the first and let go once the first holds the journal: on a busy machine
      // loading it takes seconds, long enough for the first to finish and let go of the journal.
      const second = kill === 0 ? startWorker(worker, plan, { journalFaultRate, startOnInput: true }) : undefined;
      if (second) children.push(second.child);
      // Starting a worker (a core, the operator's scrypt) takes a second or so, more on a busy machine.
      await waitUntil(
        () => run.last('started') !== undefined && (second === undefined || second.last('ready') !== undefined),
        {
          timeoutMs: 60_000,
          what: 'a worker to start',
        },
      );
      if (second) {
        second.start();
        expect(await second.exited).toBe(3);
        expect(second.lines).toEqual([{ event: 'ready' }, { event: 'refused', holder: run.child.pid }]);
      }
      const target = journaledBy(run.lines) + Math.ceil(perRun * (0.5 + Math.random() / 2));
      await waitUntil(() => journaledBy(run.lines) >= target || run.last('done') !== undefined, {
        timeoutMs: 120_000,
        what: 'the worker to journal more movements',
      });
      run.child.kill('SIGKILL');
      await run.exited;
    }
    const last = startWorker(worker, plan, {
      skewMs: scenario.runSkewsMs?.[scenario.kills] ?? 0,
      ...(scenario.liveSteps ? { steps: scenario.liveSteps } : {}),
      journalFaultRate,
    });
    children.push(last.child);
    await finishWhileProgressing(last, 45_000).catch((error) => {
      console.log(JSON.stringify(last.lines.slice(-2)));
      throw error;
    });
    expect(last.last('crashed')).toBeUndefined();
    await last.exited;
    expect(last.lines.filter((l) => l.event === 'clockStepped').map((l) => l.byMs)).toEqual(
      (scenario.liveSteps ?? []).map((s) => s.byMs),
    );
    const done = last.last('done') as { maxGapMs: number; requests: number };

    // --- compare the journal with the sandbox's own records -----------------------------------
    const journal = new Database(path.join(dataDir, 'journal.sqlite'), { readonly: true });
    const intents = journal
      .prepare(
        'SELECT kind, state, client_id, platform_id, amount, attempts, label, message FROM intents ORDER BY created_at, rowid',
      )
      .all() as {
      kind: string;
      state: string;
      client_id: string;
      platform_id: string | null;
      amount: string;
      attempts: number;
      label: string | null;
      message: string | null;
    }[];
    journal.close();
    const sdb = sandbox.ctx.db;

    // None lost: one intent per planned operation (each has its own amount), and every one resolved.
    expect(intents).toHaveLength(scenario.total);
    const plannedOps = Array.from(
      { length: scenario.total },
      (_, i) => `${planned(plan, i).kind} ${planned(plan, i).request.amount}`,
    );
    expect(intents.map((i) => `${i.kind} ${i.amount}`).sort()).toEqual(plannedOps.sort());
    expect(intents.filter((i) => i.state !== 'done' && i.state !== 'failed')).toEqual([]);
    // Nothing was refused by the platform, and nothing was abandoned (with whatever message).
    expect(intents.filter((i) => i.state === 'failed').map((i) => `${i.kind} ${i.label}: ${i.message}`)).toEqual([]);

    // Exactly once, per kind, against the sandbox's tables.
    let doubled = 0;
    const withdrawals = sdb
      .prepare(
        "SELECT withdraw_order_id AS id, COUNT(*) AS n FROM withdrawals WHERE user_id = ? AND withdraw_order_id LIKE 'td%' GROUP BY withdraw_order_id",
      )
      .all(sandbox.userId) as { id: string; n: number }[];
    doubled += withdrawals.filter((w) => w.n > 1).length;
    expect(new Set(withdrawals.map((w) => w.id))).toEqual(
      new Set(intents.filter((i) => i.kind === 'withdrawal').map((i) => i.client_id)),
    );
    const mainSub = sdb
      .prepare(
        "SELECT client_order_id AS id, COUNT(*) AS n FROM transfers WHERE kind = 'main_sub' AND client_order_id LIKE 'td%' GROUP BY client_order_id",
      )
      .all() as { id: string; n: number }[];
    doubled += mainSub.filter((r) => r.n > 1).length;
    expect(new Set(mainSub.map((r) => r.id))).toEqual(
      new Set(intents.filter((i) => i.kind === 'subAccountTransfer').map((i) => i.client_id)),
    );
    // Own transfers and pushes carry no client id on the platform; every planned operation has its
    // own amount (faultWorker: kind prefix + index), so equal multisets of amounts mean each once.
    const norm = (amounts: string[]) => amounts.map((a) => new Decimal(a).toString()).sort();
    const plannedAmounts = norm(intents.map((i) => i.amount));
    expect(new Set(plannedAmounts).size).toBe(plannedAmounts.length);
    const own = norm(
      (
        sdb.prepare("SELECT amount FROM transfers WHERE kind = 'own' AND owner_id = ?").all(sandbox.userId) as {
          amount: string;
        }[]
      ).map((r) => r.amount),
    );
    const pushes = sdb.prepare('SELECT id, amount FROM pushes WHERE push_uid = ?').all(sandbox.userId) as {
      id: number;
      amount: string;
    }[];
    doubled += own.length - new Set(own).size + pushes.length - new Set(norm(pushes.map((p) => p.amount))).size;
    expect(own).toEqual(norm(intents.filter((i) => i.kind === 'transfer').map((i) => i.amount)));
    const pushIntents = intents.filter((i) => i.kind === 'push');
    expect(norm(pushes.map((p) => p.amount))).toEqual(norm(pushIntents.map((i) => i.amount)));
    expect(new Set(pushIntents.map((i) => i.platform_id))).toEqual(new Set(pushes.map((p) => String(p.id))));
    expect(doubled).toBe(0);

    // The faults really happened: intents needed more than one attempt.
    const resent = intents.filter((i) => i.attempts > 1).length;
    expect(resent).toBeGreaterThan(scenario.total / 40);
    // No stall: requests kept leaving, whatever the clock did.
    expect(done.maxGapMs).toBeLessThan(MAX_GAP_MS);
    const result: SoakResult = {
      movements: intents.length,
      resent,
      doubled,
      lost: 0,
      maxGapMs: done.maxGapMs,
      requests: done.requests,
      seconds: Math.round((Date.now() - started) / 1000),
    };
    console.log(`fault soak: ${JSON.stringify({ ...scenario, ...result })}`);
    return result;
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await sandbox.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
};
