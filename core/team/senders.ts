/**
 * Each profile's sending desk. Several desks may hold a profile's key; the platform's rate limits are
 * the account's, whichever desk sends. So one desk at a time is the profile's **sender**: it holds a
 * lease (on the database's clock, with a fencing token from the same sequence as the movements') and
 * claims the profile's movements; the other desks that hold the key stand by and take over when the
 * lease runs out (the sender stopped, lost the database, was killed). Exactly-once does not rest on
 * this: every movement is still claimed with its own lease and token (movements.ts); this only keeps
 * two desks from spending one account's rate limits at once.
 */
import { sqlInterval, type TeamDatabase } from './database';

export class TeamSenders {
  constructor(
    private readonly db: TeamDatabase,
    private readonly deskId: string,
  ) {}

  /**
   * Becomes (or stays) the profile's sender for `leaseMs` when nobody else holds it: true when this
   * desk is the sender now. Renewing is acquiring again.
   */
  async acquire(profileId: string, leaseMs: number): Promise<boolean> {
    const rows = await this.db.query(
      `INSERT INTO profile_senders (profile_id, desk_id, token, expires_at)
       VALUES ($1, $2, nextval('fencing_tokens'), now() + ${sqlInterval('$3')})
       ON CONFLICT (profile_id) DO UPDATE
         SET desk_id = excluded.desk_id, expires_at = excluded.expires_at,
             token = CASE WHEN profile_senders.desk_id = excluded.desk_id THEN profile_senders.token ELSE excluded.token END
         WHERE profile_senders.desk_id = excluded.desk_id OR profile_senders.expires_at < now()
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
