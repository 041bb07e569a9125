/**
 * The team layer's failures, each a DeskFailure so the dispatcher answers them as data. Nothing here
 * ever carries a password or a key.
 */
import { DeskFailure } from '../errors';

/**
 * The team database cannot be reached or did not answer in time. Code JOURNAL_UNAVAILABLE: the team
 * database is the shared journal, and like the local one, nothing moves without it (delivery
 * `not_sent` for what was refused; a write that failed this way may still have been applied, so the
 * caller reads it back once the database returns — every team write is idempotent).
 */
export class TeamUnavailable extends DeskFailure {
  constructor(readonly reason: string) {
    super({
      code: 'JOURNAL_UNAVAILABLE',
      message: `The team database is unavailable (${reason}). Nothing was sent: new movements, approvals and control changes wait until it is back.`,
      advice: 'Check the network and the database server; the desk reconnects by itself.',
    });
    this.name = 'TeamUnavailable';
  }
}

/** The team database answered, but refused this desk (password, database name, permissions, TLS). */
export const teamRefused = (message: string, advice: string): DeskFailure =>
  new DeskFailure({ code: 'PRECONDITION', message, advice });

/**
 * This desk's claim on a movement is no longer valid (its lease ran out and another desk may hold it):
 * it must not send. Nothing was sent.
 */
export class LeaseLost extends DeskFailure {
  constructor(readonly movementId: string) {
    super({
      code: 'PRECONDITION',
      message: 'This desk no longer holds the movement (its lease ran out): it was not sent from here.',
      advice: 'Another desk finishes it; nothing needs to be done.',
    });
    this.name = 'LeaseLost';
  }
}

/** SQLSTATE classes and Node error codes that mean "the database is not there", not "it said no". */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  // admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections, query_canceled (timeout)
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '57014',
]);
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|Connection ended|not queryable/i;

/** Whether an error from the PostgreSQL client means the database is unavailable (as opposed to a refusal). */
export const isUnavailable = (error: unknown): boolean => {
  if (error instanceof TeamUnavailable) return true;
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
  return UNAVAILABLE_MESSAGES.test(error.message);
};

/** A short, secret-free reason for a failure (for the error and the health state). */
export const reasonOf = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && !error.message.includes(code) ? `${error.message} (${code})` : error.message;
};
