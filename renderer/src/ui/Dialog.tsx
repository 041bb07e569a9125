import { type ReactNode, useEffect, useId, useRef } from 'react';
import { Button } from './Button';
import { ErrorNotice } from './ErrorNotice';

export interface DialogProps {
  readonly open: boolean;
  readonly title: string;
  /** Called on Escape, the close button or Cancel. Not called while `busy`. */
  readonly onClose: () => void;
  readonly children: ReactNode;
  readonly footer?: ReactNode;
  /** While true the dialog cannot be dismissed: the person must see how the operation ended. */
  readonly busy?: boolean;
  readonly size?: 'sm' | 'md' | 'lg';
  readonly testId?: string;
}

/**
 * A modal on the native <dialog>: the browser traps focus, makes the rest inert and restores
 * focus to the opener when it closes.
 */
export const Dialog = ({ open, title, onClose, children, footer, busy = false, size = 'md', testId }: DialogProps) => {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog === null) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // showModal focuses the first focusable element (the close button); an element marked
      // data-autofocus (e.g. Cancel in a confirmation) takes the initial focus instead.
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);
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
        if (!busy) onClose();
      }}
    >
      <header className="dialog-header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="dialog-close" aria-label="Close" onClick={onClose} disabled={busy}>
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
