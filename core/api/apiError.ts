/**
 * The one error the API client throws. It says whether the request may have reached the platform
 * (`delivery`), which is what decides if a money movement's outcome is known: a request refused
 * before it left, or answered with an error, did nothing; a timeout, a cut connection or a 5xx
 * leaves the outcome unknown and must be reconciled, never resent blindly.
 */
import type { Delivery as IpcDelivery, IpcError } from '../../shared/ipc/result';
import { helpForLabel } from './labels';

export type ApiErrorKind =
  /** The platform answered with an error label. */
  | 'platform'
  /** No connection could be made; the request certainly did not reach the platform. */
  | 'unreachable'
  /** The connection broke or timed out after the request may have been sent. */
  | 'interrupted'
  /** The platform answered 2xx but with a body the app cannot vouch for. */
  | 'invalid-response'
  /** The call was cancelled by the app (history sync cancel, shutdown). */
  | 'aborted'
  /**
   * The app's own rate limiter had no slot for it within the request's timeout (label
   * RATE_LIMIT_WAIT): it was never sent.
   */
  | 'held';

/** Whether the platform may have acted on the request. */
export type Delivery = 'not-executed' | 'unknown' | 'executed';

export interface ApiErrorInit {
  readonly kind: ApiErrorKind;
  readonly status: number;
  readonly label: string;
  readonly message: string;
  readonly requestId: string;
  readonly method: string;
  readonly path: string;
  readonly cause?: unknown;
}

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  /** HTTP status; 0 when there was no answer. */
  readonly status: number;
  /** The platform's label, or a client-side one: NETWORK_UNREACHABLE, NETWORK_INTERRUPTED, INVALID_RESPONSE, ABORTED. */
  readonly label: string;
  /** X-Client-Request-Id of the request. */
  readonly requestId: string;
  readonly method: string;
  readonly path: string;

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ApiError';
    this.kind = init.kind;
    this.status = init.status;
    this.label = init.label;
    this.requestId = init.requestId;
    this.method = init.method;
    this.path = init.path;
  }

  /**
   * A 5xx may have been committed before the failure; a 429 and every 4xx were refused before
   * anything happened (the platform checks limits, auth and input before acting).
   */
  get delivery(): Delivery {
    if (this.kind === 'unreachable' || this.kind === 'aborted' || this.kind === 'held') return 'not-executed';
    if (this.kind === 'interrupted') return 'unknown';
    if (this.kind === 'invalid-response') return 'executed';
    return this.status >= 500 ? 'unknown' : 'not-executed';
  }

  /**
   * What crosses IPC about delivery. A read moves nothing, whatever happened to it (`not_sent`);
   * for a write: refused or never connected → `not_sent`, no answer or a 5xx → `unknown`, an
   * answer the app cannot read → `executed`.
   */
  get ipcDelivery(): IpcDelivery {
    if (this.method === 'GET') return 'not_sent';
    return IPC_DELIVERY[this.delivery];
  }

  toIpcError(): IpcError {
    const delivery = this.ipcDelivery;
    if (this.label === 'NO_KEY') {
      return {
        code: 'PRECONDITION',
        message: 'This profile has no API key, so private operations are not possible.',
        requestId: this.requestId,
        advice: 'Add the key and secret in Settings → Profiles.',
        delivery,
      };
    }
    if (this.kind === 'held') {
      return {
        code: 'PRECONDITION',
        message: `Not sent: ${this.message}.`,
        label: this.label,
        requestId: this.requestId,
        advice: 'Nothing left the account. Wait a moment and send it again.',
        delivery,
      };
    }
    if (this.kind === 'platform') {
      const help = helpForLabel(this.label);
      return {
        code: 'PLATFORM',
        message: `${help.explanation} (${this.label}: ${this.message})`,
        label: this.label,
        requestId: this.requestId,
        advice: help.advice,
        delivery,
      };
    }
    if (this.kind === 'invalid-response') {
      // Not a refusal: the platform answered 2xx. For a write, it was done; only its answer is unreadable.
      return delivery === 'executed'
        ? {
            code: 'PLATFORM',
            message: `The platform accepted the request, but answered in a form the app does not understand (${this.method} ${this.path}). It was most likely carried out.`,
            label: this.label,
            requestId: this.requestId,
            advice: 'Check the result on the platform before doing it again. Update the app if it persists.',
            delivery,
          }
        : {
            code: 'PLATFORM',
            message: `The platform answered in a form the app does not understand (${this.method} ${this.path}).`,
            label: this.label,
            requestId: this.requestId,
            advice: 'Check that the profile points at the right address; update the app if it persists.',
            delivery,
          };
    }
    return {
      code: 'NETWORK',
      message:
        this.kind === 'unreachable'
          ? `The platform could not be reached: ${this.message}`
          : `The connection to the platform broke before it answered: ${this.message}`,
      label: this.label,
      requestId: this.requestId,
      advice: 'Check the network connection and the profile’s address, then try again.',
      delivery,
    };
  }
}

const IPC_DELIVERY: Record<Delivery, IpcDelivery> = {
  'not-executed': 'not_sent',
  unknown: 'unknown',
  executed: 'executed',
};

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;
