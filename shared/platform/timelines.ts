/**
 * The platform's status codes of withdrawals, deposits and UID transfers, mapped to plain-language
 * stages with what happens next. The platform documents only the lists of codes, not the order in
 * which they occur; the order below is the one users see in practice and the sandbox follows
 * (docs/funding-timelines.md). An unrecognised code never crashes a screen: it is shown as
 * "unrecognised — treat as in progress".
 * Pure data and words, shared by the screens (StatusTimeline) and main's OS notifications
 * (electron/core/notifications), so both say the same thing.
 */
import { DEPOSIT_STATUSES, UID_PUSH_STATUSES, WITHDRAWAL_STATUSES } from './statuses';

export type StageState = 'done' | 'current' | 'upcoming' | 'failed' | 'skipped';
export type Tone = 'progress' | 'success' | 'failure' | 'attention' | 'unknown';

export interface TimelineStage {
  readonly key: string;
  readonly label: string;
  readonly state: StageState;
}

export interface Timeline {
  /** The platform's code, as received. */
  readonly status: string;
  /** One short sentence: where it is now. */
  readonly headline: string;
  /** What happens next / what the person should do. */
  readonly next: string;
  readonly tone: Tone;
  /** No further change is expected. */
  readonly final: boolean;
  readonly stages: readonly TimelineStage[];
}

interface Step {
  readonly key: string;
  readonly label: string;
}

/** Where a code sits: its stage (index into the happy path) or an exit off it. */
interface Placement {
  /** Index of the stage reached (current), or the last stage completed for exits. */
  readonly at: number;
  readonly headline: string;
  readonly next: string;
  readonly tone: Tone;
  readonly final?: boolean;
  /** An exit off the happy path: its stage label; the rest of the path is skipped. */
  readonly exit?: { readonly label: string; readonly state: 'current' | 'failed' | 'done' };
}

const build = (steps: readonly Step[], status: string, p: Placement): Timeline => {
  const stages: TimelineStage[] = steps.map((step, i) => {
    if (p.exit) return { ...step, state: i < p.at ? 'done' : 'skipped' };
    if (p.final && p.tone === 'success') return { ...step, state: 'done' };
    return { ...step, state: i < p.at ? 'done' : i === p.at ? 'current' : 'upcoming' };
  });
  if (p.exit) stages.push({ key: 'exit', label: p.exit.label, state: p.exit.state });
  return { status, headline: p.headline, next: p.next, tone: p.tone, final: p.final ?? false, stages };
};

const unrecognised = (steps: readonly Step[], status: string, what: string): Timeline => ({
  status,
  headline: `Unrecognised status “${status || '(empty)'}”`,
  next: `The platform reported a status this app does not know. Treat the ${what} as still in progress and check it on the platform before doing anything again.`,
  tone: 'unknown',
  final: false,
  stages: steps.map((s) => ({ ...s, state: 'upcoming' })),
});

// ---------------------------------------------------------------------------------------------
// Withdrawals

export const WITHDRAWAL_STEPS: readonly Step[] = [
  { key: 'requested', label: 'Requested' },
  { key: 'checks', label: 'Checks and review' },
  { key: 'processing', label: 'Processing' },
  { key: 'broadcast', label: 'Sent on chain' },
  { key: 'done', label: 'Done' },
];

/** Every withdrawal status code in the spec (States and transitions). */
export { WITHDRAWAL_STATUSES };

/**
 * Codes in which the platform still accepts a cancellation: before processing starts (the sandbox
 * accepts REQUEST, MANUAL and REVIEW; the other review states are offered too and the platform decides).
 * A cancel in any other state is answered INVALID_WITHDRAW_CANCEL_STATUS, which the screen explains.
 */
export const CANCELLABLE_WITHDRAWAL_STATUSES: ReadonlySet<string> = new Set([
  'REQUEST',
  'VERIFY',
  'REVIEW',
  'MANUAL',
  'DMOVE',
  'FVERIFY',
]);

