/**
 * The status timelines the screens draw (StatusTimeline) and main's OS notifications word
 * (core/notifications), built from the one status table per record kind
 * (statusTables.ts), so both say the same thing. An unrecognised code never crashes a screen: it is
 * shown as "unrecognised — treat as in progress".
 */

import { DEPOSIT_STATUSES, UID_PUSH_STATUSES, WITHDRAWAL_STATUSES } from './statuses';
import {
  DEPOSIT_STAGES,
  type DepositLike,
  type FundingRecordKind,
  isWithdrawalCancellable,
  PUSH_STAGES,
  type PushLike,
  type RecordOf,
  STATUS_TABLES,
  type Stage,
  type StatusFacts,
  statusFacts,
  type Tone,
  WITHDRAWAL_STAGES,
  type WithdrawalLike,
  wordsFor,
} from './statusTables';

export type { DepositLike, FundingRecordKind, PushLike, Tone, WithdrawalLike };

export type StageState = 'done' | 'current' | 'upcoming' | 'failed' | 'skipped';

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

/** Said after what happens next while the platform still takes a cancellation. */
const CANCEL_NOTE = ' You can still cancel it.';

const build = <R>(stages: readonly Stage[], record: R & { status: string }, facts: StatusFacts<R>): Timeline => {
  const placed: TimelineStage[] = stages.map((stage, i) => {
    if (facts.exit) return { ...stage, state: i < facts.stage ? 'done' : 'skipped' };
    if (facts.final && facts.tone === 'success') return { ...stage, state: 'done' };
    return { ...stage, state: i < facts.stage ? 'done' : i === facts.stage ? 'current' : 'upcoming' };
  });
  if (facts.exit) placed.push({ key: 'exit', label: facts.exit.label, state: facts.exit.state });
  return {
    status: record.status,
    headline: wordsFor(facts.headline, record),
    next: `${wordsFor(facts.next, record)}${facts.cancellable ? CANCEL_NOTE : ''}`,
    tone: facts.tone,
    final: facts.final,
    stages: placed,
  };
};

const unrecognised = (stages: readonly Stage[], status: string, what: string): Timeline => ({
  status,
  headline: `Unrecognised status “${status || '(empty)'}”`,
  next: `The platform reported a status this app does not know. Treat the ${what} as still in progress and check it on the platform before doing anything again.`,
  tone: 'unknown',
  final: false,
  stages: stages.map((s) => ({ ...s, state: 'upcoming' })),
});

/** A record's timeline from its kind's status table. */
const timelineFor = <K extends FundingRecordKind>(kind: K, record: RecordOf[K]): Timeline => {
  const { stages, noun } = STATUS_TABLES[kind];
  const facts = statusFacts(kind, record.status);
  return facts ? build(stages, record, facts) : unrecognised(stages, record.status, noun);
};

// ---------------------------------------------------------------------------------------------
// Withdrawals

export const WITHDRAWAL_STEPS = WITHDRAWAL_STAGES;

/** Every withdrawal status code in the spec (States and transitions). */
export { isWithdrawalCancellable, WITHDRAWAL_STATUSES };

export const withdrawalTimeline = (record: WithdrawalLike): Timeline => timelineFor('withdrawal', record);

// ---------------------------------------------------------------------------------------------
// Deposits

export const DEPOSIT_STEPS = DEPOSIT_STAGES;

/** Every deposit status code in the spec. */
export { DEPOSIT_STATUSES };

export const depositTimeline = (record: DepositLike, minConfirmations?: number): Timeline =>
  timelineFor('deposit', { ...record, minConfirmations });

// ---------------------------------------------------------------------------------------------
// UID transfers (push)

export const PUSH_STEPS = PUSH_STAGES;

/** Every UID push status code in the spec. */
export const PUSH_STATUSES = UID_PUSH_STATUSES;

export const pushTimeline = (record: PushLike): Timeline => timelineFor('push', record);

/**
 * A record's timeline from its status code alone (no confirmations, no fail reason): what the
 * notices, the watchers' "can it still change" and cached history need.
 */
export const statusTimeline = (kind: FundingRecordKind, status: string): Timeline => timelineFor(kind, { status });
