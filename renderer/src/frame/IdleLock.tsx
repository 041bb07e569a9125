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

/**
 * Covers the app while locked. It is a modal <dialog> of its own, shown after every other dialog
 * has been closed or hidden (see Dialog), so it sits on top of the top layer and everything else,
 * dialogs included, is inert. The rest of the frame is inert meanwhile too.
 */
export const LockScreen = () => {
  const { locked, reason, securing, unlocking, error, secretHidden, unlock } = useLock();
  const minutes = usePrefs((s) => s.idleLockMinutes);
  const client = useQueryClient();
  const dialog = useRef<HTMLDialogElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    void restoreLockFromMain();
  }, []);
  useEffect(() => {
    if (!locked) return;
    if (dialog.current?.open === false) dialog.current.showModal();
    button.current?.focus();
  }, [locked]);
  if (!locked) return null;
  return (
    <dialog
      ref={dialog}
      className="lock-screen"
      aria-labelledby="lock-title"
      data-testid="lock-screen"
      onCancel={(event) => event.preventDefault()}
      onClose={(event) => {
        // Chrome closes a modal on repeated Escape without asking (close watchers): only Unlock ends the lock.
        if (useLock.getState().locked) event.currentTarget.showModal();
      }}
    >
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
        {secretHidden ? (
          <p className="notice notice-warn" data-testid="lock-secret-hidden">
            A new key’s secret was on screen and has been hidden; it cannot be shown again. If it was not copied, delete
            that key and create a new one.
          </p>
        ) : null}
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
    </dialog>
  );
};