export const isWithdrawalCancellable = (status: string): boolean => CANCELLABLE_WITHDRAWAL_STATUSES.has(status);

export interface WithdrawalLike {
  readonly status: string;
  readonly failReason?: string | undefined;
  readonly txid?: string | undefined;
}

export const withdrawalTimeline = (record: WithdrawalLike): Timeline => {
  const s = record.status;
  const cancelNote = ' You can still cancel it.';
  switch (s) {
    case 'REQUEST':
      return build(WITHDRAWAL_STEPS, s, {
        at: 0,
        tone: 'progress',
        headline: 'Request received by the platform',
        next: `Next the platform checks the request (risk and limits).${cancelNote}`,
      });
    case 'VERIFY':
      return build(WITHDRAWAL_STEPS, s, {
        at: 1,
        tone: 'progress',
        headline: 'Being verified',
        next: `The platform verifies the request; usually minutes.${cancelNote}`,
      });
    case 'REVIEW':
      return build(WITHDRAWAL_STEPS, s, {
        at: 1,
        tone: 'progress',
        headline: 'Under review',
        next: `A risk review is running; it continues automatically when it passes.${cancelNote}`,
      });
    case 'MANUAL':
    case 'DMOVE':
      return build(WITHDRAWAL_STEPS, s, {
        at: 1,
        tone: 'attention',
        headline: 'Waiting for manual review by platform staff',
        next: `Staff review it by hand; this can take hours. Nothing to do unless support contacts you.${cancelNote}`,
      });
    case 'FVERIFY':
      return build(WITHDRAWAL_STEPS, s, {
        at: 1,
        tone: 'attention',
        headline: 'Face verification needed',
        next: `Complete face verification in the platform's app or website; the withdrawal waits until then.${cancelNote}`,
      });
    case 'LOCKED':
      return build(WITHDRAWAL_STEPS, s, {
        at: 1,
        tone: 'attention',
        headline: 'Held by the platform wallet',
        next: 'The wallet side has locked this order. It cannot be cancelled from here; contact platform support with the withdrawal id.',
      });
    case 'PEND':
      return build(WITHDRAWAL_STEPS, s, {
        at: 2,
        tone: 'progress',
        headline: 'Processing',
        next: 'The platform prepares the on-chain transfer; it can no longer be cancelled.',
      });
    case 'PROCES':
      return build(WITHDRAWAL_STEPS, s, {
        at: 2,
        tone: 'progress',
        headline: 'Processing',
        next: 'The platform is sending it to the network; it can no longer be cancelled.',
      });
    case 'EXTPEND':
      return build(WITHDRAWAL_STEPS, s, {
        at: 3,
        tone: 'progress',
        headline: 'Sent on chain, waiting for confirmations',
        // The transaction id itself is in the details beside the timeline (never twice on one screen).
        next: 'The transaction is waiting for network confirmations.',
      });
    case 'DONE':
      return build(WITHDRAWAL_STEPS, s, {
        at: 4,
        tone: 'success',
        final: true,
        headline: 'Done: the funds were sent',
        next: record.txid ? 'The transaction is confirmed.' : 'The platform reports the transfer as completed.',
      });
    case 'BCODE':
      return build(WITHDRAWAL_STEPS, s, {
        at: 3,
        tone: 'success',
        final: true,
        headline: 'Issued as a deposit code',
        next: 'The amount became a platform deposit code (no on-chain transfer); whoever redeems the code receives it.',
        exit: { label: 'Deposit code issued', state: 'done' },
      });
    case 'CANCELPEND':
      return build(WITHDRAWAL_STEPS, s, {
        at: 1,
        tone: 'attention',
        headline: 'Cancellation requested',
        next: 'The platform is cancelling it; the amount and fee return to your spot account when done.',
        exit: { label: 'Cancelling', state: 'current' },
      });
    case 'CANCEL':
      return build(WITHDRAWAL_STEPS, s, {
        at: 1,
        tone: 'failure',
        final: true,
        headline: record.failReason ? `Cancelled: ${record.failReason}` : 'Cancelled',
        next: 'Nothing was sent. The amount and fee are back in your spot account.',
        exit: { label: 'Cancelled', state: 'failed' },
      });
    case 'FAIL':
      return build(WITHDRAWAL_STEPS, s, {
        at: 3,
        tone: 'failure',
        headline: 'Failed on chain, awaiting confirmation of the failure',
        next: 'The platform is confirming the failure; funds are normally returned afterwards. If they are not back within a day, contact support with the transaction id.',
        exit: { label: 'Failed on chain', state: 'failed' },
      });
    case 'INVALID':
      return build(WITHDRAWAL_STEPS, s, {
        at: 1,
        tone: 'failure',
        final: true,
        headline: 'Invalid: the platform did not accept it',
        next: 'Nothing was sent. Check the address, network and memo, then make a new withdrawal.',
        exit: { label: 'Invalid', state: 'failed' },
      });
    case 'REJECT':
      return build(WITHDRAWAL_STEPS, s, {
        at: 1,
        tone: 'failure',
        final: true,
        headline: 'Rejected by the platform',
        next: 'Nothing was sent; the amount returns to your spot account. Contact platform support to learn why.',
        exit: { label: 'Rejected', state: 'failed' },
      });
    default:
      return unrecognised(WITHDRAWAL_STEPS, s, 'withdrawal');
  }
};

