import { describe, expect, it } from 'vitest';
import { destinationKey } from '../../shared/contract/funding';
import { DEFAULT_POLICY, type Policy } from '../../shared/contract/policies';
import { typedAmountMatches } from './confirm';
import { evaluateBatch, evaluatePolicy, insideWindow, type PolicyMovement, pushDestination } from './evaluate';

const NOW = Date.UTC(2026, 0, 15, 12, 0); // 12:00 UTC
const HOUR = 3_600_000;
const dest = destinationKey('TRX', 'TAddr1', undefined);
const withdrawal = (over: Partial<PolicyMovement> = {}): PolicyMovement => ({
  kind: 'withdrawal',
  currency: 'USDT',
  amount: '100',
  at: NOW,
  usdt: '100',
  destination: dest,
  ...over,
});
const push = (over: Partial<PolicyMovement> = {}): PolicyMovement => ({
  ...withdrawal(),
  kind: 'push',
  destination: pushDestination(42),
  ...over,
});
const withRules = (approval: Partial<Policy['approval']>): Policy => ({
  ...DEFAULT_POLICY,
  approval: { ...DEFAULT_POLICY.approval, ...approval },
});

describe('approval rules', () => {
  it('above X USDT needs an approver; at X or below it does not', () => {
    const policy = withRules({ aboveUsdt: '1000' });
    expect(evaluatePolicy(policy, withdrawal({ usdt: '1000' }), [], new Set([dest]), NOW).approvalReasons).toEqual([]);
    const above = evaluatePolicy(policy, withdrawal({ amount: '1000.01', usdt: '1000.01' }), [], new Set([dest]), NOW);
    expect(above.approvalReasons).toEqual(['Worth 1,000.01 USDT, above 1,000 USDT.']);
    expect(above.refusals).toEqual([]);
  });

  it('an unknown USDT value needs an approver under the "above X" rule (never taken as 0)', () => {
    const r = evaluatePolicy(
      withRules({ aboveUsdt: '1000' }),
      withdrawal({ usdt: undefined }),
      [],
      new Set([dest]),
      NOW,
    );
    expect(r.approvalReasons[0]).toMatch(/not known/);
  });

  it('a new destination needs an approver; one sent to before does not', () => {
    const policy = withRules({ newDestination: true });
    expect(evaluatePolicy(policy, withdrawal(), [], new Set(), NOW).approvalReasons).toEqual([
      'A destination this profile never sent to.',
    ]);
    expect(evaluatePolicy(policy, withdrawal(), [], new Set([dest]), NOW).approvalReasons).toEqual([]);
    // The rule is about withdrawals: a push is not a "destination" in this sense.
    expect(evaluatePolicy(policy, push(), [], new Set(), NOW).approvalReasons).toEqual([]);
  });

  it('any UID push needs an approver when the rule is on, however small', () => {
    const policy = withRules({ anyPush: true });
    expect(evaluatePolicy(policy, push({ amount: '0.01', usdt: '0.01' }), [], new Set(), NOW).approvalReasons).toEqual([
      'Every UID transfer needs an approver.',
    ]);
    expect(evaluatePolicy(policy, withdrawal(), [], new Set([dest]), NOW).approvalReasons).toEqual([]);
  });

  it('several rules give several reasons; the default policy asks for none', () => {
    const policy = withRules({ aboveUsdt: '10', newDestination: true });
    expect(evaluatePolicy(policy, withdrawal(), [], new Set(), NOW).approvalReasons).toHaveLength(2);
    // A destination never sent to is said (for the approver's flag) even when no rule asks for approval.
    expect(evaluatePolicy(DEFAULT_POLICY, withdrawal(), [], new Set(), NOW)).toEqual({
      refusals: [],
      approvalReasons: [],
      newDestination: true,
    });
    expect(evaluatePolicy(DEFAULT_POLICY, withdrawal(), [], new Set([dest]), NOW)).toEqual({
      refusals: [],
      approvalReasons: [],
    });
    expect(evaluatePolicy(DEFAULT_POLICY, push(), [], new Set(), NOW).newDestination).toBeUndefined();
  });
});

