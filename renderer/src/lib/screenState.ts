/**
 * One small zustand store per screen for what the person chose there (the open tab, the selected
 * sub-account, the record whose timeline is open): leaving a screen unmounts it, and without a store
 * those choices were lost on every navigation. Kept in memory for the window's life.
 */
import { create } from 'zustand';

export type ScreenStore<S extends object> = S & { patch(patch: Partial<S>): void };

export const screenStore = <S extends object>(initial: S) =>
  create<ScreenStore<S>>()((set) => ({ ...initial, patch: (patch) => set(patch as Partial<ScreenStore<S>>) }));
