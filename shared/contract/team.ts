/**
 * The `team` area: this desk in a team of desks sharing one PostgreSQL database (docs/team.md).
 * Without a team the desk works alone (solo, the default) and `status` says so.
 *
 * - `create` / `join`: an administrator takes this desk into a team (a control change: confirmed,
 *   and approved by another administrator of this desk when it has two). The URL may carry the
 *   database's password: main keeps it in the OS keychain and never shows, stores or logs it.
 * - `requestEnrolment`: an operator of this desk makes their team signing key here and asks to be
 *   enrolled; `prepareEnrolment`: a team administrator prepares the enrolment (another applies it
 *   in Approvals, or the team's only administrator at once).
 * - `leave`: takes this desk out of its team (a control change too).
 * - `importJournal`: imports this desk's journal and audit log into its team while the team is still
 *   empty (a control change; also offered when the team is created).
 * - `auditChain`: the team's audit chain as this desk verified it (Activity's audit view in team mode).
 */
import { z } from 'zod';
import { operation } from '../ipc/define';
import { OperatorRole, Passphrase } from './operators';

/** A PostgreSQL URL as typed (it may hold a password: only main reads it, and keeps it in the keychain). */
export const TeamUrlInput = z
  .string()
  .trim()
  .min(1, 'Enter the team database’s URL')
  .max(2000, 'At most 2000 characters')
  .regex(/^postgres(ql)?:\/\//, 'A PostgreSQL URL starts with postgres://');

/** A team's fingerprint: the SHA-256 of its genesis (64 hex digits), as the first desk shows it. */
export const TeamFingerprint = z
  .string()
  // A cap before anything else reads it (pasted text may carry spaces around the 64 digits).
  .max(128, 'The fingerprint is 64 hexadecimal digits (shown on the team’s first desk)')
  .trim()
  .regex(/^[0-9a-f]{64}$/i, 'The fingerprint is 64 hexadecimal digits (shown on the team’s first desk)')
  .transform((value) => value.toLowerCase());

export const TeamDatabaseState = z.object({
  /** connecting: not reached yet since the desk started; unavailable: lost, being retried. */
  state: z.enum(['connected', 'connecting', 'unavailable']),
  since: z.number().optional(),
  reason: z.string().optional(),
});
export type TeamDatabaseState = z.infer<typeof TeamDatabaseState>;

export const TeamOperator = z.object({
  id: z.string(),
  name: z.string(),
  /** Absent once removed from the team. */
  role: OperatorRole.optional(),
  /** A short form of their public key, to compare out of band. */
  keyFingerprint: z.string(),
});
export type TeamOperator = z.infer<typeof TeamOperator>;

export const TeamStatus = z.object({
  mode: z.enum(['solo', 'team']),
  /** A URL given at start (`--team`, TREASURY_DESK_TEAM_URL) this desk has not joined yet (no password). */
  offeredUrl: z.string().optional(),
  /** The team database's URL as kept (never with a password). */
  url: z.string().optional(),
  name: z.string().optional(),
  fingerprint: z.string().optional(),
  deskId: z.string().optional(),
  database: TeamDatabaseState.optional(),
  /** Whether the team's control chain verifies on this desk (the frame shows the problem on every screen). */
  integrity: z.object({ ok: z.boolean(), problem: z.string().optional() }).optional(),
  /** Movements a desk refused to send because their signatures did not verify (rows edited in the database). */
  blocked: z.array(z.object({ movementId: z.string(), problem: z.string(), at: z.number() })).default([]),
  /** Two or more team administrators: a team control change needs another administrator. */
  fourEyes: z.boolean().optional(),
  /** The operator signed in here, as the team knows them. */
  me: z
    .object({
      enrolled: z.boolean(),
      role: OperatorRole.optional(),
      /** Their signing key is on this desk and unlocked (they can sign). */
      keyUnlocked: z.boolean(),
      keyFingerprint: z.string().optional(),
      /** They asked to be enrolled and wait for an administrator. */
      requested: z.boolean(),
    })
    .optional(),
  operators: z.array(TeamOperator).default([]),
  /** Operators waiting to be enrolled (with the key fingerprint to compare with them). */
  enrolments: z
    .array(
      z.object({
        operatorId: z.string(),
        name: z.string(),
        role: OperatorRole,
        keyFingerprint: z.string(),
        /** An administrator prepared the enrolment: it waits in Approvals. */
        prepared: z.boolean(),
        requestedAt: z.number(),
      }),
    )
    .default([]),
});
export type TeamStatus = z.infer<typeof TeamStatus>;

/** An entry of the team's audit chain, as Activity shows it. */
export const TeamAuditEntry = z.object({
  seq: z.number().int(),
  at: z.number(),
  /** The desk that wrote it, and whether it is this one. */
  desk: z.string(),
  thisDesk: z.boolean(),
  /** The operator who did it (absent for a desk's background work), with their name as the team knows it. */
  operator: z.string().optional(),
  operatorName: z.string().optional(),
  action: z.string(),
  /** Its parameters as recorded (canonical JSON). */
  params: z.string(),
  outcome: z.string(),
  /** Signed by its operator's enrolled key (unsigned: a desk's background work, protected by the chain only). */
  signed: z.boolean(),
  /** It and every entry before it verified (hash links and signatures). */
  verified: z.boolean(),
});
export type TeamAuditEntry = z.infer<typeof TeamAuditEntry>;

export const TeamAuditChain = z.object({
  /** Whether the whole chain verified just now, and what failed first. */
  ok: z.boolean(),
  problem: z.string().optional(),
  /** How many entries the chain holds. */
  count: z.number().int(),
  /** The newest entries, newest first (at most `limit`). */
  entries: z.array(TeamAuditEntry),
});
export type TeamAuditChain = z.infer<typeof TeamAuditChain>;

export const team = {
  status: operation(
    'Whether this desk works in a team, and the team as this desk verified it.',
    z.object({}).strict(),
    TeamStatus,
  ),
  create: operation(
    'Creates a team on an empty PostgreSQL database with this desk and its signed-in administrator (a control change; the password goes to the keychain); optionally imports this desk’s journal and audit log into it.',
    z
      .object({
        url: TeamUrlInput,
        name: z.string().trim().min(1, 'Name the team').max(100),
        passphrase: Passphrase,
        /** Import this desk's journal (movements with their states) and audit log into the new team. */
        importJournal: z.boolean().default(false),
      })
      .strict(),
    TeamStatus,
  ),
  join: operation(
    'Joins the team at this URL whose fingerprint matches, and asks to enrol the signed-in operator (a control change).',
    z.object({ url: TeamUrlInput, fingerprint: TeamFingerprint, passphrase: Passphrase, role: OperatorRole }).strict(),
    TeamStatus,
  ),
  leave: operation(
    'Takes this desk out of its team (a control change); it works alone again.',
    z.object({}).strict(),
    TeamStatus,
  ),
  requestEnrolment: operation(
    'Makes the signed-in operator’s team signing key on this desk and asks a team administrator to enrol it.',
    z.object({ passphrase: Passphrase, role: OperatorRole }).strict(),
    TeamStatus,
  ),
  prepareEnrolment: operation(
    'Prepares the enrolment of an operator who asked for it (a team administrator; another one applies it in Approvals).',
    z.object({ operatorId: z.string().min(1).max(200) }).strict(),
    TeamStatus,
  ),
  auditChain: operation(
    'The team’s audit chain, verified now (each entry’s hash link and its operator’s signature): who did what on which desk, newest first.',
    z.object({ limit: z.number().int().min(1).max(5000).default(1000) }).strict(),
    TeamAuditChain,
  ),
  importJournal: operation(
    'Imports this desk’s journal (movements with their states) and audit log into its team, signed by the signed-in team administrator; only into a team that holds no movement or audit entry yet, once (a control change).',
    z.object({}).strict(),
    TeamStatus,
  ),
};
