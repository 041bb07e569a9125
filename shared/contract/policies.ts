/**
 * Operations of the `policies` and `approvals` areas: the per-profile policy that main enforces on
 * every money movement (limits per transaction and per rolling 24 hours, per currency and in USDT
 * value; a destination allowlist with a cooling-off period; a time-of-day window; approval rules),
 * and the Approvals queue where a movement that needs another operator's approval waits.
 *
 * Everything here is checked again in main (core/policies/): the screen only helps. See
 * docs/approvals.md and docs/security.md, "Policies".
 */
import { z } from 'zod';
import { operation } from '../ipc/define';
import { Address, ChainName, CurrencyCode, Memo, ReviewPolicy } from './funding';
import { safeText } from './text';

/** A limit: a non-negative decimal string, "0" meaning "nothing may move". */
export const LimitAmount = z
  .string()
  .trim()
  .min(1, 'Enter an amount')
  .max(40, 'This amount is too long')
  .regex(/^\d+(\.\d+)?$/, 'Use digits and an optional decimal point (no signs, spaces or exponents)');

/** Limits of one currency (in that currency) or, for `usdtLimits`, of the USDT value. Absent: no limit. */
export const Limits = z
  .object({
    perTransaction: LimitAmount.optional(),
    rolling24h: LimitAmount.optional(),
  })
  .strict();
export type Limits = z.infer<typeof Limits>;

export const AllowlistLabel = z
  .string()
  .trim()
  .min(1, 'Give the address a label')
  .max(60, 'Use at most 60 characters')
  .superRefine(safeText('name'));

/** A destination as the person enters it in the policy form (main sets when it was added). */
export const AllowlistEntryInput = z
  .object({
    currency: CurrencyCode,
    chain: ChainName,
    address: Address,
    memo: Memo.optional(),
    label: AllowlistLabel,
  })
  .strict();
export type AllowlistEntryInput = z.infer<typeof AllowlistEntryInput>;

export const AllowlistEntry = AllowlistEntryInput.extend({
  /** Unix ms when main added it; it may be used once the cooling-off period has passed. */
  addedAt: z.number().int().nonnegative(),
});
export type AllowlistEntry = z.infer<typeof AllowlistEntry>;

const Minute = z.number().int().min(0, 'From 0 (00:00)').max(1439, 'Up to 1439 (23:59)');

/** Movements are allowed only between `fromMinute` and `toMinute` (minutes after midnight, at `utcOffsetMinutes`). */
export const TimeWindow = z
  .object({
    fromMinute: Minute,
    toMinute: Minute,
    /** The time zone of the window as an offset from UTC (e.g. 60 for UTC+1). */
    utcOffsetMinutes: z.number().int().min(-840).max(840),
  })
  .strict()
  .refine((w) => w.fromMinute !== w.toMinute, { message: 'The window must not be empty', path: ['toMinute'] });
export type TimeWindow = z.infer<typeof TimeWindow>;

export const ApprovalRules = z
  .object({
    /** Movements worth more than this many USDT need an approver other than the maker. */
    aboveUsdt: LimitAmount.optional(),
    /** A withdrawal to a destination this profile never sent to needs approval. */
    newDestination: z.boolean(),
    /** Every UID push needs approval. */
    anyPush: z.boolean(),
    /**
     * A batch (Bulk) whose rows need approval waits as ONE approval item — its rows, totals per
     * currency and reasons — for one approver; its rows then run, each still checked against the
     * limits. Absent or false (the default): each row that needs approval waits on its own.
     */
    approveBatchesAsAWhole: z.boolean().optional(),
    /** How long a movement waits for approval before it expires (hours). */
    expiresHours: z.number().int().min(1, 'At least 1 hour').max(336, 'At most 14 days (336 hours)'),
    /**
     * For this many hours after an administrator created an operator, changed their role or reset
     * their passphrase, that operator may not approve what this administrator prepared (one person
     * with two names is not four eyes). Absent: DEFAULT_OPERATOR_COOLING_OFF_HOURS.
     */
    operatorCoolingOffHours: z
      .number()
      .int()
      .min(0, 'At least 0 hours')
      .max(720, 'At most 30 days (720 hours)')
      .optional(),
  })
  .strict();

/** The cooling-off period after an administrator's grant over an operator (ApprovalRules.operatorCoolingOffHours). */
export const DEFAULT_OPERATOR_COOLING_OFF_HOURS = 72;
export type ApprovalRules = z.infer<typeof ApprovalRules>;

const MAX_LIMITED_CURRENCIES = 200;
const MAX_ALLOWLIST = 500;

