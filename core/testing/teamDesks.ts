/**
 * Test support for team mode (docs/team.md): two desks — two data directories, two whole cores —
 * sharing one test PostgreSQL and one test sandbox, as two computers of one firm would. Desk A's
 * administrator Alice creates the team; desk B's administrator Bob joins it and Alice enrols him, so
 * the team has two administrators (four eyes) and either desk may send (both hold the account's key).
 *
 * `withTeamDesks()` sets this up once per test file (the server, the sandbox, both cores) and
 * closes it after; tests call each desk through its dispatcher (`a.value`, `b.call`) as a window does.
 */
import { afterAll, beforeAll } from 'vitest';
import type { SandboxOptions } from '../../sandbox/context';
import { control, startTestSandbox, type TestSandbox } from '../../sandbox/testing/harness';
import type { PolicyInput } from '../../shared/contract/policies';
import type { TeamStatus } from '../../shared/contract/team';
import type { Core } from '../core';
import { withTestPostgres } from '../team/testing/postgres';
import { type RendererCalls, rendererCalls, startTestCore, type TestCore, type TestCoreOptions } from './core';
import { waitUntil } from './waitUntil';

export const ALICE = { name: 'Alice', passphrase: 'first desk admin 1' } as const;
export const BOB = { name: 'Bob', passphrase: 'second desk admin 2' } as const;

export interface TestDesk extends RendererCalls {
  readonly core: Core;
  readonly testCore: TestCore;
  /** Stops this desk's core and starts it again on the same data directory. */
  restart(): Promise<void>;
  /** The events this desk's core emitted to its window, with when (performance.now()), oldest first. */
  readonly events: { readonly name: string; readonly payload: unknown; readonly at: number }[];
}

export interface TeamDesks {
  readonly a: TestDesk;
  readonly b: TestDesk;
  readonly sandbox: TestSandbox;
  readonly database: string;
  /** The team URL as a desk keeps it (no password). */
  readonly url: string;
  /** Runs SQL as the database's superuser: a database user editing rows behind the desks' backs. */
  dba(text: string, params?: readonly unknown[]): Promise<Record<string, unknown>[]>;
  readonly postgres: ReturnType<typeof withTestPostgres>['server'];
}

export interface TeamDesksSetup {
  readonly sandbox?: SandboxOptions;
  /** The team's policy of the account, set by Alice before Bob joins (default: approval above 50 USDT). */
  readonly policy?: PolicyInput;
  /** Both cores' options. */
  readonly core?: TestCoreOptions;
}

export const TEAM_POLICY: PolicyInput = {
  limits: {},
  usdtLimits: {},
  allowlist: { required: false, coolingOffHours: 24, entries: [] },
  // No cooling-off: Alice enrolled Bob a moment ago (the cooling-off is tested on its own).
  approval: { aboveUsdt: '50', newDestination: false, anyPush: false, expiresHours: 1, operatorCoolingOffHours: 0 },
};

const status = (desk: RendererCalls) => desk.value<TeamStatus>('team.status', {});

export const withTeamDesks = (setup: TeamDesksSetup = {}): TeamDesks => {
  const pg = withTestPostgres();
  let sandbox: TestSandbox | undefined;
  let database = '';
  let typedUrl = '';
  const cores: { a?: TestCore; b?: TestCore } = {};
  const events: Record<'a' | 'b', TestDesk['events']> = { a: [], b: [] };

  const start = async (which: 'a' | 'b', dataDir?: string, fingerprint?: string): Promise<TestCore> =>
    startTestCore(sandbox!, {
      watchIntervalMs: 0,
      ...setup.core,
      ...(dataDir ? { dataDir } : {}),
      emit: (name, payload) => events[which].push({ name, payload, at: performance.now() }),
      bootstrapOperator: which === 'a' ? ALICE : BOB,
      team: {
        url: typedUrl,
        automate: which === 'a' ? { teamName: 'Acme treasury' } : { fingerprint: fingerprint!, role: 'admin' },
        leaseMs: 3_000,
        ...setup.core?.team,
      },
    });

  const desk = (which: 'a' | 'b'): TestDesk => {
    const current = () => {
      const c = cores[which];
      if (c === undefined) throw new Error(`desk ${which} is not started (use it inside a test)`);
      return c;
    };
    return {
      get core() {
        return current().core;
      },
      get testCore() {
        return current();
      },
      ...rendererCalls(() => current().core),
      events: events[which],
      restart: async () => {
        const { core, dataDir } = current();
        await core.close();
        cores[which] = await start(which, dataDir, core.team.settingsKept()?.fingerprint);
      },
    };
  };
  const a = desk('a');
  const b = desk('b');

  beforeAll(async () => {
    sandbox = await startTestSandbox(setup.sandbox);
    database = await pg.server.createDatabase();
    const { user, password, host, port } = pg.server;
    typedUrl = `postgres://${user}:${encodeURIComponent(password)}@${host}:${port}/${database}?sslmode=disable`;
    cores.a = await start('a');
    await a.value('policies.set', setup.policy ?? TEAM_POLICY);
    const fingerprint = (await status(a)).fingerprint!;
    cores.b = await start('b', undefined, fingerprint);
    await waitUntil(async () => (await status(a)).enrolments.length > 0, { what: "Bob's enrolment request" });
    const request = (await status(a)).enrolments[0]!;
    await a.value('team.prepareEnrolment', { operatorId: request.operatorId });
    await waitUntil(async () => (await status(b)).me?.enrolled === true, { what: 'Bob enrolled, as desk B sees it' });
  }, 120_000);

  afterAll(async () => {
    await cores.b?.close();
    await cores.a?.close();
    await sandbox?.close();
  });

  return {
    a,
    b,
    get sandbox() {
      if (sandbox === undefined) throw new Error('the sandbox is not started');
      return sandbox;
    },
    get database() {
      return database;
    },
    get url() {
      return `${pg.server.url(database)}?sslmode=disable`;
    },
    get postgres() {
      return pg.server;
    },
    async dba(text, params = []) {
      const client = await pg.server.admin(database);
      try {
        return (await client.query(text, params as unknown[])).rows;
      } finally {
        await client.end();
      }
    },
  };
};

/** Funds the sandbox's main account (both desks hold its key). */
export const fund = (sandbox: TestSandbox, amount: string) =>
  control(sandbox, '/balances', { user_id: sandbox.userId, account: 'spot', currency: 'USDT', amount });
