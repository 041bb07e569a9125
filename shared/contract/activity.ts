/**
 * Operations of the `activity` area: the audit log, every money movement with its status, and the
 * history sync that caches deposits, withdrawals, transfers, pushes and trades locally.
 * See docs/architecture.md, "How to add an operation".
 */
import { z } from 'zod';
import { DISPLAY_TIME_ZONES } from '../format/time';
import { operation } from '../ipc/define';
import { sanitizeFileName } from './app';
import { safeText } from './text';

export const MovementKind = z.enum([
  'withdrawal',
  'push',
  'transfer',
  'subAccountTransfer',
  'subToSubTransfer',
  /** A spot order, journaled with its `text` (t-desk-…) as client id (core/movements/adapters/spotOrder.ts). */
  'spotOrder',
]);
export const MovementState = z.enum(['prepared', 'sent', 'unknown', 'done', 'failed']);

/**
 * The label of a movement the journal leaves for a person: the platform lists a record that may be
 * this movement's but cannot be told from someone else's identical one (docs/core.md, "Proven absent").
 */
export const AMBIGUOUS_RECORD = 'AMBIGUOUS_RECORD';

/** A money movement as journaled (see core/movements/types.ts for the meaning of each state). */
export const Movement = z.object({
  id: z.string(),
  profileId: z.string(),
  kind: MovementKind,
  state: MovementState,
  clientId: z.string(),
  platformId: z.string().optional(),
  platformStatus: z.string().optional(),
  currency: z.string(),
  amount: z.string(),
  params: z.record(z.string(), z.unknown()),
  label: z.string().optional(),
  message: z.string().optional(),
  requestId: z.string().optional(),
  attempts: z.number().int(),
  createdAt: z.number(),
  updatedAt: z.number(),
  /** The operator signed in when it was journaled ('' for movements journaled before operators existed). */
  operator: z.string(),
  /**
   * Where it was asked for: `screen`, `batch row N of batch B, confirmed as a whole at T by O`, or an
   * approved item's origin; absent for movements journaled before origins were kept.
   */
  origin: z.string().optional(),
});
export type MovementView = z.infer<typeof Movement>;

export const AuditOutcome = z.enum(['ok', 'error', 'unknown']);

export const AuditEntry = z.object({
  seq: z.number().int(),
  at: z.number(),
  profileId: z.string(),
  action: z.string(),
  account: z.string(),
  params: z.string(),
  outcome: AuditOutcome,
  label: z.string(),
  requestId: z.string(),
  /** The operator who did it ('' for entries written before operators existed, or by the app itself). */
  operator: z.string(),
  hash: z.string(),
});

/**
 * Whether the audit log passed its check — at start, or the last "Verify integrity" — against the
 * key and the head the OS keychain keeps (core/activity/auditTrust.ts). A failure stays
 * (a banner on every screen) until an administrator acknowledges it.
 */
export const AuditIntegrity = z.object({
  ok: z.boolean(),
  /** Unix ms. */
  checkedAt: z.number(),
  /** Entries checked (when it passed). */
  entries: z.number().int().optional(),
  /** What failed, in words. */
  problem: z.string().optional(),
  /** The first entry found altered, when one is. */
  brokenAtSeq: z.number().int().optional(),
  /** The fingerprint of the key that signs audit exports (an auditor compares it: docs/security.md). */
  signingKey: z.string(),
});
export type AuditIntegrity = z.infer<typeof AuditIntegrity>;

const AuditFilter = z
  .object({
    action: z.string().max(200).optional(),
    outcome: AuditOutcome.optional(),
    text: z.string().max(200).optional(),
    /** Unix ms. */
    from: z.number().int().nonnegative().optional(),
    to: z.number().int().nonnegative().optional(),
    limit: z.number().int().min(1).max(5000).optional(),
    beforeSeq: z.number().int().positive().optional(),
    /** All profiles instead of the active one. */
    allProfiles: z.boolean().optional(),
  })
  .strict();

