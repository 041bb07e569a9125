/**
 * What every sandbox module receives. STABLE EXTENSION POINT (sandbox/spot codes against it).
 *
 *   ctx.db        better-sqlite3 database; create your tables with CREATE TABLE IF NOT EXISTS.
 *   ctx.tx        ctx.tx(() => …) runs the callback atomically (nested calls join the outer one; a
 *                 throw rolls back everything it did). In the running sandbox it is a savepoint of
 *                 the event-loop turn's one transaction, committed at the end of the turn; HTTP
 *                 answers wait for that commit (group commit, store/ledger.ts). Prefer it to
 *                 db.transaction(fn)() in request handlers: it reuses one compiled wrapper (creating
 *                 one costs ~20 µs), and the ledger skips re-reading balances it wrote inside it.
 *   ctx.ledger    balances (store/ledger.ts) — call inside ctx.tx(...).
 *   ctx.users     users, sub-accounts, keys, fee tiers (store/users.ts).
 *   ctx.clock     business time `now()` (ms) and `onTick(fn)` for timed work (store of a market
 *                 simulation, pipelines); manual mode only moves on POST /sandbox/advance.
 *   ctx.prices    USDT prices; `setProvider(fn)` to supply live market prices.
 *   ctx.ids       deterministic ids under --seed (ids.hex, ids.digest, ids.random).
 *   ctx.addRoutes register API routes (http/route.ts) — only during registration, before listen.
 *   ctx.onClose   cleanup run by close() (stop timers, …).
 *   ctx.options   resolved start options (market: 'on' | 'off' is yours to honour).
 *   ctx.log       one-line structured log to stderr.
 */
import type { SandboxClock } from './clock';
import type { RouteDef } from './http/route';
import type { Prices } from './prices';
import type { Db } from './store/db';
import type { IdSource } from './store/ids';
import type { Ledger } from './store/ledger';
import type { Users } from './store/users';

export interface SandboxOptions {
  /** TCP port on 127.0.0.1; 0 picks a free one. Default 0. */
  port?: number;
  /** Data directory holding sandbox.sqlite. Ignored when memory is true. */
  dataDir?: string;
  /** Keep state in memory only (tests). */
  memory?: boolean;
  /** 'real' (default): pipelines move on the wall clock; 'manual': only with POST /sandbox/advance. */
  clock?: 'real' | 'manual';
  /** Makes ids, keys and addresses deterministic. */
  seed?: number;
  /** Market simulation of the spot module. Default 'on'. */
  market?: 'on' | 'off';
  /** Log lines to stderr (default true for the CLI, false when imported unless set). */
  log?: boolean;
}

export interface ResolvedOptions {
  readonly port: number;
  readonly dataDir: string | null;
  readonly clock: 'real' | 'manual';
  readonly seed: string;
  readonly market: 'on' | 'off';
}

export interface SandboxContext {
  readonly options: ResolvedOptions;
  readonly db: Db;
  tx<T>(fn: () => T): T;
  readonly ledger: Ledger;
  readonly users: Users;
  readonly clock: SandboxClock;
  readonly prices: Prices;
  readonly ids: IdSource;
  addRoutes(routes: readonly RouteDef[]): void;
  onClose(fn: () => void | Promise<void>): void;
  log(message: string, fields?: Record<string, unknown>): void;
}
