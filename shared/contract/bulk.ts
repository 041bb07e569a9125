/**
 * Operations of the `bulk` area: batches of money movements (from a CSV file, pasted spreadsheet
 * rows, or planned by a sweep / top-up), bulk sub-account management and API-key rotation.
 *
 * A batch is ONE journaled object in main (its own tables) whose rows are ordinary journaled
 * movements: each row is sent through the same handler a single transfer, UID push or withdrawal
 * uses (`transfers.send`, `funding.push`, `funding.withdraw`) with a request key derived from the
 * batch id, the row number and the row's attempt, so a row re-run after a crash joins the movement
 * it already journaled instead of sending it twice. See docs/bulk.md.
 */
import { z } from 'zod';
import { operation } from '../ipc/define';
import { TransferAccount } from '../platform/api/wallet';
import { Address, ChainName, CurrencyCode, Memo, PositiveAmount } from './funding';
import { safeText } from './text';

/** The largest file or pasted text a batch may come from, and the most rows it may have. */
export const BATCH_MAX_BYTES = 2 * 1024 * 1024;
export const BATCH_MAX_ROWS = 5_000;
export const BATCH_TOO_LARGE_MESSAGE = `A batch may come from at most 2 MB and ${BATCH_MAX_ROWS.toLocaleString('en-US')} rows; split the file into smaller batches.`;

/** The columns of a batch file, in the documented order (docs/bulk.md). */
export const BATCH_COLUMNS = ['type', 'currency', 'amount', 'from', 'to', 'chain', 'memo', 'reference'] as const;
export const REQUIRED_COLUMNS = ['type', 'currency', 'amount'] as const;

const userId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** One side of a transfer: the main account's spot/margin/futures/… or a sub-account's. */
export const AccountRef = z
  .object({
    /** 'main' or the sub-account's user id. */
    owner: z.union([z.literal('main'), userId]),
    account: TransferAccount,
    /** Margin: the isolated market (BTC_USDT). */
    pair: z
      .string()
      .max(32)
      .regex(/^[A-Z0-9]+_[A-Z0-9]+$/)
      .optional(),
    /** Futures / delivery: the settle currency (usdt, btc). */
    settle: z
      .string()
      .max(16)
      .regex(/^[a-z0-9]{1,16}$/)
      .optional(),
  })
  .strict();
export type AccountRef = z.infer<typeof AccountRef>;

export const Reference = z.string().max(64, 'A reference has at most 64 characters').superRefine(safeText('text'));

/** One row of a batch, as main executes it (after parsing). */
export const BatchRowInput = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('transfer'),
      currency: CurrencyCode,
      amount: PositiveAmount,
      from: AccountRef,
      to: AccountRef,
      reference: Reference.optional(),
    })
    .strict(),
  z
    .object({
      type: z.literal('push'),
      currency: CurrencyCode,
      amount: PositiveAmount,
      receiveUid: userId,
      reference: Reference.optional(),
    })
    .strict(),
  z
    .object({
      type: z.literal('withdrawal'),
      currency: CurrencyCode,
      amount: PositiveAmount,
      chain: ChainName,
      address: Address,
      memo: Memo.optional(),
      reference: Reference.optional(),
    })
    .strict(),
]);
export type BatchRowInput = z.infer<typeof BatchRowInput>;

/** A problem of the whole file (encoding, columns, size) or of one row. */
export const BatchProblem = z.object({
  /** 1-based data row number (the header is row 0); absent for the whole file. */
  row: z.number().int().nonnegative().optional(),
  column: z.string().optional(),
  message: z.string(),
});
export type BatchProblem = z.infer<typeof BatchProblem>;

