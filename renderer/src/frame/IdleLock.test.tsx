import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { useLock } from '../lib/lock';
import { installFakeDesk, renderWithQuery } from '../lib/testing/fakeDesk';
import { Dialog } from '../ui';
import { LockScreen } from './IdleLock';

afterEach(() => {
  cleanup();
  useLock.setState({
    locked: false,
    reason: null,
    securing: false,
    unlocking: false,
    error: null,
    secretHidden: false,
  });
});

const installLockableDesk = () =>
  installFakeDesk({
    'app.lockState': () => ({ state: 'unlocked' }),
    'app.lock': () => ({ state: 'locked', reason: 'manual' }),
    'app.unlock': () => ({ state: 'unlocked' }),
  });

const OpenDialog = () => {
  const [open, setOpen] = useState(true);
  return (
    <Dialog open={open} title="Review the withdrawal" testId="review" onClose={() => setOpen(false)}>
      <p>Send 1 BTC</p>
    </Dialog>
  );
};

describe('Lock screen', () => {
  it('closes the open dialog and is the one modal on screen; Unlock works and the dialog stays closed', async () => {
    installLockableDesk();
    renderWithQuery(
      <>
        <OpenDialog />
        <LockScreen />
      </>,
    );
    expect((screen.getByTestId('review') as HTMLDialogElement).open).toBe(true);
    await act(() => useLock.getState().lock('manual'));
    expect(screen.queryByTestId('review')).toBeNull();
    const lockScreen = screen.getByTestId('lock-screen') as HTMLDialogElement;
    expect(lockScreen.tagName).toBe('DIALOG');
    expect(lockScreen.open).toBe(true);
    // Nobody known as signed in (this fake main names no operator): the name comes first.
    expect(document.activeElement).toBe(screen.getByTestId('unlock-name'));
    expect(screen.queryByTestId('lock-secret-hidden')).toBeNull();
    await userEvent.type(screen.getByTestId('unlock-passphrase'), 'the passphrase');
    await userEvent.click(screen.getByTestId('unlock'));
    await waitFor(() => expect(screen.queryByTestId('lock-screen')).toBeNull());
    expect(screen.queryByTestId('review')).toBeNull();
  });

  it('says so when a one-time secret was hidden, until unlocked', async () => {
    installLockableDesk();
    renderWithQuery(<LockScreen />);
    await act(() => useLock.getState().lock('manual'));
    act(() => useLock.getState().noteSecretHidden());
    expect(screen.getByTestId('lock-secret-hidden').textContent).toContain('cannot be shown again');
    await userEvent.type(screen.getByTestId('unlock-passphrase'), 'the passphrase');
    await userEvent.click(screen.getByTestId('unlock'));
    await waitFor(() => expect(screen.queryByTestId('lock-screen')).toBeNull());
    expect(useLock.getState().secretHidden).toBe(false);
  });

  it('Escape does not end the lock, even when the browser closes the dialog without asking', async () => {
    installLockableDesk();
    renderWithQuery(<LockScreen />);
    await act(() => useLock.getState().lock('manual'));
    const lockScreen = screen.getByTestId('lock-screen') as HTMLDialogElement;
    const cancel = new Event('cancel', { cancelable: true });
    act(() => {
      lockScreen.dispatchEvent(cancel);
    });
    expect(cancel.defaultPrevented).toBe(true);
    act(() => lockScreen.close());
    expect(lockScreen.open).toBe(true);
  });
});
