/**
 * The `operators` area, and the session rules the `app` area's lock shares with it: who is signed
 * in, the first administrator, signing in and out, unlocking with a passphrase, switching operator.
 *
 * Signed out is a kind of locked (reason `signedOut`): main holds no signing secret and answers only
 * the `open` operations (core/operators/access.ts). Unlocking and signing in check the
 * passphrase first (rate-limited in Operators), then read the keys again from the keychain.
 */
import type { DeskHandlers } from '../../shared/contract';
import type { LockState } from '../../shared/contract/app';
import { type Operator, type OperatorRole, type OperatorSession, ROLE_NAMES } from '../../shared/contract/operators';
import type { ServiceContext } from '../context';
import { assertSafeText, DeskFailure } from '../errors';
import type { ConfirmChange } from '../policies/authorize';
import type { Operators } from '.';
import type { ControlKindHandler, ControlPlane } from './controls';

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

/**
 * What else happens as an operator signs in or the desk locks: in team mode the operator's team
 * signing key is unlocked with the same passphrase, and forgotten when the desk locks.
 */
export interface SessionHooks {
  signedIn(operator: Operator, passphrase: string): Promise<void>;
  locked(): void;
  /** The role the operator acts with (in a team: the team's role, not this desk's). */
  role(operator: Operator): OperatorRole;
}

export const createSession = (
  ctx: ServiceContext,
  operators: Operators,
  lock: SessionLock,
  hooks?: SessionHooks,
): Session => {
  const lockView = (): LockState => {
    const who = operators.current()?.name;
    const retryAfter = who === undefined ? 0 : operators.retryAfter(who);
    return { ...lock.view(), ...(who ? { operator: who } : {}), ...(retryAfter ? { retryAfter } : {}) };
  };
  const view = (): OperatorSession => {
    const operator = operators.currentOperator();
    return {
      setupNeeded: operators.count() === 0,
      operator: operator ? { ...operator, role: hooks?.role(operator) ?? operator.role } : null,
      lock: lockView(),
    };
  };
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
      await hooks?.signedIn(operator, passphrase);
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
      hooks?.locked();
      if (wasOpen) ctx.audit.record({ action: 'app.lock', params: { reason }, outcome: 'ok' });
      return lockView();
    },
    signOut: async () => {
      const who = operators.current();
      await lock.lock('signedOut');
      hooks?.locked();
      if (who) ctx.audit.record({ action: 'operators.signOut', params: { name: who.name }, outcome: 'ok' });
      operators.signOut();
    },
  };
};

/** What an operator is called in a control change: "mallory (Viewer)". */
const named = (o: Pick<Operator, 'name' | 'role'>) => `${o.name} (${ROLE_NAMES[o.role]})`;

/**
 * The operators' control changes (operators/controls.ts): what each applies, and when it no longer
 * applies as prepared. A prepared change keeps a passphrase's scrypt hash, never the passphrase.
 */
export const operatorControlKinds = (operators: Operators) => {
  const target = (request: Record<string, unknown>) => operators.get(String(request.id));
  const gone = (request: Record<string, unknown>) =>
    target(request) ? undefined : `Operator ${String(request.name)} no longer exists.`;
  return {
    'operators.create': {
      apply: async (r, by) =>
        operators.create(
          { name: String(r.name), role: r.role as OperatorRole, passphraseHash: String(r.passphraseHash) },
          by,
        ),
      stale: (r) => operators.nameTaken(String(r.name)),
    },
    'operators.changeRole': {
      apply: async (r, by) => operators.changeRole(String(r.id), r.role as OperatorRole, by),
      stale: (r) => {
        const now = target(r);
        if (!now) return gone(r);
        if (now.role !== r.before)
          return `${now.name} is now ${ROLE_NAMES[now.role]}, not ${ROLE_NAMES[r.before as OperatorRole]}.`;
        return operators.roleProblem(now.id, r.role as OperatorRole);
      },
    },
    'operators.remove': {
      apply: async (r, by) => {
        operators.remove(String(r.id), by);
        return { removed: true as const };
      },
      stale: gone,
    },
    'operators.resetPassphrase': {
      apply: async (r, by) => operators.resetPassphrase(String(r.id), String(r.passphraseHash), by),
      stale: gone,
    },
  } satisfies Record<string, ControlKindHandler>;
};