/** A row of a preview: what will be sent, in words, with its errors and warnings. */
export const PreviewRow = z.object({
  row: z.number().int().positive(),
  input: BatchRowInput.optional(),
  /** As written in the file (for rows that could not be read). */
  raw: z.record(z.string(), z.string()),
  kind: z.string(),
  currency: z.string(),
  amount: z.string(),
  /** Withdrawal fee the platform charges on top (decimal), when known. */
  fee: z.string().optional(),
  from: z.string(),
  to: z.string(),
  errors: z.array(z.string()),
  warnings: z.array(z.string()),
});
export type PreviewRow = z.infer<typeof PreviewRow>;

export const PreviewTotal = z.object({
  /** Plain words: "Main · spot", "Sub 10002 · spot". */
  source: z.string(),
  currency: z.string(),
  /** Amounts + fees leaving this source. */
  total: z.string(),
  /** What is available there now, or null when the app cannot read it. */
  available: z.string().nullable(),
  rows: z.number().int(),
});
export type PreviewTotal = z.infer<typeof PreviewTotal>;

export const BatchPreview = z.object({
  rows: z.array(PreviewRow),
  /** Problems of the whole file: nothing can be sent while one remains. */
  fileProblems: z.array(BatchProblem),
  totals: z.array(PreviewTotal),
  errorCount: z.number().int(),
  warningCount: z.number().int(),
  /** Whether the policy would hold this batch for approval (absent: no policy engine). */
  approval: z
    .object({
      required: z.boolean(),
      reason: z.string().optional(),
      /** The policy lets the batch wait as ONE approval item (`approveBatchesAsAWhole`); else row by row. */
      asWhole: z.boolean().optional(),
      /** Rows that need an approver (their reasons are among the row's warnings). */
      rows: z.array(z.number().int()).optional(),
    })
    .optional(),
});
export type BatchPreview = z.infer<typeof BatchPreview>;

export const BatchSource = z.discriminatedUnion('source', [
  z
    .object({
      source: z.literal('csv'),
      text: z.string().max(BATCH_MAX_BYTES + 1024),
      fileName: z.string().max(200).optional(),
    })
    .strict(),
  z.object({ source: z.literal('rows'), rows: z.array(BatchRowInput).min(1).max(BATCH_MAX_ROWS) }).strict(),
]);
export type BatchSource = z.infer<typeof BatchSource>;

/** `approval`: started, waiting as one item in the Approvals queue (the policy's `approveBatchesAsAWhole`). */
export const BatchState = z.enum(['ready', 'approval', 'running', 'paused', 'cancelled', 'finished']);
export type BatchState = z.infer<typeof BatchState>;
export const BatchRowState = z.enum(['pending', 'sending', 'checking', 'done', 'failed', 'cancelled']);
export type BatchRowState = z.infer<typeof BatchRowState>;

export const BatchCounts = z.object({
  total: z.number().int(),
  pending: z.number().int(),
  sending: z.number().int(),
  checking: z.number().int(),
  done: z.number().int(),
  failed: z.number().int(),
  cancelled: z.number().int(),
});
export type BatchCounts = z.infer<typeof BatchCounts>;

export const BatchSummary = z.object({
  id: z.string(),
  profileId: z.string(),
  name: z.string(),
  kind: z.enum(['csv', 'sweep', 'topup']),
  state: BatchState,
  createdAt: z.number(),
  startedAt: z.number().optional(),
  finishedAt: z.number().optional(),
  counts: BatchCounts,
  /** Plain words when the batch waits (another profile active, not connected, locked). */
  note: z.string().optional(),
});
export type BatchSummary = z.infer<typeof BatchSummary>;

export const BatchRowView = z.object({
  row: z.number().int(),
  kind: z.string(),
  currency: z.string(),
  amount: z.string(),
  from: z.string(),
  to: z.string(),
  reference: z.string().optional(),
  state: BatchRowState,
  attempt: z.number().int(),
  /** The journaled movement (Activity) and its client id (withdraw_order_id / client_order_id). */
  movementId: z.string().optional(),
  clientId: z.string().optional(),
  platformId: z.string().optional(),
  label: z.string().optional(),
  message: z.string().optional(),
  updatedAt: z.number(),
});
export type BatchRowView = z.infer<typeof BatchRowView>;

