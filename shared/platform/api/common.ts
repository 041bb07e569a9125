/**
 * Building blocks for the platform's response schemas. The platform is lenient about number
 * formats (times arrive as int, float or string; ids as numbers or strings), so these parse
 * every documented form into one representation the app uses everywhere.
 */
import { z } from 'zod';

const NUMERIC = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

/** Unix time in seconds as int, float or numeric string → number of seconds (fraction kept). */
export const unixSeconds = z.union([z.number(), z.string().regex(NUMERIC, 'not a time')]).transform((v) => Number(v));

/** Unix time in milliseconds as int, float or numeric string → number of milliseconds. */
export const unixMillis = unixSeconds;

/**
 * An amount or price. The platform sends decimal strings; a bare JSON number is accepted and kept
 * as its shortest decimal text (never used for arithmetic as a float).
 */
export const decimalString = z.union([z.string(), z.number().transform((n) => String(n))]);

/** An identifier that may arrive as a number or a string (int64 ids overflow JS numbers, so keep text). */
export const idString = z.union([z.string(), z.number().transform((n) => String(n))]);

/** An int64 id used as a number in requests (user ids). */
export const int64 = z.union([
  z.number().int(),
  z
    .string()
    .regex(/^-?\d+$/)
    .transform((v) => Number(v)),
]);

/** Optional text that the platform may send as null. */
export const optText = z
  .string()
  .nullish()
  .transform((v) => v ?? undefined);

/** A value the platform may send as an empty string, null or absent when unknown. */
export const optDecimal = decimalString.nullish().transform((v) => (v === null || v === '' ? undefined : v));

export const optSeconds = z
  .union([unixSeconds, z.literal(''), z.null()])
  .optional()
  .transform((v) => (v === '' || v === null ? undefined : v));

/** Error body of every non-2xx answer. Some answers carry `detail` instead of `message`. */
export const PlatformErrorBody = z.object({
  label: z.string(),
  message: z.string().optional(),
  detail: z.string().optional(),
});
export type PlatformErrorBody = z.infer<typeof PlatformErrorBody>;
