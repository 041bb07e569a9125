/**
 * Fault injection (control API POST/DELETE /sandbox/faults): lets tests see how clients behave
 * when the platform drops a connection before or after doing the work, answers 500 or 429, or is slow.
 */
import { ApiFailure } from './errors';

export const FAULT_KINDS = ['drop_before', 'drop_after', 'status_500', 'status_429', 'delay', 'hold'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultRule {
  /** Upper-case HTTP method; any when omitted. */
  readonly method?: string;
  /** Path with /api/v4 (added when missing); a trailing `*` matches any suffix. */
  readonly path: string;
  readonly kind: FaultKind;
  /**
   * kind=delay: the delay, milliseconds (default 1000). kind=hold: the longest the request is held
   * when nobody clears the faults (default 60 000).
   */
  readonly ms?: number;
  /** How many matching requests the rule affects before it disappears (unlimited when omitted). */
  times?: number;
  /** Chance that a matching request is affected, 0..1 (default 1), drawn from the seeded RNG. */
  readonly probability?: number;
}

export class Faults {
  private rules: FaultRule[] = [];
  /** The requests a `hold` rule holds: each goes on when the faults are cleared or its `ms` is up. */
  private readonly held = new Set<() => void>();

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

  /** How many requests a `hold` rule holds now. */
  get holding(): number {
    return this.held.size;
  }

  /** Removes every rule and lets every held request go on. */
  clear(): void {
    this.rules = [];
    for (const release of [...this.held]) release();
  }

  /**
   * Holds a request (kind=hold) until clear() or `ms`: a test takes its time (kills a client, looks
   * at a screen) while the request is in flight, then lets it go on, without guessing a delay.
   */
  hold(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const release = () => {
        clearTimeout(timer);
        this.held.delete(release);
        resolve();
      };
      const timer = setTimeout(release, ms);
      this.held.add(release);
    });
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

/**
 * Faults of the WebSocket stream (control API POST/DELETE /sandbox/stream/faults, POST
 * /sandbox/stream/cut): drop order-book update messages (spot.order_book_update, spot.obu) so
 * clients meet a gap in U/u, the next N of them or each with a probability.
 */
export class StreamFaults {
  private dropNext = 0;
  private dropProbability = 0;
  /** Messages dropped so far (the control API reports it). */
  dropped = 0;

  constructor(private readonly random: () => number) {}

  state(): { drop_next: number; drop_probability: number; dropped: number } {
    return { drop_next: this.dropNext, drop_probability: this.dropProbability, dropped: this.dropped };
  }

  set(input: unknown): void {
    const body = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
    const next = body.drop_book_updates;
    const probability = body.drop_probability;
    if (next === undefined && probability === undefined)
      throw new ApiFailure('INVALID_PARAM_VALUE', 'give drop_book_updates (a count) and/or drop_probability (0..1)');
    if (next !== undefined && (typeof next !== 'number' || !Number.isInteger(next) || next < 0 || next > 1_000_000))
      throw new ApiFailure('INVALID_PARAM_VALUE', 'drop_book_updates must be an integer from 0 to 1000000');
    if (
      probability !== undefined &&
      (typeof probability !== 'number' || !Number.isFinite(probability) || probability < 0 || probability > 1)
    )
      throw new ApiFailure('INVALID_PARAM_VALUE', 'drop_probability must be a number from 0 to 1');
    if (next !== undefined) this.dropNext = next;
    if (probability !== undefined) this.dropProbability = probability;
  }

  clear(): void {
    this.dropNext = 0;
    this.dropProbability = 0;
  }

  /** Whether the book update about to be sent is dropped instead. */
  dropBookUpdate(): boolean {
    let drop = false;
    if (this.dropNext > 0) {
      this.dropNext -= 1;
      drop = true;
    } else if (this.dropProbability > 0 && this.random() < this.dropProbability) {
      drop = true;
    }
    if (drop) this.dropped += 1;
    return drop;
  }
}