const MovementFilter = z
  .object({
    kind: MovementKind.optional(),
    state: MovementState.optional(),
    from: z.number().int().nonnegative().optional(),
    to: z.number().int().nonnegative().optional(),
    limit: z.number().int().min(1).max(5000).optional(),
  })
  .strict();

export const HistoryKind = z.enum(['deposits', 'withdrawals', 'subAccountTransfers', 'pushes', 'trades']);
export type HistoryKind = z.infer<typeof HistoryKind>;

export const HistorySyncState = z.enum(['idle', 'running', 'done', 'cancelled', 'failed']);

export const HistoryProgress = z.object({
  syncId: z.string(),
  state: HistorySyncState,
  kinds: z.array(HistoryKind),
  /** Unix seconds of the requested period. */
  from: z.number(),
  to: z.number(),
  /** 30-day windows (per kind) already covered / to fetch in this run (cached windows are skipped). */
  windowsDone: z.number().int(),
  windowsTotal: z.number().int(),
  /** Requests made and records stored in this run. */
  requests: z.number().int(),
  records: z.number().int(),
  /** Estimated ms left at the rate limits' pace. */
  etaMs: z.number().optional(),
  error: z.string().optional(),
  startedAt: z.number(),
  finishedAt: z.number().optional(),
});
export type HistoryProgress = z.infer<typeof HistoryProgress>;

/** Which cached history records: some kinds, a period (Unix seconds, inclusive). */
const HistoryQuery = z.object({
  kinds: z.array(HistoryKind).min(1).max(HistoryKind.options.length),
  from: z.number().int().nonnegative(),
  to: z.number().int().nonnegative(),
});

/** The largest page `activity.history` answers (screens ask for what is in view). */
export const HISTORY_PAGE_MAX = 1000;

export const ExportProgress = z.object({
  exportId: z.string(),
  /** Rows written so far, and how many the export will write in all. */
  written: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  /** `cancelled`: the person stopped it; the partly written file was removed. */
  state: z.enum(['running', 'done', 'failed', 'cancelled']),
});
export type ExportProgress = z.infer<typeof ExportProgress>;

/** One cached history record; `data` is the platform's record as received (validated). */
export const HistoryRecord = z.object({
  kind: HistoryKind,
  id: z.string(),
  /** Unix seconds. */
  time: z.number(),
  data: z.record(z.string(), z.unknown()),
});

