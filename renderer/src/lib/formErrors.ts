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
import { type DependencyList, useEffect } from 'react';
import {
  type FieldError,
  type FieldValues,
  get,
  type Path,
  type PathValue,
  type Resolver,
  type UseFormReturn,
  type UseFormSetError,
} from 'react-hook-form';
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

/** How `placeRefusal` marks what it put at a field (main's field message; a highlighted field). */
type RefusalType = 'server' | 'platform';

/** Whether a field's error is a refusal `placeRefusal` put there (not the form's own rule). */
export const isRefusal = (error: { readonly type?: string | number } | undefined): boolean =>
  error?.type === 'server' || error?.type === 'platform';

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
  const mark = (name: Path<T>, message: string, type: RefusalType) => {
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

/**
 * A form whose rules read more than the field itself (other fields, a balance, the chosen network):
 * after every change of `deps` (the values and what the rules read), each field in `names` that `shows`
 * its rule is checked again with the form's `resolver`; a field that does not show its rule yet (e.g.
 * "required" before a first attempt) has no message. A refusal `placeRefusal` put at a field stays
 * until that field is edited (`editFields`), unless the field's own rule fails: then the rule's
 * message is the one shown.
 *
 * Only a message that changes is written to the form: `form.trigger` would re-render the whole form
 * once more after every keystroke even when every message stays the same.
 */
export const useRulesAtFields = <T extends FieldValues, TContext, TOutput>(
  form: UseFormReturn<T, TContext, TOutput>,
  resolver: Resolver<T, TContext, TOutput>,
  names: readonly Path<T>[],
  shows: (name: Path<T>) => boolean,
  deps: DependencyList,
): void => {
  const check = () => {
    const shown = names.filter(shows);
    for (const name of names) {
      const error = form.getFieldState(name).error;
      if (!shown.includes(name) && error && !isRefusal(error)) form.clearErrors(name);
    }
    if (shown.length === 0) return undefined;
    // The resolver answers later (a promise). By then a newer check may have started — the form reset
    // after a transfer, "required" no longer shown — and this answer, read from older values and an
    // older choice of what shows, must not overwrite it: only the latest check's answer is applied.
    let latest = true;
    void Promise.resolve(resolver(form.getValues(), undefined, { fields: {}, shouldUseNativeValidation: false })).then(
      ({ errors }) => {
        if (!latest) return;
        for (const name of shown) {
          const current = form.getFieldState(name).error;
          const rule = get(errors, name) as FieldError | undefined;
          if (rule) {
            const message = rule.message ?? '';
            if (current?.type !== rule.type || current?.message !== message)
              form.setError(name, { type: rule.type, message });
          }
          // The rule holds: its message goes; a refusal stays until its field is edited.
          else if (current && !isRefusal(current)) form.clearErrors(name);
        }
      },
    );
    return () => {
      latest = false;
    };
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: `deps` are what the rules read; `shows` reads them.
  useEffect(check, deps);
};

/**
 * The person edits fields (a form whose screen also keeps the values, see `useRulesAtFields`): each
 * takes its new value, and a refusal `placeRefusal` put there goes (its rules are checked again).
 */
export const editFields = <T extends FieldValues, TContext, TOutput>(
  form: UseFormReturn<T, TContext, TOutput>,
  patch: Partial<Record<Path<T>, PathValue<T, Path<T>>>>,
): void => {
  for (const [name, value] of Object.entries(patch) as [Path<T>, PathValue<T, Path<T>>][]) {
    if (isRefusal(form.getFieldState(name).error)) form.clearErrors(name);
    form.setValue(name, value, { shouldDirty: true });
  }
};
