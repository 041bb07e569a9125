/**
 * One status table per record kind — withdrawals, deposits, UID pushes — with every fact the app and
 * the sandbox know about each of the platform's status codes: where it stands in plain words
 * (`phase`), how it reads (`tone`), whether it can still change (`final`), whether the platform
 * still takes a cancellation (`cancellable`), its place on the kind's stages, and what the person
 * reads (`headline`, `next`). The platform documents only the lists of codes (spec "States and
 * transitions"), not their order; the order here is the one users see in practice and the sandbox
 * follows (docs/funding.md).
 *
 * Read by the status timelines the screens draw (timelines.ts), main's OS notifications
 * (core/notifications/notifier.ts), the watchers' "can it still change", the in-app
 * notices and the sandbox's pipelines (sandbox/pipelines/pipelines.ts: which statuses end a route,
 * which accept a cancellation). Pure data and words.
 */
import type { DepositStatus, Phase, UidPushStatus, WithdrawalStatus } from './statuses';

export type Tone = 'progress' | 'success' | 'failure' | 'attention' | 'unknown';

/** The kinds of funding record that have a status table. */
export type FundingRecordKind = 'deposit' | 'withdrawal' | 'push';

/** Words fixed for the status, or built from the record (a txid, a reason, a message). */
export type Words<R> = string | ((record: R) => string);

/** What is known of one status code. */
export interface StatusFacts<R = never> {
  readonly phase: Phase;
  readonly tone: Exclude<Tone, 'unknown'>;
  /** No further change is expected. */
  readonly final: boolean;
  /** The platform still accepts a cancellation (DELETE /withdrawals/{id}); absent: it does not. */
  readonly cancellable?: true;
  /**
   * A step on the way that a person waits for, besides final states, failures and states that need
   * attention: money usable (deposit credited), money gone on chain (withdrawal broadcast).
   */
  readonly milestone?: true;
  /** Index of the stage reached (current), or of the last stage completed for an exit. */
  readonly stage: number;
  /** An exit off the happy path: its stage label; the rest of the path is skipped. */
  readonly exit?: { readonly label: string; readonly state: 'current' | 'failed' | 'done' };
  /** One short sentence: where it is now. */
  readonly headline: Words<R>;
  /** What happens next / what the person should do. */
  readonly next: Words<R>;
}

export interface Stage {
  readonly key: string;
  readonly label: string;
}

// ---------------------------------------------------------------------------------------------
// Withdrawals

export interface WithdrawalLike {
  readonly status: string;
  readonly failReason?: string | undefined;
  readonly txid?: string | undefined;
}

export const WITHDRAWAL_STAGES: readonly Stage[] = [
  { key: 'requested', label: 'Requested' },
  { key: 'checks', label: 'Checks and review' },
  { key: 'processing', label: 'Processing' },
  { key: 'broadcast', label: 'Sent on chain' },
  { key: 'done', label: 'Done' },
];

/** MANUAL and DMOVE: two codes for the same wait. */
const MANUAL_REVIEW: StatusFacts<WithdrawalLike> = {
  phase: 'review',
  tone: 'attention',
  final: false,
  cancellable: true,
  stage: 1,
  headline: 'Waiting for manual review by platform staff',
  next: 'Staff review it by hand; this can take hours. Nothing to do unless support contacts you.',
};

/**
 * Cancellable: the codes before processing starts (the sandbox accepts exactly these; the platform
 * decides for the review states). A cancel in any other state is answered
 * INVALID_WITHDRAW_CANCEL_STATUS, which the screen explains. LOCKED is the wallet's own lock.
 */
