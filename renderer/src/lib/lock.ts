/** Whether the app is locked (idle lock or the Lock button). */
import { create } from 'zustand';

interface LockState {
  readonly locked: boolean;
  /** Why it locked, shown on the lock screen. */
  readonly reason: 'idle' | 'manual' | null;
  lock(reason: 'idle' | 'manual'): void;
  unlock(): void;
}

export const useLock = create<LockState>((set) => ({
  locked: false,
  reason: null,
  lock: (reason) => set({ locked: true, reason }),
  unlock: () => set({ locked: false, reason: null }),
}));
