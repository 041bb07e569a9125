/**
 * One way for form errors: each error once, at its field. A refusal from main or the platform that
 * names fields (INVALID_INPUT's `fields`, e.g. `{ email: '…' }`) is put on those fields; only what
 * names no field of the form is shown as one banner above the buttons.
 */
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { isDeskCallError } from './desk';

/** Puts the refusal's field messages on the form; true when every one of them found its field. */
export const putFieldErrors = <T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fieldNames: readonly Path<T>[],
): boolean => {
  if (!isDeskCallError(error) || !error.fields) return false;
  const entries = Object.entries(error.fields);
  let all = entries.length > 0;
  for (const [name, message] of entries) {
    const field = fieldNames.find((f) => f === name || name.startsWith(`${f}.`));
    if (field) setError(field, { type: 'server', message }, { shouldFocus: true });
    else all = false;
  }
  return all;
};
