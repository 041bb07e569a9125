import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useLock } from '../lib/lock';
import { ConfirmDialog, Dialog, type DialogCloseCause } from './Dialog';

afterEach(() => {
  cleanup();
  useLock.setState({ locked: false, secretHidden: false });
});

/** A dialog its parent closes on onClose, like every screen does. */
const Harness = ({
  busy = false,
  dismissible = true,
  onClose,
}: {
  busy?: boolean;
  dismissible?: boolean;
  onClose: (cause: DialogCloseCause) => void;
}) => {
  const [open, setOpen] = useState(true);
  return (
    <Dialog
      open={open}
      title="Review"
      busy={busy}
      dismissible={dismissible}
      testId="dialog"
      onClose={(cause) => {
        onClose(cause);
        setOpen(false);
      }}
    >
      <p>Something private</p>
    </Dialog>
  );
};

const dialog = () => screen.getByTestId('dialog') as HTMLDialogElement;
const pressEscape = () => fireEvent(dialog(), new Event('cancel', { cancelable: true }));
const lock = (locked: boolean) => act(() => useLock.setState({ locked }));

describe('Dialog and the app lock', () => {
  it('locking closes an open dialog for good', () => {
    const onClose = vi.fn();
    render(<Harness onClose={onClose} />);
    expect(dialog().open).toBe(true);
    lock(true);
    expect(onClose).toHaveBeenCalledWith('locked');
    expect(screen.queryByTestId('dialog')).toBeNull();
    lock(false);
    expect(screen.queryByTestId('dialog')).toBeNull();
  });

  it('a busy dialog is hidden while locked and comes back after unlocking, without being closed', () => {
    const onClose = vi.fn();
    const { rerender } = render(<Harness busy onClose={onClose} />);
    lock(true);
    expect(dialog().open).toBe(false);
    // The operation ends while locked: its outcome waits for the person.
    rerender(<Harness onClose={onClose} />);
    expect(dialog().open).toBe(false);
    lock(false);
    expect(dialog().open).toBe(true);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('does not open while the app is locked', () => {
    lock(true);
    const onClose = vi.fn();
    render(<Harness busy onClose={onClose} />);
    expect(dialog().open).toBe(false);
  });
});

describe('Dialog dismissal', () => {
  it('Escape and × do nothing while not dismissible, and close it once it is', async () => {
    const onClose = vi.fn();
    const { rerender } = render(<Harness dismissible={false} onClose={onClose} />);
    pressEscape();
    const close = screen.getByRole('button', { name: 'Close' }) as HTMLButtonElement;
    expect(close.disabled).toBe(true);
    expect(onClose).not.toHaveBeenCalled();
    rerender(<Harness onClose={onClose} />);
    pressEscape();
    expect(onClose).toHaveBeenCalledWith('dismissed');
    expect(screen.queryByTestId('dialog')).toBeNull();
  });

  it('the × closes a dismissible dialog', async () => {
    const onClose = vi.fn();
    render(<Harness onClose={onClose} />);
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledWith('dismissed');
  });

  it('puts back a dialog that may not go yet when the browser closes it without asking', () => {
    const onClose = vi.fn();
    render(<Harness dismissible={false} onClose={onClose} />);
    // Chrome's close watcher: repeated Escape with no click in between closes without a cancel event.
    act(() => dialog().close());
    expect(dialog().open).toBe(true);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('a dismissible dialog closed by the browser is closed for its parent too', () => {
    const onClose = vi.fn();
    render(<Harness onClose={onClose} />);
    act(() => dialog().close());
    expect(onClose).toHaveBeenCalledWith('dismissed');
    expect(screen.queryByTestId('dialog')).toBeNull();
  });
});

describe('Dialog keys and focus: one way everywhere', () => {
  /** A button that opens a dialog, as screens do. */
  const Opener = ({
    kind,
    onConfirm,
    onCancel,
  }: {
    kind: 'confirm' | 'danger' | 'form';
    onConfirm: () => void;
    onCancel: () => void;
  }) => {
    const [open, setOpen] = useState(false);
    const close = () => {
      onCancel();
      setOpen(false);
    };
    return (
      <>
        <button type="button" onClick={() => setOpen(true)}>
          Open
        </button>
        {kind === 'form' ? (
          <Dialog open={open} title="Create key" onClose={close} testId="dialog">
            <form
              onSubmit={(event) => {
                event.preventDefault();
                onConfirm();
              }}
            >
              <label>
                Name <input aria-label="Name" data-autofocus />
              </label>
              <button type="submit">Create</button>
            </form>
          </Dialog>
        ) : (
          <ConfirmDialog
            open={open}
            title="Place order?"
            confirmLabel="Place"
            tone={kind === 'danger' ? 'danger' : 'primary'}
            onConfirm={() => {
              onConfirm();
              setOpen(false);
            }}
            onCancel={close}
            testId="dialog"
          >
            <p>Buy 1 BTC</p>
          </ConfirmDialog>
        )}
      </>
    );
  };

  it('Enter confirms a primary confirmation (not Cancel), and focus returns to the opener', async () => {
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    render(<Opener kind="confirm" onConfirm={onConfirm} onCancel={onCancel} />);
    const opener = screen.getByRole('button', { name: 'Open' });
    await userEvent.click(opener);
    expect(document.activeElement?.hasAttribute('data-dialog-body')).toBe(true);
    await userEvent.keyboard('{Enter}');
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(onCancel).not.toHaveBeenCalled();
    expect(screen.queryByTestId('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('a held-down Enter (auto-repeat) confirms nothing', async () => {
    const onConfirm = vi.fn();
    render(<Opener kind="confirm" onConfirm={onConfirm} onCancel={vi.fn()} />);
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    fireEvent.keyDown(screen.getByTestId('dialog'), { key: 'Enter', repeat: true });
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('Enter does nothing in a danger confirmation; Escape cancels and focus returns to the opener', async () => {
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    render(<Opener kind="danger" onConfirm={onConfirm} onCancel={onCancel} />);
    const opener = screen.getByRole('button', { name: 'Open' });
    await userEvent.click(opener);
    await userEvent.keyboard('{Enter}');
    expect(onConfirm).not.toHaveBeenCalled();
    expect(screen.getByTestId('dialog')).toBeTruthy();
    pressEscape();
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(screen.queryByTestId('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('Enter in a field of a dialog form without an Enter action submits nothing (no key created with defaults)', async () => {
    const onConfirm = vi.fn();
    render(<Opener kind="form" onConfirm={onConfirm} onCancel={vi.fn()} />);
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect(document.activeElement).toBe(screen.getByLabelText('Name'));
    await userEvent.keyboard('{Enter}');
    expect(onConfirm).not.toHaveBeenCalled();
    // The button itself still works.
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('a close button that may not be used is disabled (and styled so: .dialog-close:disabled)', () => {
    render(<Harness dismissible={false} onClose={vi.fn()} />);
    expect((screen.getByRole('button', { name: 'Close' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('Dialog: modal from its first moment on the page', () => {
  /** A body that takes a while to render, as any does on a busy machine. */
  const SlowBody = () => {
    const started = performance.now();
    while (performance.now() - started < 20) {
      // Rendering.
    }
    return <p>Amount 1,000.5 USDT</p>;
  };

  it('opened by an answer that came later (not a click): its content is never on the page with the dialog not yet modal', async () => {
    let show = () => {};
    const Later = () => {
      const [open, setOpen] = useState(false);
      show = () => setOpen(true);
      return (
        <Dialog open={open} title="Review the transfer" onClose={vi.fn()} testId="dialog">
          <SlowBody />
        </Dialog>
      );
    };
    render(<Later />);
    // What anyone looking at the page (a person, a test, the browser with a key press) finds the
    // moment the content is there.
    const seen: (boolean | undefined)[] = [];
    const observer = new MutationObserver(() => seen.push(document.querySelector('dialog')?.open));
    observer.observe(document.body, { childList: true, subtree: true });
    // As a form's asynchronous validation opens its review: an ordinary update, outside any act().
    const reactActEnvironment = Reflect.get(globalThis, 'IS_REACT_ACT_ENVIRONMENT');
    Reflect.set(globalThis, 'IS_REACT_ACT_ENVIRONMENT', false);
    try {
      await Promise.resolve().then(() => show());
      await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Close' })).toBeTruthy());
    } finally {
      Reflect.set(globalThis, 'IS_REACT_ACT_ENVIRONMENT', reactActEnvironment);
      observer.disconnect();
    }
    expect(seen[0]).toBe(true);
  });
});
