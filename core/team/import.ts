/**
 * Importing a solo desk's journal into a new team (docs/team.md, "Importing the first desk's
 * journal"): its audit log and its money movements, kept as that desk recorded them, in one
 * transaction with a team audit entry the importing administrator signs. That entry names the hash
 * of each block (`blockHash` over the rows in order) and the solo log's head, so any desk verifies
 * the imported history with the team's chain (`verifySoloImport`, called by `TeamAudit.chain`): a
 * row edited, added or removed in the database no longer matches what the administrator signed.
 *
 * Imported movements are history: they are not in the `movements` table, so no desk ever claims or
 * sends one. A movement that was in flight on the solo desk (sent, or its answer lost) is marked
 * `needs_lookup`: it is resolved only by asking the platform by its client id (that desk's engine
 * keeps doing so from its local journal), never sent again.
 *
 * One import per team, into a team that holds no movement, batch or audit entry yet: a second one,
 * or one into a team already in use, is refused and changes nothing. The transaction makes it all or
 * nothing: a desk that stops mid-import leaves no trace, and the import may be done again.
 */
import { randomUUID } from 'node:crypto';
import { sha256 } from './canonical';
import type { ChainAnchor, ControlState } from './controlChain';
import type { TeamDatabase, TeamSql } from './database';
import { teamRefused } from './errors';
import type { OperatorSigner } from './identity';
import type { AuditEntry } from './records';

/** The team audit entry that anchors an import. */
export const SOLO_IMPORT_ACTION = 'team.importSoloDesk';

/** The solo journal's states of a movement that may have left and whose outcome that desk does not know. */
const IN_FLIGHT_STATES: ReadonlySet<string> = new Set(['sent', 'unknown']);

/** Whether a solo movement in this state is in flight (resolved only by the platform lookup). */
export const inFlight = (state: string): boolean => IN_FLIGHT_STATES.has(state);

/** An entry of the solo audit log as that desk keeps it (journal/types.ts `AuditEntry`; every field is kept). */
export interface SoloAuditRecord {
  readonly seq: number;
  readonly hash: string;
}

/** A movement of the solo journal as that desk keeps it (shared/contract/activity.ts `Movement`; every field is kept). */
export interface SoloMovementRecord {
  readonly id: string;
  readonly clientId: string;
  readonly requestKey?: string;
  readonly profileId: string;
  readonly kind: string;
  readonly state: string;
}

/** What the first desk brings: read from its journal after its own audit log checked intact. */
export interface SoloDeskExport {
  /** Oldest first. */
  readonly audit: readonly SoloAuditRecord[];
  /** The solo log's head as that desk's keychain kept it (its last entry's HMAC hash). */
  readonly auditHead: { readonly count: number; readonly hash: string };
  /** Oldest first. */
  readonly movements: readonly SoloMovementRecord[];
  /** The desk's operators and roles, recorded in the signed entry as history (see docs/team.md). */
  readonly operators: readonly { readonly name: string; readonly role: string }[];
}

/** What the signed import entry says (its `params`). */
export interface SoloImportFacts {
  readonly import: string;
  readonly audit: { readonly entries: number; readonly head: string; readonly block: string };
  readonly movements: { readonly count: number; readonly inFlight: number; readonly block: string };
  readonly operators: readonly { readonly name: string; readonly role: string }[];
}

export interface SoloImportReceipt extends SoloImportFacts {
  readonly entry: ChainAnchor;
}

/** The hash of a block of rows, in order: each step hashes the previous step's hash and the row's text. */
export const blockHash = (bodies: readonly string[]): string =>
  bodies.reduce((previous, body) => sha256(`${previous}\n${body}`), '');

/** How the import appends its entry (TeamAudit.appendIn), inside the import's transaction. */
export interface AuditAppender {
  appendIn(
    tx: TeamSql,
    input: { action: string; params: AuditEntry['params']; outcome: string },
    signer: OperatorSigner,
  ): Promise<ChainAnchor>;
}

const count = async (tx: TeamSql, table: string): Promise<number> => {
  const [row] = await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
  return row?.n ?? 0;
};

/**
 * Imports the solo desk into the team, signed by `signer` (an administrator of the team). Refused,
 * changing nothing, when the team already holds an import, or any movement, batch or audit entry.
 */
