/**
 * Counts operations that are waiting for main. The idle lock never fires while one is in flight:
 * locking in the middle of a withdrawal would leave the person unsure whether it went through.
 */
import { create } from 'zustand';

interface InFlightState {
  /** Operation names currently awaiting an answer (one entry per call). */
  readonly pending: readonly string[];
  /**
   * When the last action the person started (a mutation, not a background refresh) finished.
   * The idle lock counts it as activity, so the outcome stays visible for a full period.
   */
  readonly lastActionSettledAt: number;
}

export const useInFlight = create<InFlightState>(() => ({ pending: [], lastActionSettledAt: 0 }));

export const trackInFlight = async <T>(
  operation: string,
  run: () => Promise<T>,
  options: { readonly action?: boolean } = {},
): Promise<T> => {
  useInFlight.setState((s) => ({ pending: [...s.pending, operation] }));
  try {
    return await run();
  } finally {
    useInFlight.setState((s) => {
      const index = s.pending.indexOf(operation);
      return {
        pending: index < 0 ? s.pending : [...s.pending.slice(0, index), ...s.pending.slice(index + 1)],
        ...(options.action ? { lastActionSettledAt: Date.now() } : {}),
      };
    });
  }
};

export const isBusy = (): boolean => useInFlight.getState().pending.length > 0;
