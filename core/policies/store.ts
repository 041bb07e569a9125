/**
 * Where each profile's policy is kept (main's settings, `policies.<profile id>`): the limits, the
 * allowlist, the time window, the approval rules and the review threshold (amounts above it need
 * the amount typed in the trusted confirmation). Changing it is a control change
 * (policies/handlers.ts); this module only reads and writes.
 */
import Decimal from 'decimal.js';
import type { ReviewPolicy } from '../../shared/contract/funding';
import {
  DEFAULT_OPERATOR_COOLING_OFF_HOURS,
  DEFAULT_POLICY,
  type Policy,
  type PolicyView,
} from '../../shared/contract/policies';
import type { Settings } from '../journal/types';

const POLICY_KEY = (profileId: string) => `policies.${profileId}`;
/** Before the threshold was part of each profile's policy it was one setting for the whole desk. */
const LEGACY_REVIEW_KEY = 'funding.reviewPolicy';
const NO_THRESHOLD: ReviewPolicy = { typedConfirmAbove: {} };

interface StoredPolicy {
  readonly policy: Policy;
  readonly updatedAt: number;
  readonly updatedBy: string;
}

/**
 * Team mode (docs/team.md): the policies are the team's, applied links of its control chain; while
 * the desk is in a team every read answers the team's policy of the active profile (the default until
 * an administrator sets one), never this desk's own.
 */
export interface TeamPolicies {
  active(): boolean;
  policy(): Policy;
}

export class PolicyStore {
  constructor(
    private readonly settings: Settings,
    private readonly team?: TeamPolicies,
  ) {}

  private stored(profileId: string): StoredPolicy | undefined {
    return this.settings.get<StoredPolicy | undefined>(POLICY_KEY(profileId), undefined);
  }

  /** The profile's policy (the default when none was set), its review threshold always filled in. */
  get(profileId: string): Policy {
    if (this.team?.active()) return this.team.policy();
    const policy = this.stored(profileId)?.policy ?? DEFAULT_POLICY;
    return { ...policy, review: policy.review ?? this.settings.get(LEGACY_REVIEW_KEY, NO_THRESHOLD) };
  }

  view(profileId: string): PolicyView {
    if (this.team?.active()) return { profileId, policy: this.get(profileId) };
    const stored = this.stored(profileId);
    return {
      profileId,
      policy: this.get(profileId),
      ...(stored ? { updatedAt: stored.updatedAt, updatedBy: stored.updatedBy } : {}),
    };
  }

  set(profileId: string, policy: Policy, by: string, at: number): PolicyView {
    this.settings.set(POLICY_KEY(profileId), { policy, updatedAt: at, updatedBy: by } satisfies StoredPolicy);
    return this.view(profileId);
  }

  /** Whether `amount` of `currency` must be typed: above the profile's threshold, or no threshold set (the safe default). */
  typedNeeded(profileId: string, currency: string, amount: string): boolean {
    const threshold = this.get(profileId).review?.typedConfirmAbove[currency.toUpperCase()];
    return threshold === undefined || new Decimal(amount).greaterThan(threshold);
  }

  /** The cooling-off after an administrator's grant over an operator, in hours. */
  operatorCoolingOffHours(profileId: string): number {
    return this.get(profileId).approval.operatorCoolingOffHours ?? DEFAULT_OPERATOR_COOLING_OFF_HOURS;
  }
}
