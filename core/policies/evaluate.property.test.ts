/**
 * Property: whatever the policy and whatever sequence of movements is asked for, the movements the
 * check lets through never exceed a limit — per transaction or over any rolling 24 hours, per
 * currency or in USDT value.
 */
import Decimal from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, type Limits, type Policy } from '../../shared/contract/policies';
import { DAY_MS, evaluatePolicy, type PolicyMovement } from './evaluate';

const PRICES: Record<string, string> = { USDT: '1', BTC: '50000', ETH: '3000.5' };
const CURRENCIES = Object.keys(PRICES);

const amount = fc
  .tuple(fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 0, max: 999 }))
  .map(([i, f]) => (f === 0 ? String(i) : `${i}.${String(f).padStart(3, '0')}`));
const positive = amount.filter((a) => new Decimal(a).greaterThan(0));

const limits: fc.Arbitrary<Limits> = fc.record({ perTransaction: amount, rolling24h: amount }, { requiredKeys: [] });

const policy: fc.Arbitrary<Policy> = fc
  .record({
    limits: fc.dictionary(fc.constantFrom(...CURRENCIES), limits, { maxKeys: 3 }),
    usdtLimits: limits.map((l) => ({
      ...(l.perTransaction ? { perTransaction: new Decimal(l.perTransaction).times(40).toFixed() } : {}),
      ...(l.rolling24h ? { rolling24h: new Decimal(l.rolling24h).times(100).toFixed() } : {}),
    })),
  })
  .map((p) => ({ ...DEFAULT_POLICY, ...p }));

const request = fc.record({
  kind: fc.constantFrom('withdrawal' as const, 'push' as const),
  currency: fc.constantFrom(...CURRENCIES),
  amount: positive,
  /** Time since the previous request: up to 8 hours, often 0 (bursts). */
  gapMs: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 8 * 3_600_000 })),
});

const usdtOf = (currency: string, value: string): string =>
  new Decimal(value).times(PRICES[currency] as string).toFixed();

const sum = (items: readonly PolicyMovement[], pick: (m: PolicyMovement) => string): Decimal =>
  items.reduce((s, m) => s.plus(pick(m)), new Decimal(0));

describe('policy limits hold for every sequence (property)', () => {
  it('no accepted movement breaks a per-transaction limit, and no 24-hour window exceeds a rolling limit', () => {
    fc.assert(
      fc.property(policy, fc.array(request, { minLength: 1, maxLength: 60 }), (p, requests) => {
        const accepted: PolicyMovement[] = [];
        let now = 1_800_000_000_000;
        for (const r of requests) {
          now += r.gapMs;
          const proposed: PolicyMovement = {
            kind: r.kind,
            currency: r.currency,
            amount: r.amount,
            at: now,
            usdt: usdtOf(r.currency, r.amount),
            destination: `d:${r.currency}`,
          };
          const result = evaluatePolicy(p, proposed, accepted, new Set(), now);
          if (result.refusals.length === 0) accepted.push(proposed);
        }
        for (const m of accepted) {
          const own = p.limits[m.currency];
          if (own?.perTransaction) expect(new Decimal(m.amount).lte(own.perTransaction)).toBe(true);
          if (p.usdtLimits.perTransaction)
            expect(new Decimal(m.usdt as string).lte(p.usdtLimits.perTransaction)).toBe(true);
          // A sliding window's total peaks at a window ending on one of its movements.
          const window = accepted.filter((o) => o.at > m.at - DAY_MS && o.at <= m.at);
          if (own?.rolling24h) {
            const total = sum(
              window.filter((o) => o.currency === m.currency),
              (o) => o.amount,
            );
            expect(total.lte(own.rolling24h), `${m.currency} 24 h total ${total} > ${own.rolling24h}`).toBe(true);
          }
          if (p.usdtLimits.rolling24h) {
            const total = sum(window, (o) => o.usdt as string);
            expect(total.lte(p.usdtLimits.rolling24h), `USDT 24 h total ${total}`).toBe(true);
          }
        }
      }),
      { numRuns: 400 },
    );
  });

  it('a movement is refused only for a limit it would really break (no false refusals without limits)', () => {
    fc.assert(
      fc.property(fc.array(request, { minLength: 1, maxLength: 30 }), (requests) => {
        let now = 1_800_000_000_000;
        const accepted: PolicyMovement[] = [];
        for (const r of requests) {
          now += r.gapMs;
          const proposed: PolicyMovement = {
            kind: r.kind,
            currency: r.currency,
            amount: r.amount,
            at: now,
            usdt: usdtOf(r.currency, r.amount),
            destination: 'd',
          };
          const result = evaluatePolicy(DEFAULT_POLICY, proposed, accepted, new Set(), now);
          expect(result.refusals).toEqual([]);
          accepted.push(proposed);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('movements older than 24 hours free the rolling limit again', () => {
    fc.assert(
      fc.property(positive, (a) => {
        const p: Policy = { ...DEFAULT_POLICY, limits: { BTC: { rolling24h: a } } };
        const first: PolicyMovement = { kind: 'withdrawal', currency: 'BTC', amount: a, at: 0, destination: 'd' };
        const next = { ...first, at: DAY_MS };
        expect(evaluatePolicy(p, { ...first, at: DAY_MS - 1 }, [first], new Set(), DAY_MS - 1).refusals).not.toEqual(
          [],
        );
        expect(evaluatePolicy(p, next, [first], new Set(), DAY_MS).refusals).toEqual([]);
      }),
    );
  });
});
