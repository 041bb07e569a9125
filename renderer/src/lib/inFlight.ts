/**
 * Counts operations that are waiting for main. The idle lock never fires while an action the
 * person started is in flight: locking in the middle of a withdrawal would leave the person unsure
 * whether it went through. Background reads do not hold the lock back (a refresh is nearly always
 * in flight somewhere, and the lock must lock on time).
 */
import { create } from 'zustand';

interface InFlightState {
  /** Operation names currently awaiting an answer (one entry per call). */
  readonly pending: readonly string[];
  /** How many of them are actions the person started (mutations), not background reads. */
  readonly actionsPending: number;
  /**
   * When the last action the person started (a mutation, not a background refresh) finished.
   * The idle lock counts it as activity, so the outcome stays visible for a full period.
   */
  readonly lastActionSettledAt: number;
}

export const useInFlight = create<InFlightState>(() => ({ pending: [], actionsPending: 0, lastActionSettledAt: 0 }));

export const trackInFlight = async <T>(
  operation: string,
  run: () => Promise<T>,
  options: { readonly action?: boolean } = {},
): Promise<T> => {
  const action = options.action === true;
  useInFlight.setState((s) => ({
    pending: [...s.pending, operation],
    actionsPending: s.actionsPending + (action ? 1 : 0),
  }));
  try {
    return await run();
  } finally {
    useInFlight.setState((s) => {
      const index = s.pending.indexOf(operation);
      return {
        pending: index < 0 ? s.pending : [...s.pending.slice(0, index), ...s.pending.slice(index + 1)],
        ...(action ? { actionsPending: s.actionsPending - 1, lastActionSettledAt: Date.now() } : {}),
      };
    });
  }
};

/** Whether an action the person started is still waiting for main (the idle lock waits for it). */
export const isActing = (): boolean => useInFlight.getState().actionsPending > 0;
