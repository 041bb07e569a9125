/**
 * Canonical serialisation of signed records: one text for one meaning, so a signature made on one
 * desk verifies on every other. JSON with object keys in a stable order (sorted by code unit), no
 * whitespace, and only values that serialise one way: strings, booleans, null, safe integers, arrays
 * and plain objects. Floats are refused (amounts travel as decimal strings, "0.1" never 0.1), as are
 * `undefined`, NaN and anything else JSON would drop or change silently.
 */
import { createHash } from 'node:crypto';

export type Canonical = string | number | boolean | null | readonly Canonical[] | { readonly [key: string]: Canonical };

const describe = (path: string) => (path === '' ? 'the record' : path);

const write = (value: unknown, path: string): string => {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value))
      throw new TypeError(`${describe(path)}: only safe integers are signed; write amounts as decimal strings`);
    // -0 and 0 must read the same.
    return value === 0 ? '0' : String(value);
  }
  if (Array.isArray(value)) return `[${value.map((item, i) => write(item, `${path}[${i}]`)).join(',')}]`;
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries
      .map(([key, item]) => {
        const at = path === '' ? key : `${path}.${key}`;
        if (item === undefined) throw new TypeError(`${at}: undefined is not signed; leave the key out`);
        return `${JSON.stringify(key)}:${write(item, at)}`;
      })
      .join(',')}}`;
  }
  throw new TypeError(`${describe(path)}: a ${typeof value} cannot be signed`);
};

/** The one text of a record (throws a TypeError naming the field for a value that has no single text). */
export const canonicalJson = (value: unknown): string => write(value, '');

/** SHA-256 (hex) of a record's canonical text: how records name each other (a link's `prev`, a decision's subject). */
export const recordHash = (value: unknown): string => sha256(canonicalJson(value));

export const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
