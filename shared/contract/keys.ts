/**
 * Operations of the `keys` area: API keys of a sub-account.
 *
 * Secrets: no operation returns one. The platform returns a new key's secret exactly once, at
 * creation; main shows it in the shell's own page (never in the app's window) for the person to
 * copy, and keeps it only when asked (`keepSecretInKeychain`: the OS keychain, through the core's
 * KeyStore).
 *
 * Editing always sends the full IP whitelist and the full permission set: the platform clears
 * either one when it is omitted.
 */
import { z } from 'zod';
import { operation } from '../ipc/define';
import { SubAccountPermName } from '../platform/api/subAccounts';
import { safeText } from './text';

export const PERMISSION_GROUPS = SubAccountPermName.options;
export type PermissionGroup = (typeof PERMISSION_GROUPS)[number];

/** Per permission group: none, read-only or read-write (the platform's disabled / read_only / full). */
export const PermAccess = z.enum(['none', 'read', 'write']);
export type PermAccess = z.infer<typeof PermAccess>;
export const PermMatrix = z.partialRecord(SubAccountPermName, PermAccess);
export type PermMatrix = z.infer<typeof PermMatrix>;

export const MAX_WHITELIST = 20;

/** What is wrong with one whitelist entry, or undefined. Only single IPv4 addresses are accepted. */
export const ipv4Problem = (text: string): string | undefined => {
  const value = text.trim();
  if (value === '') return 'Enter an IPv4 address such as 203.0.113.7.';
  if (value.includes('/') || value.includes('-') || value.includes('*')) {
    return 'Ranges are not supported: enter single addresses.';
  }
  if (value.includes(':')) return 'Only IPv4 addresses are accepted (this looks like IPv6).';
  const parts = value.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p))) {
    return 'An IPv4 address is four numbers 0–255 separated by dots, e.g. 203.0.113.7.';
  }
  if (parts.some((p) => p.length > 1 && p.startsWith('0')))
    return 'Leave out leading zeros (write 10.0.0.1, not 010.0.0.1).';
  if (parts.some((p) => Number(p) > 255)) return 'Each of the four numbers must be between 0 and 255.';
  return undefined;
};

/** Problems of a whole whitelist: per entry (by index) and for the list as a whole. */
export const whitelistProblems = (
  list: readonly string[],
): { readonly entries: ReadonlyMap<number, string>; readonly list?: string } => {
  const entries = new Map<number, string>();
  const seen = new Map<string, number>();
  list.forEach((raw, index) => {
    const problem = ipv4Problem(raw);
    if (problem !== undefined) {
      entries.set(index, problem);
      return;
    }
    const value = raw.trim();
    const first = seen.get(value);
    if (first !== undefined) entries.set(index, `Already in the list (entry ${first + 1}).`);
    else seen.set(value, index);
  });
  const tooMany = list.length > MAX_WHITELIST ? `At most ${MAX_WHITELIST} addresses per key.` : undefined;
  return tooMany === undefined ? { entries } : { entries, list: tooMany };
};

// Hard caps above the friendly limits, so an absurd payload is refused before it is examined.
export const IpWhitelist = z
  .array(z.string().max(100))
  .max(1_000)
  .superRefine((list, ctx) => {
    const problems = whitelistProblems(list);
    if (problems.list !== undefined) ctx.addIssue({ code: 'custom', message: problems.list });
    for (const [index, message] of problems.entries) ctx.addIssue({ code: 'custom', path: [index], message });
  });

/** Keys with no IP binding stop working 90 days after creation; we warn from 14 days before. */
export const UNBOUND_KEY_LIFETIME_DAYS = 90;
export const EXPIRY_WARNING_DAYS = 14;
const DAY_MS = 86_400_000;

