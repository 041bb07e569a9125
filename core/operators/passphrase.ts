/**
 * Passphrases are kept only as scrypt hashes (node:crypto), each with its own random salt and its
 * cost parameters, and compared in constant time (timingSafeEqual). The cost is OWASP's minimum for
 * scrypt (N = 2^17, r = 8, p = 1: 128 MiB, about 0.4 s per check on the test machine): a person
 * signing in does not notice it, someone who copied the journal pays it for every guess.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

export interface ScryptCost {
  /** CPU/memory cost, a power of two. */
  readonly N: number;
  readonly r: number;
  readonly p: number;
}

/** OWASP Password Storage Cheat Sheet, scrypt: N = 2^17, r = 8, p = 1. */
export const DEFAULT_SCRYPT_COST: ScryptCost = { N: 2 ** 17, r: 8, p: 1 };
/**
 * Tests only: the cheapest scrypt (2 KiB, microseconds a hash); the format and the comparison are
 * the same. Tests hash thousands of passphrases (every test core's operator, the four-eyes property
 * test's every step): at N = 2^10, r = 8 that property test alone took 10 s instead of 3.
 */
export const TEST_SCRYPT_COST: ScryptCost = { N: 2 ** 4, r: 1, p: 1 };

const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
const PREFIX = 'scrypt';

/**
 * The 32-byte scrypt key of a passphrase (NFC) and salt: the hash stored here, and the key that seals
 * a team operator's signing key in the keychain (core/team/identity.ts).
 */
export const derivePassphraseKey = (passphrase: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    scrypt(
      passphrase.normalize('NFC'),
      salt,
      KEY_LENGTH,
      // maxmem: what the cost needs (128·N·r bytes) plus room; Node's default (32 MiB) is exactly too small.
      { N: cost.N, r: cost.r, p: cost.p, maxmem: 256 * cost.N * cost.r + 1024 * 1024 },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });

/** `scrypt$N$r$p$<salt base64>$<hash base64>`: the cost travels with the hash, so it can be raised later. */
export const hashPassphrase = async (passphrase: string, cost: ScryptCost = DEFAULT_SCRYPT_COST): Promise<string> => {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derivePassphraseKey(passphrase, salt, cost);
  return [PREFIX, cost.N, cost.r, cost.p, salt.toString('base64'), key.toString('base64')].join('$');
};

/** Whether `passphrase` matches `stored` (false for anything malformed; never throws for a wrong one). */
export const verifyPassphrase = async (passphrase: string, stored: string): Promise<boolean> => {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== PREFIX) return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![N, r, p].every((n) => Number.isInteger(n) && n > 0) || N > 2 ** 20 || r > 32 || p > 16) return false;
  const salt = Buffer.from(parts[4]!, 'base64');
  const expected = Buffer.from(parts[5]!, 'base64');
  if (expected.length !== KEY_LENGTH || salt.length < SALT_LENGTH) return false;
  const actual = await derivePassphraseKey(passphrase, salt, { N, r, p });
  return timingSafeEqual(actual, expected);
};
