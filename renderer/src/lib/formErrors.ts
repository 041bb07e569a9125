/**
 * One way for form errors: each error once, at its field. Every form maps a failed call onto its
 * fields with `placeRefusal`:
 *
 * - main's INVALID_INPUT `fields` (e.g. `{ email: '…' }`, `{ 'ipWhitelist.2': '…' }`) go to those
 *   fields, as the field's own message; only what names no field of the form is left for a banner;
 * - a platform refusal whose label is about one field (BALANCE_NOT_ENOUGH → the amount) is ONE
 *   banner — main's explanation, advice, label and request id — and that field is highlighted
 *   (marked invalid, no second message under it); the banner names the field it highlighted;
 * - anything else is the banner, as main said it.
 *
 * The banner (`ErrorNotice`) shows main's message and advice as main said them (main's advice names
 * no field: it cannot know what a form highlights); the banner adds which fields it highlighted.
 */
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { DeskCallError, isDeskCallError } from './desk';

/** The banner left after the form put what it could at its fields. */
export class FormRefusal extends DeskCallError {
  /** The labels (as the person reads them) of the fields this refusal highlighted. */
  readonly highlighted: readonly string[];

  constructor(error: DeskCallError, fields: Record<string, string> | undefined, highlighted: readonly string[]) {
    const { fields: _placed, ...rest } = error.error;
    super(error.operation, fields && Object.keys(fields).length > 0 ? { ...rest, fields } : rest);
    this.highlighted = highlighted;
  }
}

export const isFormRefusal = (value: unknown): value is FormRefusal => value instanceof FormRefusal;

/** The form's fields: its name (as in the contract's input) → its label on screen. */
export type FormFields<T extends FieldValues> = Partial<Record<Path<T>, string>>;

/** Which field a platform label is about, for the labels this form can meet. */
export type LabelFields<T extends FieldValues> = Readonly<Record<string, Path<T>>>;

const fieldOf = <T extends FieldValues>(fields: FormFields<T>, name: string): Path<T> | undefined => {
  const names = Object.keys(fields) as Path<T>[];
  if (names.includes(name as Path<T>)) return name as Path<T>;
  // A row of a list field ("ipWhitelist.2") keeps its row; any other part of a field ("perms.wallet")
  // goes to the field that holds it.
  const holder = names.find((f) => name.startsWith(`${f}.`));
  if (holder === undefined) return undefined;
  return /^\d+$/.test(name.slice(holder.length + 1)) ? (name as Path<T>) : holder;
};

/**
 * Puts a failed call's refusal on the form (see the module comment). Returns what is left for ONE
 * banner — a `FormRefusal` (only the fields no form field took, the fields it highlighted) or the
 * error itself — or undefined when everything is shown at the fields.
 */
export const placeRefusal = <T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: FormFields<T>,
  labels: LabelFields<T> = {},
): unknown => {
  if (!isDeskCallError(error)) return error;
  let focus = true;
  const mark = (name: Path<T>, message: string, type: string) => {
    setError(name, { type, message }, { shouldFocus: focus });
    focus = false;
  };

  if (error.fields && Object.keys(error.fields).length > 0) {
    const left: Record<string, string> = {};
    for (const [name, message] of Object.entries(error.fields)) {
      const field = fieldOf(fields, name);
      if (field) mark(field, message, 'server');
      else left[name] = message;
    }
    if (Object.keys(left).length === 0) return undefined;
    return new FormRefusal(error, left, []);
  }

  const labelled = error.label ? labels[error.label] : undefined;
  if (labelled && fields[labelled] !== undefined) {
    // Highlighted, with no message of its own: the banner says it once.
    mark(labelled, '', 'platform');
    return new FormRefusal(error, undefined, [fields[labelled] as string]);
  }
  return error;
};

/** The message to show under a field: a highlighted field (a platform refusal) has none of its own. */
export const fieldMessage = (error: { readonly message?: string | undefined } | undefined): string | undefined =>
  error?.message ? error.message : undefined;