export const KeyExpiry = z.object({
  /** False when the key has no IP whitelist, so the 90-day rule applies. */
  ipBound: z.boolean(),
  /** Unix milliseconds; only for keys without IP binding whose creation time is known. */
  expiresAt: z.number().optional(),
  /** Whole days left (negative when already expired). */
  daysLeft: z.number().optional(),
  level: z.enum(['none', 'notice', 'warning', 'expired']),
});
export type KeyExpiry = z.infer<typeof KeyExpiry>;

export const keyExpiry = (
  ipWhitelist: readonly string[],
  createdAtSeconds: number | undefined,
  nowMs: number,
): KeyExpiry => {
  if (ipWhitelist.length > 0) return { ipBound: true, level: 'none' };
  if (createdAtSeconds === undefined) return { ipBound: false, level: 'notice' };
  const expiresAt = createdAtSeconds * 1000 + UNBOUND_KEY_LIFETIME_DAYS * DAY_MS;
  // Rounded up: a key created a moment ago has "90 days" left, one expiring tonight "1 day".
  const daysLeft = Math.ceil((expiresAt - nowMs) / DAY_MS);
  const level = expiresAt <= nowMs ? 'expired' : daysLeft <= EXPIRY_WARNING_DAYS ? 'warning' : 'notice';
  return { ipBound: false, expiresAt, daysLeft, level };
};

export const KeyView = z.object({
  /** The public key id (sent in clear in every request header; not a secret). */
  key: z.string(),
  userId: z.number(),
  name: z.string().optional(),
  mode: z.enum(['classic', 'unified', 'unknown']),
  perms: PermMatrix,
  ipWhitelist: z.array(z.string()),
  state: z.enum(['normal', 'frozen', 'locked', 'unknown']),
  /** Unix seconds. */
  createdAt: z.number().optional(),
  updatedAt: z.number().optional(),
  /** Unix seconds of the last use; absent when never used. */
  lastAccess: z.number().optional(),
  expiry: KeyExpiry,
  /** Whether this app keeps the key's secret in the OS keychain. */
  secretInKeychain: z.boolean(),
});
export type KeyView = z.infer<typeof KeyView>;

const userId = z.number().int().positive();
const keyId = z
  .string()
  .max(128)
  .regex(/^[A-Za-z0-9]{8,128}$/, 'Not a key id');
const keyName = z
  .string()
  .trim()
  .min(1, 'Give the key a name.')
  .max(50, 'Use at most 50 characters.')
  .superRefine(safeText('name'));

export const keys = {
  list: operation(
    'API keys of a sub-account with permissions, IP whitelist, last access, age and the 90-day expiry of unbound keys.',
    z.object({ userId }).strict(),
    z.object({ keys: z.array(KeyView) }),
  ),
  create: operation(
    'Creates a key; its secret is shown once in the shell’s own page (never returned to the window), and kept in the OS keychain only when asked.',
    z
      .object({
        userId,
        name: keyName,
        mode: z.enum(['classic', 'unified']),
        perms: PermMatrix,
        ipWhitelist: IpWhitelist,
        keepSecretInKeychain: z.boolean(),
      })
      .strict()
      .refine((v) => Object.values(v.perms).some((a) => a !== 'none'), {
        message: 'Give the key at least one permission.',
        path: ['perms'],
      }),
    z.object({
      key: KeyView,
      /** True when the shell's own page showed the secret (the person closed it). */
      secretShown: z.boolean(),
      /** True when the secret was written to the OS keychain. */
      secretStored: z.boolean(),
      /** Why it was not stored although asked (keychain unavailable …). */
      storeProblem: z.string().optional(),
    }),
  ),
  update: operation(
    'Updates name, permissions and IP whitelist; always sends the full whitelist and permissions (omitting clears them).',
    z
      .object({
        userId,
        key: keyId,
        name: keyName,
        perms: PermMatrix,
        ipWhitelist: IpWhitelist,
      })
      .strict(),
    KeyView,
  ),
  delete: operation(
    'Deletes a key on the platform and forgets its secret in the keychain.',
    z.object({ userId, key: keyId }).strict(),
    z.object({ deleted: z.literal(true), secretForgotten: z.boolean() }),
  ),
};
