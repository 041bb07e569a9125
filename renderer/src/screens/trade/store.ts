/** UI state of the Trade screen (not platform data): the chosen pair and how the book is shown. */
import { create } from 'zustand';
import type { CandleInterval } from '../../../../shared/contract/trade';

/** A placement main could not confirm (OUTCOME_UNKNOWN), followed until the order is found or proven absent. */
export interface UnconfirmedOrder {
  /** The order's client id. */
  text: string;
  /** When the unknown outcome arrived (ms); every signing of the request happened before. */
  since: number;
  /** Looked for after the platform's signature window had passed and not found: it was never placed. */
  notFound: boolean;
}

interface TradeUiState {
  pair: string;
  depth: number;
  /** Book grouping step per pair (a multiple of the pair's tick). */
  steps: Record<string, string>;
  candleInterval: CandleInterval;
  /** A price picked in the book, with a counter so picking the same price twice still applies. */
  picked: { price: string; seq: number } | undefined;
  /**
   * Per pair. Kept here rather than in the ticket, so a pair switch or leaving the screen does not
   * unblock a ticket whose last order may still be on the platform.
   */
  unconfirmed: Record<string, UnconfirmedOrder>;
  setPair: (pair: string) => void;
  setDepth: (depth: number) => void;
  setStep: (pair: string, step: string) => void;
  setCandleInterval: (interval: CandleInterval) => void;
  pickPrice: (price: string) => void;
  setUnconfirmed: (pair: string, order: UnconfirmedOrder | undefined) => void;
}

export const useTradeUi = create<TradeUiState>((set) => ({
  pair: 'BTC_USDT',
  depth: 20,
  steps: {},
  candleInterval: '1m',
  picked: undefined,
  setPair: (pair) => set({ pair, picked: undefined }),
  setDepth: (depth) => set({ depth }),
  setStep: (pair, step) => set((s) => ({ steps: { ...s.steps, [pair]: step } })),
  setCandleInterval: (candleInterval) => set({ candleInterval }),
  pickPrice: (price) => set((s) => ({ picked: { price, seq: (s.picked?.seq ?? 0) + 1 } })),
  unconfirmed: {},
  setUnconfirmed: (pair, order) =>
    set((s) => {
      const { [pair]: _previous, ...others } = s.unconfirmed;
      return { unconfirmed: order ? { ...others, [pair]: order } : others };
    }),
}));