const policyShape = <E extends z.ZodType>(entry: E) =>
  z
    .object({
      /** Per currency (upper case), in that currency. */
      limits: z
        .record(CurrencyCode, Limits)
        .refine((r) => Object.keys(r).length <= MAX_LIMITED_CURRENCIES, `At most ${MAX_LIMITED_CURRENCIES} currencies`),
      /** Over every currency, in USDT value. */
      usdtLimits: Limits,
      allowlist: z
        .object({
          /** Withdrawals only to an allowlisted destination whose cooling-off period has passed. */
          required: z.boolean(),
          coolingOffHours: z.number().int().min(0).max(720, 'At most 30 days (720 hours)'),
          entries: z.array(entry).max(MAX_ALLOWLIST, `At most ${MAX_ALLOWLIST} addresses`),
        })
        .strict(),
      /** Absent: any time of day. */
      timeWindow: TimeWindow.optional(),
      approval: ApprovalRules,
      /**
       * The review threshold of this profile: amounts above it need the amount typed in the
       * trusted confirmation (withdrawals, UID transfers, transfers). A currency without an entry
       * always asks. Absent in an input: the threshold stays as it is.
       */
      review: ReviewPolicy.optional(),
    })
    .strict();

/** What an admin sends (Settings → Policies). */
export const PolicyInput = policyShape(AllowlistEntryInput);
export type PolicyInput = z.infer<typeof PolicyInput>;

/** The policy as main keeps and enforces it. */
export const Policy = policyShape(AllowlistEntry);
export type Policy = z.infer<typeof Policy>;

/** The policy of a profile nobody has set one for: no limits, no allowlist, approvals off. */
export const DEFAULT_POLICY: Policy = {
  limits: {},
  usdtLimits: {},
  allowlist: { required: false, coolingOffHours: 24, entries: [] },
  approval: { newDestination: false, anyPush: false, approveBatchesAsAWhole: false, expiresHours: 24 },
};

export const PolicyView = z.object({
  profileId: z.string(),
  policy: Policy,
  /** Unix ms of the last change; absent while the default applies. */
  updatedAt: z.number().optional(),
  updatedBy: z.string().optional(),
});
export type PolicyView = z.infer<typeof PolicyView>;

// ---------------------------------------------------------------------------------------------
// Approvals

/**
 * `batch`: a whole batch of the Bulk screen, approved or rejected as one (`approveBatchesAsAWhole`);
 * `control`: a control change (who may act, how money is guarded) prepared by one administrator,
 * applied once another administrator approves it.
 */
export const ApprovalKind = z.enum(['withdrawal', 'push', 'batch', 'control']);
export type ApprovalKind = z.infer<typeof ApprovalKind>;

/**
 * Control changes: every change to who may act and how money is guarded. Each is confirmed in the
 * trusted confirmation with what changes (before → after); once the desk has two administrators, one
 * prepared by an administrator is applied only after another administrator approves it (docs/approvals.md).
 */
export const ControlKind = z.enum([
  'operators.create',
  'operators.changeRole',
  'operators.remove',
  'operators.resetPassphrase',
  'policies.set',
  'profiles.add',
  'profiles.setKey',
  'profiles.removeKey',
  'profiles.remove',
  'subAccounts.create',
  'subAccounts.setFrozen',
  'keys.create',
  'keys.update',
  'keys.delete',
  'balances.convertSmallBalances',
  'team.join',
  'team.leave',
  'team.importJournal',
]);
export type ControlKind = z.infer<typeof ControlKind>;

/** One line of what a control change changes: the value before and after (`—`: none). */
export const ControlChangeRow = z.object({ label: z.string(), before: z.string(), after: z.string() });
export type ControlChangeRow = z.infer<typeof ControlChangeRow>;

/**
 * pending: waits for an approver · approved: approved, being sent (briefly) · sent: the journal
 * has it (see the movement in Activity) · rejected · expired · failed: refused when sent, or it
 * could not be sent (the reason is in `outcome`) · cancelled: withdrawn before anyone decided it
 * (a batch cancelled in Bulk while it waited; `decidedBy` cancelled it, `reason` says so).
 */
export const ApprovalState = z.enum(['pending', 'approved', 'sent', 'rejected', 'expired', 'failed', 'cancelled']);
export type ApprovalState = z.infer<typeof ApprovalState>;

