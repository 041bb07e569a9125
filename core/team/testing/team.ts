/**
 * Test support for the team layer: a migrated team database on the test PostgreSQL with its four
 * operators enrolled through real signed control changes, desks that open it, and signed movement
 * requests. Used by the team tests (and later the two-desk tests and `bench:team`).
 *
 * The operators: alice and bob (administrators), carol (maker), dave (approver), erin (viewer).
 * Profile `p1` has policy version 1 (prepared by alice, applied by bob).
 */
import { randomUUID } from 'node:crypto';
import Decimal from 'decimal.js';
import { afterAll, beforeAll } from 'vitest';
import { MemoryKeyStore } from '../../keychain/keyStore';
import { TEST_SCRYPT_COST } from '../../operators/passphrase';
import { recordHash } from '../canonical';
import { connectionConfig, parseTeamUrl } from '../connection';
import { TeamControl, type TeamIdentity } from '../control';
import type { ChainAnchor, ControlState } from '../controlChain';
import { TeamDatabase, type TeamDatabaseOptions } from '../database';
import { createOperatorKey, type OperatorSigner } from '../identity';
import type { LimitCheck } from '../movements';
import type { ControlAction, Decision, MovementRequest } from '../records';
import { migrate } from '../schema';
import { type TestPostgres, withTestPostgres } from './postgres';

export const TEST_PROFILE = 'p1';
export const TEST_POLICY = { limits: { USDT: { rolling24h: '100' } } } as const;

/** A desk's connection to a test database (no TLS on loopback; the password as the keychain would give it). */
export const openTestDatabase = (
  server: TestPostgres,
  database: string,
  options: TeamDatabaseOptions = {},
): TeamDatabase =>
  new TeamDatabase(
    connectionConfig(parseTeamUrl(`${server.url(database)}?sslmode=disable`).url, server.password, {
      connectMs: 2000,
      queryMs: 5000,
    }),
    options,
  );

export interface TestTeam {
  readonly database: string;
  /** Desk A's connection (the one that created the team). */
  readonly db: TeamDatabase;
  readonly team: TeamIdentity;
  readonly control: TeamControl;
  readonly keyStore: MemoryKeyStore;
  readonly alice: OperatorSigner;
  readonly bob: OperatorSigner;
  readonly carol: OperatorSigner;
  readonly dave: OperatorSigner;
  readonly erin: OperatorSigner;
  /** The verified control chain as it stands (throws if it does not verify). */
  state(anchor?: ChainAnchor): Promise<ControlState>;
  /** Prepares a control change by `preparer` and applies it by `applier`. */
  change(action: ControlAction, preparer: OperatorSigner, applier: OperatorSigner): Promise<ChainAnchor>;
  /** Another desk's connection to the same database (closed by `close`). */
  desk(options?: TeamDatabaseOptions): TeamDatabase;
  close(): Promise<void>;
}

export const startTestTeam = async (server: TestPostgres): Promise<TestTeam> => {
  const database = await server.createDatabase();
  const db = openTestDatabase(server, database);
  const opened: TeamDatabase[] = [db];
  await migrate(db);
  const keyStore = new MemoryKeyStore();
  const teamId = randomUUID();
  const key = (id: string) => createOperatorKey(keyStore, teamId, id, `${id} passphrase`, TEST_SCRYPT_COST);
  const [alice, bob, carol, dave, erin] = await Promise.all(['alice', 'bob', 'carol', 'dave', 'erin'].map(key));
  const control = new TeamControl(db);
  const team = await control.createTeam('Test firm', alice!, 'Alice', teamId);
  const state = async (anchor?: ChainAnchor) => {
    const verdict = await control.verified({ fingerprint: team.fingerprint, ...(anchor ? { anchor } : {}) });
    if (!verdict.ok) throw new Error(verdict.problem);
    return verdict.state;
  };
  const change = async (action: ControlAction, preparer: OperatorSigner, applier: OperatorSigner) => {
    const pending = await control.prepare(team.id, preparer, action);
    return control.apply(pending.changeId, applier, { fingerprint: team.fingerprint });
  };
  const enrol = (signer: OperatorSigner, name: string, role: 'admin' | 'maker' | 'approver' | 'viewer') =>
    ({ kind: 'operator.enrol', operator: { id: signer.operatorId, name, role, publicKey: signer.publicKey } }) as const;
  // One administrator: alice enrols bob alone (four-eyes not yet in force); then every change needs both.
  await change(enrol(bob!, 'Bob', 'admin'), alice!, alice!);
  await change(enrol(carol!, 'Carol', 'maker'), alice!, bob!);
  await change(enrol(dave!, 'Dave', 'approver'), bob!, alice!);
  await change(enrol(erin!, 'Erin', 'viewer'), bob!, alice!);
  await change({ kind: 'policy.set', profileId: TEST_PROFILE, version: 1, policy: TEST_POLICY }, alice!, bob!);
  return {
    database,
    db,
    team,
    control,
    keyStore,
    alice: alice!,
    bob: bob!,
    carol: carol!,
    dave: dave!,
    erin: erin!,
    state,
    change,
    desk(options) {
      const other = openTestDatabase(server, database, options);
      opened.push(other);
      return other;
    },
    async close() {
      await Promise.all(opened.map((d) => d.close()));
    },
  };
};

