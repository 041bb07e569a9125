/**
 * Identifiers and pseudo-random values. With `--seed N` everything the sandbox invents (keys,
 * secrets, addresses, txids, fault probabilities) is a pure function of N and a persisted counter,
 * so two runs with the same seed and the same requests produce the same ids.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Db } from './db';
import { getMeta, setMeta } from './db';

export class IdSource {
  /** First user id handed out (the seeded main account). */
  readonly firstUserId = 10_000_001;
  private counter: number;
  private rngState: number;

  constructor(
    private readonly db: Db,
    private readonly seed: string,
  ) {
    this.counter = Number(getMeta(db, 'id_counter') ?? '0');
    this.rngState = Number.parseInt(this.digest('rng').slice(0, 8), 16) >>> 0 || 1;
  }

  /** Persisted seed of a data directory: the given one, else the stored one, else a fresh random one. */
  static resolveSeed(db: Db, seed: number | undefined): string {
    if (seed !== undefined) {
      setMeta(db, 'seed', String(seed));
      return String(seed);
    }
    const stored = getMeta(db, 'seed');
    if (stored) return stored;
    const fresh = randomBytes(16).toString('hex');
    setMeta(db, 'seed', fresh);
    return fresh;
  }

  /** A fresh hex string of `bytes` bytes, unique within this data directory. */
  hex(bytes: number, label: string): string {
    this.counter += 1;
    setMeta(this.db, 'id_counter', String(this.counter));
    let out = '';
    for (let i = 0; out.length < bytes * 2; i += 1) out += this.digest(`${label}:${this.counter}:${i}`);
    return out.slice(0, bytes * 2);
  }

  /** A stable hex digest of `label` under this seed (same label → same value). */
  digest(label: string): string {
    return createHmac('sha256', this.seed).update(label).digest('hex');
  }

  /** Deterministic pseudo-random number in [0, 1) (xorshift32), for fault probabilities. */
  random(): number {
    let x = this.rngState;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.rngState = x >>> 0;
    return this.rngState / 0x1_0000_0000;
  }
}
