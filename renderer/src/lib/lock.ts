/**
 * Whether the app is locked (idle lock or the Lock button). The lock is main's: locking asks main
 * (`app.lock`) to let money movements in flight settle and then forget the signing secrets, and
 * main refuses everything but `app.*` until `app.unlock` has read the key again from the keychain.
 * The screen is covered at once; `securing` says main is still waiting for a movement to finish.
 */
import { create } from 'zustand';
import { call, DeskCallError, isDeskCallError } from './desk';

export type LockReason = 'idle' | 'manual' | 'signedOut';

interface LockState {
  readonly locked: boolean;
  /** Why it locked, shown on the lock screen. */
  readonly reason: LockReason | null;
  /** Main is letting an operation in flight finish before it forgets the keys. */
  readonly securing: boolean;
  readonly unlocking: boolean;
  /** Why the last lock or unlock failed (e.g. the keychain refused), shown on the lock screen. */
  readonly error: DeskCallError | null;
  /** Locking hid a one-time secret (it cannot be shown again); the lock screen says so. */
  readonly secretHidden: boolean;
  /** The operator whose passphrase unlocks (null: nobody is signed in, the lock screen asks the name). */
  readonly operator: string | null;
  /** No operator exists yet: the lock screen is "Create the administrator". */
  readonly setupNeeded: boolean;
  lock(reason: Exclude<LockReason, 'signedOut'>): Promise<void>;
  /**
   * Resolves true once main has checked the passphrase and unlocked (the caller refreshes what
   * failed meanwhile). `operator`: another operator's name (switching operator), or the name when
   * nobody is signed in.
   */
  unlock(passphrase: string, operator?: string): Promise<boolean>;
  /** Signs out: main locks and forgets who was signed in. */
  signOut(): Promise<void>;
  /** Called by the one-time secret dialog when locking closed it. */
  noteSecretHidden(): void;
}

const asDeskError = (error: unknown): DeskCallError =>
  isDeskCallError(error)
    ? error
    : new DeskCallError('app.lock', {
        code: 'INTERNAL',
        message: 'The app stopped answering inside: restart it if this stays.',
      });

export const useLock = create<LockState>((set, get) => ({
  locked: false,
  reason: null,
  securing: false,
  unlocking: false,
  error: null,
  secretHidden: false,
  operator: null,
  setupNeeded: false,
  lock: async (reason) => {
    if (get().locked) return;
    set({ locked: true, reason, securing: true, error: null, secretHidden: false });
    try {
      await call('app.lock', { reason });
      set({ securing: false });
    } catch (error) {
      // The screen stays covered regardless; say that main could not confirm it.
      set({ securing: false, error: asDeskError(error) });
    }
  },
  unlock: async (passphrase, operator) => {
    if (get().unlocking) return false;
    set({ unlocking: true, error: null });
    try {
      const state = await call('app.unlock', { passphrase, ...(operator ? { operator } : {}) }, { action: true });
      set({
        locked: false,
        reason: null,
        securing: false,
        unlocking: false,
        secretHidden: false,
        operator: state.operator ?? null,
        setupNeeded: false,
      });
      return true;
    } catch (error) {
      set({ unlocking: false, error: asDeskError(error) });
      return false;
    }
  },
  signOut: async () => {
    set({ locked: true, reason: 'signedOut', securing: true, error: null, secretHidden: false });
    try {
      await call('operators.signOut', {});
      set({ securing: false, operator: null });
    } catch (error) {
      set({ securing: false, error: asDeskError(error) });
    }
  },
  noteSecretHidden: () => set({ secretHidden: true }),
}));

/** After a reload of the window: main may still be locked, so the screen must be too. */
export const restoreLockFromMain = async (): Promise<void> => {
  try {
    // Who is signed in and whether the desk has an administrator yet; a main without operators
    // (an older core) answers the lock state alone.
    const session = await call('operators.current', {}).catch(() => undefined);
    const state = session?.lock ?? (await call('app.lockState', {}));
    if (session) useLock.setState({ operator: session.operator?.name ?? null, setupNeeded: session.setupNeeded });
    if (state.state === 'unlocked' || useLock.getState().locked) return;
    const reason = state.reason ?? 'manual';
    useLock.setState({ locked: true, reason, securing: state.state === 'locking', error: null });
    if (state.state === 'locking') {
      await call('app.lock', { reason: reason === 'signedOut' ? 'manual' : reason });
      useLock.setState({ securing: false });
    }
  } catch {
    // Without an answer there is nothing to restore; every other call would say LOCKED anyway.
  }
};
