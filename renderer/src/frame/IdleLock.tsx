import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useInFlight } from '../lib/inFlight';
import { restoreLockFromMain, useLock } from '../lib/lock';
import { usePrefs } from '../lib/prefs';
import { Button, ErrorNotice } from '../ui';

const ACTIVITY_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'focusin'] as const;
const CHECK_EVERY_MS = 5_000;

/** Time of the last input, and whether the idle deadline has passed, given the settings. */
export const shouldIdleLock = (input: {
  readonly now: number;
  readonly lastActivity: number;
  readonly minutes: number;
  readonly busy: boolean;
  readonly locked: boolean;
}): boolean =>
  // Never interrupt an operation in flight: the person must see how a money movement ended.
  input.minutes > 0 && !input.locked && !input.busy && input.now - input.lastActivity >= input.minutes * 60_000;

/** Locks the app after the configured inactivity; renders nothing. */
export const IdleLockWatcher = () => {
  const minutes = usePrefs((s) => s.idleLockMinutes);
  const lastActivity = useRef(Date.now());
  useEffect(() => {
    const touch = () => {
      lastActivity.current = Date.now();
    };
    for (const name of ACTIVITY_EVENTS) window.addEventListener(name, touch, { passive: true, capture: true });
    // An action the person started finishing counts as activity: its outcome stays visible for a
    // full period. Background refreshes do not (they would keep the app unlocked forever).
    const unsubscribe = useInFlight.subscribe((state, previous) => {
      if (state.lastActionSettledAt !== previous.lastActionSettledAt) touch();
    });
    const timer = setInterval(() => {
      const lock = useLock.getState();
      if (
        shouldIdleLock({
          now: Date.now(),
          lastActivity: lastActivity.current,
          minutes,
          busy: useInFlight.getState().pending.length > 0,
          locked: lock.locked,
        })
      ) {
        void lock.lock('idle');
      }
    }, CHECK_EVERY_MS);
    return () => {
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, touch, { capture: true });
      unsubscribe();
      clearInterval(timer);
    };
  }, [minutes]);
  return null;
};

/** Covers the app while locked; the rest of the frame is inert meanwhile. */
export const LockScreen = () => {
  const { locked, reason, securing, unlocking, error, unlock } = useLock();
  const minutes = usePrefs((s) => s.idleLockMinutes);
  const client = useQueryClient();
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    void restoreLockFromMain();
  }, []);
  useEffect(() => {
    if (locked) button.current?.focus();
  }, [locked]);
  if (!locked) return null;
  return (
    <div className="lock-screen" role="dialog" aria-modal="true" aria-labelledby="lock-title" data-testid="lock-screen">
      <div className="lock-card">
        <div className="lock-icon" aria-hidden="true">
          ⏻
        </div>
        <h2 id="lock-title">Treasury Desk is locked</h2>
        <p>
          {reason === 'idle'
            ? `Locked after ${minutes} minutes without activity.`
            : 'Locked on request. Nothing on screen is visible until you unlock.'}
        </p>
        <p className="muted" data-testid="lock-detail" role="status">
          {securing
            ? 'Letting an operation in flight finish before the keys are put away…'
            : 'The API keys are out of memory; unlocking reads them again from the keychain.'}
        </p>
        {error ? <ErrorNotice error={error} compact /> : null}
        <Button
          ref={button}
          variant="primary"
          busy={unlocking}
          onClick={async () => {
            // What failed with LOCKED meanwhile (background refreshes) is read again.
            if (await unlock()) await client.invalidateQueries();
          }}
          data-testid="unlock"
        >
          Unlock
        </Button>
      </div>
    </div>
  );
};
