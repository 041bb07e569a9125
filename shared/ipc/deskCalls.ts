/**
 * The window's calls into the core, over the channel (./channel.ts), whichever shell carries them:
 * how long a call waits by default, what it ends with when the core is gone or silent, and the
 * call options a page may pass (checked, since they come from the page).
 */
import type { DeskCallOptions } from './define';
import type { IpcError } from './result';

/**
 * How long the window waits for a call by default: longer than anything a call legitimately waits
 * for (the person at the trusted confirmation, up to 5 minutes, then the request itself), so only a
 * handler that hangs meets it.
 */
export const DESK_CALL_TIMEOUT_MS = 10 * 60_000;

/** The longest a page may ask to wait. */
const MAX_TIMEOUT_MS = 60 * 60_000;

/** A call the core was running when its process stopped: it may have gone through. */
export const CORE_STOPPED: IpcError = {
  code: 'OUTCOME_UNKNOWN',
  message:
    'The app’s core stopped while this was running. It has been restarted and checks with the platform whether it went through; nothing is sent again.',
  advice: 'See Activity for the outcome.',
};

/** No core to ask: it could not start, or stopped for good. */
export const CORE_NOT_RUNNING: IpcError = {
  code: 'INTERNAL',
  message: 'The app’s core is not running. Close and reopen Treasury Desk.',
};

/** A call the core did not answer in time: it may still be running it (a movement is never resent). */
export const coreDidNotAnswer = (operation: string, ms: number): IpcError => ({
  code: 'OUTCOME_UNKNOWN',
  message: `The app’s core did not answer “${operation}” within ${Math.round(ms / 1000)} s. If it moves money, it is checked with the platform; nothing is sent again.`,
  advice: 'See Activity for the outcome, or try again.',
});

/** The options a page passed with a call, kept only where they are what they claim to be. */
export const readCallOptions = (raw: unknown): DeskCallOptions => {
  if (typeof raw !== 'object' || raw === null) return {};
  const { callId, timeoutMs } = raw as Record<string, unknown>;
  return {
    ...(typeof callId === 'string' && callId.length > 0 && callId.length <= 100 ? { callId } : {}),
    ...(typeof timeoutMs === 'number' && Number.isFinite(timeoutMs) && timeoutMs > 0
      ? { timeoutMs: Math.min(timeoutMs, MAX_TIMEOUT_MS) }
      : {}),
  };
};
