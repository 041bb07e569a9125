/**
 * The `operators` area: the people at the desk. Each has a name, a passphrase (only its scrypt hash
 * is stored, in main) and a role:
 *
 * - viewer: reads only;
 * - maker: also prepares and sends money movements and orders;
 * - approver: also approves other operators' movements;
 * - admin: also manages operators, profiles, keys and policies.
 *
 * The first start creates the administrator (`setup`, answered only while there is no operator);
 * afterwards only an admin creates operators. Main enforces the roles for every operation
 * (core/operators/access.ts); the screens only hide what a role cannot do.
 */
import { z } from 'zod';
import { operation } from '../ipc/define';
import { LockState } from './app';
import { safeText } from './text';

export const OPERATOR_ROLES = ['viewer', 'maker', 'approver', 'admin'] as const;
export const OperatorRole = z.enum(OPERATOR_ROLES);
export type OperatorRole = z.infer<typeof OperatorRole>;

/** Each role's name on screen (the top bar, Settings → Operators). */
export const ROLE_NAMES: Readonly<Record<OperatorRole, string>> = {
  viewer: 'Viewer',
  maker: 'Maker',
  approver: 'Approver',
  admin: 'Administrator',
};

/** What each role may do, in words (Settings → Operators, the role picker). */
export const ROLE_DESCRIPTIONS: Readonly<Record<OperatorRole, string>> = {
  viewer: 'Sees balances, records and the audit log; changes nothing.',
  maker: 'Also prepares and sends withdrawals, pushes, transfers and orders.',
  approver: 'Also approves movements other operators prepared.',
  admin: 'Also manages operators, profiles, API keys and policies.',
};

