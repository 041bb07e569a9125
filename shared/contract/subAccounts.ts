/**
 * Operations of the `subAccounts` area: list, create, detail, freeze/unfreeze and unified mode of
 * the main account's sub-accounts. The login-name rule lives here once (`loginNameProblem`) for
 * the form and, through the schema, for main.
 */
import { z } from 'zod';
import { operation } from '../ipc/define';
import { DecimalText } from './funding';
import { safeText } from './text';

/**
 * Login-name rule. The platform allows letters, digits and underscore; it does not publish a
 * length. We choose 4–32 characters starting with a letter (see docs/transfers-subaccounts.md):
 * short enough to read in tables, long enough to be unique, and never confusable with a user id.
 */
export const LOGIN_NAME_MIN = 4;
export const LOGIN_NAME_MAX = 32;

export const loginNameProblem = (name: string): string | undefined => {
  if (name === '') return 'Enter a login name.';
  if (/\s/.test(name)) return 'Spaces are not allowed: use letters, digits and underscore.';
  if (!/^[A-Za-z0-9_]+$/.test(name)) return 'Only letters (A–Z, a–z), digits and underscore are allowed.';
  if (!/^[A-Za-z]/.test(name)) return 'Start with a letter.';
  if (name.length < LOGIN_NAME_MIN) return `Use at least ${LOGIN_NAME_MIN} characters.`;
  if (name.length > LOGIN_NAME_MAX) return `Use at most ${LOGIN_NAME_MAX} characters.`;
  return undefined;
};

export const LoginName = z
  .string()
  .max(200)
  .superRefine((value, ctx) => {
    const problem = loginNameProblem(value);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  });

const userId = z.number().int().positive();

export const SubAccountView = z.object({
  userId: z.number(),
  loginName: z.string(),
  remark: z.string().optional(),
  email: z.string().optional(),
  /** 1 normal, 2 frozen on the platform. */
  state: z.enum(['normal', 'frozen', 'unknown']),
  /** 1 normal, 3 cross-margin on the platform. */
  type: z.enum(['normal', 'crossMargin', 'unknown']),
  /** Unix seconds. */
  createdAt: z.number().optional(),
});
export type SubAccountView = z.infer<typeof SubAccountView>;

/** Currency → available amount (decimal text). */
export const CurrencyAmounts = z.record(z.string(), z.string());

export const FuturesBalance = z.object({
  settle: z.string(),
  total: z.string().optional(),
  available: z.string(),
  unrealisedPnl: z.string().optional(),
});

export const UnifiedModeView = z.object({
  userId: z.number(),
  isUnified: z.boolean(),
  /** classic, multi_currency, portfolio, single_currency. */
  mode: z.string(),
});
export type UnifiedModeView = z.infer<typeof UnifiedModeView>;

export const subAccounts = {
  list: operation(
    'Every sub-account of the main account (all types), with state and type.',
    z.object({}).strict(),
    z.object({ accounts: z.array(SubAccountView) }),
  ),
  balances: operation(
    'Spot balances of every sub-account (or one), keyed by user id.',
    z.object({ userId: userId.optional() }).strict(),
    z.object({ balances: z.array(z.object({ userId: z.number(), spot: CurrencyAmounts })) }),
  ),
  get: operation(
    'One sub-account with every account type the platform reports for it (spot, isolated margin, perpetual futures, cross margin) and its unified mode.',
    z.object({ userId }).strict(),
    z.object({
      account: SubAccountView,
      spot: CurrencyAmounts,
      futures: z.array(FuturesBalance),
      /** Isolated margin: one line per pair side that holds or owes something. */
      margin: z.array(
        z.object({
          pair: z.string(),
          currency: z.string(),
          available: DecimalText,
          locked: DecimalText,
          borrowed: DecimalText,
        }),
      ),
      crossMargin: z.array(
        z.object({ currency: z.string(), available: DecimalText, locked: DecimalText, borrowed: DecimalText }),
      ),
      unified: UnifiedModeView.optional(),
    }),
  ),
  create: operation(
    'Creates a sub-account (login name checked; password and email default to the main account’s).',
    z
      .object({
        loginName: LoginName,
        remark: z.string().max(200).superRefine(safeText('text')).optional(),
        email: z.string().email('Enter a valid e-mail address or leave it empty.').max(200).optional(),
      })
      .strict(),
    SubAccountView,
  ),
  lock: operation(
    'Freezes a sub-account (POST /sub_accounts/{id}/lock): its keys and transfers stop working.',
    z.object({ userId }).strict(),
    SubAccountView,
  ),
  unlock: operation(
    'Unfreezes a sub-account (POST /sub_accounts/{id}/unlock).',
    z.object({ userId }).strict(),
    SubAccountView,
  ),
  unifiedMode: operation(
    'Account mode of every sub-account (GET /sub_accounts/unified_mode).',
    z.object({}).strict(),
    z.object({ modes: z.array(UnifiedModeView) }),
  ),
};
