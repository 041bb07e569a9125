/**
 * Each profile's sending desk. Several desks may hold a profile's key; the platform's rate limits are
 * the account's, whichever desk sends. So one desk at a time is the profile's **sender**: it holds a
 * lease (on the database's clock, with a fencing token from the same sequence as the movements') and
 * claims the profile's movements; the other desks that hold the key stand by and take over when the
 * lease runs out (the sender stopped, lost the database, was killed). Exactly-once does not rest on
 * this: every movement is still claimed with its own lease and token (movements.ts); this only keeps
 * two desks from spending one account's rate limits at once.
 *
 * A killed sender need not be waited out: each desk's LISTEN connection holds its **presence** (a
 * session advisory lock, which the database drops with the connection — at once when the desk's
 * process dies), and a sender whose desk is not present is taken over at once by another desk.
 */
import { sqlInterval, type TeamDatabase, type TeamSql } from './database';

const DESK_PRESENCE_LOCK = 0x7d_7e_a0_06;
/** The presence lock's second key for a desk id (SQL): non-negative, as pg_locks shows it. */
const presenceKey = (deskId: string) => `(hashtext(${deskId}) & 2147483647)`;

/**
 * Takes this desk's presence on a connection it keeps (the LISTEN one): held until that connection
 * ends. False when another session holds it (a previous run's connection the database has not
 * dropped yet): the desk then only looks absent, and its sender role is taken over, which is harmless.
 */
export const announcePresence = async (sql: TeamSql, deskId: string): Promise<boolean> => {
  const [row] = await sql.query<{ held: boolean }>(
    `SELECT pg_try_advisory_lock(${DESK_PRESENCE_LOCK}, ${presenceKey('$1')}) AS held`,
    [deskId],
  );
  return row?.held === true;
};

export class TeamSenders {
  constructor(
    private readonly db: TeamDatabase,
    private readonly deskId: string,
  ) {}

  /**
   * Becomes (or stays) the profile's sender for `leaseMs` when nobody else holds it — no other
   * desk's lease is live, or that desk is not present (its core was killed) — true when this desk is
   * the sender now. Renewing is acquiring again.
   */
  async acquire(profileId: string, leaseMs: number): Promise<boolean> {
    const rows = await this.db.query(
      `INSERT INTO profile_senders (profile_id, desk_id, token, expires_at)
       VALUES ($1, $2, nextval('fencing_tokens'), now() + ${sqlInterval('$3')})
       ON CONFLICT (profile_id) DO UPDATE
         SET desk_id = excluded.desk_id, expires_at = excluded.expires_at,
             token = CASE WHEN profile_senders.desk_id = excluded.desk_id THEN profile_senders.token ELSE excluded.token END
         WHERE profile_senders.desk_id = excluded.desk_id OR profile_senders.expires_at < now()
            OR NOT EXISTS (SELECT 1 FROM pg_locks l
                            WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
                              AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                              AND l.classid = ${DESK_PRESENCE_LOCK}
                              AND l.objid::bigint = ${presenceKey('profile_senders.desk_id')})
       RETURNING 1`,
      [profileId, this.deskId, leaseMs],
    );
    return rows.length > 0;
  }

  /** Gives the profile up at once (the desk stops, or no longer holds the key): another desk may take it. */
  async release(profileId: string): Promise<void> {
    await this.db.query('DELETE FROM profile_senders WHERE profile_id = $1 AND desk_id = $2', [profileId, this.deskId]);
  }
}