export const OperatorName = z
  .string()
  .trim()
  .min(2, 'Use at least 2 characters')
  .max(40, 'Use at most 40 characters')
  .regex(
    /^[\p{L}\p{N}][\p{L}\p{N} ._'-]*$/u,
    'Letters, digits, spaces and . _ \u2019 - only, starting with a letter or digit',
  )
  .superRefine(safeText('name'));

export const PASSPHRASE_MIN = 12;
export const PASSPHRASE_MAX = 256;

/** A passphrase as typed (checked for strength where a new one is chosen, see passphraseProblem). */
export const Passphrase = z.string().min(1, 'Enter the passphrase').max(PASSPHRASE_MAX, 'At most 256 characters');

const COMMON = ['password', 'passphrase', 'treasury', 'qwertyuiop', '1234567890', 'letmein', 'administrator'];

/**
 * Why a new passphrase is too weak, or undefined when it will do. The same rule in the renderer (as
 * the person types) and in main (which decides): at least 12 characters, at least 6 different ones,
 * not the operator's name, not built around a common word or a run of keys.
 */
export const passphraseProblem = (passphrase: string, name = ''): string | undefined => {
  const text = passphrase.normalize('NFC');
  if (text.length < PASSPHRASE_MIN) return `Use at least ${PASSPHRASE_MIN} characters (a few words work well).`;
  if (text.length > PASSPHRASE_MAX) return `Use at most ${PASSPHRASE_MAX} characters.`;
  if (new Set(text).size < 6) return 'Use more different characters.';
  const lower = text.toLowerCase();
  const who = name.trim().toLowerCase();
  if (who.length >= 3 && lower.includes(who)) return 'Do not use your name in the passphrase.';
  const letters = lower.replace(/[^a-z0-9]/g, '');
  for (const word of COMMON) {
    if (letters.includes(word) && letters.length - word.length < 6) return 'This is too close to a common password.';
  }
  return undefined;
};

/** A passphrase being chosen: strong enough (see passphraseProblem). */
export const NewPassphrase = Passphrase.superRefine((value, ctx) => {
  const problem = passphraseProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

export const Operator = z.object({
  id: z.string(),
  name: z.string(),
  role: OperatorRole,
  createdAt: z.number(),
  /** The operator's name who created this one ("" for the first administrator). */
  createdBy: z.string(),
  /** When they last signed in or unlocked (Unix ms); absent: never. */
  lastSignInAt: z.number().optional(),
  /**
   * The administrator who last granted this operator anything (created them, changed their role,
   * reset their passphrase) and when: for the policy's cooling-off period this operator may not
   * approve what that administrator prepared. Absent for the first administrator.
   */
  grantedBy: z.string().optional(),
  grantedAt: z.number().optional(),
  /**
   * The administrator who chose this operator's current passphrase (creating them or resetting it):
   * until the operator chooses their own, they never approve what that administrator prepared.
   */
  passphraseSetBy: z.string().optional(),
  /**
   * Until when their sign-in waits after repeated wrong passphrases (Unix ms); absent: it does not.
   * Another administrator can lift it (`operators.liftLockout`).
   */
  lockedOutUntil: z.number().optional(),
});
export type Operator = z.infer<typeof Operator>;

/** Who is at the desk now, and whether the first administrator still has to be created. */
export const OperatorSession = z.object({
  /** No operator exists yet: the app shows "Create the administrator" before anything else. */
  setupNeeded: z.boolean(),
  /** The operator signed in (also while locked: unlocking asks this operator's passphrase). */
  operator: Operator.nullable(),
  lock: LockState,
});
export type OperatorSession = z.infer<typeof OperatorSession>;

const OperatorId = z.string().min(1).max(64);

const NameAndNewPassphrase = z
  .object({ name: OperatorName, passphrase: NewPassphrase })
  .strict()
  .superRefine((value, ctx) => {
    const problem = passphraseProblem(value.passphrase, value.name);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['passphrase'] });
  });

export const operators = {
  current: operation(
    'Who is signed in, whether the first administrator must still be created, and the lock state.',
    z.object({}).strict(),
    OperatorSession,
  ),
  setup: operation(
    'First start only (no operator exists yet): creates the administrator and signs them in.',
    NameAndNewPassphrase,
    OperatorSession,
  ),
  signIn: operation(
    'Signs an operator in with their passphrase (also: switching operator on the lock screen). Repeated wrong passphrases make the next attempt wait.',
    z.object({ name: OperatorName, passphrase: Passphrase }).strict(),
    OperatorSession,
  ),
  signOut: operation(
    'Signs the operator out: the app locks (money movements in flight finish first) and the keys leave memory.',
    z.object({}).strict(),
    OperatorSession,
  ),
  list: operation('Every operator (admin only).', z.object({}).strict(), z.array(Operator)),
  create: operation(
    'Creates an operator with a role and a first passphrase (admin only, a control change).',
    z
      .object({ name: OperatorName, passphrase: NewPassphrase, role: OperatorRole })
      .strict()
      .superRefine((value, ctx) => {
        const problem = passphraseProblem(value.passphrase, value.name);
        if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['passphrase'] });
      }),
    Operator,
  ),
  changeRole: operation(
    'Gives an operator another role (admin only, a control change; the last administrator keeps the role).',
    z.object({ id: OperatorId, role: OperatorRole }).strict(),
    Operator,
  ),
  remove: operation(
    'Removes an operator (admin only, a control change; never the last administrator, never oneself).',
    z.object({ id: OperatorId }).strict(),
    z.object({ removed: z.literal(true) }),
  ),
  resetPassphrase: operation(
    'Gives another operator a new passphrase (admin only, a control change): for one who forgot theirs.',
    z.object({ id: OperatorId, passphrase: NewPassphrase }).strict(),
    Operator,
  ),
  changePassphrase: operation(
    'Changes the signed-in operator’s own passphrase (the current one is asked again).',
    z.object({ current: Passphrase, next: NewPassphrase }).strict(),
    z.object({ changed: z.literal(true) }),
  ),
  liftLockout: operation(
    'Lets an operator whose sign-in waits after repeated wrong passphrases try again now (another administrator only, after the trusted confirmation; audited).',
    z.object({ id: z.string().min(1).max(64) }).strict(),
    Operator,
  ),
};
