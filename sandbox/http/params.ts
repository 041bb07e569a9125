/**
 * Request-parameter readers shared by all modules. Each throws ApiFailure with the spec's label:
 * MISSING_REQUIRED_PARAM when absent, INVALID_PARAM_VALUE when malformed, INVALID_PRECISION when an
 * amount has too many decimals.
 */
import Decimal from 'decimal.js';
import { ApiFailure } from './errors';

const DECIMAL_RE = /^(?:0|[1-9]\d{0,29})(?:\.\d{1,30})?$/;
const INT_RE = /^-?\d{1,18}$/;

/** Form-decodes a query string: `+` → space, %XX decoded, first value of a name wins. */
export function parseQuery(raw: string): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  if (raw === '') return out;
  for (const part of raw.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = decodeComponent(eq === -1 ? part : part.slice(0, eq));
    const value = eq === -1 ? '' : decodeComponent(part.slice(eq + 1));
    if (name !== undefined && value !== undefined && !(name in out)) out[name] = value;
  }
  return out;
}

function decodeComponent(s: string): string | undefined {
  const spaced = s.includes('+') ? s.replace(/\+/g, ' ') : s;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return undefined;
  }
}

/** The JSON body as an object ({} when empty); anything else is INVALID_REQUEST_BODY. */
export function bodyObject(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiFailure('INVALID_REQUEST_BODY', 'Request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

/** A string field (numbers are accepted and converted, as the platform does). */
export function optString(
  source: Readonly<Record<string, unknown>>,
  name: string,
  maxLength = 256,
): string | undefined {
  const value = source[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') throw new ApiFailure('INVALID_PARAM_VALUE', `${name} must be a string`);
  if (value.length > maxLength) throw new ApiFailure('INVALID_PARAM_VALUE', `${name} is too long`);
  return value;
}

export function reqString(source: Readonly<Record<string, unknown>>, name: string, maxLength = 256): string {
  const value = optString(source, name, maxLength);
  if (value === undefined || value === '')
    throw new ApiFailure('MISSING_REQUIRED_PARAM', `Missing required parameter: ${name}`);
  return value;
}

/** One of a fixed set of values. */
export function optEnum<T extends string>(
  source: Readonly<Record<string, unknown>>,
  name: string,
  values: readonly T[],
): T | undefined {
  const value = optString(source, name);
  if (value === undefined || value === '') return undefined;
  if (!(values as readonly string[]).includes(value)) {
    throw new ApiFailure('INVALID_PARAM_VALUE', `${name} must be one of ${values.join(', ')}`);
  }
  return value as T;
}

export function reqEnum<T extends string>(
  source: Readonly<Record<string, unknown>>,
  name: string,
  values: readonly T[],
): T {
  const value = optEnum(source, name, values);
  if (value === undefined) throw new ApiFailure('MISSING_REQUIRED_PARAM', `Missing required parameter: ${name}`);
  return value;
}

/**
 * A positive decimal amount with at most `maxDecimals` places (INVALID_PRECISION beyond).
 * Accepts a JSON number only when it prints without an exponent.
 */
export function reqAmount(source: Readonly<Record<string, unknown>>, name: string, maxDecimals: number): Decimal {
  const raw = source[name];
  if (raw === undefined || raw === null || raw === '') {
    throw new ApiFailure('MISSING_REQUIRED_PARAM', `Missing required parameter: ${name}`);
  }
  const text = typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : raw;
  if (typeof text !== 'string' || !DECIMAL_RE.test(text)) {
    throw new ApiFailure('INVALID_PARAM_VALUE', `${name} must be a positive decimal string`);
  }
  const value = new Decimal(text);
  if (value.lte(0)) throw new ApiFailure('INVALID_PARAM_VALUE', `${name} must be greater than 0`);
  if (value.decimalPlaces() > maxDecimals) {
    throw new ApiFailure('INVALID_PRECISION', `${name} has more than ${maxDecimals} decimal places`);
  }
  return value;
}

/** An integer; `undefined` when absent or empty. */
export function optInt(
  source: Readonly<Record<string, unknown>>,
  name: string,
  range: { min?: number; max?: number } = {},
): number | undefined {
  const raw = source[name];
  if (raw === undefined || raw === null || raw === '') return undefined;
  let value: number;
  if (typeof raw === 'number') value = raw;
  else if (typeof raw === 'string' && INT_RE.test(raw)) value = Number(raw);
  else throw new ApiFailure('INVALID_PARAM_VALUE', `${name} must be an integer`);
  if (!Number.isSafeInteger(value)) throw new ApiFailure('INVALID_PARAM_VALUE', `${name} must be an integer`);
  if (range.min !== undefined && value < range.min)
    throw new ApiFailure('INVALID_PARAM_VALUE', `${name} must be at least ${range.min}`);
  if (range.max !== undefined && value > range.max)
    throw new ApiFailure('INVALID_PARAM_VALUE', `${name} must be at most ${range.max}`);
  return value;
}

export function reqInt(
  source: Readonly<Record<string, unknown>>,
  name: string,
  range: { min?: number; max?: number } = {},
): number {
  const value = optInt(source, name, range);
  if (value === undefined) throw new ApiFailure('MISSING_REQUIRED_PARAM', `Missing required parameter: ${name}`);
  return value;
}

export function optBool(source: Readonly<Record<string, unknown>>, name: string): boolean | undefined {
  const raw = source[name];
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (raw === true || raw === 'true') return true;
  if (raw === false || raw === 'false') return false;
  throw new ApiFailure('INVALID_PARAM_VALUE', `${name} must be a boolean`);
}

/** limit/offset paging: limit default 100 (or `def`), 1..max; offset ≥ 0. */
export function paging(
  query: Readonly<Record<string, string>>,
  opts: { defaultLimit?: number; maxLimit?: number } = {},
): { limit: number; offset: number } {
  const limit = optInt(query, 'limit', { min: 1, max: opts.maxLimit ?? 1000 }) ?? opts.defaultLimit ?? 100;
  const offset = optInt(query, 'offset', { min: 0 }) ?? 0;
  return { limit, offset };
}

/** page/limit paging: page from 1. */
export function pagePaging(
  query: Readonly<Record<string, string>>,
  opts: { defaultLimit?: number; maxLimit?: number } = {},
): { limit: number; offset: number } {
  const limit = optInt(query, 'limit', { min: 1, max: opts.maxLimit ?? 1000 }) ?? opts.defaultLimit ?? 100;
  const page = optInt(query, 'page', { min: 1, max: 1_000_000 }) ?? 1;
  return { limit, offset: (page - 1) * limit };
}

export const DAY_MS = 86_400_000;

/**
 * from/to of record queries (Unix seconds): from defaults to 7 days before now, to to now, the range
 * may not exceed 30 days, from may not be after to. Returns milliseconds, `to` inclusive of its second.
 */
export function timeRange(query: Readonly<Record<string, string>>, nowMs: number): { fromMs: number; toMs: number } {
  const to = optInt(query, 'to', { min: 0 });
  const from = optInt(query, 'from', { min: 0 });
  const toMs = to === undefined ? nowMs : to * 1000 + 999;
  const fromMs = from === undefined ? (to === undefined ? nowMs : to * 1000) - 7 * DAY_MS : from * 1000;
  if (fromMs > toMs) throw new ApiFailure('INVALID_PARAM_VALUE', 'from must not be after to');
  if (toMs - fromMs > 30 * DAY_MS + 999)
    throw new ApiFailure('INVALID_PARAM_VALUE', 'time range must not exceed 30 days');
  return { fromMs, toMs };
}

/** Unix seconds as the platform prints them in string fields. */
export const secondsString = (ms: number): string => String(Math.floor(ms / 1000));
