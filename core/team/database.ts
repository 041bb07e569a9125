/**
 * The desk's connection to the team database: a small pool (`pg`), bounded timeouts, transactions
 * with retries of serialization failures and deadlocks, and a health state the frame shows.
 *
 * Every call either answers or fails quickly: a database that is stopped, unreachable or too slow
 * becomes a `TeamUnavailable` error (code JOURNAL_UNAVAILABLE) within the connect or statement
 * timeout, and the health state turns `unavailable`; while it is, a probe asks again every few
 * seconds and the state returns to `connected` as soon as any call succeeds.
 */
import { createRequire } from 'node:module';
import type pg from 'pg';
import type { KeyStore } from '../keychain/keyStore';
import {
  connectionConfig,
  DEFAULT_TEAM_TIMEOUTS,
  readTeamPassword,
  type TeamTimeouts,
  type TeamUrl,
} from './connection';
import { isUnavailable, reasonOf, TeamUnavailable, teamRefused } from './errors';

/**
 * `pg` (about a dozen modules) is loaded when a desk first opens a team connection, not with the
 * core: a solo desk — the default — never needs it, and the core's start pays for what it loads.
 */
const loadPg = (): typeof pg => createRequire(import.meta.url)('pg') as typeof pg;

export type TeamHealth =
  | { readonly state: 'connected' }
  | { readonly state: 'unavailable'; readonly since: number; readonly reason: string };

/** The timers the database's probe uses (the core's scheduler in the app; a manual one in tests). */
export interface TeamTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}
export const realTimers: TeamTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** What a query runs on: the pool or one transaction's connection. */
export interface TeamSql {
  query<R extends object = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<R[]>;
}

export interface TeamDatabaseOptions {
  readonly timeouts?: TeamTimeouts;
  readonly timers?: TeamTimers;
  /** How often an unavailable database is asked again. */
  readonly probeEveryMs?: number;
  readonly now?: () => number;
  /** Connections in the pool (the live subscriber has its own). */
  readonly maxConnections?: number;
}

/** SQL for a timestamp column as Unix ms (bigint): times leave the database as numbers, as everywhere in the app. */
export const sqlMs = (column: string): string => `(extract(epoch FROM ${column}) * 1000)::bigint`;
/** SQL for an interval of a parameter's milliseconds. */
export const sqlInterval = (param: string): string => `make_interval(secs => ${param}::double precision / 1000)`;

/** SQLSTATEs after which a transaction is simply run again: serialization_failure, deadlock_detected. */
const RETRYABLE = new Set(['40001', '40P01']);
const MAX_ATTEMPTS = 5;

export class TeamDatabase implements TeamSql {
  private readonly pool: pg.Pool;
  private readonly timers: TeamTimers;
  private readonly probeEveryMs: number;
  private readonly now: () => number;
  private current: TeamHealth = { state: 'connected' };
  private readonly listeners = new Set<(health: TeamHealth) => void>();
  private probe: unknown;
  private closed = false;

  constructor(
    /** The client configuration (connection.ts `connectionConfig`); also used by the live subscriber. */
    readonly config: pg.ClientConfig,
    options: TeamDatabaseOptions = {},
  ) {
    this.timers = options.timers ?? realTimers;
    this.probeEveryMs = options.probeEveryMs ?? 2000;
    this.now = options.now ?? Date.now;
    this.pool = new (loadPg().Pool)({ ...config, max: options.maxConnections ?? 4, idleTimeoutMillis: 30_000 });
    // An idle connection that dies (the server stopped) is reported here; without a listener it would
    // crash the process.
    this.pool.on('error', (error) => this.failed(error));
  }

  /** Opens the team database of a URL, the password read from the keychain. */
  static async open(url: TeamUrl, keyStore: KeyStore, options: TeamDatabaseOptions = {}): Promise<TeamDatabase> {
    const password = await readTeamPassword(keyStore, url);
    return new TeamDatabase(connectionConfig(url, password, options.timeouts ?? DEFAULT_TEAM_TIMEOUTS), options);
  }

  health(): TeamHealth {
    return this.current;
  }

