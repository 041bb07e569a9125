/**
 * startSandbox(options): the sandbox exchange as a library (the CLI, the app and the tests use it).
 *
 * MODULE HOOK (for sandbox/spot): `sandbox/spot/index.ts` exports
 *
 *     export function registerSpot(ctx: SandboxContext): SpotModule   // { start(), close(), … }
 *
 * which is called once, after the core schema, seed data and core routes exist and before the server
 * listens; its `start()` (the market's history and simulation) runs right after the server listens. (A static import, so bundlers such as electron-vite include the module.) Register routes with `ctx.addRoutes([...])` (http/route.ts), create tables with
 * CREATE TABLE IF NOT EXISTS on `ctx.db`, seed markets if the data directory is new, start the market
 * simulation only when `ctx.options.market === 'on'` and drive it from `ctx.clock.onTick` (or your own
 * unref'd timers stopped via `ctx.onClose`), publish live prices with `ctx.prices.setProvider`.
 * Spot balances live in ctx.ledger with account 'spot'; fee rates come from ctx.users.fees(userId).
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { accountRoutes } from './account/routes';
import { SandboxClock } from './clock';
import type { ResolvedOptions, SandboxContext, SandboxOptions } from './context';
import { controlRoutes } from './control/routes';
import { buildHttp, CONTROL_TOKEN_HEADER, hostAllowed } from './http/app';
import { Faults, StreamFaults } from './http/faults';
import { RateLimiter } from './http/rate-limit';
import type { RouteDef } from './http/route';
import { marginRoutes } from './margin/routes';
import { Pipelines } from './pipelines/pipelines';
import { Prices } from './prices';
import { seedIfEmpty } from './seed';
import { registerSpot, spotModuleOf } from './spot/index';
import { openDatabase } from './store/db';
import { IdSource } from './store/ids';
import { Ledger } from './store/ledger';
import { Users } from './store/users';
import { subAccountRoutes } from './subaccounts/routes';
import { accountBookRoutes } from './wallet/account-book';
import { mainAccountRoutes } from './wallet/mainAccounts';
import { walletRoutes } from './wallet/routes';
import { withdrawalRoutes } from './withdrawals/routes';
import { StreamServer, WS_PATH } from './ws/server';

export interface SandboxHandle {
  /** e.g. http://127.0.0.1:PORT/api/v4 */
  readonly baseUrl: string;
  /** e.g. http://127.0.0.1:PORT/sandbox */
  readonly controlUrl: string;
  /**
   * The control plane's token, new at every start: send it as `X-Sandbox-Token` with every
   * /sandbox/* request (`controlHeaders` has it ready). Whoever started the sandbox is the only one
   * who learns it.
   */
  readonly controlToken: string;
  /** `{ 'X-Sandbox-Token': controlToken }`, for a fetch to the control plane. */
  readonly controlHeaders: Readonly<Record<string, string>>;
  /** The WebSocket API v4 (spot), e.g. ws://127.0.0.1:PORT/ws/v4/ */
  readonly wsUrl: string;
  readonly port: number;
  /** The seeded main account and its full read-write key. */
  readonly userId: number;
  readonly key: string;
  readonly secret: string;
  /** Internals for tests and in-process tools (not an API: prefer the control plane). */
  readonly ctx: SandboxContext;
  readonly pipelines: Pipelines;
  readonly limiter: RateLimiter;
  /** The injected HTTP faults (tests: know when a faulted request has arrived, before its fault). */
  readonly faults: Faults;
  /** The WebSocket server (tests: connection count, cut). */
  readonly stream: StreamServer;
  close(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  const dataDir = options.memory ? null : path.resolve(options.dataDir ?? path.join(process.cwd(), '.data', 'sandbox'));
  const db = openDatabase(dataDir);
  const seed = IdSource.resolveSeed(db, options.seed);
  const resolved: ResolvedOptions = {
    port: options.port ?? 0,
    dataDir,
    clock: options.clock ?? 'real',
    seed,
    market: options.market ?? 'on',
  };
  const logEnabled = options.log ?? false;
  const log = (message: string, fields: Record<string, unknown> = {}): void => {
    if (logEnabled)
      process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), msg: message, ...fields })}\n`);
  };

  const clock = new SandboxClock(resolved.clock);
  const ids = new IdSource(db, seed);
  const users = new Users(db, ids, () => clock.now());
  // Group commit: one SQLite commit per event-loop turn, every answer sent only once it is committed.
  const ledger = new Ledger(db, () => clock.now(), { groupCommit: true });
  const prices = new Prices();
  const routes: RouteDef[] = [];
  const closers: (() => void | Promise<void>)[] = [];
  let listening = false;

  const ctx: SandboxContext = {
    options: resolved,
    db,
    tx: <T>(fn: () => T): T => ledger.tx(fn),
    ledger,
    users,
    clock,
    prices,
    ids,
    addRoutes(more) {
      if (listening) throw new Error('routes must be added before the sandbox listens');
      routes.push(...more);
    },
    onClose(fn) {
      closers.push(fn);
    },
    log,
  };

  const seeded = seedIfEmpty(ctx);
  const pipelines = new Pipelines(ctx);
  clock.onTick((now) => pipelines.advanceTo(now));

  ctx.addRoutes(walletRoutes(ctx, pipelines));
  ctx.addRoutes(withdrawalRoutes(ctx, pipelines));
  ctx.addRoutes(subAccountRoutes(ctx));
  ctx.addRoutes(accountBookRoutes(ctx));
  ctx.addRoutes(mainAccountRoutes(ctx));
  ctx.addRoutes(marginRoutes());
  ctx.addRoutes(accountRoutes());

  const spot = registerSpot(ctx);
  closers.push(() => spot.close());
  ledger.onRollback(() => users.forgetCached());

  const limiter = new RateLimiter(() => clock.limiterNowMs());
  const faults = new Faults(() => ids.random());
  const streamFaults = new StreamFaults(() => ids.random());
  const controlToken = randomBytes(24).toString('base64url');
  let boundPort = -1;
  const stream = new StreamServer({
    ctx,
    spot: spotModuleOf(ctx),
    faults: streamFaults,
    // The stream answers only its own loopback names too (DNS rebinding).
    hostAllowed: (host) => hostAllowed(host, boundPort),
  });
  const app = buildHttp(
    { controlToken, users, clock, limiter, faults, log, committed: () => ledger.committed() },
    routes,
    controlRoutes({ ctx, pipelines, limiter, faults, stream: { server: stream, faults: streamFaults } }),
  );
  stream.attach(app.server);
  await app.listen({ host: '127.0.0.1', port: resolved.port });
  listening = true;
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : resolved.port;
  boundPort = port;
  const origin = `http://127.0.0.1:${port}`;
  let closed = false;
  log('sandbox listening', { origin, data: dataDir ?? ':memory:', clock: resolved.clock });
  // Ready first: the market's history (~0.1 s on a new data directory) is built right after the
  // caller has the address (the CLI's ready line), or by the first request that needs it.
  setImmediate(() => {
    if (!closed) spot.start();
  });

  return {
    baseUrl: `${origin}/api/v4`,
    controlUrl: `${origin}/sandbox`,
    controlToken,
    controlHeaders: { [CONTROL_TOKEN_HEADER]: controlToken },
    wsUrl: `ws://127.0.0.1:${port}${WS_PATH}`,
    port,
    userId: seeded.userId,
    key: seeded.key,
    secret: seeded.secret,
    ctx,
    pipelines,
    limiter,
    faults,
    stream,
    async close() {
      if (closed) return;
      closed = true;
      // A request held by a fault goes on now, so that closing waits for no test's hold.
      faults.clear();
      await stream.close();
      clock.stop();
      for (const fn of closers.reverse()) await fn();
      await app.close();
      ledger.flush();
      db.close();
    },
  };
}
