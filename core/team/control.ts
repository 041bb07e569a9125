/**
 * The team's control plane in the database: creating the team (the genesis), preparing a control
 * change, applying it (a new link of the control chain, signed by the approving administrator) or
 * rejecting it, and reading the chain back verified (controlChain.ts).
 *
 * Applying verifies the whole chain with the new link before it is written, under an advisory lock,
 * so an honest desk never writes a link that breaks the chain (and two approvals of different changes
 * at once become consecutive links, never two links with one seq).
 */
import { randomUUID } from 'node:crypto';
import { sha256 } from './canonical';
import { recordChange } from './changes';
import { type ChainAnchor, type ChainVerdict, type StoredLink, verifyControlChain } from './controlChain';
import { sqlInterval, sqlMs, type TeamDatabase, type TeamSql } from './database';
import { teamRefused } from './errors';
import type { OperatorSigner, SignedRecord } from './identity';
import { type ControlAction, ControlChange, type ControlLink, type Decision, parseBody } from './records';

const CONTROL_CHAIN_LOCK = 0x7d_7e_a0_03;
/** How long a prepared control change waits for its approval. */
export const DEFAULT_CONTROL_EXPIRY_MS = 72 * 3600_000;

export interface TeamIdentity {
  readonly id: string;
  readonly name: string;
  readonly fingerprint: string;
}

/** A team's first change and link, signed by its first administrator (`signGenesis`). */
export interface Genesis {
  readonly teamId: string;
  readonly name: string;
  /** The link's hash: the team's fingerprint. */
  readonly fingerprint: string;
  readonly change: ControlChange;
  readonly changeRecord: SignedRecord;
  readonly link: ControlLink;
  readonly linkRecord: SignedRecord;
}

export interface PendingChange {
  readonly changeId: string;
  readonly change: ControlChange;
  readonly record: SignedRecord;
  readonly expiresAt: number;
}

interface LinkRow {
  seq: string;
  change_body: string;
  prepared_by: string;
  change_signature: string;
  body: string;
  applied_by: string;
  signature: string;
}

const subjectOf = (action: ControlAction): string | null => {
  switch (action.kind) {
    case 'team.create':
      return action.admin.id;
    case 'operator.enrol':
      return action.operator.id;
    case 'operator.role':
    case 'operator.remove':
      return action.operatorId;
    case 'policy.set':
      return action.profileId;
    case 'desk.operation':
      return null;
  }
};

const readLinks = async (sql: TeamSql): Promise<StoredLink[]> => {
  const rows = await sql.query<LinkRow>(
    `SELECT l.seq, c.body AS change_body, c.prepared_by, c.signature AS change_signature, l.body, l.applied_by, l.signature
       FROM control_chain l JOIN control_changes c ON c.id = l.change_id ORDER BY l.seq`,
  );
  return rows.map((r) => ({
    seq: Number(r.seq),
    change: { body: r.change_body, signer: r.prepared_by, signature: r.change_signature },
    link: { body: r.body, signer: r.applied_by, signature: r.signature },
  }));
};

const insertChange = (tx: TeamSql, change: ControlChange, record: SignedRecord, expiresInMs: number) =>
  tx.query(
    `INSERT INTO control_changes (id, kind, subject, body, body_hash, prepared_by, signature, state, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', now() + ${sqlInterval('$8')})`,
    [
      change.changeId,
      change.action.kind,
      subjectOf(change.action),
      record.body,
      sha256(record.body),
      record.signer,
      record.signature,
      expiresInMs,
    ],
  );

export class TeamControl {
  constructor(
    private readonly db: TeamDatabase,
    private readonly now: () => number = Date.now,
  ) {}

  /** The team this database holds, or undefined before the genesis. */
  async team(): Promise<TeamIdentity | undefined> {
    const [row] = await this.db.query<TeamIdentity>('SELECT id, name, fingerprint FROM team');
    return row;
  }

