/**
 * Handlers of the `policies` and `approvals` areas. The rules live in policies/ (the store, the pure
 * check, the limits, the authorization pipeline) and the queue in approvals/; an approved item is
 * acted on by its owner — a withdrawal or UID transfer by its domain command (commands/), a batch by
 * batches/, a control change by the control plane (operators/controls.ts) — each checking again who
 * may approve it.
 *
 * Changing a policy (and the review threshold, part of it) is a control change: the trusted
 * confirmation shows every rule before → after, and with two administrators another one approves it.
 */
import Decimal from 'decimal.js';
import type { DeskHandlers } from '../../shared/contract';
import { destinationKey, type ReviewPolicy } from '../../shared/contract/funding';
import {
  type ControlChangeRow,
  DEFAULT_OPERATOR_COOLING_OFF_HOURS,
  type Limits,
  type Policy,
  type PolicyInput,
  type PolicyView,
} from '../../shared/contract/policies';
import { formatMoney } from '../../shared/format/money';
import type { ApprovalQueue } from '../approvals/queue';
import type { Batches } from '../batches/batches';
import type { MovementCommands } from '../commands/movements';
import { assertSafeText, DeskFailure } from '../errors';
import type { ControlKindHandler, ControlPlane } from '../operators/controls';
import type { TeamApprovals } from '../teamDesk/approvals';
import type { Authorizer } from './authorize';
import type { PolicyStore } from './store';

const entryKey = (e: { currency: string; chain: string; address: string; memo?: string | undefined }) =>
  `${e.currency.toUpperCase()} ${destinationKey(e.chain, e.address, e.memo)}`;

const limitsText = (l: Limits | undefined, unit: string) =>
  [
    l?.perTransaction ? `${formatMoney(l.perTransaction, unit)} per transaction` : '',
    l?.rolling24h ? `${formatMoney(l.rolling24h, unit)} per 24 h` : '',
  ]
    .filter(Boolean)
    .join(', ') || 'none';

