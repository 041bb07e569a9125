/**
 * The team's audit chain: one sequence of entries for every desk, each naming the previous entry's
 * hash, appended under an advisory lock (so two desks never write the same seq). An entry made by an
 * operator is signed with their key; one made by a desk's background work (an expiry) is not, and is
 * protected by the chain and by each desk's anchor (the last head it verified, kept outside the
 * database): an entry removed, rewritten or cut off the end is found at the next verification.
 */
import { canonicalJson, sha256 } from './canonical';
import { recordChange } from './changes';
import type { ChainAnchor, ControlState } from './controlChain';
import type { TeamDatabase, TeamSql } from './database';
import { type OperatorSigner, verifySignature } from './identity';
import { SOLO_IMPORT_ACTION, verifySoloImport } from './import';
import { AuditEntry, parseBody } from './records';

const AUDIT_LOCK = 0x7d_7e_a0_05;

export interface AuditInput {
  readonly action: string;
  readonly params: AuditEntry['params'];
  readonly outcome: string;
}

export type AuditVerdict =
  | { readonly ok: true; readonly head: ChainAnchor | undefined; readonly entries: number }
  | { readonly ok: false; readonly problem: string };

/** An entry of the chain as read, and whether the chain vouches for it. */
export interface VerifiedAuditEntry {
  readonly entry: AuditEntry;
  /** Its operator signed it (unsigned: a desk's background work). */
  readonly signed: boolean;
  /** It and every entry before it verified. */
  readonly verified: boolean;
}

export interface VerifiedAuditChain {
  readonly verdict: AuditVerdict;
  readonly entries: readonly VerifiedAuditEntry[];
}

export class TeamAudit {
  constructor(
    private readonly db: TeamDatabase,
    private readonly teamId: string,
    private readonly deskId: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Appends an entry, signed by `signer` when an operator made it. Returns the new head. */
  async append(input: AuditInput, signer?: OperatorSigner): Promise<ChainAnchor> {
    return this.db.transaction((tx) => this.appendIn(tx, input, signer));
  }

  /** `append` inside the caller's transaction (an entry that must commit with other writes, or not at all). */
  async appendIn(tx: TeamSql, input: AuditInput, signer?: OperatorSigner): Promise<ChainAnchor> {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [AUDIT_LOCK]);
    const [head] = await tx.query<{ seq: string; hash: string }>(
      'SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1',
    );
    const entry: AuditEntry = {
      type: 'audit',
      team: this.teamId,
      seq: head === undefined ? 0 : Number(head.seq) + 1,
      prev: head?.hash ?? '',
      at: this.now(),
      desk: this.deskId,
      ...(signer !== undefined ? { operator: signer.operatorId } : {}),
      action: input.action,
      params: input.params,
      outcome: input.outcome,
    };
    const signed = signer?.sign(entry);
    const body = signed?.body ?? canonicalJson(entry);
    const anchor = { seq: entry.seq, hash: sha256(body) };
    await tx.query('INSERT INTO audit (seq, body, hash, operator_id, signature) VALUES ($1, $2, $3, $4, $5)', [
      entry.seq,
      body,
      anchor.hash,
      signed?.signer ?? null,
      signed?.signature ?? null,
    ]);
    await recordChange(tx, 'audit.appended', String(entry.seq));
    return anchor;
  }

  /**
   * Verifies the whole chain: each entry well formed, linked to the previous one, its hash right, an
   * operator's entry signed by that operator's enrolled key; and the desk's anchor still in it.
   */
  async verify(state: ControlState, anchor?: ChainAnchor): Promise<AuditVerdict> {
    return (await this.chain(state, anchor)).verdict;
  }

  /**
   * The chain as verified (what Activity shows in team mode): the verdict, and every entry that
   * parses, oldest first, each saying whether it verified — an entry at or after the first one that
   * fails is not vouched for, since the chain no longer proves what follows it.
   */
  async chain(state: ControlState, anchor?: ChainAnchor): Promise<VerifiedAuditChain> {
    const rows = await this.db.query<{
      seq: string;
      body: string;
      hash: string;
      operator_id: string | null;
      signature: string | null;
    }>('SELECT seq, body, hash, operator_id, signature FROM audit ORDER BY seq');
    const entries: VerifiedAuditEntry[] = [];
    let prev = '';
    let verdict: AuditVerdict | undefined;
    for (const [index, row] of rows.entries()) {
      const fail = (problem: string): AuditVerdict => ({ ok: false, problem: `Audit entry ${index}: ${problem}` });
      const entry = parseBody(AuditEntry, row.body);
      if (entry !== undefined) entries.push({ entry, signed: row.signature !== null, verified: verdict === undefined });
      if (verdict !== undefined) continue;
      const problem = ((): AuditVerdict | undefined => {
        if (Number(row.seq) !== index || entry === undefined || entry.seq !== index)
          return fail('missing or malformed');
        if (entry.team !== state.team) return fail('it belongs to another team');
        if (entry.prev !== prev)
          return fail('it does not follow the previous entry (an entry was removed or rewritten)');
        if (row.hash !== sha256(row.body)) return fail('its hash does not match it');
        if ((entry.operator ?? null) !== row.operator_id) return fail('its stored operator is not the one it names');
        if (entry.operator !== undefined) {
          const operator = state.operator(entry.operator);
          if (
            operator === undefined ||
            row.signature === null ||
            !verifySignature(operator.publicKey, row.body, row.signature)
          )
            return fail("its operator's signature does not verify (it was edited or added in the database)");
        }
        return undefined;
      })();
      if (problem !== undefined) {
        verdict = problem;
        const last = entries.at(-1);
        if (last !== undefined && last.entry.seq === index) entries[entries.length - 1] = { ...last, verified: false };
        continue;
      }
      prev = row.hash;
    }
    if (verdict === undefined) {
      // The imported solo journal, if any, is what the administrator's signed import entry says.
      const imported = entries.find((e) => e.signed && e.entry.action === SOLO_IMPORT_ACTION);
      const problem = await verifySoloImport(this.db, imported?.entry);
      if (problem !== undefined) {
        verdict = { ok: false, problem };
        for (const [i, e] of entries.entries()) if (e === imported) entries[i] = { ...e, verified: false };
      }
    }
    if (verdict === undefined && anchor !== undefined) {
      const kept = rows[anchor.seq];
      if (kept === undefined || kept.hash !== anchor.hash)
        verdict = {
          ok: false,
          problem: `The audit chain no longer contains entry ${anchor.seq} as this desk verified it: entries were removed or rewritten.`,
        };
    }
    const last = rows.at(-1);
    return {
      verdict: verdict ?? {
        ok: true,
        head: last === undefined ? undefined : { seq: Number(last.seq), hash: last.hash },
        entries: rows.length,
      },
      entries,
    };
  }
}