export const createOperatorsHandlers = (
  ctx: ServiceContext,
  maybeSession: Session | undefined,
  controls: ControlPlane,
  confirmChange: ConfirmChange,
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
      remove: none,
      resetPassphrase: none,
      changePassphrase: none,
      liftLockout: none,
    };
  }
  const session = maybeSession;
  const { operators } = session;
  const me = () => {
    const current = operators.current();
    if (!current) throw new DeskFailure({ code: 'LOCKED', message: 'Nobody is signed in.' });
    return current;
  };
  const existing = (id: string): Operator => {
    const o = operators.get(id);
    if (!o) throw DeskFailure.precondition('There is no such operator.');
    return o;
  };
  /** A new administrator is what four eyes rest on: say what follows before it is confirmed. */
  const adminNote = (name: string) =>
    `${name} becomes an administrator: control changes then need a second administrator, and for the policy's cooling-off period ${name} may not approve what you prepare.`;
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
    create: async ({ name, passphrase, role }) => {
      assertSafeText({ name: [name, 'name'] });
      const taken = operators.nameTaken(name);
      if (taken) throw DeskFailure.precondition(taken);
      return controls.submit<Operator>({
        kind: 'operators.create',
        profileId: '',
        title: `Create operator ${named({ name, role })}`,
        changes: [
          { label: 'New operator', before: '—', after: name },
          { label: 'Role', before: '—', after: ROLE_NAMES[role] },
          { label: 'Passphrase', before: '—', after: 'chosen by you (only its hash is kept)' },
        ],
        apply: { name, role, passphraseHash: await operators.hashPassphrase(passphrase) },
        confirmLabel: 'Create operator',
        ...(role === 'admin' ? { note: adminNote(name) } : {}),
      });
    },
    changeRole: async ({ id, role }) => {
      const target = existing(id);
      const problem = operators.roleProblem(id, role);
      if (problem) throw DeskFailure.precondition(problem, 'Make another operator an administrator first.');
      return controls.submit<Operator>({
        kind: 'operators.changeRole',
        profileId: '',
        title: `Change the role of ${target.name}`,
        changes: [{ label: `Role of ${target.name}`, before: ROLE_NAMES[target.role], after: ROLE_NAMES[role] }],
        apply: { id, name: target.name, before: target.role, role },
        confirmLabel: 'Change role',
        ...(role === 'admin' && target.role !== 'admin' ? { note: adminNote(target.name) } : {}),
      });
    },
    remove: async ({ id }) => {
      const target = existing(id);
      const problem = operators.removeProblem(id, me());
      if (problem) throw DeskFailure.precondition(problem);
      return controls.submit<{ removed: true }>({
        kind: 'operators.remove',
        profileId: '',
        title: `Remove operator ${named(target)}`,
        changes: [{ label: 'Operator to remove', before: named(target), after: 'removed (cannot sign in any more)' }],
        apply: { id, name: target.name },
        confirmLabel: 'Remove operator',
      });
    },
    resetPassphrase: async ({ id, passphrase }) => {
      const target = existing(id);
      if (target.id === me().id) {
        throw DeskFailure.precondition('Change your own passphrase with your current one (Your passphrase).');
      }
      return controls.submit<Operator>({
        kind: 'operators.resetPassphrase',
        profileId: '',
        title: `Reset the passphrase of ${named(target)}`,
        changes: [{ label: `Passphrase of ${target.name}`, before: 'their own', after: 'a new one you chose' }],
        apply: { id, name: target.name, passphraseHash: await operators.hashPassphrase(passphrase) },
        confirmLabel: 'Reset passphrase',
        note: `You will know ${target.name}'s passphrase: for the policy's cooling-off period ${target.name} may not approve what you prepare. Ask them to change it when they sign in.`,
      });
    },
    changePassphrase: async ({ current, next }) => {
      await operators.changePassphrase(current, next);
      ctx.audit.record({ action: 'operators.changePassphrase', params: { name: me().name }, outcome: 'ok' });
      return { changed: true as const };
    },
    liftLockout: async ({ id }) => {
      const target = existing(id);
      // Another administrator: nobody lifts their own wait.
      if (target.id === me().id) {
        throw new DeskFailure({
          code: 'NOT_ALLOWED',
          message: 'Your own sign-in wait can only be lifted by another administrator.',
        });
      }
      if (target.lockedOutUntil === undefined) return target;
      await confirmChange({
        action: 'liftLockout',
        title: `Let ${target.name} sign in again now`,
        rows: [
          { label: 'Operator', value: named(target) },
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