const BatchId = z.object({ id: z.string().min(1).max(64) }).strict();

export const SweepPlanInput = z
  .object({
    mode: z.enum(['sweep', 'topup']),
    subUserIds: z.array(userId).min(1, 'Select at least one sub-account').max(BATCH_MAX_ROWS),
    /** Sub-account accounts to sweep from / top up (spot, futures). */
    accountTypes: z
      .array(z.enum(['spot', 'futures']))
      .min(1, 'Choose at least one account type')
      .max(2),
    /** Sweep: one currency, or every currency above `threshold` when absent. Top-up: required. */
    currency: CurrencyCode.optional(),
    /** Sweep: only balances above this amount are collected (default 0). */
    threshold: z
      .string()
      .max(64)
      .regex(/^\d+(\.\d+)?$/)
      .optional(),
    /** Top-up: the balance each selected account should hold afterwards. */
    target: PositiveAmount.optional(),
  })
  .strict()
  .refine((v) => v.mode === 'sweep' || (v.currency !== undefined && v.target !== undefined), {
    message: 'A top-up needs a currency and a target amount.',
    path: ['target'],
  });
export type SweepPlanInput = z.infer<typeof SweepPlanInput>;

export const SubAccountCreateResult = z.object({
  row: z.number().int(),
  loginName: z.string(),
  state: z.enum(['created', 'failed', 'invalid']),
  userId: z.number().optional(),
  message: z.string().optional(),
});

export const KeyHealthIssue = z.enum(['noIpWhitelist', 'nearExpiry', 'expired', 'unused']);
export const KeyHealthRow = z.object({
  userId: z.number(),
  loginName: z.string(),
  key: z.string(),
  name: z.string().optional(),
  ipWhitelist: z.array(z.string()),
  createdAt: z.number().optional(),
  lastAccess: z.number().optional(),
  /** Days until a key without IP binding is disabled by the platform (90 days from creation). */
  expiresInDays: z.number().optional(),
  issues: z.array(KeyHealthIssue),
});
export type KeyHealthRow = z.infer<typeof KeyHealthRow>;

/** The passphrase of an encrypted key file: long enough to resist guessing, typed by the operator. */
export const Passphrase = z.string().min(12, 'Use a passphrase of at least 12 characters').max(256);

export const RotationTarget = z.object({ userId, key: z.string().min(1).max(128) }).strict();

export const RotatedKey = z.object({
  userId: z.number(),
  oldKey: z.string(),
  newKey: z.string().optional(),
  /**
   * "Show once": whether the shell's own page showed the new secret (main never returns it to the
   * window).
   */
  secretShown: z.boolean().optional(),
  state: z.enum(['created', 'verified', 'replaced', 'failed']),
  message: z.string().optional(),
});
export type RotatedKey = z.infer<typeof RotatedKey>;

