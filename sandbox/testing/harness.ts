/**
 * THE test sandbox harness (sandbox, spot, stream and core tests; bench/): start an in-memory
 * sandbox on a free port, make users with full keys and balances, call the API signed (through the
 * one test client, ./client.ts) and the control plane.
 *
 * Defaults: memory, manual clock (business and limiter time move only with `advance`, so no test
 * sleeps through a pipeline step or a rate-limit window), market off, seed 7, no log.
 */
import type { SandboxOptions } from '../context';
import { type SandboxHandle, startSandbox } from '../server';
import { type SpotModule, spotModuleOf } from '../spot/index';
import { FULL_PERMS } from '../store/users';
import { type ApiAnswer, type Credentials, exchange, SignedClient } from './client';

export type { SandboxHandle } from '../server';
export { type ApiAnswer, type Credentials, type Query, SignedClient, signedHeaders } from './client';

/** A user of the test sandbox with a full read-write key and a client signing with it. */
export interface TestUser extends Credentials {
  readonly id: number;
  readonly api: SignedClient;
}

export interface TestSandbox extends SandboxHandle {
  /** The seeded main account (it has sub-accounts, saved addresses, history) and its key. */
  readonly main: TestUser;
  /** The spot module (order books, matching). */
  readonly spot: SpotModule;
  /** A new main account with a full key, the given spot balances and, when given, its fee tier. */
  user(funds?: Record<string, string>, fees?: { maker_fee?: string; taker_fee?: string }): TestUser;
  /** A new sub-account of `parent` with a full key and the given spot balances. */
  subAccount(parent: { readonly id: number }, funds?: Record<string, string>): TestUser;
  /** A user's spot balance, read from the ledger. */
  balance(userId: number, currency: string): { available: string; locked: string };
  /** Cancels every open spot order (tests that start from empty books). */
  clearBooks(): void;
  /** POST /sandbox/advance: moves business time and the limiter's time (skips a rate-limit window). */
  advance(seconds: number): Promise<void>;
}

let counter = 0;

export async function startTestSandbox(options: SandboxOptions = {}): Promise<TestSandbox> {
  const handle = await startSandbox({
    memory: true,
    clock: 'manual',
    market: 'off',
    seed: 7,
    port: 0,
    log: false,
    ...options,
  });
  const { ctx } = handle;
  const spot = spotModuleOf(ctx);
  if (spot === undefined) {
    await handle.close();
    throw new Error('the spot module did not register');
  }
  // Tests read the books and candles directly too: the market is whole before they start.
  spot.start();
  const fund = (userId: number, funds: Record<string, string>) =>
    ctx.db.transaction(() => {
      for (const [currency, amount] of Object.entries(funds)) {
        ctx.ledger.credit({ userId, account: 'spot', currency }, amount, 'dnw');
      }
    })();
  const withKey = (id: number): TestUser => {
    const { key, secret } = ctx.users.createKey(id, { perms: FULL_PERMS, ipWhitelist: [] });
    return { id, key, secret, api: new SignedClient(handle.baseUrl, { key, secret }) };
  };
  const sandbox: TestSandbox = {
    ...handle,
    main: {
      id: handle.userId,
      key: handle.key,
      secret: handle.secret,
      api: new SignedClient(handle.baseUrl, { key: handle.key, secret: handle.secret }),
    },
    spot,
    user(funds = {}, fees) {
      const u = ctx.users.createUser({ parentId: null, loginName: `test_user_${process.pid}_${++counter}` });
      if (fees !== undefined) ctx.users.setFees(u.id, fees);
      fund(u.id, funds);
      return withKey(u.id);
    },
    subAccount(parent, funds = {}) {
      const u = ctx.users.createUser({ parentId: parent.id, loginName: `test_sub_${process.pid}_${++counter}` });
      fund(u.id, funds);
      return withKey(u.id);
    },
    balance(userId, currency) {
      const b = ctx.ledger.get({ userId, account: 'spot', currency });
      return { available: b.available, locked: b.locked };
    },
    clearBooks() {
      const owners = spot.exchange.store.query<{ user_id: number }>(
        "SELECT DISTINCT user_id FROM spot_orders WHERE status = 'open'",
      );
      for (const { user_id } of owners) spot.exchange.cancelAll(user_id);
    },
    advance: async (seconds) => {
      await control(sandbox, '/advance', { seconds });
    },
  };
  return sandbox;
}

/** The seeded main account's credentials. */
export const mainCreds = (sandbox: SandboxHandle): Credentials => ({ key: sandbox.key, secret: sandbox.secret });

/**
 * A call to the API, signed when `creds` are given. `pathAndQuery` is relative to /api/v4 (e.g.
 * `/wallet/deposits?currency=BTC`); the query is signed exactly as written.
 */
export function api<T = unknown>(
  sandbox: Pick<SandboxHandle, 'baseUrl'>,
  creds: Credentials | null,
  method: string,
  pathAndQuery: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<ApiAnswer<T>> {
  return new SignedClient(sandbox.baseUrl, creds).request<T>(method, pathAndQuery, { body, headers });
}

type ControlTarget = Pick<SandboxHandle, 'controlUrl' | 'controlToken'>;

/** A control-plane call (/sandbox/…) answered as it came, whatever the status. */
export async function controlAnswer<T = unknown>(
  sandbox: ControlTarget,
  method: string,
  path: string,
  body?: unknown,
): Promise<ApiAnswer<T>> {
  return exchange<T>(`${sandbox.controlUrl}${path}`, {
    method,
    headers: {
      'X-Sandbox-Token': sandbox.controlToken,
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
}

/** A control-plane call (POST unless told); resolves with the answer's body, throws on non-2xx. */
export async function control<T = unknown>(
  sandbox: ControlTarget,
  path: string,
  body?: unknown,
  method: 'POST' | 'DELETE' | 'GET' = 'POST',
): Promise<T> {
  const answer = await controlAnswer<T>(sandbox, method, path, body);
  if (answer.status < 200 || answer.status > 299) {
    throw new Error(`control ${method} ${path}: HTTP ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return answer.body;
}
