/**
 * Text that cannot lie on screen: the one rule for every address, memo, name and label a person
 * types or a window sends, checked by the contract's schemas (`safeText`) and again by main's
 * handlers (`assertSafeText` in core/errors.ts; core/app/textSafety.integration.test.ts), so a caller that skips the
 * schema meets it too.
 *
 * - Invisible characters are refused everywhere: control characters, format characters (\p{Cf}:
 *   bidi overrides and isolates such as U+202E, zero-width spaces and joiners, the BOM, soft
 *   hyphens), other default-ignorable characters, line and paragraph separators, private-use and
 *   unassigned code points. With them `TXYZ\u202Eabc` would show as `TXYZcba`.
 * - Addresses and memos are ASCII (a chain's alphabet is always within it): a Cyrillic `а` that
 *   looks like a Latin `a` is refused, with its code point named.
 * - Names and labels may use any script, but not two look-alike scripts at once (Latin with
 *   Cyrillic or Greek): `mаllory` with a Cyrillic `а` is refused. The trusted confirmation marks
 *   every non-ASCII character it shows (core/policies/confirmPage.ts).
 */
import type { z } from 'zod';

/**
 * - `address`: printable ASCII, no spaces;
 * - `memo`: printable ASCII, spaces allowed;
 * - `name`: any script but one look-alike family at a time, no invisible characters;
 * - `text`: free text (reasons, notes, remarks): no invisible characters.
 */
export type TextKind = 'address' | 'memo' | 'name' | 'text';

const INVISIBLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/u;
const NOT_ADDRESS = /[^\x21-\x7E]/;
const NOT_MEMO = /[^\x20-\x7E]/;
/** Scripts whose letters pass for each other's; a name mixing two of them is refused. */
const LOOK_ALIKE_SCRIPTS = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Armenian', /\p{Script=Armenian}/u],
  ['Cherokee', /\p{Script=Cherokee}/u],
] as const;

/** A character as a person can identify it: itself when visible, and its code point. */
export const codePoint = (char: string): string =>
  `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

const invisibleWords = (char: string): string => {
  const cp = char.codePointAt(0) ?? 0;
  if (
    (cp >= 0x202a && cp <= 0x202e) ||
    (cp >= 0x2066 && cp <= 0x2069) ||
    cp === 0x200e ||
    cp === 0x200f ||
    cp === 0x061c
  )
    return `a direction control (${codePoint(char)}) that changes the order characters are shown in`;
  if ((cp >= 0x200b && cp <= 0x200d) || cp === 0x2060 || cp === 0xfeff)
    return `a zero-width character (${codePoint(char)})`;
  if (/\p{Cc}/u.test(char)) return `a control character (${codePoint(char)})`;
  return `an invisible character (${codePoint(char)})`;
};

/** What is wrong with `value` as text of this kind, in words; undefined when nothing is. */
export const textProblem = (value: string, kind: TextKind): string | undefined => {
  const invisible = INVISIBLE.exec(value)?.[0];
  if (invisible !== undefined) return `Remove ${invisibleWords(invisible)}: it hides what the text really says.`;
  if (kind === 'address' || kind === 'memo') {
    const other = (kind === 'address' ? NOT_ADDRESS : NOT_MEMO).exec(value)?.[0];
    if (other === undefined) return undefined;
    if (other === ' ') return 'An address has no spaces.';
    return `Only ASCII letters, digits and punctuation: “${other}” (${codePoint(other)}) is not one of them — it may be a look-alike of another character.`;
  }
  if (kind === 'name') {
    const scripts = LOOK_ALIKE_SCRIPTS.filter(([, pattern]) => pattern.test(value)).map(([script]) => script);
    if (scripts.length > 1) {
      return `Use one alphabet: this mixes ${scripts.join(' and ')} letters, which look alike.`;
    }
  }
  return undefined;
};

/** The schema's check of a text field: `Address.superRefine(safeText('address'))`. */
export const safeText =
  (kind: TextKind) =>
  (value: string, ctx: z.RefinementCtx): void => {
    const problem = textProblem(value, kind);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  };

/** Problems of several fields at once, by field name (what main's handlers check again). */
export const textProblems = (
  fields: Readonly<Record<string, readonly [value: string | undefined, kind: TextKind]>>,
): Record<string, string> => {
  const problems: Record<string, string> = {};
  for (const [field, [value, kind]] of Object.entries(fields)) {
    const problem = value === undefined ? undefined : textProblem(value, kind);
    if (problem !== undefined) problems[field] = problem;
  }
  return problems;
};