export const importSoloDesk = async (
  db: TeamDatabase,
  audit: AuditAppender,
  deskId: string,
  state: ControlState,
  signer: OperatorSigner,
  solo: SoloDeskExport,
): Promise<SoloImportReceipt> => {
  if (state.operator(signer.operatorId)?.role !== 'admin')
    throw teamRefused(
      'Only an administrator of the team imports a desk’s journal.',
      'Sign in as the team’s administrator on this desk.',
    );
  if (
    (solo.audit.at(-1)?.hash ?? solo.auditHead.hash) !== solo.auditHead.hash ||
    solo.audit.length !== solo.auditHead.count
  )
    throw teamRefused(
      'This desk’s audit log does not end where its keychain says it ends: it is not imported.',
      'Check the audit log in Activity (Verify integrity) first.',
    );
  const auditBodies = solo.audit.map((entry) => JSON.stringify(entry));
  const movementBodies = solo.movements.map((movement) => JSON.stringify(movement));
  const facts: SoloImportFacts = {
    import: `imp_${randomUUID()}`,
    audit: { entries: solo.audit.length, head: solo.auditHead.hash, block: blockHash(auditBodies) },
    movements: {
      count: solo.movements.length,
      inFlight: solo.movements.filter((m) => inFlight(m.state)).length,
      block: blockHash(movementBodies),
    },
    operators: solo.operators.map(({ name, role }) => ({ name, role })),
  };
  return db.transaction(async (tx) => {
    // Two desks importing at once: the second waits here, then finds the first one's import.
    await tx.query('LOCK TABLE solo_import IN EXCLUSIVE MODE');
    const [previous] = await tx.query<{ id: string }>('SELECT id FROM solo_import');
    if (previous !== undefined)
      throw teamRefused(
        'This team already holds an imported solo journal: a team imports one desk’s journal, once.',
        'The other desks join the team without importing; their own history stays in their local journals.',
      );
    const used = (await count(tx, 'movements')) + (await count(tx, 'batches')) + (await count(tx, 'audit'));
    if (used > 0)
      throw teamRefused(
        'This team is already in use (it holds movements or audit entries): a solo journal is imported only into a new team.',
        'Import it when the team is created, from its first desk.',
      );
    for (const [n, body] of auditBodies.entries())
      await tx.query('INSERT INTO solo_audit (n, body) VALUES ($1, $2)', [n, body]);
    for (const [n, m] of solo.movements.entries())
      await tx.query(
        `INSERT INTO solo_movements (n, id, client_id, request_key, profile_id, kind, state, needs_lookup, body)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [n, m.id, m.clientId, m.requestKey ?? null, m.profileId, m.kind, m.state, inFlight(m.state), movementBodies[n]],
      );
    const entry = await audit.appendIn(
      tx,
      { action: SOLO_IMPORT_ACTION, params: JSON.parse(JSON.stringify(facts)), outcome: 'ok' },
      signer,
    );
    await tx.query('INSERT INTO solo_import (id, desk_id, audit_seq) VALUES ($1, $2, $3)', [
      facts.import,
      deskId,
      entry.seq,
    ]);
    return { ...facts, entry };
  });
};

/**
 * Checks the imported blocks against the signed import entry (already verified as part of the chain,
 * or undefined when the chain has none): the rows hash to what the administrator signed, and the
 * import names that entry. The problem in words, or undefined when they match.
 */
export const verifySoloImport = async (db: TeamSql, signed: AuditEntry | undefined): Promise<string | undefined> => {
  const [kept] = await db.query<{ audit_seq: string }>('SELECT audit_seq FROM solo_import');
  if (signed === undefined)
    return kept === undefined && (await count(db, 'solo_audit')) + (await count(db, 'solo_movements')) === 0
      ? undefined
      : 'The team holds an imported solo journal that no signed import entry vouches for (it was written in the database).';
  if (kept === undefined || Number(kept.audit_seq) !== signed.seq)
    return `The imported solo journal is not the one audit entry ${signed.seq} recorded.`;
  const facts = signed.params as unknown as SoloImportFacts;
  const audit = await db.query<{ body: string }>('SELECT body FROM solo_audit ORDER BY n');
  const movements = await db.query<{ body: string }>('SELECT body FROM solo_movements ORDER BY n');
  const changed = (what: string) =>
    `The imported solo ${what} differs from what audit entry ${signed.seq} signed (rows were edited, added or removed in the database).`;
  if (audit.length !== facts.audit?.entries || blockHash(audit.map((r) => r.body)) !== facts.audit.block)
    return changed('audit log');
  if (movements.length !== facts.movements?.count || blockHash(movements.map((r) => r.body)) !== facts.movements.block)
    return changed('journal');
  return undefined;
};
