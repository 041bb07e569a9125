import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { KeyView } from '../../../../../shared/contract/keys';
import { useLock } from '../../../lib/lock';
import type { CreatedKey } from './KeyFormDialog';
import { SecretOnceDialog } from './SecretOnceDialog';

afterEach(() => {
  cleanup();
  useLock.setState({ locked: false, secretHidden: false });
});

const SECRET = 'f00dfeedf00dfeedf00dfeedf00dfeedf00dfeedf00dfeedf00dfeedf00dfeed';
const key: KeyView = {
  key: 'abcdef0123456789abcdef0123456789',
  userId: 7,
  name: 'bot',
  mode: 'classic',
  perms: { spot: 'write' },
  ipWhitelist: [],
  state: 'normal',
  createdAt: 1_700_000_000,
  expiry: { ipBound: true, level: 'none' },
  secretInKeychain: false,
};

/** Holds the secret in state like KeysPanel: closing drops it. */
const Harness = () => {
  const [created, setCreated] = useState<CreatedKey | undefined>({ key, secret: SECRET, secretStored: false });
  return created ? <SecretOnceDialog created={created} onClose={() => setCreated(undefined)} /> : null;
};

const pressEscape = () => fireEvent(screen.getByTestId('secret-once'), new Event('cancel', { cancelable: true }));

describe('The one-time secret dialog', () => {
  it('focuses "Copy secret" first, so Enter copies and never closes', () => {
    render(<Harness />);
    expect(document.activeElement).toBe(screen.getByTestId('copy-secret'));
  });

  it('ignores Escape and × until the copy is confirmed', async () => {
    render(<Harness />);
    pressEscape();
    const close = screen.getByRole('button', { name: 'Close' }) as HTMLButtonElement;
    expect(close.disabled).toBe(true);
    await userEvent.click(close);
    expect(screen.getByTestId('created-secret').textContent).toBe(SECRET);
    await userEvent.click(screen.getByLabelText(/I have copied the secret/));
    pressEscape();
    expect(screen.queryByTestId('secret-once')).toBeNull();
    expect(document.body.innerHTML).not.toContain(SECRET);
  });

  it('locking drops the secret for good and tells the lock screen', () => {
    render(<Harness />);
    act(() => useLock.setState({ locked: true }));
    expect(screen.queryByTestId('secret-once')).toBeNull();
    expect(document.body.innerHTML).not.toContain(SECRET);
    expect(useLock.getState().secretHidden).toBe(true);
    act(() => useLock.setState({ locked: false }));
    expect(document.body.innerHTML).not.toContain(SECRET);
  });
});