  /**
   * Creates the team on a migrated, empty database: the genesis change and link, both signed by the
   * first administrator (whose key was just made: identity.ts `createOperatorKey`). Returns the team
   * with its fingerprint, which the other desks pin when they join.
   */
  async createTeam(
    name: string,
    admin: OperatorSigner,
    adminName: string,
    teamId: string = randomUUID(),
  ): Promise<TeamIdentity> {
    return this.insertGenesis(this.signGenesis(name, admin, adminName, teamId));
  }

  /**
   * The genesis, signed by the first administrator but not written yet: a desk whose own
   * administrators must approve taking it into a team signs it when it is prepared (the key is
   * unlocked then) and writes it once approved (`insertGenesis`).
   */
  signGenesis(name: string, admin: OperatorSigner, adminName: string, teamId: string = randomUUID()): Genesis {
    const change: ControlChange = {
      type: 'control.change',
      team: teamId,
      changeId: `cc_${randomUUID()}`,
      action: {
        kind: 'team.create',
        name,
        admin: { id: admin.operatorId, name: adminName, role: 'admin', publicKey: admin.publicKey },
      },
      preparedBy: admin.operatorId,
      preparedAt: this.now(),
    };
    const changeRecord = admin.sign(change);
    const link: ControlLink = {
      type: 'control.link',
      team: teamId,
      seq: 0,
      prev: '',
      changeId: change.changeId,
      changeHash: sha256(changeRecord.body),
      appliedBy: admin.operatorId,
      appliedAt: this.now(),
    };
    const linkRecord = admin.sign(link);
    return { teamId, name, fingerprint: sha256(linkRecord.body), change, changeRecord, link, linkRecord };
  }

