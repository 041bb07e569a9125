/**
 * The top bar's operator: who is signed in and their role, and "Switch operator", which signs out
 * (main locks: calls in flight finish first, the keys leave memory) and shows the sign-in screen,
 * where the next operator enters their name and passphrase.
 */
import { useEffect } from 'react';
import { ROLE_NAMES } from '../../../shared/contract/operators';
import { useDeskQuery } from '../lib/desk';
import { useLock } from '../lib/lock';
import { Button } from '../ui';

export const SignedInOperator = () => {
  const name = useLock((s) => s.operator);
  const session = useDeskQuery(['operators.current', {}]);
  const { refetch } = session;
  // Another operator signed in (or this one's role changed): ask main again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs again whenever the signed-in name changes, by design.
  useEffect(() => {
    void refetch();
  }, [name, refetch]);
  const operator = session.data?.operator;
  if (!operator) return null;
  return (
    <>
      <span className="topbar-operator" data-testid="topbar-operator">
        <span className="sr-only">Signed in as </span>
        <strong>{operator.name}</strong> <span className="muted">{ROLE_NAMES[operator.role]}</span>
      </span>
      <Button
        size="sm"
        variant="ghost"
        onClick={() => void useLock.getState().signOut()}
        data-testid="sign-out"
        title="Sign out: the app locks and the next operator signs in with their name and passphrase"
      >
        Switch operator
      </Button>
    </>
  );
};