// ---------------------------------------------------------------------------------------------
// Deposits

export const DEPOSIT_STEPS: readonly Step[] = [
  { key: 'detected', label: 'Seen on chain' },
  { key: 'confirming', label: 'Confirmations' },
  { key: 'crediting', label: 'Crediting' },
  { key: 'done', label: 'Done' },
];

/** Every deposit status code in the spec. */
export { DEPOSIT_STATUSES };

export interface DepositLike {
  readonly status: string;
  readonly txid?: string | undefined;
}

export const depositTimeline = (record: DepositLike, minConfirmations?: number): Timeline => {
  const s = record.status;
  const confirmations =
    minConfirmations !== undefined
      ? `${minConfirmations} network confirmation${minConfirmations === 1 ? '' : 's'}`
      : 'the required network confirmations';
  switch (s) {
    case 'PEND':
      return build(DEPOSIT_STEPS, s, {
        at: 0,
        tone: 'progress',
        headline: 'Seen by the platform, processing',
        next: `Next it waits for ${confirmations}.`,
      });
    case 'TRACK':
      return build(DEPOSIT_STEPS, s, {
        at: 1,
        tone: 'progress',
        headline: 'Waiting for confirmations',
        next: `The platform counts ${confirmations}; the funds are credited to spot after that.`,
      });
    case 'REVIEW':
      return build(DEPOSIT_STEPS, s, {
        at: 2,
        tone: 'attention',
        headline: 'Compliance review',
        next: 'The platform reviews the deposit before crediting it; it continues automatically when it passes.',
      });
    case 'MANUAL':
      return build(DEPOSIT_STEPS, s, {
        at: 2,
        tone: 'attention',
        headline: 'Manual review by platform staff',
        next: 'Staff review it by hand; this can take hours. Contact support if it stays here for more than a day.',
      });
    case 'DEP_CREDITED':
      return build(DEPOSIT_STEPS, s, {
        at: 3,
        tone: 'progress',
        headline: 'Credited; withdrawals of it still locked',
        next: 'You can trade it now; withdrawing it unlocks after the remaining confirmations.',
      });
    case 'DONE':
      return build(DEPOSIT_STEPS, s, {
        at: 3,
        tone: 'success',
        final: true,
        headline: 'Done: the funds are in your spot account',
        next: 'Nothing more to do.',
      });
    case 'BLOCKED':
      return build(DEPOSIT_STEPS, s, {
        at: 1,
        tone: 'failure',
        final: true,
        headline: 'Refused by the platform',
        next: 'The deposit was not credited. Contact platform support with the transaction id to recover it.',
        exit: { label: 'Refused', state: 'failed' },
      });
    case 'INVALID':
      return build(DEPOSIT_STEPS, s, {
        at: 1,
        tone: 'failure',
        final: true,
        headline: 'Invalid deposit',
        next: 'It will not be credited (for example a missing or wrong memo, or an unsupported token). Contact platform support with the transaction id.',
        exit: { label: 'Invalid', state: 'failed' },
      });
    default:
      return unrecognised(DEPOSIT_STEPS, s, 'deposit');
  }
};

