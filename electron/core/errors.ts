/**
 * The one error type handlers throw. The IPC dispatcher turns it into `{ok: false, error}`;
 * anything else thrown becomes an INTERNAL error whose details stay in main's log.
 */
import type { IpcError } from '../../shared/ipc/result';

export class DeskFailure extends Error {
  readonly detail: IpcError;

  constructor(detail: IpcError) {
    super(detail.message);
    this.name = 'DeskFailure';
    this.detail = detail;
  }

  static precondition(message: string, advice?: string): DeskFailure {
    return new DeskFailure({ code: 'PRECONDITION', message, ...(advice ? { advice } : {}) });
  }
}

/** Something that can describe itself as an IPC error (the API client's ApiError does). */
export interface ConvertibleToIpcError {
  toIpcError(): IpcError;
}

export const isConvertibleToIpcError = (value: unknown): value is ConvertibleToIpcError =>
  typeof value === 'object' &&
  value !== null &&
  'toIpcError' in value &&
  typeof (value as { toIpcError: unknown }).toIpcError === 'function';