export const activity = {
  auditLog: operation('Audit log entries, newest first, filtered.', AuditFilter, z.array(AuditEntry)),
  verifyAudit: operation(
    'Recomputes the audit log’s HMAC chain and compares it with the head the OS keychain keeps; reports what was altered or removed.',
    z.object({}).strict(),
    AuditIntegrity,
  ),
  auditIntegrity: operation(
    'The state of the audit log’s last check (at start or since); a failure stays until an administrator acknowledges it.',
    z.object({}).strict(),
    AuditIntegrity,
  ),
  acknowledgeAuditFailure: operation(
    'An administrator has looked at a failed audit check: recorded in the log (with the note), then the chain is keyed again over the log as it stands. Asks for the trusted confirmation.',
    z.object({ note: z.string().trim().max(500).superRefine(safeText('text')).optional() }).strict(),
    AuditIntegrity,
  ),
  exportAuditCsv: operation(
    'The filtered audit log as CSV (RFC 4180, UTF-8, times in UTC), signed with the desk’s Ed25519 key (last record; checked by `npm run audit:verify -- <file>`).',
    AuditFilter,
    z.object({ filename: z.string(), csv: z.string() }),
  ),
  movements: operation(
    'Money movements of the active profile with their journal state, newest first.',
    MovementFilter,
    z.array(Movement),
  ),
  movement: operation(
    'One money movement by journal id.',
    z.object({ id: z.string().min(1).max(64) }).strict(),
    Movement,
  ),
  exportMovementsCsv: operation(
    'Money movements as CSV (RFC 4180, UTF-8, times in UTC).',
    MovementFilter,
    z.object({ filename: z.string(), csv: z.string() }),
  ),
  reconcile: operation(
    'Checks every unresolved money movement with the platform now.',
    z.object({}).strict(),
    z.array(Movement),
  ),
  resolveMovement: operation(
    'Settles by hand a movement whose outcome the platform cannot tell (a sub-account to sub-account transfer whose answer was lost), after checking the balances.',
    z
      .object({
        id: z.string().min(1).max(64),
        outcome: z.enum(['done', 'failed']),
        note: z.string().trim().min(3, 'Say what you checked').max(500).superRefine(safeText('text')),
      })
      .strict(),
    Movement,
  ),
  startHistorySync: operation(
    'Fetches history over any period in 30-day windows and pages into the local cache (later runs only fetch what is missing); progress arrives as activity.historyProgress events.',
    z
      .object({
        kinds: z.array(HistoryKind).min(1).max(HistoryKind.options.length).optional(),
        /** Unix seconds. */
        from: z.number().int().nonnegative(),
        to: z.number().int().nonnegative(),
        /** For trades: the markets to fetch (the platform's my_trades without a pair covers all). */
        currencyPair: z.string().max(32).optional(),
      })
      .strict()
      .refine((r) => r.from <= r.to, { message: '"From" must be before "to"', path: ['from'] }),
    HistoryProgress,
  ),
  cancelHistorySync: operation(
    'Stops the running history sync; what was fetched stays cached.',
    z.object({ syncId: z.string().min(1).max(64) }).strict(),
    HistoryProgress,
  ),
  historyStatus: operation(
    'The current or last history sync’s progress.',
    z.object({}).strict(),
    HistoryProgress.nullable(),
  ),
  history: operation(
    'One page of the cached history records of the given kinds in a period, newest first, with the count of every record that matches (instant; run startHistorySync to fill gaps). A screen pages through all of them: the page size is not a cap.',
    HistoryQuery.extend({
      limit: z.number().int().min(1).max(HISTORY_PAGE_MAX).optional(),
      offset: z.number().int().min(0).optional(),
    }).strict(),
    z.object({
      records: z.array(HistoryRecord),
      /** Every cached record that matches, not only this page's. */
      total: z.number().int(),
      /** Whether the whole period is covered by the cache. */
      complete: z.boolean(),
    }),
  ),
  exportHistoryCsv: operation(
    'Writes every cached record of the given kinds in the period to a CSV file the person chooses (written as it is read, with activity.exportProgress events), and says how many rows it wrote. Cancelling the call stops it and removes the partly written file (answer: cancelled).',
    HistoryQuery.extend({
      /** Chosen by the screen, so it can tell its progress events apart. */
      exportId: z.string().uuid(),
      /** Any text: it is turned into a safe plain file name. */
      suggestedName: z
        .string()
        .min(1)
        .max(200)
        .transform((name) => sanitizeFileName(name, 'text/csv')),
      timeZone: z.enum(DISPLAY_TIME_ZONES),
    }).strict(),
    z.union([
      z.object({ path: z.string(), rows: z.number().int().nonnegative() }),
      z.object({ cancelled: z.literal(true) }),
    ]),
  ),
};

/** Events of the activity area (spread into shared/contract/events.ts). */
export const activityEvents = {
  /** A money movement changed state (sent, unknown, done, failed) or its platform status moved. */
  'activity.movementChanged': Movement,
  'activity.historyProgress': HistoryProgress,
  /** A CSV export written by main (exportHistoryCsv) moved on. */
  'activity.exportProgress': ExportProgress,
  /** The audit log's check failed, or a failure was acknowledged (the frame's banner follows it). */
  'activity.auditIntegrityChanged': AuditIntegrity,
};
