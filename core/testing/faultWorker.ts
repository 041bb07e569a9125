/**
 * The core in a child process for the fault soak (testing/faultSoak.ts): issues the planned money
 * movements (continuing where the journal says it stopped), lets the journal settle every intent,
 * and prints progress as JSON lines (`journaled` after each new intent, `progress` every 2 s with
 * the first open intents and what each waits for, `done` with the requests' largest gap). The soak
 * SIGKILLs it mid-flight and starts it again on the same data directory.
 *
 * Each run can also have its own clock and disk: CLOCK_SKEW_MS sets this computer's clock that far
 * off from the start (a clock corrected between a crash and the restart), CLOCK_STEPS steps it
 * while the movements run (`[{afterJournaled, byMs}]`: NTP, a person, a VM resumed),
 * JOURNAL_FAULT_RATE makes that share of the journal's writes fail as a full disk does (SQLite's
 * own SQLITE_FULL). UNTIL_KILLED: a run the soak kills keeps the journal until then, even once
 * everything is done; START_ON_INPUT: loaded, it waits for a line on stdin before it starts (the
 * second app on the same data directory, let go the moment the first holds it).
 */
import Database from 'better-sqlite3';
import { createCore } from '../core';
import { DataDirBusy } from '../journal/dataDirLock';
import type { Db } from '../journal/db';
import { MemoryKeyStore } from '../keychain/keyStore';
import { TEST_SCRYPT_COST } from '../operators';

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
          // Each withdrawal its own address (the platform allows one a minute per address).
          address: plan.addresses[Math.floor(i / 3) % plan.addresses.length] as string,
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

/**
 * The client's timeout, the sandbox's delay fault (faultSoak.ts) just longer than it, and the settle
 * time. A delayed request executes `delayMs - timeoutMs` after the client gave it up, and a lookup
 * calls it absent only `settleMs` after that: the sandbox may fall behind by timeout + settle −
 * delay (2.8 s) before a late arrival could be missed and sent again. The lengths are not what the
 * soak proves (exactly once is): each movement whose answer is lost waits one settle time per
 * attempt, which was most of a run (4 s each, with a 1.5 s timeout and 2 s delays).
 */
export const FAULT_TIMING = { timeoutMs: 1_000, delayMs: 1_200, settleMs: 3_000 } as const;

/** Steps of this computer's clock while the movements run: after so many are journaled, by so much. */
export interface ClockStep {
  readonly afterJournaled: number;
  readonly byMs: number;
}

/** This process's wall clock (Date.now, what the core's scheduler reads as `wallNow`), stepped by hand. */
const wallClock = (startOffsetMs: number) => {
  const real = Date.now.bind(Date);
  let offset = startOffsetMs;
  Date.now = () => real() + offset;
  return { step: (byMs: number) => (offset += byMs) };
};

/** A disk that refuses `rate` of the journal's writes of intents and settings, as a full one does. */
const failJournalWrites = (db: Db, rate: number) => {
  if (rate <= 0) return;
  db.function('journal_fault', () => {
    if (Math.random() < rate) throw new Database.SqliteError('database or disk is full', 'SQLITE_FULL');
    return 0;
  });
  for (const [name, event, table] of [
    ['fault_intent_insert', 'INSERT', 'intents'],
    ['fault_intent_update', 'UPDATE', 'intents'],
    ['fault_settings_insert', 'INSERT', 'settings'],
    ['fault_settings_update', 'UPDATE', 'settings'],
  ] as const) {
    db.exec(`CREATE TEMP TRIGGER ${name} BEFORE ${event} ON ${table} BEGIN SELECT journal_fault(); END`);
  }
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** When each request left (monotonic ms: the log line comes at its end and says how long it took). */
const REQUEST_LINE = / \[td-[^\]]+\] (\d+) ms/;
/** The engine's line for a lookup that settled nothing (movements/engine.ts): the intent and why. */
const STILL_UNKNOWN_LINE = /^movement (\S+): still unknown \((.*)\)$/;

