/**
 * The `operators` area, and the session rules the `app` area's lock shares with it: who is signed
 * in, the first administrator, signing in and out, unlocking with a passphrase, switching operator.
 *
 * Signed out is a kind of locked (reason `signedOut`): main holds no signing secret and answers only
 * the `open` operations (electron/core/operators/access.ts). Unlocking and signing in check the
 * passphrase first (rate-limited in Operators), then read the keys again from the keychain.
 */
import type { DeskHandlers } from '../../../shared/contract';
import type { LockState } from '../../../shared/contract/app';
import type { OperatorSession } from '../../../shared/contract/operators';
import { DeskFailure } from '../errors';
import type { Operators } from '../operators';
import type { ServiceContext } from './context';
import type { Guard } from './guard';
import { assertSafeText } from './textSafety';

/** The app lock as the session uses it (ipc/appLock.ts's AppLock). */
export interface SessionLock {
  readonly closed: boolean;
  lock(reason: NonNullable<LockState['reason']>): Promise<LockState>;
  unlock(): Promise<LockState>;
  view(): LockState;
}

export interface Session {
  readonly operators: Operators;
  /** The lock state with the operator whose passphrase unlocks it, and any wait after wrong ones for them. */
  lockView(): LockState;
  view(): OperatorSession;
  /** Checks the passphrase (of `name`, else of the operator who locked), switches operator if it is another, unlocks. */
  unlock(passphrase: string, name?: string): Promise<LockState>;
  lock(reason: NonNullable<LockState['reason']>): Promise<LockState>;
  signOut(): Promise<void>;
}

export const createSession = (ctx: ServiceContext, operators: Operators, lock: SessionLock): Session => {
  const lockView = (): LockState => {
    const who = operators.current()?.name;
    const retryAfter = who === undefined ? 0 : operators.retryAfter(who);
    return { ...lock.view(), ...(who ? { operator: who } : {}), ...(retryAfter ? { retryAfter } : {}) };
  };
  const view = (): OperatorSession => ({
    setupNeeded: operators.count() === 0,
    operator: operators.currentOperator() ?? null,
    lock: lockView(),
  });
  return {
    operators,
    lockView,
    view,
    unlock: async (passphrase, name) => {
      const before = operators.current();
      const who = name ?? before?.name;
      if (who === undefined) {
        throw new DeskFailure({
          code: 'INVALID_INPUT',
          message: 'Nobody is signed in: enter your name and passphrase.',
          fields: { operator: 'Enter your name' },
        });
      }
      let operator: Awaited<ReturnType<Operators['verify']>>;
      try {
        operator = await operators.verify(who, passphrase);
      } catch (error) {
        ctx.audit.record({
          action: 'operators.signIn',
          // A name no operator has is recorded as its keyed hash: it may be a passphrase typed there.
          params: { name: operators.recordedName(who) },
          outcome: 'error',
          label: error instanceof DeskFailure ? (error.detail.label ?? error.detail.code) : 'INTERNAL',
          operator: '',
        });
        throw error;
      }
      const switching = before !== undefined && before.id !== operator.id;
      // Switching operator = lock + sign in as another: an unlocked desk locks first (calls in flight finish).
      if (switching && !lock.closed) await lock.lock('manual');
      operators.enter(operator);
      await lock.unlock();
      ctx.audit.record({
        action: switching || before === undefined ? 'operators.signIn' : 'app.unlock',
        params: switching ? { name: operator.name, previous: before.name } : { name: operator.name },
        outcome: 'ok',
      });
      return lockView();
    },
    lock: async (reason) => {
      const wasOpen = !lock.closed;
      await lock.lock(reason);
      if (wasOpen) ctx.audit.record({ action: 'app.lock', params: { reason }, outcome: 'ok' });
      return lockView();
    },
    signOut: async () => {
      const who = operators.current();
      await lock.lock('signedOut');
      if (who) ctx.audit.record({ action: 'operators.signOut', params: { name: who.name }, outcome: 'ok' });
      operators.signOut();
    },
  };
};

export const createOperatorsHandlers = (
  ctx: ServiceContext,
  maybeSession: Session | undefined,
  maybeGuard: Pick<Guard, 'change'>,
): DeskHandlers['operators'] => {
  if (!maybeSession) {
    const none = async (): Promise<never> => {
      throw DeskFailure.precondition('This build of the app has no operators.');
    };
    return {
      current: none,
      setup: none,
      signIn: none,
      signOut: none,
      list: none,
      create: none,
      changeRole: none,
      changePassphrase: none,
      liftLockout: none,
    };
  }
  const session = maybeSession;
  const { operators } = session;
  const guard = maybeGuard;
  const me = () => {
    const current = operators.current();
    if (!current) throw new DeskFailure({ code: 'LOCKED', message: 'Nobody is signed in.' });
    return current;
  };
  return {
    current: async () => session.view(),
    setup: async ({ name, passphrase }) => {
      assertSafeText({ name: [name, 'name'] });
      const admin = await operators.setup(name, passphrase);
      ctx.audit.record({ action: 'operators.setup', params: { name: admin.name, role: 'admin' }, outcome: 'ok' });
      await session.unlock(passphrase, admin.name);
      return session.view();
    },
    signIn: async ({ name, passphrase }) => {
      await session.unlock(passphrase, name);
      return session.view();
    },
    signOut: async () => {
      await session.signOut();
      return session.view();
    },
    list: async () => operators.list(),
    create: async (input) => {
      assertSafeText({ name: [input.name, 'name'] });
      const created = await operators.create(input, me().name);
      ctx.audit.record({
        action: 'operators.create',
        params: { name: created.name, role: created.role },
        outcome: 'ok',
      });
      return created;
    },
    changeRole: async ({ id, role }) => {
      const changed = operators.changeRole(id, role);
      ctx.audit.record({ action: 'operators.changeRole', params: { name: changed.name, role }, outcome: 'ok' });
      return changed;
    },
    changePassphrase: async ({ current, next }) => {
      await operators.changePassphrase(current, next);
      ctx.audit.record({ action: 'operators.changePassphrase', params: { name: me().name }, outcome: 'ok' });
      return { changed: true as const };
    },
    liftLockout: async ({ id }) => {
      const target = operators.get(id);
      if (!target) throw DeskFailure.precondition('There is no such operator.');
      // Another administrator: someone locked out cannot lift their own wait (nor be signed in to try).
      if (target.id === me().id) {
        throw new DeskFailure({
          code: 'NOT_ALLOWED',
          message: 'Your own sign-in wait can only be lifted by another administrator.',
        });
      }
      if (target.lockedOutUntil === undefined) return target;
      await guard.change({
        action: 'liftLockout',
        title: `Let ${target.name} sign in again now`,
        rows: [
          { label: 'Operator', value: `${target.name} (${target.role})` },
          { label: 'Waiting until', value: new Date(target.lockedOutUntil).toISOString() },
        ],
        note: 'Repeated wrong passphrases made their sign-in wait. Lift it only if you know it was them.',
        confirmLabel: 'Lift the wait',
      });
      const lifted = operators.liftLockout(id);
      ctx.audit.record({ action: 'operators.liftLockout', params: { name: lifted.name }, outcome: 'ok' });
      return lifted;
    },
  };
};