export const WITHDRAWAL_TABLE: Readonly<Record<WithdrawalStatus, StatusFacts<WithdrawalLike>>> = {
  REQUEST: {
    phase: 'pending',
    tone: 'progress',
    final: false,
    cancellable: true,
    stage: 0,
    headline: 'Request received by the platform',
    next: 'Next the platform checks the request (risk and limits).',
  },
  VERIFY: {
    phase: 'review',
    tone: 'progress',
    final: false,
    cancellable: true,
    stage: 1,
    headline: 'Being verified',
    next: 'The platform verifies the request; usually minutes.',
  },
  REVIEW: {
    phase: 'review',
    tone: 'progress',
    final: false,
    cancellable: true,
    stage: 1,
    headline: 'Under review',
    next: 'A risk review is running; it continues automatically when it passes.',
  },
  MANUAL: MANUAL_REVIEW,
  DMOVE: MANUAL_REVIEW,
  FVERIFY: {
    phase: 'review',
    tone: 'attention',
    final: false,
    cancellable: true,
    stage: 1,
    headline: 'Face verification needed',
    next: "Complete face verification in the platform's app or website; the withdrawal waits until then.",
  },
  LOCKED: {
    phase: 'review',
    tone: 'attention',
    final: false,
    stage: 1,
    headline: 'Held by the platform wallet',
    next: 'The wallet side has locked this order. It cannot be cancelled from here; contact platform support with the withdrawal id.',
  },
  PEND: {
    phase: 'pending',
    tone: 'progress',
    final: false,
    stage: 2,
    headline: 'Processing',
    next: 'The platform prepares the on-chain transfer; it can no longer be cancelled.',
  },
  PROCES: {
    phase: 'pending',
    tone: 'progress',
    final: false,
    stage: 2,
    headline: 'Processing',
    next: 'The platform is sending it to the network; it can no longer be cancelled.',
  },
  EXTPEND: {
    phase: 'pending',
    tone: 'progress',
    final: false,
    milestone: true,
    stage: 3,
    headline: 'Sent on chain, waiting for confirmations',
    // The transaction id itself is in the details beside the timeline (never twice on one screen).
    next: 'The transaction is waiting for network confirmations.',
  },
  DONE: {
    phase: 'done',
    tone: 'success',
    final: true,
    stage: 4,
    headline: 'Done: the funds were sent',
    next: (r) => (r.txid ? 'The transaction is confirmed.' : 'The platform reports the transfer as completed.'),
  },
  BCODE: {
    phase: 'done',
    tone: 'success',
    final: true,
    stage: 3,
    exit: { label: 'Deposit code issued', state: 'done' },
    headline: 'Issued as a deposit code',
    next: 'The amount became a platform deposit code (no on-chain transfer); whoever redeems the code receives it.',
  },
  CANCELPEND: {
    phase: 'pending',
    tone: 'attention',
    final: false,
    stage: 1,
    exit: { label: 'Cancelling', state: 'current' },
    headline: 'Cancellation requested',
    next: 'The platform is cancelling it; the amount and fee return to your spot account when done.',
  },
  CANCEL: {
    phase: 'cancelled',
    tone: 'failure',
    final: true,
    stage: 1,
    exit: { label: 'Cancelled', state: 'failed' },
    headline: (r) => (r.failReason ? `Cancelled: ${r.failReason}` : 'Cancelled'),
    next: 'Nothing was sent. The amount and fee are back in your spot account.',
  },
  FAIL: {
    phase: 'failed',
    tone: 'failure',
    final: false,
    stage: 3,
    exit: { label: 'Failed on chain', state: 'failed' },
    headline: 'Failed on chain, awaiting confirmation of the failure',
    next: 'The platform is confirming the failure; funds are normally returned afterwards. If they are not back within a day, contact support with the transaction id.',
  },
  INVALID: {
    phase: 'failed',
    tone: 'failure',
    final: true,
    stage: 1,
    exit: { label: 'Invalid', state: 'failed' },
    headline: 'Invalid: the platform did not accept it',
    next: 'Nothing was sent. Check the address, network and memo, then make a new withdrawal.',
  },
  REJECT: {
    phase: 'failed',
    tone: 'failure',
    final: true,
    stage: 1,
    exit: { label: 'Rejected', state: 'failed' },
    headline: 'Rejected by the platform',
    next: 'Nothing was sent; the amount returns to your spot account. Contact platform support to learn why.',
  },
};

// ---------------------------------------------------------------------------------------------
// Deposits

export interface DepositLike {
  readonly status: string;
  readonly txid?: string | undefined;
}

/** A deposit and, when known, how many confirmations its chain needs. */
export interface DepositWords extends DepositLike {
  readonly minConfirmations?: number | undefined;
}

const confirmations = (r: DepositWords): string =>
  r.minConfirmations !== undefined
    ? `${r.minConfirmations} network confirmation${r.minConfirmations === 1 ? '' : 's'}`
    : 'the required network confirmations';

export const DEPOSIT_STAGES: readonly Stage[] = [
  { key: 'detected', label: 'Seen on chain' },
  { key: 'confirming', label: 'Confirmations' },
  { key: 'crediting', label: 'Crediting' },
  { key: 'done', label: 'Done' },
];

export const DEPOSIT_TABLE: Readonly<Record<DepositStatus, StatusFacts<DepositWords>>> = {
  PEND: {
    phase: 'pending',
    tone: 'progress',
    final: false,
    stage: 0,
    headline: 'Seen by the platform, processing',
    next: (r) => `Next it waits for ${confirmations(r)}.`,
  },
  TRACK: {
    phase: 'pending',
    tone: 'progress',
    final: false,
    stage: 1,
    headline: 'Waiting for confirmations',
    next: (r) => `The platform counts ${confirmations(r)}; the funds are credited to spot after that.`,
  },
  REVIEW: {
    phase: 'review',
    tone: 'attention',
    final: false,
    stage: 2,
    headline: 'Compliance review',
    next: 'The platform reviews the deposit before crediting it; it continues automatically when it passes.',
  },
  MANUAL: {
    phase: 'review',
    tone: 'attention',
    final: false,
    stage: 2,
    headline: 'Manual review by platform staff',
    next: 'Staff review it by hand; this can take hours. Contact support if it stays here for more than a day.',
  },
  DEP_CREDITED: {
    phase: 'done',
    tone: 'progress',
    final: false,
    milestone: true,
    stage: 3,
    headline: 'Credited; withdrawals of it still locked',
    next: 'You can trade it now; withdrawing it unlocks after the remaining confirmations.',
  },
  DONE: {
    phase: 'done',
    tone: 'success',
    final: true,
    stage: 3,
    headline: 'Done: the funds are in your spot account',
    next: 'Nothing more to do.',
  },
  BLOCKED: {
    phase: 'failed',
    tone: 'failure',
    final: true,
    stage: 1,
    exit: { label: 'Refused', state: 'failed' },
    headline: 'Refused by the platform',
    next: 'The deposit was not credited. Contact platform support with the transaction id to recover it.',
  },
  INVALID: {
    phase: 'failed',
    tone: 'failure',
    final: true,
    stage: 1,
    exit: { label: 'Invalid', state: 'failed' },
    headline: 'Invalid deposit',
    next: 'It will not be credited (for example a missing or wrong memo, or an unsupported token). Contact platform support with the transaction id.',
  },
};