export const bulk = {
  exampleCsv: operation(
    'The example batch file (assets/batch-example.csv) for the operator to download.',
    z.object({}).strict(),
    z.object({ name: z.string(), content: z.string() }),
  ),
  preview: operation(
    'Parses a batch (CSV text or rows) and checks every row against the platform (currency, chain, saved address, precision, minimums, balances for the batch as a whole, duplicates, policy). Sends nothing.',
    BatchSource,
    BatchPreview,
  ),
  planSweep: operation(
    'Plans a sweep to main (or a top-up of each selected sub-account to a target) as batch rows with their preview. Sends nothing.',
    SweepPlanInput,
    BatchPreview,
  ),
  create: operation(
    'Checks the batch again and journals it (state ready) when no row has an error; nothing is sent until start.',
    z
      .object({
        name: z.string().trim().min(1).max(100).superRefine(safeText('name')),
        kind: z.enum(['csv', 'sweep', 'topup']),
        batch: BatchSource,
      })
      .strict(),
    z.union([
      z.object({ created: z.literal(true), batch: BatchSummary }),
      z.object({ created: z.literal(false), preview: BatchPreview }),
    ]),
  ),
  start: operation('Starts a ready batch (its rows go out at the platform’s rate limits).', BatchId, BatchSummary),
  pause: operation('Stops sending new rows; rows in flight finish.', BatchId, BatchSummary),
  resume: operation('Continues a paused batch where it stopped.', BatchId, BatchSummary),
  cancel: operation(
    'Cancels the rows not sent yet; rows sent or being checked are followed to the end.',
    BatchId,
    BatchSummary,
  ),
  retryFailed: operation(
    'Sends the failed rows of a finished batch again, each as a new attempt (a new request key).',
    BatchId,
    BatchSummary,
  ),
  list: operation(
    'Batches of the active profile, newest first.',
    z.object({}).strict(),
    z.object({ batches: z.array(BatchSummary) }),
  ),
  get: operation('One batch with its rows.', BatchId, z.object({ batch: BatchSummary, rows: z.array(BatchRowView) })),
  exportReport: operation(
    'Writes the batch report (row, client id, status, platform id, time with its zone) as CSV through the save dialog / Downloads.',
    z.object({ id: z.string().min(1).max(64), timeZone: z.enum(['local', 'UTC', 'UTC+8']).default('UTC') }).strict(),
    z.union([z.object({ cancelled: z.literal(true) }), z.object({ path: z.string(), rows: z.number().int() })]),
  ),

  createSubAccounts: operation(
    'Creates sub-accounts from CSV text (columns login_name, remark, email), one by one; bad rows are reported and not sent.',
    z.object({ text: z.string().max(BATCH_MAX_BYTES + 1024) }).strict(),
    z.object({ results: z.array(SubAccountCreateResult), fileProblems: z.array(BatchProblem) }),
  ),
  setFrozen: operation(
    'Freezes (or unfreezes) each selected sub-account; the answer says which succeeded.',
    z.object({ userIds: z.array(userId).min(1).max(BATCH_MAX_ROWS), frozen: z.boolean() }).strict(),
    z.object({
      results: z.array(z.object({ userId: z.number(), ok: z.boolean(), message: z.string().optional() })),
    }),
  ),
  keyHealth: operation(
    'Keys of every (or the selected) sub-account with their health: no IP whitelist, near or past the platform’s 90-day expiry, unused for `unusedDays`.',
    z
      .object({
        userIds: z.array(userId).max(BATCH_MAX_ROWS).optional(),
        unusedDays: z.number().int().min(1).max(3650).default(30),
      })
      .strict(),
    z.object({ keys: z.array(KeyHealthRow), checkedAt: z.number() }),
  ),
  rotateKeys: operation(
    'Creates a new key with the same permissions and IP whitelist for each selected key and tests it with a signed read. The old key stays until confirmRotation. Secrets are shown once or written to an AES-256-GCM file (scrypt over the passphrase).',
    z
      .object({
        targets: z.array(RotationTarget).min(1).max(200),
        deliver: z.discriminatedUnion('to', [
          z.object({ to: z.literal('screen') }).strict(),
          z.object({ to: z.literal('file'), passphrase: Passphrase }).strict(),
        ]),
      })
      .strict(),
    z.object({ keys: z.array(RotatedKey), file: z.string().optional() }),
  ),
  confirmRotation: operation(
    'After the operator confirmed the new keys work: tests each new key again and deletes the old one only when that test passes.',
    z
      .object({
        pairs: z
          .array(z.object({ userId, oldKey: z.string().min(1).max(128), newKey: z.string().min(1).max(128) }).strict())
          .min(1)
          .max(200),
      })
      .strict(),
    z.object({ keys: z.array(RotatedKey) }),
  ),
};

export const bulkEvents = {
  /** A batch or one of its rows changed (state, progress); the Bulk screen refreshes it. */
  'bulk.batchChanged': z.object({ id: z.string(), state: BatchState, counts: BatchCounts }),
};
