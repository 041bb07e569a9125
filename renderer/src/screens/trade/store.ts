/** UI state of the Trade screen (not platform data): the chosen pair and how the book is shown. */
import { create } from 'zustand';
import type { CandleInterval } from '../../../../shared/contract/trade';

interface TradeUiState {
  pair: string;
  depth: number;
  /** Book grouping step per pair (a multiple of the pair's tick). */
  steps: Record<string, string>;
  candleInterval: CandleInterval;
  /** A price picked in the book, with a counter so picking the same price twice still applies. */
  picked: { price: string; seq: number } | undefined;
  setPair: (pair: string) => void;
  setDepth: (depth: number) => void;
  setStep: (pair: string, step: string) => void;
  setCandleInterval: (interval: CandleInterval) => void;
  pickPrice: (price: string) => void;
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
}));