// ---------------------------------------------------------------------------------------------
// UID transfers (push)

export const PUSH_STEPS: readonly Step[] = [
  { key: 'created', label: 'Created' },
  { key: 'awaiting', label: 'Waiting for the receiver' },
  { key: 'receiving', label: 'Receiving' },
  { key: 'received', label: 'Received' },
];

/** Every UID push status code in the spec. */
export const PUSH_STATUSES = UID_PUSH_STATUSES;

export interface PushLike {
  readonly status: string;
  readonly message?: string | undefined;
}

export const pushTimeline = (record: PushLike): Timeline => {
  const s = record.status;
  switch (s) {
    case 'CREATING':
      return build(PUSH_STEPS, s, {
        at: 0,
        tone: 'progress',
        headline: 'Being created',
        next: 'The platform records the transfer; then it waits for the receiving account.',
      });
    case 'PENDING':
      return build(PUSH_STEPS, s, {
        at: 1,
        tone: 'progress',
        headline: record.message ? `Waiting for the receiver: ${record.message}` : 'Waiting for the receiver to accept',
        next: 'The receiving account accepts or refuses it; a refused transfer returns to your spot account.',
      });
    case 'RECEIVING':
      return build(PUSH_STEPS, s, {
        at: 2,
        tone: 'progress',
        headline: 'Being credited to the receiver',
        next: 'Nothing to do; it completes by itself.',
      });
    case 'RECEIVED':
      return build(PUSH_STEPS, s, {
        at: 3,
        tone: 'success',
        final: true,
        headline: 'Received by the other account',
        next: 'Nothing more to do.',
      });
    case 'CANCELLING':
      return build(PUSH_STEPS, s, {
        at: 1,
        tone: 'attention',
        headline: 'Being cancelled',
        next: 'The amount returns to your spot account when the cancellation completes.',
        exit: { label: 'Cancelling', state: 'current' },
      });
    case 'CANCELLED':
      return build(PUSH_STEPS, s, {
        at: 1,
        tone: 'failure',
        final: true,
        headline: 'Cancelled',
        next: 'Nothing was transferred; the amount is back in your spot account.',
        exit: { label: 'Cancelled', state: 'failed' },
      });
    case 'REFUSING':
      return build(PUSH_STEPS, s, {
        at: 2,
        tone: 'attention',
        headline: 'Refused by the receiver, being returned',
        next: 'The amount returns to your spot account when this completes.',
        exit: { label: 'Being refused', state: 'current' },
      });
    case 'REFUSED':
      return build(PUSH_STEPS, s, {
        at: 2,
        tone: 'failure',
        final: true,
        headline: 'Refused by the receiver',
        next: 'Nothing was transferred; the amount is back in your spot account. Check the user id with the receiver.',
        exit: { label: 'Refused', state: 'failed' },
      });
    default:
      return unrecognised(PUSH_STEPS, s, 'transfer');
  }
};

/** The kinds of funding record that have a status timeline. */
export type FundingRecordKind = 'deposit' | 'withdrawal' | 'push';

/**
 * A record's timeline from its status code alone (no confirmations, no fail reason): what the
 * notices, the watchers' "can it still change" and cached history need.
 */
export const statusTimeline = (kind: FundingRecordKind, status: string): Timeline =>
  kind === 'deposit'
    ? depositTimeline({ status })
    : kind === 'withdrawal'
      ? withdrawalTimeline({ status })
      : pushTimeline({ status });
