import { type KeyboardEvent, type ReactNode, useId, useLayoutEffect, useRef } from 'react';
import { useLock } from '../lib/lock';
import { Button } from './Button';
import { ErrorNotice } from './ErrorNotice';
import { X } from './icons';
import './Dialog.css';

/** Why a dialog asks to be closed: the person dismissed it, or the app locked. */
export type DialogCloseCause = 'dismissed' | 'locked';

export interface DialogProps {
  readonly open: boolean;
  readonly title: string;
  /**
   * Called on Escape, the close button or Cancel ('dismissed'), and when the app locks ('locked').
   * Not called while `busy`.
   */
  readonly onClose: (cause: DialogCloseCause) => void;
  readonly children: ReactNode;
  readonly footer?: ReactNode;
  /** While true the dialog cannot be dismissed: the person must see how the operation ended. */
  readonly busy?: boolean;
  /** While false, Escape and the close button do nothing (e.g. until a one-time secret is copied). */
  readonly dismissible?: boolean;
  readonly size?: 'sm' | 'md' | 'lg';
  readonly testId?: string;
  /**
   * What Enter does when the focus is not on a button, link, list or multi-line field (those keep
   * their own Enter): the dialog's primary action where that is safe, or nothing when absent. A
   * form inside a dialog is never submitted by Enter otherwise (an API key is never created with
   * defaults by a stray Enter). Ignored while busy and for a held-down key (auto-repeat).
   */
  readonly onEnter?: () => void;
}

/** Elements whose own Enter behaviour is kept: a focused button activates itself, a textarea takes a line. */
const OWN_ENTER = 'button, a[href], textarea, select, summary, [role="button"], [role="link"], [role="option"]';

/**
 * A modal on the native <dialog>: the browser traps focus, makes the rest inert and restores
 * focus to the opener when it closes.
 *
 * Locking closes every dialog (the lock screen must be the only thing on screen, and whatever was
 * typed or shown is dropped): `onClose('locked')`. The one exception is a `busy` dialog — its
 * operation is still running and the person must see how it ended — which is hidden while locked
 * and shown again after unlocking. No dialog opens while the app is locked.
 */
