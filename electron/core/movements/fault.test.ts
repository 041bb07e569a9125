/**
 * THE FAULT TEST. 210 withdrawals, pushes and transfers (own and main↔sub) through the
 * journal while the sandbox injects faults into 30 % of requests (connection dropped before or
 * after the work, 500, 429, delays longer than the client's timeout), and the core process is
 * SIGKILLed mid-flight several times and restarted on the same journal. Each run has its own
 * clock (the computer's clock 10 min fast, corrected, 30 s fast, 10 min slow: the offset changes
 * between an intent and its lookup), 4 % of the journal's writes fail as on a full disk, and a
 * second process started on the same data directory must refuse. Afterwards the journal is
 * compared with the sandbox's own records: every operation executed exactly once, none lost,
 * every intent resolved.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import Decimal from 'decimal.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { control, type SandboxHandle, startTestSandbox } from '../../../sandbox/testing/harness';
import { type FaultPlan, planned } from '../testing/faultWorker';

const TOTAL = 210;
const KILLS = 4;
/** This computer's clock minus the real time, per run (the last one is the run that finishes). */
const CLOCK_SKEWS_MS = [600_000, 0, 30_000, -600_000, 0];
const JOURNAL_FAULT_RATE = 0.04;
let sandbox: SandboxHandle;
let dataDir: string;

beforeAll(async () => {
  // Real clock: record times must be wall times for the push and transfer lookups (with the manual
  // clock the sandbox's business time stands still while the test runs).
  sandbox = await startTestSandbox({ clock: 'real' });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'td-fault-'));
});