const hhmm = (minute: number) =>
  `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

const windowText = (p: Policy) =>
  p.timeWindow
    ? `${hhmm(p.timeWindow.fromMinute)} → ${hhmm(p.timeWindow.toMinute)}, UTC offset ${p.timeWindow.utcOffsetMinutes} min`
    : 'any time';

const approvalText = (p: Policy) =>
  [
    p.approval.aboveUsdt ? `above ${formatMoney(p.approval.aboveUsdt, 'USDT')}` : '',
    p.approval.newDestination ? 'new destinations' : '',
    p.approval.anyPush ? 'every UID transfer' : '',
  ]
    .filter(Boolean)
    .join(', ') || 'never';

const reviewText = (review: ReviewPolicy | undefined, currency: string) => {
  const above = review?.typedConfirmAbove[currency];
  return above === undefined ? 'always typed' : `typed above ${formatMoney(above, currency)}`;
};

/** Every rule of a policy, before → after (a rule that did not change shows once). */
export const policyChanges = (before: Policy, after: Policy): ControlChangeRow[] => {
  const rows: ControlChangeRow[] = [
    {
      label: 'USDT value limits',
      before: limitsText(before.usdtLimits, 'USDT'),
      after: limitsText(after.usdtLimits, 'USDT'),
    },
  ];
  for (const c of [...new Set([...Object.keys(before.limits), ...Object.keys(after.limits)])].sort()) {
    rows.push({ label: `${c} limits`, before: limitsText(before.limits[c], c), after: limitsText(after.limits[c], c) });
  }
  const allowlist = (p: Policy) =>
    `${p.allowlist.required ? 'required' : 'not required'}, ${p.allowlist.entries.length} address(es), cooling-off ${p.allowlist.coolingOffHours} h`;
  rows.push({ label: 'Allowlist', before: allowlist(before), after: allowlist(after) });
  const kept = new Set(before.allowlist.entries.map(entryKey));
  const now = new Set(after.allowlist.entries.map(entryKey));
  for (const e of after.allowlist.entries.filter((x) => !kept.has(entryKey(x)))) {
    rows.push({
      label: 'Added address',
      before: '—',
      after: `${e.label}: ${e.address}${e.memo ? ` memo ${e.memo}` : ''} (${e.currency}, ${e.chain})`,
    });
  }
  for (const e of before.allowlist.entries.filter((x) => !now.has(entryKey(x)))) {
    rows.push({ label: 'Removed address', before: `${e.label}: ${e.address}`, after: '—' });
  }
  rows.push({ label: 'Time window', before: windowText(before), after: windowText(after) });
  rows.push({ label: 'Approval', before: approvalText(before), after: approvalText(after) });
  rows.push({
    label: 'Approval expires after',
    before: `${before.approval.expiresHours} h`,
    after: `${after.approval.expiresHours} h`,
  });
  const batches = (p: Policy) =>
    p.approval.approveBatchesAsAWhole
      ? 'a batch that needs approval waits as one item'
      : 'each row that needs approval waits on its own';
  rows.push({ label: 'Bulk batches', before: batches(before), after: batches(after) });
  const cooling = (p: Policy) => `${p.approval.operatorCoolingOffHours ?? DEFAULT_OPERATOR_COOLING_OFF_HOURS} h`;
  rows.push({ label: 'Operator cooling-off', before: cooling(before), after: cooling(after) });
  const currencies = [
    ...new Set([
      ...Object.keys(before.review?.typedConfirmAbove ?? {}),
      ...Object.keys(after.review?.typedConfirmAbove ?? {}),
    ]),
  ].sort();
  for (const c of currencies) {
    rows.push({
      label: `Review threshold ${c}`,
      before: reviewText(before.review, c),
      after: reviewText(after.review, c),
    });
  }
  if (currencies.length === 0) rows.push({ label: 'Review threshold', before: 'always typed', after: 'always typed' });
  return rows;
};

/** The policies' control change: applies the policy as it was confirmed, unless it changed meanwhile. */
export const policyControlKinds = (policies: PolicyStore, now: () => number = Date.now) =>
  ({
    'policies.set': {
      apply: async (r, by) => policies.set(String(r.profileId), r.policy as Policy, by.name, now()),
      stale: (r) =>
        JSON.stringify(policies.get(String(r.profileId))) === r.before
          ? undefined
          : 'The policy was changed since this change was prepared.',
    },
  }) satisfies Record<string, ControlKindHandler>;

/** Semantic checks the schema cannot make; bad input changes nothing (INVALID_INPUT with the fields). */
const checkPolicyInput = (input: PolicyInput): void => {
  const fields: Record<string, string> = {};
  const seen = new Map<string, number>();
  input.allowlist.entries.forEach((e, i) => {
    const first = seen.get(entryKey(e));
    if (first !== undefined) fields[`allowlist.entries.${i}`] = `The same destination as entry ${first + 1}.`;
    else seen.set(entryKey(e), i);
  });
  const overDay = (l: Limits) =>
    l.perTransaction !== undefined &&
    l.rolling24h !== undefined &&
    new Decimal(l.perTransaction).greaterThan(l.rolling24h);
  for (const [currency, limits] of Object.entries(input.limits)) {
    if (overDay(limits))
      fields[`limits.${currency}.perTransaction`] = 'The per-transaction limit is above the 24-hour limit.';
  }
  if (overDay(input.usdtLimits))
    fields['usdtLimits.perTransaction'] = 'The per-transaction limit is above the 24-hour limit.';
  if (Object.keys(fields).length > 0) {
    throw new DeskFailure({
      code: 'INVALID_INPUT',
      message: `The policy was not changed: ${Object.values(fields).join(' ')}`,
      fields,
    });
  }
};

const normalisedReview = (review: ReviewPolicy): ReviewPolicy => ({
  typedConfirmAbove: Object.fromEntries(
    Object.entries(review.typedConfirmAbove).map(([currency, amount]) => [currency.toUpperCase(), amount]),
  ),
});

export interface PolicyChanges {
  /** policies.set: the whole policy (the review threshold kept when the input has none). */
  setPolicy(input: PolicyInput): Promise<PolicyView>;
  /** funding.setReviewPolicy: only the active profile's review threshold. */
  setReview(review: ReviewPolicy): Promise<ReviewPolicy>;
}

export const createPolicyChanges = (deps: {
  readonly policies: PolicyStore;
  readonly authorizer: Authorizer;
  readonly controls: ControlPlane;
  readonly now?: () => number;
}): PolicyChanges => {
  const now = deps.now ?? Date.now;
  const submit = async (policy: Policy, title: string): Promise<PolicyView> => {
    const active = deps.authorizer.profile();
    const before = deps.policies.get(active.id);
    return deps.controls.submit<PolicyView>({
      kind: 'policies.set',
      profileId: active.id,
      title,
      changes: policyChanges(before, policy),
      apply: { profileId: active.id, policy, before: JSON.stringify(before) },
      confirmLabel: 'Change the policy',
    });
  };
  return {
    setPolicy: async (input) => {
      checkPolicyInput(input);
      const active = deps.authorizer.profile();
      const before = deps.policies.get(active.id);
      const at = now();
      // Main, not the form, says when a destination was added: an old entry keeps its time.
      const previous = new Map(before.allowlist.entries.map((e) => [entryKey(e), e]));
      const policy: Policy = {
        ...input,
        limits: Object.fromEntries(Object.entries(input.limits).map(([c, l]) => [c.toUpperCase(), l])),
        allowlist: {
          ...input.allowlist,
          entries: input.allowlist.entries.map((e) => ({
            ...e,
            currency: e.currency.toUpperCase(),
            addedAt: previous.get(entryKey(e))?.addedAt ?? at,
          })),
        },
        review: input.review ? normalisedReview(input.review) : before.review,
      };
      return submit(policy, `Change the policy of ${active.name}`);
    },
    setReview: async (review) => {
      const active = deps.authorizer.profile();
      const policy = { ...deps.policies.get(active.id), review: normalisedReview(review) };
      const view = await submit(policy, `Change the review threshold of ${active.name}`);
      return view.policy.review ?? { typedConfirmAbove: {} };
    },
  };
};

export const createPoliciesHandlers = (deps: {
  readonly policies: PolicyStore;
  readonly authorizer: Authorizer;
  readonly changes: PolicyChanges;
}): DeskHandlers['policies'] => ({
  get: async () => deps.policies.view(deps.authorizer.profile().id),
  set: async (input) => {
    for (const entry of input.allowlist.entries) {
      assertSafeText({ address: [entry.address, 'address'], memo: [entry.memo, 'memo'], label: [entry.label, 'name'] });
    }
    return deps.changes.setPolicy(input);
  },
});

export interface ApprovalsHandlersDeps {
  /** Team mode: the team's items (movements and control changes), listed with this desk's own. */
  readonly team?: TeamApprovals;
  readonly queue: ApprovalQueue;
  readonly authorizer: Authorizer;
  readonly commands: MovementCommands;
  readonly batches: Batches;
  readonly controls: ControlPlane;
}

export const createApprovalsHandlers = (deps: ApprovalsHandlersDeps): DeskHandlers['approvals'] => ({
  list: async ({ state }) => {
    const own = deps.queue.list(deps.authorizer.profile().id, state);
    const team = deps.team ? await deps.team.list(state) : [];
    return { approvals: team.length === 0 ? own : [...team, ...own] };
  },
  approve: async ({ id, reason }) => {
    if (deps.team?.owns(id)) return deps.team.approve(id, reason);
    const a = deps.queue.item(id, deps.authorizer.profile().id);
    switch (a.kind) {
      case 'batch':
        return deps.batches.approve(a, reason);
      case 'control':
        return deps.controls.approve(a, reason);
      case 'withdrawal':
      case 'push':
        return deps.commands.approve(a, reason);
    }
  },
  reject: async ({ id, reason }) =>
    deps.team?.owns(id) ? deps.team.reject(id, reason) : deps.queue.reject(id, deps.authorizer.profile().id, reason),
  retract: async ({ id, reason }) => {
    // The team's queue has no retract yet: its maker asks an approver to reject it (nothing is sent until then).
    if (deps.team?.owns(id)) {
      throw DeskFailure.precondition(
        'An item in the team’s queue cannot be retracted from this desk yet.',
        'Ask an approver to reject it; it is not sent unless approved.',
      );
    }
    return deps.queue.retract(id, deps.authorizer.profile().id, reason);
  },
  fourEyes: async () => deps.controls.fourEyes(),
});
