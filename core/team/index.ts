/**
 * Team mode's foundation (docs/team.md): the team database on PostgreSQL and the signed records that
 * make it safe to share. What the rest of the core uses:
 *
 * - lifecycle.ts   `startTeam`, `joinTeam`, `openTeam`: what the core calls (the rest is what they use)
 * - connection.ts  `parseTeamUrl`, `saveTeamPassword` (the password goes to the keychain, never to disk)
 * - database.ts    `TeamDatabase.open` (bounded timeouts, transactions, `health()` / `onHealth`)
 * - schema.ts      `migrate` (versioned, one desk at a time)
 * - identity.ts    `createOperatorKey`, `unlockOperatorKey` → an `OperatorSigner`
 * - control.ts     `TeamControl`: create the team, prepare / apply / reject control changes, the
 *                  verified control chain (`ControlState`: operators, roles, keys, policies)
 * - movements.ts   `TeamMovements`: prepare (firm-wide limits), decide, claim / markSent / settle
 * - verify.ts      `verifyMovement`: the signature chain a desk checks before it sends
 * - audit.ts       `TeamAudit`: the shared audit chain
 * - import.ts      `importSoloDesk`: the first desk's solo journal and audit log, anchored in the chain
 * - enrolment.ts   `TeamEnrolments`: an operator's key, made on their desk, asking to be enrolled
 * - senders.ts     `TeamSenders`: which desk sends a profile's movements now (the account's rate limits)
 * - changes.ts     `TeamLive`: LISTEN/NOTIFY with reconnect and catch-up
 */
export { TeamAudit } from './audit';
export { sha256 } from './canonical';
export { type TeamChange, type TeamChangeKind, TeamLive } from './changes';
export { parseTeamUrl, readTeamPassword, saveTeamPassword, type TeamUrl } from './connection';
export { type PendingChange, TeamControl, type TeamIdentity } from './control';
export { type ChainAnchor, type ControlState, mayAct, type PolicyVersion, verifyControlChain } from './controlChain';
export { TeamDatabase, type TeamHealth, type TeamTimers } from './database';
export { type StoredEnrolment, signEnrolmentRequest, TeamEnrolments } from './enrolment';
export { LeaseLost, TeamUnavailable } from './errors';
export {
  createOperatorKey,
  keyFingerprint,
  type OperatorSigner,
  operatorKeyEntry,
  type SignedRecord,
  unlockOperatorKey,
} from './identity';
export { importSoloDesk, inFlight, type SoloDeskExport, type SoloImportReceipt } from './import';
export {
  applyStart,
  joinTeam,
  type OpenTeam,
  openTeam,
  type PreparedStart,
  prepareStart,
  startTeam,
  type TeamIntegrity,
  type TeamSettings,
} from './lifecycle';
export {
  type Claim,
  DEFAULT_LEASE_MS,
  isFinal,
  type LimitCheck,
  type ListedMovement,
  type MovementState as TeamMovementState,
  type SpentMovement,
  type StoredMovement,
  TeamMovements,
} from './movements';
export type { Batch, ControlAction, ControlChange, Decision, EnrolmentRequest, MovementRequest } from './records';
export { ControlChange as ControlChangeSchema, MovementRequest as MovementRequestSchema, parseBody } from './records';
export { migrate, TEAM_SCHEMA_VERSION } from './schema';
export { TeamSenders } from './senders';
export { type MovementVerdict, verifyMovement, verifyRequest } from './verify';
