/**
 * What the first desk of a team brings when its administrator imports its solo journal
 * (team/import.ts): its audit log, only once the desk's own check passes (the HMAC chain under the
 * keychain's key, and the head the keychain kept), every movement of every profile, and its
 * operators' names and roles (history only: docs/team.md says why they are not enrolled from it).
 */
import type { AuditIntegrity } from '../../shared/contract/activity';
import { DeskFailure } from '../errors';
import type { AuditLog } from '../journal/types';
import type { Movement, MovementFilter } from '../movements/types';
import type { SoloDeskExport } from '../team';

export interface SoloJournal {
  /** The desk's own audit check (services/auditTrust.ts `check`). */
  readonly checkAudit: () => Promise<AuditIntegrity>;
  readonly audit: AuditLog;
  readonly movements: {
    list(filter: MovementFilter): Movement[];
    requestKeyOf(id: string): string | undefined;
  };
  readonly profileIds: () => readonly string[];
  readonly operators: () => readonly { readonly name: string; readonly role: string }[];
}

/** No cap: the import takes the whole journal. */
const ALL = Number.MAX_SAFE_INTEGER;

export const readSoloDesk = async (journal: SoloJournal): Promise<SoloDeskExport> => {
  const integrity = await journal.checkAudit();
  const walked = journal.audit.verify();
  if (!integrity.ok || !walked.ok)
    throw DeskFailure.precondition(
      `This desk’s audit log does not pass its check, so it is not imported: ${integrity.problem ?? `entry ${walked.ok ? '' : walked.brokenAtSeq} is altered`}`,
      'Look at Activity → Audit log; an administrator acknowledges the failure before the journal is imported.',
    );
  const movements = journal
    .profileIds()
    .flatMap((profileId) => journal.movements.list({ profileId, limit: ALL }))
    .map((movement) => {
      const requestKey = journal.movements.requestKeyOf(movement.id);
      return requestKey === undefined ? movement : { ...movement, requestKey };
    })
    .sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  return {
    audit: journal.audit.list({ limit: ALL }).reverse(),
    auditHead: { count: walked.head.count, hash: walked.head.hash },
    movements,
    operators: journal.operators().map(({ name, role }) => ({ name, role })),
  };
};
