/**
 * What every IPC operation returns. Errors travel as data because Electron keeps only
 * `message` of an error thrown across `ipcMain.handle`.
 */
import { z } from 'zod';

/** Where an error came from, so screens can say what to do about it. */
export const IpcErrorCode = z.enum([
  /** The operation name is not in the contract. */
  'UNKNOWN_OPERATION',
  /** The payload did not match the operation's input schema. */
  'INVALID_INPUT',
  /** The caller is not our renderer (wrong origin or not the main frame). */
  'FORBIDDEN_SENDER',
  /** The platform answered with an error label (see `label`). */
  'PLATFORM',
  /** The platform could not be reached or did not answer in time. */
  'NETWORK',
  /** The outcome of a money movement is not known yet; it is being reconciled, never resent blindly. */
  'OUTCOME_UNKNOWN',
  /**
   * The app cannot write its journal (disk full, read-only, a write error): no new money movement is
   * accepted until it can, because none may leave without being recorded first. Nothing was sent.
   */
  'JOURNAL_UNAVAILABLE',
  /** The OS keychain is unavailable or refused access. */
  'KEYCHAIN',
  /** The app is locked (idle lock); unlock first. */
  'LOCKED',
  /** A precondition in the app failed (no profile, no key, …); `message` says which. */
  'PRECONDITION',
  /**
   * The trusted confirmation (a window main owns) was cancelled, closed, timed out, or its typed
   * amount did not match: nothing was sent.
   */
  'CONFIRMATION_DECLINED',
  /** The profile's policy refuses this (a limit, the allowlist, the time window): nothing was sent. */
  'POLICY',
  /** The policy needs another operator's approval: it waits in the Approvals queue, nothing was sent yet. */
  'AWAITING_APPROVAL',
  /** The current operator's role does not allow this (e.g. only an admin changes policies). */
  'NOT_ALLOWED',
  /** A bug: the handler threw something unexpected. */
  'INTERNAL',
]);
export type IpcErrorCode = z.infer<typeof IpcErrorCode>;

export const IpcError = z.object({
  code: IpcErrorCode,
  message: z.string(),
  /** The platform's error label (INVALID_SIGNATURE, BALANCE_NOT_ENOUGH, …) when code is PLATFORM. */
  label: z.string().optional(),
  /** X-Client-Request-Id of the request that failed, for support and the audit log. */
  requestId: z.string().optional(),
  /** Plain-language advice for the person at the screen. */
  advice: z.string().optional(),
  /** Per-field problems for INVALID_INPUT (path joined with dots → message). */
  fields: z.record(z.string(), z.string()).optional(),
  /**
   * AWAITING_APPROVAL: the queued request in the Approvals queue — its id, when it expires (ms) and
   * why it needs approval — so the screen says it in one sentence with a formatted expiry.
   */
  approval: z.object({ id: z.string(), expiresAt: z.number(), reasons: z.array(z.string()) }).optional(),
  /**
   * Whether the operation's request can have done anything (what screens decide on, never the
   * code): `not_sent` — certainly nothing moved (refused before sending, or by the platform before
   * acting); `unknown` — it may have executed and is being checked, do not repeat it; `executed` —
   * the platform did it, only its answer could not be read. Absent when the error says nothing
   * about it (a code this list does not know).
   */
  delivery: z.enum(['not_sent', 'unknown', 'executed']).optional(),
});
export type IpcError = z.infer<typeof IpcError>;
export type Delivery = NonNullable<IpcError['delivery']>;

/**
 * What an error code says about delivery when the error does not say it itself: the app's own
 * refusals happen before anything is sent; an unknown outcome or a bug may have sent it. PLATFORM
 * and NETWORK say it only with the request's own `delivery` (set from the API error).
 */
const DELIVERY_OF_CODE: Partial<Record<IpcErrorCode, Delivery>> = {
  UNKNOWN_OPERATION: 'not_sent',
  INVALID_INPUT: 'not_sent',
  FORBIDDEN_SENDER: 'not_sent',
  JOURNAL_UNAVAILABLE: 'not_sent',
  KEYCHAIN: 'not_sent',
  LOCKED: 'not_sent',
  PRECONDITION: 'not_sent',
  CONFIRMATION_DECLINED: 'not_sent',
  POLICY: 'not_sent',
  AWAITING_APPROVAL: 'not_sent',
  NOT_ALLOWED: 'not_sent',
  OUTCOME_UNKNOWN: 'unknown',
  INTERNAL: 'unknown',
};

/** The error with its `delivery`, from the code where the error does not carry one. */
export const withDelivery = (error: IpcError): IpcError => {
  if (error.delivery !== undefined) return error;
  const delivery = DELIVERY_OF_CODE[error.code];
  return delivery === undefined ? error : { ...error, delivery };
};

export type Result<T> = { ok: true; value: T } | { ok: false; error: IpcError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
/** Every IPC error leaves with its `delivery` (see withDelivery). */
export const fail = (error: IpcError): Result<never> => ({ ok: false, error: withDelivery(error) });