export const Approval = z.object({
  id: z.string(),
  profileId: z.string(),
  kind: ApprovalKind,
  state: ApprovalState,
  currency: z.string(),
  amount: z.string(),
  /** USDT value when it was prepared (absent when no price was known). */
  usdtValue: z.string().optional(),
  /** Withdrawal: network, address, memo; push: the receiving UID. */
  destination: z.string(),
  /** Withdrawal or push: the destination field by field (a withdrawal's network, address, memo; a push's UID). */
  to: z
    .union([
      z.object({ chain: z.string(), address: z.string(), memo: z.string().optional() }),
      z.object({ uid: z.string() }),
    ])
    .optional(),
  /** A withdrawal to a destination this profile had never sent to when it was prepared. */
  newDestination: z.boolean().optional(),
  /** What it is, in a line: "Withdraw 250 USDT to 0xabc… (TRX)". */
  summary: z.string(),
  /** Why it needs approval, each in plain words. */
  reasons: z.array(z.string()),
  makerId: z.string(),
  makerName: z.string(),
  createdAt: z.number(),
  expiresAt: z.number(),
  decidedBy: z.string().optional(),
  decidedAt: z.number().optional(),
  /** The approver's or rejecter's reason. */
  reason: z.string().optional(),
  /** The journal's movement once sent. */
  movementId: z.string().optional(),
  /** What happened when it was sent (a refusal's words). */
  outcome: z.string().optional(),
  /** Kind `batch`: the batch, its rows and totals (currency / amount above: the totals in words). */
  batch: z
    .object({
      batchId: z.string(),
      name: z.string(),
      rows: z.array(
        z.object({
          row: z.number().int(),
          summary: z.string(),
          /** Why this row needs approval (empty: it does not, it waits with its batch). */
          reasons: z.array(z.string()),
        }),
      ),
      totals: z.array(z.object({ currency: z.string(), amount: z.string() })),
    })
    .optional(),
  /** Kind `control`: the change, line by line (before → after). */
  control: z
    .object({
      kind: ControlKind,
      title: z.string(),
      changes: z.array(ControlChangeRow),
    })
    .optional(),
  /**
   * Where a movement was prepared: `screen`, or `batch row N of batch B, confirmed as a whole at T
   * by O` (the same words the journal and the audit log keep).
   */
  origin: z.string().optional(),
  /**
   * A pending item of the same maker, kind, amount and destination, prepared within an hour of
   * this one: possibly the same movement sent twice (the approver decides).
   */
  possibleDuplicateOf: z.string().optional(),
});
export type Approval = z.infer<typeof Approval>;

/** Whether four eyes hold for control changes on this desk, and why (Settings, Approvals). */
export const FourEyes = z.object({
  /** Two administrators or more: a control change waits for another administrator's approval. */
  inForce: z.boolean(),
  administrators: z.number().int().nonnegative(),
  /** In plain words: why four eyes are or are not in force. */
  reason: z.string(),
  /** The cooling-off period after an administrator's grant over an operator (hours). */
  operatorCoolingOffHours: z.number().int().nonnegative(),
});
export type FourEyes = z.infer<typeof FourEyes>;

const ApprovalId = z
  .string()
  .max(67)
  .regex(/^ap_[A-Za-z0-9-]{1,64}$/, 'Not an approval id');
const DecisionReason = z
  .string()
  .trim()
  .min(1, 'Give a reason')
  .max(500, 'Use at most 500 characters')
  .superRefine(safeText('text'));

export const policies = {
  get: operation(
    'The active profile’s policy, enforced in main on every money movement.',
    z.object({}).strict(),
    PolicyView,
  ),
  set: operation(
    'Replaces the active profile’s policy (admin only, after the trusted confirmation; audited). Bad input changes nothing.',
    PolicyInput,
    PolicyView,
  ),
};

export const approvals = {
  list: operation(
    'The Approvals queue of the active profile: pending first, then decided ones (newest first).',
    z.object({ state: ApprovalState.optional() }).strict(),
    z.object({ approvals: z.array(Approval) }),
  ),
  approve: operation(
    'Approves a pending movement (an approver other than its maker, after the trusted confirmation); main then sends it once.',
    z.object({ id: ApprovalId, reason: DecisionReason }).strict(),
    Approval,
  ),
  reject: operation(
    'Rejects a pending movement or control change with a reason; it is never sent or applied.',
    z.object({ id: ApprovalId, reason: DecisionReason }).strict(),
    Approval,
  ),
  retract: operation(
    'Retracts a pending item with a reason, by the operator who prepared it (no approver needed): it is never sent or applied.',
    z.object({ id: ApprovalId, reason: DecisionReason }).strict(),
    Approval,
  ),
  fourEyes: operation(
    'Whether control changes wait for a second administrator on this desk, and why (or why not).',
    z.object({}).strict(),
    FourEyes,
  ),
};