const main = async () => {
  const plan = JSON.parse(process.env.FAULT_PLAN ?? '{}') as FaultPlan;
  const say = (event: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(event)}\n`);
  const wall = wallClock(Number(process.env.CLOCK_SKEW_MS ?? 0));
  const steps = JSON.parse(process.env.CLOCK_STEPS ?? '[]') as ClockStep[];
  const left: number[] = [];
  let lastLimiter: unknown;
  /** What each open intent is waiting for, as the engine last logged it ("still unknown (…)"). */
  const waitingFor = new Map<string, string>();
  const core = await createCore({
    dataDir: plan.dataDir,
    shell: 'chromium',
    trustedOrigins: [],
    emit: (name, payload) => {
      if (name === 'profiles.limiterChanged') lastLimiter = payload;
    },
    log: (line) => {
      const waiting = STILL_UNKNOWN_LINE.exec(line);
      if (waiting) waitingFor.set(waiting[1] as string, waiting[2] as string);
      const took = REQUEST_LINE.exec(line)?.[1];
      if (took !== undefined) left.push(performance.now() - Number(took));
    },
    keyStore: new MemoryKeyStore(),
    sandbox: { mode: 'external', baseUrl: plan.baseUrl, key: plan.key, secret: plan.secret },
    timeoutMs: FAULT_TIMING.timeoutMs,
    limiterScale: 0.001,
    movements: { settleMs: FAULT_TIMING.settleMs, backgroundMs: 250, maxAttempts: 10 },
    watchIntervalMs: 0,
    // Signed in at every start: a core nobody signed in to holds no key.
    bootstrapOperator: { name: 'Fault admin', passphrase: 'fault admin passphrase 1' },
    scryptCost: TEST_SCRYPT_COST,
  });
  failJournalWrites(core.db, Number(process.env.JOURNAL_FAULT_RATE ?? 0));
  const m = core.ctx.movements;
  const count = () => (core.db.prepare('SELECT COUNT(*) AS n FROM intents').get() as { n: number }).n;
  // Planned operations not in the journal yet (each has its own amount).
  const journaled = (i: number) => {
    const op = planned(plan, i);
    return (
      core.db.prepare('SELECT 1 FROM intents WHERE kind = ? AND amount = ?').get(op.kind, op.request.amount) !==
      undefined
    );
  };
  const queue = Array.from({ length: plan.total }, (_, i) => i).filter((i) => !journaled(i));
  say({ event: 'started', intents: count(), open: core.movementService.openCount() });
  const states = () =>
    Object.fromEntries(
      (
        core.db.prepare('SELECT state, COUNT(*) AS n FROM intents GROUP BY state').all() as {
          state: string;
          n: number;
        }[]
      ).map((r) => [r.state, r.n]),
    );
  // The first open intents, each with what it waits for (a failure of the soak shows them).
  const stuck = () =>
    (
      core.db
        .prepare(
          "SELECT id, kind, state, attempts, label, message, sent_at FROM intents WHERE state NOT IN ('done','failed') LIMIT 3",
        )
        .all() as { id: string }[]
    ).map(({ id, ...row }) => ({ ...row, waiting: waitingFor.get(id) ?? null }));
  const ticker = setInterval(
    () =>
      say({
        event: 'progress',
        left: queue.length,
        states: states(),
        stuck: stuck(),
        ...(process.env.FAULT_DEBUG ? { limiter: lastLimiter, at: Date.now() } : {}),
      }),
    2_000,
  );
  const lane = async () => {
    for (;;) {
      const i = queue.shift();
      if (i === undefined) return;
      const op = planned(plan, i);
      // Outcomes are the journal's business; a thrown OUTCOME_UNKNOWN is settled in the background.
      // An answer that nothing was journaled (JOURNAL_UNAVAILABLE: "nothing was sent") is what a
      // person confirms again.
      for (;;) {
        await (m[op.kind === 'withdrawal' ? 'withdraw' : op.kind] as (r: unknown) => Promise<unknown>)
          .call(m, op.request)
          .catch(() => undefined);
        if (journaled(i)) break;
        await sleep(50);
      }
      const n = count();
      say({ event: 'journaled', intents: n });
      // The computer's clock is stepped as the movements go on (each step once).
      while (steps.length > 0 && n >= (steps[0] as ClockStep).afterJournaled) {
        const step = steps.shift() as ClockStep;
        wall.step(step.byMs);
        say({ event: 'clockStepped', byMs: step.byMs, intents: n, at: performance.now() });
      }
    }
  };
  await Promise.all(Array.from({ length: plan.concurrency }, lane));
  // What is still open waits for its settle time (a lost answer is "absent" only after it): the
  // background check settles it; look again every 50 ms.
  while (core.movementService.openCount() > 0) await sleep(50);
  clearInterval(ticker);
  left.sort((a, b) => a - b);
  const gaps = left.slice(1).map((at, i) => ({ at, gap: at - (left[i] as number) }));
  const widest = gaps.reduce((max, g) => (g.gap > max.gap ? g : max), { at: 0, gap: 0 });
  say({
    event: 'done',
    intents: count(),
    requests: left.length,
    maxGapMs: Math.round(widest.gap),
    maxGapAt: widest.at,
  });
  // A run the soak kills holds the journal until it is killed, however early it finished: the
  // second app the soak starts meanwhile must find it held.
  if (process.env.UNTIL_KILLED) setInterval(() => {}, 60_000);
  else await core.close();
};

const run = () =>
  main().catch((error) => {
    if (error instanceof DataDirBusy) {
      // Another worker has this journal: refused before anything was opened.
      process.stdout.write(`${JSON.stringify({ event: 'refused', holder: error.holder?.pid })}\n`);
      process.exit(3);
    }
    process.stdout.write(`${JSON.stringify({ event: 'crashed', error: String(error) })}\n`);
    process.exit(1);
  });

if (process.env.FAULT_PLAN) {
  if (process.env.START_ON_INPUT) {
    // Loaded and waiting: it starts the moment the soak says so (a line on stdin), not after the
    // seconds a busy machine takes to load it.
    process.stdout.write(`${JSON.stringify({ event: 'ready' })}\n`);
    process.stdin.once('data', () => void run());
  } else void run();
}
