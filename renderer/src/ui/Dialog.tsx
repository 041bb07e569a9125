import { type ReactNode, useEffect, useId, useRef } from 'react';
import { useLock } from '../lib/lock';
import { Button } from './Button';
import { ErrorNotice } from './ErrorNotice';

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
}

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
}: DialogProps) => {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const locked = useLock((s) => s.locked);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  /** Set when locking hid this dialog while busy: it comes back after unlocking. */
  const keptThroughLock = useRef(false);
  const canDismiss = !busy && dismissible;

  useEffect(() => {
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
      // data-autofocus (e.g. Cancel in a confirmation) takes the initial focus instead.
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
  }, [open, locked, busy]);
  if (!open) return null;
  return (
    <dialog
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
          dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
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
          ×
        </button>
      </header>
      <div className="dialog-body">{children}</div>
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
}

/** "Review and confirm". Cancel has the initial focus so Enter never confirms by accident. */
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
}: ConfirmDialogProps) => (
  <Dialog
    open={open}
    title={title}
    onClose={onCancel}
    busy={busy}
    size="sm"
    {...(testId ? { testId } : {})}
    footer={
      <>
        <Button onClick={onCancel} disabled={busy} data-autofocus data-testid="confirm-cancel">
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
