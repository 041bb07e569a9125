import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { useLock } from '../lib/lock';
import { installFakeDesk, renderWithQuery } from '../lib/testing/fakeDesk';
import { SignedInOperator } from './SignedInOperator';

afterEach(() => {
  cleanup();
  useLock.setState({ locked: false, reason: null, securing: false, operator: null });
});

describe('the top bar’s operator', () => {
  it('shows who is signed in with the role; “Switch operator” signs out and shows the sign-in screen', async () => {
    let signedIn = true;
    const desk = installFakeDesk({
      'operators.current': () => ({
        setupNeeded: false,
        operator: signedIn ? { id: 'o1', name: 'Ann', role: 'approver', createdAt: 1, createdBy: 'Ada' } : null,
        lock: signedIn ? { state: 'unlocked' } : { state: 'locked', reason: 'signedOut' },
      }),
      'operators.signOut': () => {
        signedIn = false;
        return { setupNeeded: false, operator: null, lock: { state: 'locked', reason: 'signedOut' } };
      },
    });
    useLock.setState({ operator: 'Ann' });
    renderWithQuery(<SignedInOperator />);
    expect((await screen.findByTestId('topbar-operator')).textContent).toContain('Signed in as Ann Approver');

    await userEvent.click(screen.getByTestId('sign-out'));
    expect(desk.callsOf('operators.signOut')).toEqual([{}]);
    await expect.poll(() => useLock.getState()).toMatchObject({ locked: true, reason: 'signedOut', operator: null });
    await expect.poll(() => screen.queryByTestId('topbar-operator')).toBeNull();
  });
});
