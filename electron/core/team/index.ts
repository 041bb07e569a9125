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
 * - changes.ts     `TeamLive`: LISTEN/NOTIFY with reconnect and catch-up
 */
export { TeamAudit } from './audit';
export { type TeamChange, type TeamChangeKind, TeamLive } from './changes';
export { parseTeamUrl, readTeamPassword, saveTeamPassword, type TeamUrl } from './connection';
export { type PendingChange, TeamControl, type TeamIdentity } from './control';
export { type ChainAnchor, type ControlState, mayAct, type PolicyVersion, verifyControlChain } from './controlChain';
export { TeamDatabase, type TeamHealth, type TeamTimers } from './database';
export { LeaseLost, TeamUnavailable } from './errors';
export { createOperatorKey, keyFingerprint, type OperatorSigner, unlockOperatorKey } from './identity';
export { joinTeam, type OpenTeam, openTeam, startTeam, type TeamIntegrity, type TeamSettings } from './lifecycle';
export { type Claim, type LimitCheck, type SpentMovement, TeamMovements } from './movements';
export type { Batch, ControlAction, Decision, MovementRequest } from './records';
export { migrate, TEAM_SCHEMA_VERSION } from './schema';
export { type MovementVerdict, verifyMovement } from './verify';
