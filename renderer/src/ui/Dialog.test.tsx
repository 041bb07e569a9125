import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useLock } from '../lib/lock';
import { Dialog, type DialogCloseCause } from './Dialog';

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
