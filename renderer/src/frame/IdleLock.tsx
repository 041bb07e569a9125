import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { passphraseProblem } from '../../../shared/contract/operators';
import { call, DeskCallError, isDeskCallError, useDeskEvent } from '../lib/desk';
import { isActing, useInFlight } from '../lib/inFlight';
import { restoreLockFromMain, useLock } from '../lib/lock';
import { usePrefs } from '../lib/prefs';
import { Button, ErrorNotice, Notice, TextField } from '../ui';
import { Lock } from '../ui/icons';
import './IdleLock.css';

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
          busy: isActing(),
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
  const { locked, reason, securing, unlocking, error, secretHidden, unlock, operator, setupNeeded } = useLock();
  const minutes = usePrefs((s) => s.idleLockMinutes);
  const client = useQueryClient();
  const dialog = useRef<HTMLDialogElement>(null);

  const [passphrase, setPassphrase] = useState('');
  const [name, setName] = useState('');
  const [switching, setSwitching] = useState(false);
  useEffect(() => {
    void restoreLockFromMain();
  }, []);
  // A restarted core starts signed out: ask main again whenever the window is told something happened.
  useDeskEvent('app.notice', () => void restoreLockFromMain());
  useEffect(() => {
    if (!locked) return;
    if (dialog.current?.open === false) dialog.current.showModal();
    dialog.current?.querySelector<HTMLInputElement>('input')?.focus();
  }, [locked]);
  if (setupNeeded) return <CreateAdministrator />;
  if (!locked) return null;
  const askName = operator === null || switching;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // What failed with LOCKED meanwhile (background refreshes) is read again.
    if (await unlock(passphrase, askName ? name.trim() : undefined)) {
      setPassphrase('');
      setSwitching(false);
      await client.invalidateQueries();
    } else setPassphrase('');
  };
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
          <Lock aria-hidden="true" focusable="false" size={40} strokeWidth={1.5} />
        </div>
        <h2 id="lock-title">Treasury Desk is locked</h2>
        <p>
          {reason === 'idle'
            ? `Locked after ${minutes} minutes without activity.`
            : 'Locked on request. Nothing on screen is visible until you unlock.'}
        </p>
        {secretHidden ? (
          <Notice tone="warn" data-testid="lock-secret-hidden">
            A new key’s secret was on screen and has been hidden; it cannot be shown again. If it was not copied, delete
            that key and create a new one.
          </Notice>
        ) : null}
        <p className="muted" data-testid="lock-detail" role="status">
          {securing
            ? 'Letting an operation in flight finish before the keys are put away…'
            : 'The API keys are out of memory; unlocking reads them again from the keychain.'}
        </p>
        {error ? <ErrorNotice error={error} compact /> : null}
        <form onSubmit={submit} className="lock-form" data-testid="unlock-form">
          {askName ? (
            <TextField
              label="Operator name"
              value={name}
              onChange={setName}
              autoComplete="username"
              data-testid="unlock-name"
            />
          ) : (
            <p data-testid="lock-operator">
              Signed in as <strong>{operator}</strong>
            </p>
          )}
          <TextField
            label="Passphrase"
            type="password"
            value={passphrase}
            onChange={setPassphrase}
            autoComplete="current-password"
            data-testid="unlock-passphrase"
          />
          <Button type="submit" variant="primary" busy={unlocking} disabled={passphrase === ''} data-testid="unlock">
            Unlock
          </Button>
          {operator !== null ? (
            <Button
              type="button"
              variant="ghost"
              onClick={() => setSwitching(!switching)}
              data-testid="switch-operator"
            >
              {switching ? `Unlock as ${operator}` : 'Another operator'}
            </Button>
          ) : null}
        </form>
      </div>
    </dialog>
  );
};

/**
 * The first start: before anything else, the person creates the administrator (name, passphrase
 * twice, the same strength rule main applies). Main answers `operators.setup` only while the desk
 * has no operator at all.
 */
const CreateAdministrator = () => {
  const client = useQueryClient();
  const dialog = useRef<HTMLDialogElement>(null);
  const [name, setName] = useState('');
  const [passphrase, setPassphrase] = useState('');
  const [repeat, setRepeat] = useState('');
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<DeskCallError | null>(null);
  useEffect(() => {
    if (dialog.current?.open === false) dialog.current.showModal();
    dialog.current?.querySelector<HTMLInputElement>('input')?.focus();
  }, []);
  const nameProblem = name.trim().length < 2 ? 'Enter a name of at least 2 characters' : undefined;
  const strength = passphrase === '' ? 'Enter a passphrase' : passphraseProblem(passphrase, name);
  const mismatch = repeat !== passphrase ? 'The two passphrases differ' : undefined;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (nameProblem || strength || mismatch) return;
    setBusy(true);
    setError(null);
    try {
      const session = await call('operators.setup', { name: name.trim(), passphrase }, { action: true });
      useLock.setState({
        setupNeeded: false,
        locked: session.lock.state !== 'unlocked',
        reason: null,
        operator: session.operator?.name ?? null,
      });
      await client.invalidateQueries();
    } catch (failure) {
      setError(
        isDeskCallError(failure)
          ? failure
          : new DeskCallError('operators.setup', {
              code: 'INTERNAL',
              message: 'The app stopped answering inside: restart it if this stays.',
            }),
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <dialog
      ref={dialog}
      className="lock-screen"
      aria-labelledby="setup-title"
      data-testid="create-administrator"
      onCancel={(event) => event.preventDefault()}
    >
      <form className="lock-card setup-card" onSubmit={submit}>
        <h2 id="setup-title">Create the administrator</h2>
        <p>
          This desk has no operator yet. The administrator adds the other operators (viewers, makers, approvers) and
          manages profiles, API keys and policies. The passphrase unlocks the app; the app never stores it, only what it
          needs to recognise it.
        </p>
        <TextField
          label="Your name"
          value={name}
          onChange={setName}
          autoComplete="username"
          error={tried ? nameProblem : undefined}
          data-testid="setup-name"
        />
        <TextField
          label="Passphrase"
          type="password"
          value={passphrase}
          onChange={setPassphrase}
          autoComplete="new-password"
          // One message at a time: the hint until there is a problem to say instead.
          {...(tried || passphrase.length >= 12
            ? { error: strength }
            : { hint: 'At least 12 characters; a few unrelated words work well.' })}
          data-testid="setup-passphrase"
        />
        <TextField
          label="Passphrase again"
          type="password"
          value={repeat}
          onChange={setRepeat}
          autoComplete="new-password"
          error={tried || (repeat !== '' && repeat.length >= passphrase.length) ? mismatch : undefined}
          data-testid="setup-repeat"
        />
        {error ? <ErrorNotice error={error} compact /> : null}
        <Button type="submit" variant="primary" busy={busy} data-testid="setup-create">
          Create the administrator
        </Button>
      </form>
    </dialog>
  );
};