afterAll(async () => {
  await sandbox?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

const startWorker = (plan: FaultPlan, clockSkewMs = 0) => {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, '../testing/faultWorker.ts')],
    {
      env: {
        ...process.env,
        FAULT_PLAN: JSON.stringify(plan),
        CLOCK_SKEW_MS: String(clockSkewMs),
        JOURNAL_FAULT_RATE: String(JOURNAL_FAULT_RATE),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
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
  return { child, lines, exited };
};

const waitFor = async (predicate: () => boolean, timeoutMs: number) => {
  const until = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > until) throw new Error(`not done after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

/**
 * waitFor while the worker makes progress: also fails when its progress line (the journal's
 * states) has not changed for `stallMs`. Settling under 30 % faults takes as long as the machine is
 * slow; a stalled journal is the failure, not a slow one.
 */
const waitWhileProgressing = (
  lines: readonly Record<string, unknown>[],
  predicate: () => boolean,
  stallMs: number,
  capMs: number,
) => {
  let seen = '';
  let changedAt = Date.now();
  return waitFor(() => {
    if (predicate()) return true;
    const progress = [...lines].reverse().find((l) => l.event === 'progress');
    const now = JSON.stringify([progress?.left, progress?.states]);
    if (now !== seen) {
      seen = now;
      changedAt = Date.now();
    }
    if (Date.now() - changedAt > stallMs) throw new Error(`no progress for ${stallMs / 1000} s`);
    return false;
  }, capMs);
};

it('every operation is executed exactly once and every intent is resolved, through faults and kills', async () => {
  // Limits are the limiter test's business; here the sandbox counts but does not refuse, and the
  // client runs with shortened windows, so 210 movements fit in well under a minute.
  await control(sandbox, '/rate_limits', { enforce: false });
  const receiver = await control<{ user_id: number }>(sandbox, '/users', {});
  const subs = (
    sandbox.ctx.db.prepare('SELECT id FROM users WHERE parent_id = ? ORDER BY id').all(sandbox.userId) as {
      id: number;
    }[]
  ).map((r) => r.id);
  const addresses: string[] = [];
  for (let i = 0; i < Math.ceil(TOTAL / 3); i++) {
    const address = `T${String(i).padStart(4, '0')}FaultTestAddr${'x'.repeat(16)}`;
    await control(sandbox, '/saved_addresses', { user_id: sandbox.userId, currency: 'USDT', chain: 'TRX', address });
    addresses.push(address);
  }
  const plan: FaultPlan = {
    dataDir,
    baseUrl: sandbox.baseUrl,
    key: sandbox.key,
    secret: sandbox.secret,
    total: TOTAL,
    addresses,
    receiverUid: receiver.user_id,
    subs: [subs[0] as number, subs[1] as number],
    concurrency: 4,
  };
  // ≈30 % of every request (writes and the reads that settle them) meets a fault.
  const rule = (kind: string, probability: number, extra: Record<string, unknown> = {}) => ({
    path: '/api/v4/*',
    kind,
    probability,
    ...extra,
  });
  await control(sandbox, '/faults', {
    rules: [
      rule('drop_after', 0.1),
      rule('drop_before', 0.08),
      rule('status_500', 0.07),
      rule('status_429', 0.05),
      rule('delay', 0.04, { ms: 2_000 }),
    ],
  });

  let kills = 0;
  let children: ChildProcess[] = [];
  try {
    for (; kills < KILLS; kills++) {
      const run = startWorker(plan, CLOCK_SKEWS_MS[kills]);
      children.push(run.child);
      // Starting a worker (tsx, a core, the operator's scrypt) takes a few seconds, more on a busy machine.
      await waitFor(() => run.lines.some((l) => l.event === 'started'), 60_000);
      if (kills === 0) {
        // A second app on the same data directory while the first works: refused, touching nothing.
        const second = startWorker(plan);
        children.push(second.child);
        expect(await second.exited).toBe(3);
        expect(second.lines).toEqual([{ event: 'refused', holder: run.child.pid }]);
      }
      await new Promise((resolve) => setTimeout(resolve, 1_200 + Math.random() * 1_500));
      run.child.kill('SIGKILL');
      await run.exited;
    }
    await control(sandbox, '/faults', undefined, 'DELETE').catch(() => undefined);
    await control(sandbox, '/faults', {
      rules: [
        rule('drop_after', 0.1),
        rule('drop_before', 0.08),
        rule('status_500', 0.07),
        rule('status_429', 0.05),
        rule('delay', 0.04, { ms: 2_000 }),
      ],
    });
    const last = startWorker(plan, CLOCK_SKEWS_MS[KILLS]);
    children.push(last.child);
    const finishing = Date.now();
    await waitWhileProgressing(
      last.lines,
      () => last.lines.some((l) => l.event === 'done' || l.event === 'crashed'),
      45_000,
      200_000,
    ).catch((error) => {
      console.log(JSON.stringify(last.lines.slice(-2)));
      throw error;
    });
    console.log(`fault test: the last run settled everything in ${((Date.now() - finishing) / 1000).toFixed(1)} s`);
    expect(last.lines.find((l) => l.event === 'crashed')).toBeUndefined();
    await last.exited;
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    children = [];
    await control(sandbox, '/faults', undefined, 'DELETE').catch(() => undefined);
  }

  // --- compare the journal with the sandbox's own records -------------------------------------
  const journal = new Database(path.join(dataDir, 'journal.sqlite'), { readonly: true });
  const intents = journal
    .prepare(
      'SELECT kind, state, client_id, platform_id, amount, attempts, label FROM intents ORDER BY created_at, rowid',
    )
    .all() as {
    kind: string;
    state: string;
    client_id: string;
    platform_id: string | null;
    amount: string;
    attempts: number;
    label: string | null;
  }[];
  journal.close();
  const sdb = sandbox.ctx.db;

  // None lost: one intent per planned operation (each has its own amount), and every one resolved.
  expect(intents).toHaveLength(TOTAL);
  const plannedOps = Array.from(
    { length: TOTAL },
    (_, i) => `${planned(plan, i).kind} ${planned(plan, i).request.amount}`,
  );
  expect(intents.map((i) => `${i.kind} ${i.amount}`).sort()).toEqual(plannedOps.sort());
  const open = intents.filter((i) => i.state !== 'done' && i.state !== 'failed');
  expect(open).toEqual([]);
  const failed = intents.filter((i) => i.state === 'failed');
  expect(failed).toEqual([]); // nothing was refused by the platform, and nothing was abandoned

  // Exactly once, per kind, against the sandbox's tables.
  const withdrawals = sdb
    .prepare(
      "SELECT withdraw_order_id AS id, COUNT(*) AS n FROM withdrawals WHERE user_id = ? AND withdraw_order_id LIKE 'td%' GROUP BY withdraw_order_id",
    )
    .all(sandbox.userId) as { id: string; n: number }[];
  const mine = intents.filter((i) => i.kind === 'withdrawal');
  expect(withdrawals.every((w) => w.n === 1)).toBe(true);
  expect(new Set(withdrawals.map((w) => w.id))).toEqual(new Set(mine.map((i) => i.client_id)));

  for (const kind of ['subAccountTransfer'] as const) {
    const rows = sdb
      .prepare(
        "SELECT client_order_id AS id, COUNT(*) AS n FROM transfers WHERE kind = ? AND client_order_id LIKE 'td%' GROUP BY client_order_id",
      )
      .all(kind === 'subAccountTransfer' ? 'main_sub' : 'sub_sub') as { id: string; n: number }[];
    expect(rows.every((r) => r.n === 1)).toBe(true);
    expect(new Set(rows.map((r) => r.id))).toEqual(
      new Set(intents.filter((i) => i.kind === kind).map((i) => i.client_id)),
    );
  }

  // Own transfers and pushes carry no client id on the platform; every planned operation has its own
  // amount (faultWorker: kind prefix + index), so equal multisets of amounts mean each one exactly once.
  const norm = (amounts: string[]) => amounts.map((a) => new Decimal(a).toString()).sort();
  const plannedAmounts = norm(intents.map((i) => i.amount));
  expect(new Set(plannedAmounts).size).toBe(plannedAmounts.length);
  const own = (
    sdb.prepare("SELECT amount FROM transfers WHERE kind = 'own' AND owner_id = ?").all(sandbox.userId) as {
      amount: string;
    }[]
  ).map((r) => r.amount);
  expect(norm(own)).toEqual(norm(intents.filter((i) => i.kind === 'transfer').map((i) => i.amount)));

  const pushes = sdb.prepare('SELECT id, amount FROM pushes WHERE push_uid = ?').all(sandbox.userId) as {
    id: number;
    amount: string;
  }[];
  const pushIntents = intents.filter((i) => i.kind === 'push');
  expect(norm(pushes.map((p) => p.amount))).toEqual(norm(pushIntents.map((i) => i.amount)));
  expect(new Set(pushIntents.map((i) => i.platform_id))).toEqual(new Set(pushes.map((p) => String(p.id))));

  // The faults really happened: many intents needed more than one attempt or a lookup.
  expect(intents.filter((i) => i.attempts > 1).length).toBeGreaterThan(10);
  console.log(
    `fault test: ${TOTAL} movements, ${kills} kills, ${intents.filter((i) => i.attempts > 1).length} re-sent after proven absent, all exactly once`,
  );
}, 480_000);
