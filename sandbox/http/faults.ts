/**
 * Fault injection (control API POST/DELETE /sandbox/faults): lets tests see how clients behave
 * when the platform drops a connection before or after doing the work, answers 500 or 429, or is slow.
 */
import { ApiFailure } from './errors';

export const FAULT_KINDS = ['drop_before', 'drop_after', 'status_500', 'status_429', 'delay'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultRule {
  /** Upper-case HTTP method; any when omitted. */
  readonly method?: string;
  /** Path with /api/v4 (added when missing); a trailing `*` matches any suffix. */
  readonly path: string;
  readonly kind: FaultKind;
  /** Delay for kind=delay, milliseconds (default 1000). */
  readonly ms?: number;
  /** How many matching requests the rule affects before it disappears (unlimited when omitted). */
  times?: number;
  /** Chance that a matching request is affected, 0..1 (default 1), drawn from the seeded RNG. */
  readonly probability?: number;
}

export class Faults {
  private rules: FaultRule[] = [];

  constructor(private readonly random: () => number) {}

  get active(): boolean {
    return this.rules.length > 0;
  }

  list(): readonly FaultRule[] {
    return this.rules;
  }

  add(input: unknown): FaultRule[] {
    const rules = (input as { rules?: unknown })?.rules;
    if (!Array.isArray(rules) || rules.length === 0)
      throw new ApiFailure('INVALID_PARAM_VALUE', 'rules must be a non-empty array');
    const parsed = rules.map((r: unknown, i) => this.parse(r, i));
    this.rules.push(...parsed);
    return parsed;
  }

  clear(): void {
    this.rules = [];
  }

  /** The rule that applies to this request, if any (consumes one of its `times`). */
  take(method: string, path: string): FaultRule | undefined {
    for (let i = 0; i < this.rules.length; i += 1) {
      const rule = this.rules[i]!;
      if (rule.method && rule.method !== method) continue;
      const matches = rule.path.endsWith('*') ? path.startsWith(rule.path.slice(0, -1)) : path === rule.path;
      if (!matches) continue;
      if (rule.probability !== undefined && this.random() >= rule.probability) continue;
      if (rule.times !== undefined) {
        rule.times -= 1;
        if (rule.times <= 0) this.rules.splice(i, 1);
      }
      return rule;
    }
    return undefined;
  }

  private parse(raw: unknown, index: number): FaultRule {
    const bad = (what: string): never => {
      throw new ApiFailure('INVALID_PARAM_VALUE', `rules[${index}]: ${what}`);
    };
    if (typeof raw !== 'object' || raw === null) return bad('must be an object');
    const r = raw as Record<string, unknown>;
    if (typeof r.path !== 'string' || !r.path.startsWith('/')) return bad('path must start with /');
    if (typeof r.kind !== 'string' || !(FAULT_KINDS as readonly string[]).includes(r.kind)) {
      return bad(`kind must be one of ${FAULT_KINDS.join(', ')}`);
    }
    if (r.method !== undefined && typeof r.method !== 'string') return bad('method must be a string');
    const num = (v: unknown, name: string, min: number, max: number): number | undefined => {
      if (v === undefined) return undefined;
      if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max)
        return bad(`${name} must be a number in ${min}..${max}`);
      return v;
    };
    const path = r.path.startsWith('/api/v4') ? r.path : `/api/v4${r.path}`;
    const times = num(r.times, 'times', 1, 1_000_000);
    const ms = num(r.ms, 'ms', 0, 120_000);
    const probability = num(r.probability, 'probability', 0, 1);
    return {
      path,
      kind: r.kind as FaultKind,
      ...(r.method ? { method: r.method.toUpperCase() } : {}),
      ...(times !== undefined ? { times: Math.floor(times) } : {}),
      ...(ms !== undefined ? { ms } : {}),
      ...(probability !== undefined ? { probability } : {}),
    };
  }
}