  /** Calls `listener` on every change of the health state; returns the unsubscribe. */
  onHealth(listener: (health: TeamHealth) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async query<R extends object = Record<string, unknown>>(text: string, params: readonly unknown[] = []): Promise<R[]> {
    try {
      const result = await this.pool.query<R>(text, params as unknown[]);
      this.succeeded();
      return result.rows;
    } catch (error) {
      throw this.translate(error);
    }
  }

  /**
   * Runs `work` in one transaction on one connection and commits it; a serialization failure or a
   * deadlock runs it again (so `work` must do nothing outside the database that it cannot repeat).
   */
  async transaction<T>(work: (tx: TeamSql) => Promise<T>, options: { serializable?: boolean } = {}): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      let broken: Error | undefined;
      // While it is checked out the pool does not listen to it: a server that shuts down between two
      // statements ends it with an error event, which is this transaction's failure, not a crash.
      const onError = (error: Error) => {
        broken = error;
        this.failed(error);
      };
      let client: pg.PoolClient;
      try {
        client = await this.checkOut(onError);
      } catch (error) {
        throw this.translate(error);
      }
      try {
        await client.query(options.serializable ? 'BEGIN ISOLATION LEVEL SERIALIZABLE' : 'BEGIN');
        const tx: TeamSql = {
          query: async <R extends object>(text: string, params: readonly unknown[] = []) =>
            (await client.query<R>(text, params as unknown[])).rows,
        };
        const result = await work(tx);
        await client.query('COMMIT');
        this.succeeded();
        return result;
      } catch (error) {
        if (isUnavailable(error)) broken = error as Error;
        else await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
        const code = (error as { code?: unknown }).code;
        if (broken === undefined && typeof code === 'string' && RETRYABLE.has(code) && attempt < MAX_ATTEMPTS) continue;
        throw this.translate(error);
      } finally {
        client.off('error', onError);
        // A broken connection is destroyed, never handed to the next caller.
        client.release(broken);
      }
    }
  }

  /**
   * A connection of the pool, `onError` listening to it from the moment the pool hands it over. Not
   * one turn later, as after `await pool.connect()`: the pool hands a connection over while it reads
   * that connection's last answer, and a server shutting down sends its error right behind it, read
   * in the same turn — with nobody listening, that error event crashed the process (an uncaught
   * 57P01 "terminating connection due to administrator command").
   */
  private checkOut(onError: (error: Error) => void): Promise<pg.PoolClient> {
    return new Promise((resolve, reject) =>
      this.pool.connect((error, client) => {
        if (error || client === undefined) {
          reject(error);
          return;
        }
        client.on('error', onError);
        resolve(client);
      }),
    );
  }

  /** A new connection of its own (the live subscriber's LISTEN connection). */
  newClient(): pg.Client {
    return new (loadPg().Client)(this.config);
  }

  /** Reports that the database answered (the live subscriber reports its own connection too). */
  succeeded(): void {
    if (this.current.state === 'connected') return;
    this.timers.clearTimeout(this.probe);
    this.probe = undefined;
    this.set({ state: 'connected' });
  }

  /** Reports a failure; if it means the database is away, the state turns unavailable and a probe starts. */
  failed(error: unknown): void {
    if (!isUnavailable(error) || this.closed) return;
    if (this.current.state === 'connected')
      this.set({ state: 'unavailable', since: this.now(), reason: reasonOf(error) });
    this.scheduleProbe();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.timers.clearTimeout(this.probe);
    await this.pool.end();
  }

  private scheduleProbe(): void {
    if (this.probe !== undefined || this.closed) return;
    this.probe = this.timers.setTimeout(() => {
      this.probe = undefined;
      // query() reports success or failure (which schedules the next probe).
      this.query('SELECT 1').catch(() => undefined);
    }, this.probeEveryMs);
  }

  private set(health: TeamHealth): void {
    this.current = health;
    for (const listener of this.listeners) listener(health);
  }

  /** The error a caller sees: TeamUnavailable, a plain refusal for authentication, or the error as it is. */
  private translate(error: unknown): unknown {
    if (isUnavailable(error)) {
      this.failed(error);
      return error instanceof TeamUnavailable ? error : new TeamUnavailable(reasonOf(error));
    }
    const code = (error as { code?: unknown }).code;
    if (code === '28P01' || code === '28000')
      return teamRefused(
        `The team database refused this desk's sign-in (${reasonOf(error)}).`,
        'Check the user and the password kept for the team database (Settings → Team).',
      );
    if ((typeof code === 'string' && /CERT|TLS|SSL/.test(code)) || /SSL|certificate/i.test(reasonOf(error)))
      return teamRefused(
        `The team database's TLS connection failed (${reasonOf(error)}).`,
        "Check sslmode and the CA file (sslrootcert) in the team URL against the server's certificate.",
      );
    if (code === '3D000')
      return teamRefused(
        `The team database does not exist (${reasonOf(error)}).`,
        'Check the database name in the team URL.',
      );
    return error;
  }
}
