/**
 * The one error type handlers throw. The IPC dispatcher turns it into `{ok: false, error}`;
 * anything else thrown becomes an INTERNAL error whose details stay in main's log.
 */
import { type IpcError, withDelivery } from '../../shared/ipc/result';

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
