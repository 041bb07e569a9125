/**
 * Errors of the sandbox's API. A handler (any module, including sandbox/spot) signals a failure with
 *
 *     throw new ApiFailure('BALANCE_NOT_ENOUGH', 'Not enough balance');
 *
 * and the framework answers `{label, message}` with the status from LABEL_STATUS below — the ONE
 * label→status table (documented in docs/sandbox.md). Labels not listed answer 400.
 */
import type { ErrorLabel } from '../../shared/platform/labels';

/**
 * HTTP status per label, where it is not 400. Sources: spec "General request and response rules"
 * (401 authentication, 404 not found, 429 too many requests) and api-facts §4.1 (ORDER_NOT_FOUND 404,
 * BALANCE_NOT_ENOUGH 400, INVALID_SIGNATURE 401). Choices where both are silent are in docs/sandbox.md.
 */
export const LABEL_STATUS: Readonly<Partial<Record<ErrorLabel, number>>> = {
  // Authentication failures: 401, except FORBIDDEN (a valid key without the right) which is 403.
  INVALID_CREDENTIALS: 401,
  INVALID_KEY: 401,
  IP_FORBIDDEN: 401,
  READ_ONLY: 401,
  INVALID_SIGNATURE: 401,
  MISSING_REQUIRED_HEADER: 401,
  REQUEST_EXPIRED: 401,
  ACCOUNT_LOCKED: 401,
  FORBIDDEN: 403,
  // Not found.
  NOT_FOUND: 404,
  ORDER_NOT_FOUND: 404,
  SUB_ACCOUNT_NOT_FOUND: 404,
  LOAN_NOT_FOUND: 404,
  LOAN_RECORD_NOT_FOUND: 404,
  ORDER_NOT_EXIST: 404,
  POSITION_NOT_FOUND: 404,
  CONTRACT_NOT_FOUND: 404,
  // Protocol.
  METHOD_NOT_ALLOWED: 405,
  NOT_ACCEPTABLE: 406,
  TOO_MANY_REQUESTS: 429,
  // Server side (only ever produced by fault injection or a bug).
  INTERNAL: 500,
  SERVER_ERROR: 500,
  TOO_BUSY: 503,
};

export function statusForLabel(label: string): number {
  return (LABEL_STATUS as Record<string, number | undefined>)[label] ?? 400;
}

/** A failure the client caused (or a deliberate fault); never logged as a server error. */
export class ApiFailure extends Error {
  readonly label: string;
  readonly status: number;
  constructor(label: ErrorLabel | (string & {}), message: string) {
    // A client error needs no stack trace, and capturing one is most of an error answer's cost.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.name = 'ApiFailure';
    this.label = label;
    this.status = statusForLabel(label);
  }
  toBody(): { label: string; message: string } {
    return { label: this.label, message: this.message };
  }
}

export const fail = (label: ErrorLabel | (string & {}), message: string): never => {
  throw new ApiFailure(label, message);
};