  /** Writes a signed genesis on a migrated database that holds no team yet. */
  async insertGenesis(genesis: Genesis): Promise<TeamIdentity> {
    const { teamId, name, fingerprint } = genesis;
    return this.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [CONTROL_CHAIN_LOCK]);
      if ((await tx.query('SELECT 1 FROM team')).length > 0)
        throw teamRefused('This database already holds a team.', 'Join it instead of creating one.');
      await insertChange(tx, genesis.change, genesis.changeRecord, 0);
      await this.insertLink(tx, genesis.link, genesis.linkRecord);
      await tx.query('INSERT INTO team (id, name, fingerprint) VALUES ($1, $2, $3)', [teamId, name, fingerprint]);
      await recordChange(tx, 'control.changed', genesis.change.changeId);
      return { id: teamId, name, fingerprint };
    });
  }

  /** The control chain as stored, verified against the pinned fingerprint and the desk's last anchor. */
  async verified(trust: { fingerprint: string; anchor?: ChainAnchor }): Promise<ChainVerdict> {
    return verifyControlChain(await readLinks(this.db), trust);
  }

  /** Prepares a change (signed by its preparer); it waits in the queue for another administrator. */
  async prepare(
    teamId: string,
    signer: OperatorSigner,
    action: ControlAction,
    expiresInMs: number = DEFAULT_CONTROL_EXPIRY_MS,
  ): Promise<PendingChange> {
    const change: ControlChange = {
      type: 'control.change',
      team: teamId,
      changeId: `cc_${randomUUID()}`,
      action,
      preparedBy: signer.operatorId,
      preparedAt: this.now(),
    };
    const record = signer.sign(change);
    await this.db.transaction(async (tx) => {
      await insertChange(tx, change, record, expiresInMs);
      await recordChange(tx, 'control.changed', change.changeId);
    });
    return { changeId: change.changeId, change, record, expiresAt: this.now() + expiresInMs };
  }

  /** Pending, unexpired changes, oldest first. */
  async pending(): Promise<PendingChange[]> {
    const rows = await this.db.query<{
      id: string;
      body: string;
      prepared_by: string;
      signature: string;
      expires_ms: string;
    }>(
      `SELECT id, body, prepared_by, signature, ${sqlMs('expires_at')} AS expires_ms
         FROM control_changes WHERE state = 'pending' AND expires_at > now() ORDER BY prepared_at`,
    );
    // A row that is not a well-formed change (written by hand) is left out: it could never be applied.
    return rows.flatMap((r) => {
      const change = parseBody(ControlChange, r.body);
      return change === undefined
        ? []
        : [
            {
              changeId: r.id,
              change,
              record: { body: r.body, signer: r.prepared_by, signature: r.signature },
              expiresAt: Number(r.expires_ms),
            },
          ];
    });
  }

  /**
   * Applies a pending change: the approving administrator signs the next link. Refused, changing
   * nothing, when the change is no longer pending or the chain with this link would not verify (the
   * applier is the preparer while there is a second administrator, not an administrator, …).
   */
  async apply(changeId: string, signer: OperatorSigner, trust: { fingerprint: string }): Promise<ChainAnchor> {
    return this.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [CONTROL_CHAIN_LOCK]);
      const [row] = await tx.query<{
        body: string;
        prepared_by: string;
        signature: string;
        live: boolean;
        state: string;
      }>(
        `SELECT body, prepared_by, signature, state, expires_at > now() AS live FROM control_changes WHERE id = $1 FOR UPDATE`,
        [changeId],
      );
      if (row === undefined || row.state !== 'pending' || !row.live)
        throw teamRefused(
          `That control change is ${row === undefined ? 'unknown' : row.live ? row.state : 'expired'}: it was not applied.`,
          'Refresh the Approvals queue.',
        );
      const links = await readLinks(tx);
      const head = links.at(-1);
      if (head === undefined) throw teamRefused('The team has no genesis.', 'Create or join a team first.');
      const change = parseBody(ControlChange, row.body);
      if (change === undefined)
        throw teamRefused('That control change is not well formed: it was not applied.', 'Reject it.');
      const link: ControlLink = {
        type: 'control.link',
        team: change.team,
        seq: links.length,
        prev: sha256(head.link.body),
        changeId,
        changeHash: sha256(row.body),
        appliedBy: signer.operatorId,
        appliedAt: this.now(),
      };
      const linkRecord = signer.sign(link);
      const candidate: StoredLink = {
        seq: links.length,
        change: { body: row.body, signer: row.prepared_by, signature: row.signature },
        link: linkRecord,
      };
      const verdict = verifyControlChain([...links, candidate], trust);
      if (!verdict.ok)
        throw teamRefused(`The control change cannot be applied: ${verdict.problem}`, 'Nothing was changed.');
      await this.insertLink(tx, link, linkRecord);
      await recordChange(tx, 'control.changed', changeId);
      return verdict.state.head;
    });
  }

  /** Rejects a pending change with a signed decision and a reason. False when it was no longer pending. */
  async reject(
    changeId: string,
    signer: OperatorSigner,
    teamId: string,
    controlSeq: number,
    reason: string,
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.query<{ body: string }>(
        `SELECT body FROM control_changes WHERE id = $1 AND state = 'pending' FOR UPDATE`,
        [changeId],
      );
      if (row === undefined) return false;
      const decision: Decision = {
        type: 'decision',
        team: teamId,
        decision: 'reject',
        subject: { kind: 'control', id: changeId, hash: sha256(row.body) },
        operator: signer.operatorId,
        controlSeq,
        reason,
        decidedAt: this.now(),
      };
      const record = signer.sign(decision);
      await tx.query(
        `UPDATE control_changes SET state = 'rejected', decided_at = now(), rejection = $2, rejected_by = $3, rejection_signature = $4
          WHERE id = $1`,
        [changeId, record.body, record.signer, record.signature],
      );
      await recordChange(tx, 'control.changed', changeId);
      return true;
    });
  }

  /** Writes a link of the chain and marks the change it applies as applied. */
  private async insertLink(tx: TeamSql, link: ControlLink, record: SignedRecord): Promise<void> {
    await tx.query(
      `INSERT INTO control_chain (seq, change_id, body, body_hash, applied_by, signature) VALUES ($1, $2, $3, $4, $5, $6)`,
      [link.seq, link.changeId, record.body, sha256(record.body), record.signer, record.signature],
    );
    await tx.query(`UPDATE control_changes SET state = 'applied', decided_at = now() WHERE id = $1`, [link.changeId]);
  }
}