describe('refusals', () => {
  it('a per-currency limit refuses with the numbers', () => {
    const policy: Policy = { ...DEFAULT_POLICY, limits: { USDT: { perTransaction: '50', rolling24h: '150' } } };
    const r = evaluatePolicy(policy, withdrawal(), [], new Set(), NOW);
    expect(r.refusals).toEqual(['The amount 100 USDT is above the per-transaction limit of 50 USDT.']);
    const day = evaluatePolicy(
      { ...policy, limits: { USDT: { rolling24h: '150' } } },
      withdrawal(),
      [withdrawal({ amount: '60', at: NOW - 23 * HOUR })],
      new Set(),
      NOW,
    );
    expect(day.refusals[0]).toMatch(/24-hour limit of 150 USDT .* 60 USDT already moved .* 90 USDT left/);
  });

  it('USDT limits refuse when a value cannot be known', () => {
    const policy: Policy = { ...DEFAULT_POLICY, usdtLimits: { rolling24h: '1000' } };
    const r = evaluatePolicy(policy, withdrawal({ currency: 'XYZ', usdt: undefined }), [], new Set(), NOW);
    expect(r.refusals[0]).toMatch(/USDT value of XYZ is not known/);
  });

  it('the allowlist: unknown destination refused; a new entry waits for its cooling-off period', () => {
    const entry = {
      currency: 'USDT',
      chain: 'TRX',
      address: 'TAddr1',
      label: 'Treasury cold',
      addedAt: NOW - 2 * HOUR,
    };
    const policy: Policy = {
      ...DEFAULT_POLICY,
      allowlist: { required: true, coolingOffHours: 24, entries: [entry] },
    };
    expect(evaluatePolicy(policy, withdrawal({ destination: 'other' }), [], new Set(), NOW).refusals).toEqual([
      'This destination is not on the profile’s allowlist.',
    ]);
    expect(evaluatePolicy(policy, withdrawal(), [], new Set(), NOW).refusals[0]).toMatch(
      /Treasury cold.*cooling-off period of 24 h/,
    );
    expect(
      evaluatePolicy(policy, withdrawal({ at: NOW + 22 * HOUR }), [], new Set(), NOW + 22 * HOUR).refusals,
    ).toEqual([]);
    // The memo is part of the destination: the same address with another memo is another destination.
    const memo = destinationKey('TRX', 'TAddr1', 'client-7');
    expect(
      evaluatePolicy(policy, withdrawal({ destination: memo }), [], new Set(), NOW + 30 * HOUR).refusals,
    ).toHaveLength(1);
    // Pushes are not checked against the allowlist of addresses.
    expect(evaluatePolicy(policy, push(), [], new Set(), NOW).refusals).toEqual([]);
  });

  it('the time-of-day window, in its own time zone, also across midnight', () => {
    expect(insideWindow({ fromMinute: 9 * 60, toMinute: 17 * 60, utcOffsetMinutes: 0 }, NOW)).toBe(true);
    expect(insideWindow({ fromMinute: 9 * 60, toMinute: 17 * 60, utcOffsetMinutes: 360 }, NOW)).toBe(false); // 18:00 there
    expect(
      insideWindow({ fromMinute: 22 * 60, toMinute: 6 * 60, utcOffsetMinutes: 0 }, Date.UTC(2026, 0, 15, 23)),
    ).toBe(true);
    expect(insideWindow({ fromMinute: 22 * 60, toMinute: 6 * 60, utcOffsetMinutes: 0 }, NOW)).toBe(false);
    const policy: Policy = { ...DEFAULT_POLICY, timeWindow: { fromMinute: 480, toMinute: 600, utcOffsetMinutes: 60 } };
    expect(evaluatePolicy(policy, withdrawal(), [], new Set(), NOW).refusals).toEqual([
      'Money may move only between 08:00 and 10:00 (UTC+01).',
    ]);
  });
});

describe('the typed amount of the trusted confirmation', () => {
  it('matches the same number however it is written, nothing else', () => {
    expect(typedAmountMatches('1,000.50', '1000.5')).toBe(true);
    expect(typedAmountMatches('1000.5', '1000.5')).toBe(true);
    expect(typedAmountMatches('.5', '0.5')).toBe(true);
    expect(typedAmountMatches('1000', '1000.5')).toBe(false);
    expect(typedAmountMatches('', '1')).toBe(false);
    expect(typedAmountMatches(undefined, '1')).toBe(false);
    expect(typedAmountMatches('1e3', '1000')).toBe(false);
  });
});

describe('a whole batch', () => {
  it('each row that passes counts toward the 24-hour limit of the rows after it; a refused one does not', () => {
    const policy: Policy = {
      ...withRules({ aboveUsdt: '150' }),
      limits: { USDT: { perTransaction: '250', rolling24h: '400' } },
    };
    const history = [withdrawal({ amount: '100', usdt: '100', at: NOW - HOUR })];
    const rows = [
      withdrawal({ amount: '200', usdt: '200' }), // 300 used: passes, needs an approver
      withdrawal({ amount: '300', usdt: '300' }), // above the per-transaction and 24-hour limits: refused, not counted
      withdrawal({ amount: '100', usdt: '100' }), // 400 used: passes
      push({ amount: '1', usdt: '1' }), // 401: over the 24-hour limit
    ];
    const result = evaluateBatch(policy, rows, history, new Set([dest]), NOW);
    expect(result.map((r) => [r.refusals.length, r.approvalReasons.length])).toEqual([
      [0, 1],
      [2, 1],
      [0, 0],
      [1, 0],
    ]);
    expect(result[1]?.refusals.join(' ')).toMatch(/per-transaction limit of 250 USDT/);
    expect(result[3]?.refusals.join(' ')).toMatch(/400 USDT already moved/);
  });
});
