/**
 * The one error type handlers throw. The IPC dispatcher turns it into `{ok: false, error}`;
 * anything else thrown becomes an INTERNAL error whose details stay in main's log.
 */
import { type TextKind, textProblems } from '../shared/contract/text';
import { type IpcError, withDelivery } from '../shared/ipc/result';

export class DeskFailure extends Error {
  readonly detail: IpcError;

  /** `detail.delivery` defaults from the code (shared/ipc/result.ts withDelivery). */
  constructor(detail: IpcError) {
    super(detail.message);
    this.name = 'DeskFailure';
    this.detail = withDelivery(detail);
  }

  static precondition(message: string, advice?: string): DeskFailure {
    return new DeskFailure({ code: 'PRECONDITION', message, ...(advice ? { advice } : {}) });
  }
}

/** Something that can describe itself as an IPC error, with its `delivery` (the API client's ApiError does). */
export interface ConvertibleToIpcError {
  toIpcError(): IpcError;
}

export const isConvertibleToIpcError = (value: unknown): value is ConvertibleToIpcError =>
  typeof value === 'object' &&
  value !== null &&
  'toIpcError' in value &&
  typeof (value as { toIpcError: unknown }).toIpcError === 'function';

/**
 * Main's own check of the text it is about to act on (shared/contract/text.ts): the contract's
 * schemas refuse the same, but a caller that skips them — the batch runner calling a domain command
 * directly, a future caller — must meet the rule too. Throws INVALID_INPUT naming each field; call
 * it before anything is asked or done.
 */
export const assertSafeText = (
  fields: Readonly<Record<string, readonly [value: string | undefined, kind: TextKind]>>,
): void => {
  const problems = textProblems(fields);
  const [first] = Object.values(problems);
  if (first !== undefined) {
    throw new DeskFailure({ code: 'INVALID_INPUT', message: `${first} Nothing was done.`, fields: problems });
  }
};
