/**
 * Live changes between desks: every write of the team stores writes a row to the `changes` log and
 * NOTIFYs it in the same transaction (so other desks hear of it exactly when it commits), and each
 * desk keeps one LISTEN connection (`TeamLive`). When that connection is lost (the database
 * restarted, the network dropped), it reconnects with back-off and reads the log from the last change
 * it delivered: nothing committed meanwhile is missed, nothing is delivered twice.
 *
 * The log's numbers follow commit order: `recordChange` takes a transaction-level advisory lock just
 * before it inserts, held until the commit, so a change with a larger number never commits before a
 * smaller one and "everything after n" is exact.
 */
import type pg from 'pg';
import type { TeamDatabase, TeamSql, TeamTimers } from './database';
import { realTimers } from './database';
import { announcePresence } from './senders';

export const CHANGES_CHANNEL = 'treasury_desk_team';
const CHANGE_LOG_LOCK = 0x7d_7e_a0_02;

export type TeamChangeKind =
  /** A movement's request was prepared and waits for approval (subject: movement id). */
  | 'approval.prepared'
  /** A movement changed state: approved, rejected, claimed, sent, settled, blocked (subject: movement id). */
  | 'movement.changed'
  /** A control change was prepared, applied or rejected (subject: change id). */
  | 'control.changed'
  /** An entry was appended to the audit chain (subject: its seq). */
  | 'audit.appended';

export interface TeamChange {
  readonly seq: number;
  readonly kind: TeamChangeKind;
  readonly subject: string;
}

/** Logs and announces a change; call it last in a write transaction (it serialises commits from here on). */
export const recordChange = async (tx: TeamSql, kind: TeamChangeKind, subject: string): Promise<void> => {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [CHANGE_LOG_LOCK]);
  const [row] = await tx.query<{ seq: string }>('INSERT INTO changes (kind, subject) VALUES ($1, $2) RETURNING seq', [
    kind,
    subject,
  ]);
  await tx.query('SELECT pg_notify($1, $2)', [
    CHANGES_CHANNEL,
    JSON.stringify({ seq: Number(row!.seq), kind, subject }),
  ]);
};

/** The newest change's number (0 for none): where a desk that does not need the past starts. */
const CHANGE_KINDS: readonly string[] = ['approval.prepared', 'movement.changed', 'control.changed', 'audit.appended'];

/** A NOTIFY payload as a change, or undefined when it is not one. */
const parseChange = (payload: string | undefined): TeamChange | undefined => {
  try {
    const value = JSON.parse(payload ?? '') as Partial<TeamChange>;
    return Number.isSafeInteger(value.seq) &&
      CHANGE_KINDS.includes(value.kind as string) &&
      typeof value.subject === 'string'
      ? { seq: value.seq!, kind: value.kind!, subject: value.subject }
      : undefined;
  } catch {
    return undefined;
  }
};

export const latestChange = async (db: TeamSql): Promise<number> => {
  const [row] = await db.query<{ seq: string | null }>('SELECT max(seq) AS seq FROM changes');
  return Number(row?.seq ?? 0);
};

export interface TeamLiveOptions {
  /** Deliver changes after this one (default: only those from now on). */
  readonly after?: number;
  readonly timers?: TeamTimers;
  /** Reconnect back-off: first wait, doubled up to the maximum. */
  readonly retryMs?: number;
  readonly maxRetryMs?: number;
  /** This desk's id: its LISTEN connection holds the desk's presence (senders.ts). */
  readonly deskId?: string;
}

const sqlOf = (client: pg.Client): TeamSql => ({
  query: async (text, params) => (await client.query(text, params as unknown[] | undefined)).rows,
});

/** One desk's subscription to the team's changes. */
export class TeamLive {
  private client: pg.Client | undefined;
  /** Undefined until known: a subscriber started while the database was away starts from its first connection. */
  private last: number | undefined;
  private retryMs: number;
  private retry: unknown;
  private stopped = false;
  private readonly timers: TeamTimers;

  constructor(
    private readonly db: TeamDatabase,
    private readonly deliver: (change: TeamChange) => void,
    private readonly options: TeamLiveOptions = {},
  ) {
    this.timers = options.timers ?? realTimers;
    this.retryMs = options.retryMs ?? 250;
  }

  /** The last change delivered (or the newest when it started), undefined before its first connection. */
  get lastSeq(): number | undefined {
    return this.last;
  }

  /** Whether the LISTEN connection is up. */
  get connected(): boolean {
    return this.client !== undefined;
  }

  /** Connects (or, if the database is away, keeps trying in the background) and starts delivering. */
  async start(): Promise<void> {
    this.last = this.options.after;
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.timers.clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = this.db.newClient();
    // Notifications heard on this connection wait until the catch-up read has delivered what was
    // committed before it: one delivered first would move `last` past the changes the read is about
    // to deliver, and they would be lost. They wait from LISTEN on, not from the read's start.
    let caughtUp!: () => void;
    const afterCatchUp = new Promise<void>((resolve) => {
      caughtUp = resolve;
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('Connection ended')));
    client.on('notification', (message) => {
      if (message.channel !== CHANGES_CHANNEL) return;
      const change = parseChange(message.payload);
      // Anyone with access to the database can NOTIFY: what is not a change is ignored.
      if (change !== undefined) void afterCatchUp.then(() => this.offer(change));
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
      if (this.options.deskId !== undefined) await announcePresence(sqlOf(client), this.options.deskId);
    } catch (error) {
      this.lost(client, error);
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.retryMs = this.options.retryMs ?? 250;
    this.db.succeeded();
    // Listening first, then reading: a change committed in between is in both, and offer() drops
    // the second copy. A read that failed lost the connection: what waited is read by the next one.
    if (await this.catchUp(client)) caughtUp();
  }

  /** Delivers what was committed since `last`; false when the connection was lost meanwhile. */
  private async catchUp(client: pg.Client): Promise<boolean> {
    try {
      if (this.last === undefined) {
        // First connection without a starting point: from now on.
        this.last = await latestChange(sqlOf(client));
        return true;
      }
      const { rows } = await client.query<{ seq: string; kind: TeamChangeKind; subject: string }>(
        'SELECT seq, kind, subject FROM changes WHERE seq > $1 ORDER BY seq',
        [this.last],
      );
      for (const row of rows) this.offer({ seq: Number(row.seq), kind: row.kind, subject: row.subject });
      return true;
    } catch (error) {
      this.lost(client, error);
      return false;
    }
  }

  private offer(change: TeamChange): void {
    if (this.last === undefined || change.seq <= this.last) return;
    this.last = change.seq;
    this.deliver(change);
  }

  private lost(client: pg.Client, error: unknown): void {
    if (this.client !== undefined && this.client !== client) return;
    if (this.client === client) this.client = undefined;
    // A lost connection says nothing more (its later errors and its end are the same loss).
    client.removeAllListeners();
    client.on('error', () => undefined);
    client.end().catch(() => undefined);
    if (this.stopped) return;
    this.db.failed(error);
    if (this.retry !== undefined) return;
    const wait = this.retryMs;
    this.retryMs = Math.min(wait * 2, this.options.maxRetryMs ?? 5000);
    this.retry = this.timers.setTimeout(() => {
      this.retry = undefined;
      void this.connect();
    }, wait);
  }
}
