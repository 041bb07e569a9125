/**
 * Main's own check of the text a handler is about to act on (shared/contract/text.ts): the
 * contract's schemas refuse the same, but a caller that skips them — the batch runner calling a
 * handler directly, a future caller — must meet the rule too. Refuses with INVALID_INPUT naming
 * each field; nothing is done.
 */
import { type TextKind, textProblems } from '../../../shared/contract/text';
import { DeskFailure } from '../errors';

export const assertSafeText = (
  fields: Readonly<Record<string, readonly [value: string | undefined, kind: TextKind]>>,
): void => {
  const problems = textProblems(fields);
  const [first] = Object.values(problems);
  if (first !== undefined) {
    throw new DeskFailure({ code: 'INVALID_INPUT', message: `${first} Nothing was sent.`, fields: problems });
  }
};
