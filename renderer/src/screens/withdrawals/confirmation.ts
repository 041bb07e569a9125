/**
 * One confirmation of a money movement (withdrawal, UID transfer, transfer) and its request key
 * (shared/contract/funding.ts `RequestKey`). The key is made when the person opens the review /
 * confirm step and is sent with every call of that step, so main turns a double click, a re-render
 * or a retry into the SAME movement. What is reviewed is frozen with the key: a changed form needs a
 * new review, hence a new key.
 */
import { useCallback, useRef, useState } from 'react';
import type { IpcError, IpcErrorCode } from '../../../../shared/ipc/result';

export interface Confirmation<T> {
  /** Exactly what the review step shows and what is sent. */
  readonly details: T;
  readonly requestKey: string;
}

export const newConfirmation = <T>(details: T): Confirmation<T> => ({ details, requestKey: crypto.randomUUID() });

/**
 * Errors after which nothing moved for certain (refused, not reachable before sending, bad input, a
 * precondition): a deliberate new click may be a new movement, so it gets a new key. Any other error
 * (an unknown outcome, an unexpected failure) keeps the key: a retry must join the first attempt.
 */
const NOTHING_MOVED: ReadonlySet<IpcErrorCode> = new Set([
  'PLATFORM',
  'NETWORK',
  'INVALID_INPUT',
  'PRECONDITION',
  'JOURNAL_UNAVAILABLE',
  'CONFIRMATION_DECLINED',
  'POLICY',
  'NOT_ALLOWED',
]);
/**
 * Whether nothing moved for certain: main says so in every error's `delivery` (`not_sent`; a
 * refusal by the platform, or the app's own before sending). `unknown` and `executed` keep the key.
 * The codes above answer only for an error that carries no delivery.
 */
export const nothingMoved = (error: Pick<IpcError, 'code' | 'delivery'> | undefined): boolean => {
  if (error === undefined) return false;
  // Nothing moved yet, but the movement waits in Approvals under this key: sending again with it
  // joins that one item; a new key would be a second intent (and a second approval) of one movement.
  if (error.code === 'AWAITING_APPROVAL') return false;
  if (error.delivery !== undefined) return error.delivery === 'not_sent';
  return NOTHING_MOVED.has(error.code);
};

/**
 * The confirmation step: `open(details)` freezes what is reviewed under a new key, `close()` drops
 * it, `renew()` gives the same details a new key (after a failure where nothing moved).
 */
export const useConfirmation = <T>() => {
  const [confirmation, setConfirmation] = useState<Confirmation<T> | undefined>();
  const open = useCallback((details: T) => setConfirmation(newConfirmation(details)), []);
  const close = useCallback(() => setConfirmation(undefined), []);
  const renew = useCallback(() => setConfirmation((c) => (c ? newConfirmation(c.details) : c)), []);
  return { confirmation, open, close, renew };
};

/**
 * Lets one call per request key be in flight. A double click fires twice before the button can
 * re-render as busy; main would join the second to the first anyway, this spares the call.
 * `run` receives a `done` callback to call when the call settles.
 */
export const useSingleFlight = () => {
  const inFlight = useRef<string | undefined>(undefined);
  return useCallback((requestKey: string, run: (done: () => void) => void) => {
    if (inFlight.current === requestKey) return;
    inFlight.current = requestKey;
    run(() => {
      if (inFlight.current === requestKey) inFlight.current = undefined;
    });
  }, []);
};