// ---------------------------------------------------------------------------------------------
// UID transfers (push)

export interface PushLike {
  readonly status: string;
  readonly message?: string | undefined;
}

export const PUSH_STAGES: readonly Stage[] = [
  { key: 'created', label: 'Created' },
  { key: 'awaiting', label: 'Waiting for the receiver' },
  { key: 'receiving', label: 'Receiving' },
  { key: 'received', label: 'Received' },
];

/** Never cancellable here: the platform has no API to take a push back (the sandbox's control API can). */
export const PUSH_TABLE: Readonly<Record<UidPushStatus, StatusFacts<PushLike>>> = {
  CREATING: {
    phase: 'pending',
    tone: 'progress',
    final: false,
    stage: 0,
    headline: 'Being created',
    next: 'The platform records the transfer; then it waits for the receiving account.',
  },
  PENDING: {
    phase: 'pending',
    tone: 'progress',
    final: false,
    stage: 1,
    headline: (r) => (r.message ? `Waiting for the receiver: ${r.message}` : 'Waiting for the receiver to accept'),
    next: 'The receiving account accepts or refuses it; a refused transfer returns to your spot account.',
  },
  RECEIVING: {
    phase: 'pending',
    tone: 'progress',
    final: false,
    stage: 2,
    headline: 'Being credited to the receiver',
    next: 'Nothing to do; it completes by itself.',
  },
  RECEIVED: {
    phase: 'done',
    tone: 'success',
    final: true,
    stage: 3,
    headline: 'Received by the other account',
    next: 'Nothing more to do.',
  },
  CANCELLING: {
    phase: 'pending',
    tone: 'attention',
    final: false,
    stage: 1,
    exit: { label: 'Cancelling', state: 'current' },
    headline: 'Being cancelled',
    next: 'The amount returns to your spot account when the cancellation completes.',
  },
  CANCELLED: {
    phase: 'cancelled',
    tone: 'failure',
    final: true,
    stage: 1,
    exit: { label: 'Cancelled', state: 'failed' },
    headline: 'Cancelled',
    next: 'Nothing was transferred; the amount is back in your spot account.',
  },
  REFUSING: {
    phase: 'pending',
    tone: 'attention',
    final: false,
    stage: 2,
    exit: { label: 'Being refused', state: 'current' },
    headline: 'Refused by the receiver, being returned',
    next: 'The amount returns to your spot account when this completes.',
  },
  REFUSED: {
    phase: 'failed',
    tone: 'failure',
    final: true,
    stage: 2,
    exit: { label: 'Refused', state: 'failed' },
    headline: 'Refused by the receiver',
    next: 'Nothing was transferred; the amount is back in your spot account. Check the user id with the receiver.',
  },
};

// ---------------------------------------------------------------------------------------------
// By kind

/** Each kind's table (one entry per status code of the spec), its stages and the noun its words use. */
export const STATUS_TABLES = {
  withdrawal: { table: WITHDRAWAL_TABLE, stages: WITHDRAWAL_STAGES, noun: 'withdrawal' },
  deposit: { table: DEPOSIT_TABLE, stages: DEPOSIT_STAGES, noun: 'deposit' },
  push: { table: PUSH_TABLE, stages: PUSH_STAGES, noun: 'transfer' },
} as const;

/** What each kind's words are built from. */
export type RecordOf = { withdrawal: WithdrawalLike; deposit: DepositWords; push: PushLike };

/** The facts of a status code, or undefined for a code the platform's spec does not list. */
export const statusFacts = <K extends FundingRecordKind>(
  kind: K,
  status: string,
): StatusFacts<RecordOf[K]> | undefined => {
  const table: Readonly<Record<string, StatusFacts<RecordOf[K]>>> = STATUS_TABLES[kind].table;
  return Object.hasOwn(table, status) ? table[status] : undefined;
};

/** The words for a record. */
export const wordsFor = <R>(words: Words<R>, record: R): string => (typeof words === 'string' ? words : words(record));

/** Whether the platform still accepts DELETE /withdrawals/{id} for a withdrawal in this status. */
export const isWithdrawalCancellable = (status: string): boolean =>
  statusFacts('withdrawal', status)?.cancellable === true;