export const Dialog = ({
  open,
  title,
  onClose,
  children,
  footer,
  busy = false,
  dismissible = true,
  size = 'md',
  testId,
  onEnter,
}: DialogProps) => {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const locked = useLock((s) => s.locked);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  /** Set when locking hid this dialog while busy: it comes back after unlocking. */
  const keptThroughLock = useRef(false);
  const canDismiss = !busy && dismissible;

  // Focus goes back to what opened the dialog when it closes (it is unmounted, so the browser's own
  // restoring has nothing to restore from and would leave the focus on <body>). Read before the
  // opening below moves the focus into the dialog (layout effects run in order, in the same commit).
  useLayoutEffect(() => {
    if (!open) return undefined;
    const active = document.activeElement;
    const opener = active instanceof HTMLElement && active !== document.body ? active : null;
    return () => {
      if (opener?.isConnected && !useLock.getState().locked) opener.focus();
    };
  }, [open]);

  // A layout effect, not a passive one: the dialog is modal in the same commit that puts its content
  // on the page. A passive effect runs later when the opening was not a click (an answer, a form's
  // asynchronous validation), and until then the content sits in a closed <dialog>: hidden from the
  // accessibility tree (a review's confirm button not found), the page behind still clickable.
  useLayoutEffect(() => {
    const dialog = ref.current;
    // Closed means unmounted (see the render below); a later opening starts afresh.
    if (!open || dialog === null) {
      keptThroughLock.current = false;
      return;
    }
    if (locked) {
      if (dialog.open) dialog.close();
      if (busy) keptThroughLock.current = true;
      else if (!keptThroughLock.current) onCloseRef.current('locked');
      return;
    }
    keptThroughLock.current = false;
    if (!dialog.open) {
      dialog.showModal();
      // showModal focuses the first focusable element (the close button); an element marked
      // data-autofocus (e.g. the first field of a form) takes the initial focus instead, else the body.
      (
        dialog.querySelector<HTMLElement>('[data-autofocus]') ?? dialog.querySelector<HTMLElement>('[data-dialog-body]')
      )?.focus();
    }
  }, [open, locked, busy]);
  if (!open) return null;
  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== 'Enter' || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const target = event.target as HTMLElement;
    if (target.closest(OWN_ENTER)) return;
    event.preventDefault();
    if (onEnter && !busy && !event.repeat) onEnter();
  };
  return (
    <dialog
      onKeyDown={onKeyDown}
      ref={ref}
      className={`dialog dialog-${size}`}
      aria-labelledby={titleId}
      data-testid={testId}
      onCancel={(event) => {
        // Escape: we decide, so a busy dialog stays open.
        event.preventDefault();
        if (canDismiss) onClose('dismissed');
      }}
      onClose={() => {
        // After a few refused Escapes with no click in between, Chrome closes a modal without asking
        // (close watchers). Treat that as a dismissal, or put back a dialog that may not go yet.
        const dialog = ref.current;
        if (dialog === null || !open || locked || keptThroughLock.current) return;
        if (canDismiss) onClose('dismissed');
        else {
          dialog.showModal();
          (
            dialog.querySelector<HTMLElement>('[data-autofocus]') ??
            dialog.querySelector<HTMLElement>('[data-dialog-body]')
          )?.focus();
        }
      }}
    >
      <header className="dialog-header">
        <h2 id={titleId}>{title}</h2>
        <button
          type="button"
          className="dialog-close"
          aria-label="Close"
          onClick={() => onClose('dismissed')}
          disabled={!canDismiss}
        >
          <X aria-hidden="true" focusable="false" size={16} />
        </button>
      </header>
      {/* The body takes the first focus unless something is marked data-autofocus: Enter then does the
          dialog's one Enter action, never the focused Cancel or close button's. */}
      <div className="dialog-body" tabIndex={-1} data-dialog-body>
        {children}
      </div>
      {footer ? <footer className="dialog-footer">{footer}</footer> : null}
    </dialog>
  );
};

export interface ConfirmDialogProps {
  readonly open: boolean;
  readonly title: string;
  /** What will happen, in full (amounts, addresses, accounts). */
  readonly children: ReactNode;
  readonly confirmLabel: string;
  readonly cancelLabel?: string;
  readonly tone?: 'primary' | 'danger';
  readonly busy?: boolean;
  readonly confirmDisabled?: boolean;
  /** A failure of the confirmed operation, shown inside the dialog. */
  readonly error?: unknown;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
  readonly testId?: string;
  /**
   * Whether Enter (outside the buttons) confirms. Default: yes for a primary confirmation, no for a
   * danger one (deleting, cancelling everything), which needs the button itself.
   */
  readonly enterConfirms?: boolean;
}

/**
 * "Review and confirm". The same keys everywhere: Escape cancels; Enter confirms a primary
 * confirmation (a fresh press: not the Enter that opened it, not a held-down key) and does nothing
 * in a danger one; a focused button does what it says.
 */
export const ConfirmDialog = ({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel = 'Cancel',
  tone = 'primary',
  busy = false,
  confirmDisabled = false,
  error,
  onConfirm,
  onCancel,
  testId,
  enterConfirms = tone !== 'danger',
}: ConfirmDialogProps) => (
  <Dialog
    open={open}
    title={title}
    onClose={onCancel}
    busy={busy}
    size="sm"
    {...(enterConfirms && !confirmDisabled ? { onEnter: onConfirm } : {})}
    {...(testId ? { testId } : {})}
    footer={
      <>
        <Button onClick={onCancel} disabled={busy} data-testid="confirm-cancel">
          {cancelLabel}
        </Button>
        <Button variant={tone} onClick={onConfirm} busy={busy} disabled={confirmDisabled} data-testid="confirm-accept">
          {confirmLabel}
        </Button>
      </>
    }
  >
    {children}
    {error ? <ErrorNotice error={error} /> : null}
  </Dialog>
);