export interface TestTeamFile {
  readonly server: TestPostgres;
  /** The file's team (started before its tests). */
  readonly team: TestTeam;
  /** Runs a test on a team of its own (for tests that edit rows as a database user). */
  ownTeam(test: (team: TestTeam) => Promise<void>): Promise<void>;
  /** Runs SQL as the database's superuser: a database user editing rows behind the desks' backs. */
  dba(database: string, text: string, params?: readonly unknown[]): Promise<Record<string, unknown>[]>;
}

/** One test PostgreSQL and one test team for a whole test file; call it inside `describe.skipIf(skipWithoutPostgres(…))`. */
export const withTestTeam = (): TestTeamFile => {
  const pg = withTestPostgres();
  let team: TestTeam | undefined;
  beforeAll(async () => {
    team = await startTestTeam(pg.server);
  });
  afterAll(async () => team?.close());
  return {
    get server() {
      return pg.server;
    },
    get team() {
      if (team === undefined) throw new Error('the test team is not started yet (use it inside a test)');
      return team;
    },
    async ownTeam(test) {
      const own = await startTestTeam(pg.server);
      try {
        await test(own);
      } finally {
        await own.close();
      }
    },
    async dba(database, text, params = []) {
      const client = await pg.server.admin(database);
      try {
        return (await client.query(text, params as unknown[])).rows;
      } finally {
        await client.end();
      }
    },
  };
};

/** A maker's movement request under the profile's current policy, and its signed record. */
export const movementRequest = (
  team: TestTeam,
  state: ControlState,
  maker: OperatorSigner,
  overrides: Partial<MovementRequest> = {},
): MovementRequest => {
  const id = randomUUID();
  const profileId = overrides.profileId ?? TEST_PROFILE;
  const policy = state.policy(profileId);
  return {
    type: 'movement.request',
    team: team.team.id,
    movementId: `mv_${id}`,
    requestKey: `rk_${id}`,
    clientId: `t-${id.slice(0, 20)}`,
    profileId,
    kind: 'withdrawal',
    currency: 'USDT',
    amount: '60',
    destination: 'TRX TXYZabc (Payroll)',
    params: { currency: 'USDT', amount: '60', chain: 'TRX', address: 'TXYZabc' },
    policy: { version: policy?.version ?? 1, hash: policy?.hash ?? recordHash(TEST_POLICY) },
    approvalsRequired: 1,
    reasons: ['above 50 USDT'],
    controlSeq: state.head.seq,
    maker: maker.operatorId,
    preparedAt: Date.now(),
    expiresAt: Date.now() + 24 * 3600_000,
    ...overrides,
  };
};

/** An approval (or rejection) of a movement or batch, signed by `operator`. */
export const decision = (
  team: TestTeam,
  state: ControlState,
  operator: OperatorSigner,
  subject: Decision['subject'],
  verdict: 'approve' | 'reject' = 'approve',
): Decision => ({
  type: 'decision',
  team: team.team.id,
  decision: verdict,
  subject,
  operator: operator.operatorId,
  controlSeq: state.head.seq,
  reason: verdict === 'approve' ? 'checked the invoice' : 'wrong address',
  decidedAt: Date.now(),
});

/** The test policy's limit: USDT in any 24 hours at most `limit` (decimal.js, as the core's evaluator does). */
export const rollingLimit =
  (limit: string): LimitCheck =>
  (spent, adding) => {
    const total = [...spent.map((s) => s.amount), ...adding.map((a) => a.amount)].reduce(
      (sum, amount) => sum.plus(amount),
      new Decimal(0),
    );
    return total.greaterThan(limit)
      ? `At most ${limit} USDT in 24 hours (this would make ${total.toFixed()}).`
      : undefined;
  };

/** Timers that fire only when the test says so (the database's probe, the subscriber's reconnect). */
export const manualTimers = () => {
  const due = new Map<number, () => void>();
  let next = 0;
  return {
    setTimeout(callback: () => void) {
      due.set(++next, callback);
      return next;
    },
    clearTimeout(handle: unknown) {
      due.delete(handle as number);
    },
    /** How many timers wait. */
    get pending() {
      return due.size;
    },
    /** Fires every timer that waits now. */
    fireAll() {
      const callbacks = [...due.values()];
      due.clear();
      for (const callback of callbacks) callback();
    },
  };
};
