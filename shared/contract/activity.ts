/**
 * Operations of the `activity` area: the audit log, every money movement with its status, and the
 * history sync that caches deposits, withdrawals, transfers, pushes and trades locally.
 * See docs/architecture.md, "How to add an operation".
 */
import { z } from 'zod';
import { operation } from '../ipc/define';

export const MovementKind = z.enum(['withdrawal', 'push', 'transfer', 'subAccountTransfer', 'subToSubTransfer']);
export const MovementState = z.enum(['prepared', 'sent', 'unknown', 'done', 'failed']);

/**
 * The label of a movement the journal leaves for a person: the platform lists a record that may be
 * this movement's but cannot be told from someone else's identical one (docs/core.md, "Proven absent").
 */
export const AMBIGUOUS_RECORD = 'AMBIGUOUS_RECORD';

/** A money movement as journaled (see electron/core/movements/types.ts for the meaning of each state). */
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
  hash: z.string(),
});

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
    'Recomputes the audit log’s hash chain; reports the first entry that was altered.',
    z.object({}).strict(),
    z.object({ ok: z.boolean(), entries: z.number().int().optional(), brokenAtSeq: z.number().int().optional() }),
  ),
  exportAuditCsv: operation(
    'The filtered audit log as CSV (RFC 4180, UTF-8, times in UTC).',
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
        note: z.string().trim().min(3, 'Say what you checked').max(500),
      })
      .strict(),
    Movement,
  ),
  startHistorySync: operation(
    'Fetches history over any period in 30-day windows and pages into the local cache (later runs only fetch what is missing); progress arrives as activity.historyProgress events.',
    z
      .object({
        kinds: z.array(HistoryKind).min(1).optional(),
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
    'Cached history records of one kind in a period (instant; run startHistorySync to fill gaps).',
    z
      .object({
        kind: HistoryKind,
        from: z.number().int().nonnegative(),
        to: z.number().int().nonnegative(),
        limit: z.number().int().min(1).max(10_000).optional(),
        offset: z.number().int().min(0).optional(),
      })
      .strict(),
    z.object({
      records: z.array(HistoryRecord),
      total: z.number().int(),
      /** Whether the whole period is covered by the cache. */
      complete: z.boolean(),
    }),
  ),
};

/** Events of the activity area (spread into shared/contract/events.ts). */
export const activityEvents = {
  /** A money movement changed state (sent, unknown, done, failed) or its platform status moved. */
  'activity.movementChanged': Movement,
  'activity.historyProgress': HistoryProgress,
};
