/**
 * Counts operations that are waiting for main. The idle lock never fires while one is in flight:
 * locking in the middle of a withdrawal would leave the person unsure whether it went through.
 */
import { create } from 'zustand';

interface InFlightState {
  /** Operation names currently awaiting an answer (one entry per call). */
  readonly pending: readonly string[];
}

export const useInFlight = create<InFlightState>(() => ({ pending: [] }));

export const trackInFlight = async <T>(operation: string, run: () => Promise<T>): Promise<T> => {
  useInFlight.setState((s) => ({ pending: [...s.pending, operation] }));
  try {
    return await run();
  } finally {
    useInFlight.setState((s) => {
      const index = s.pending.indexOf(operation);
      return { pending: index < 0 ? s.pending : [...s.pending.slice(0, index), ...s.pending.slice(index + 1)] };
    });
  }
};

export const isBusy = (): boolean => useInFlight.getState().pending.length > 0;
