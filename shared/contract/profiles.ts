/**
 * Operations of the `profiles` area: where the app connects (the built-in sandbox, testnet, live,
 * the futures alternative entry), the one main key of each profile, the connection check and the
 * connection status (clock offset, rate-limit budget, last error).
 * Secrets go in (setKey) and never come out: only a masked key id is returned.
 */
import { z } from 'zod';
import { operation } from '../ipc/define';
import { safeText } from './text';

/**
 * Where a profile connects. Live, testnet and the futures alternative entry have fixed addresses
 * that main holds (a stored or typed address is never used for them); `custom` is an https
 * endpoint the person names (a proxy), fixed when the profile is created.
 */
export const ProfileKind = z.enum(['sandbox', 'testnet', 'live', 'futures_alt', 'custom']);

/** Kinds that may move real money (a custom endpoint is taken to be a proxy of the live platform). */
export const isRealMoney = (kind: ProfileKind | undefined): boolean =>
  kind === 'live' || kind === 'futures_alt' || kind === 'custom';
export type ProfileKind = z.infer<typeof ProfileKind>;

export const Profile = z.object({
  id: z.string(),
  kind: ProfileKind,
  name: z.string(),
  /** Base URL including /api/v4. */
  baseUrl: z.string(),
  /** Masked API key ("abcd…wxyz"); absent when no key is stored. */
  keyMask: z.string().optional(),
  /** The key's account (main user id), once connected. */
  userId: z.number().int().optional(),
  active: z.boolean(),
  /** The built-in sandbox and the embedded key are managed by the app. */
  managed: z.boolean(),
});
export type ProfileView = z.infer<typeof Profile>;

export const LimiterBucket = z.object({
  key: z.string(),
  scope: z.string(),
  limit: z.number().int(),
  windowMs: z.number().int(),
  used: z.number().int(),
  queued: z.number().int(),
  blockedUntil: z.number().optional(),
});

export const LimiterStatus = z.object({
  /** Requests waiting for a slot across all buckets. */
  queued: z.number().int(),
  /** The tightest bucket's remaining budget, 0..1. */
  headroom: z.number(),
  buckets: z.array(LimiterBucket),
});
export type LimiterStatus = z.infer<typeof LimiterStatus>;

export const ConnectionState = z.enum(['disconnected', 'connecting', 'connected', 'error']);

export const ConnectionStatus = z.object({
  profileId: z.string().nullable(),
  state: ConnectionState,
  /** Platform clock minus this computer's clock, ms. */
  clockOffsetMs: z.number().optional(),
  /** True when the offset is large enough to point at a wrong OS clock. */
  clockWarning: z.boolean(),
  /** The last error in plain words, with the platform label when there is one. */
  lastError: z
    .object({ message: z.string(), label: z.string().optional(), advice: z.string().optional(), at: z.number() })
    .optional(),
  limiter: LimiterStatus,
  /** Unresolved money movements (being checked with the platform). */
  unresolvedMovements: z.number().int(),
  checkedAt: z.number().optional(),
});
export type ConnectionStatus = z.infer<typeof ConnectionStatus>;

export const CheckName = z.enum(['reachability', 'clock', 'signature', 'ipWhitelist', 'permissions', 'environment']);
export const CheckOutcome = z.enum(['ok', 'warning', 'failed', 'skipped']);

/**
 * `read`: reads of the group are allowed; whether the key may also write was not tested (the
 * connection check on connect only reads; the deep check tells read-write from read-only).
 */
export const PermissionLevel = z.enum(['read-write', 'read-only', 'read', 'none', 'unknown']);
export const PermissionGroup = z.enum(['spot', 'wallet', 'withdrawal', 'subAccounts']);

export const ConnectionCheck = z.object({
  profileId: z.string(),
  checkedAt: z.number(),
  ok: z.boolean(),
  checks: z.array(
    z.object({
      name: CheckName,
      outcome: CheckOutcome,
      /** What was found, in plain words. */
      detail: z.string(),
      advice: z.string().optional(),
      label: z.string().optional(),
      requestId: z.string().optional(),
    }),
  ),
  permissions: z.record(PermissionGroup, PermissionLevel),
  clockOffsetMs: z.number().optional(),
  /** IPv4 whitelist of the key (empty: any IP). */
  ipWhitelist: z.array(z.string()),
  userId: z.number().int().optional(),
  /** Whether the write-permission probes (`DEEP_CHECK_PROBES`) were sent. */
  deep: z.boolean().optional(),
});
export type ConnectionCheck = z.infer<typeof ConnectionCheck>;

/**
 * What the deep check sends, in plain words, for the screen to show before the person starts it.
 * Each is a write the platform must refuse on its input, so nothing can execute; the refusal's
 * label tells whether the key may write. The check on connect never sends them.
 */
export const DEEP_CHECK_PROBES: readonly string[] = [
  'Spot: cancel order id 0 on BTC_USDT (no such order exists).',
  'Wallet: transfer 0 USDT from spot to margin (BTC_USDT) (a zero amount is refused).',
  'Withdrawals: withdraw 0 USDT on TRX to the address “probe” (a zero amount to an invalid address is refused).',
  'Sub-accounts: freeze sub-account 0 (no such sub-account exists).',
];

const ProfileId = z.string().min(1).max(64);
const Name = z
  .string()
  .trim()
  .min(1, 'Give the profile a name')
  .max(60, 'At most 60 characters')
  .superRefine(safeText('name'));
export const BaseUrl = z
  .string()
  .trim()
  .max(300)
  // shared/ has no URL class (no DOM or Node types): scheme, host, optional port and path, no query.
  .regex(/^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?(\/[^\s?#]*)?$/, 'Enter the address as https://host/api/v4')
  .refine((v) => /\/api\/v4\/?$/.test(v), 'The address ends with /api/v4')
  // Signed requests carry the key id and their answers are trusted: never over plain http.
  .refine((v) => v.startsWith('https://'), 'Only an https address is accepted');

/** API key and secret as typed by the person (printable ASCII, no spaces). */
const KeyText = z
  .string()
  .trim()
  .min(8, 'This is too short for an API key')
  .max(128)
  .regex(/^[\x21-\x7e]+$/, 'No spaces or special characters');

export const profiles = {
  list: operation('Every profile, the active one marked.', z.object({}).strict(), z.array(Profile)),
  active: operation('The active profile.', z.object({}).strict(), Profile.nullable()),
  switch: operation(
    'Makes a profile active: everything (client, limiter, watchers, caches) switches; runs the connection check.',
    z.object({ id: ProfileId }).strict(),
    ConnectionStatus,
  ),
  add: operation(
    'Adds a testnet, live, futures-alternative or custom-endpoint profile. Live, testnet and the futures alternative use the platform’s addresses, which main holds; a custom endpoint is an https address given here, fixed for the profile’s life.',
    z
      .object({
        kind: z.enum(['testnet', 'live', 'futures_alt', 'custom']),
        name: Name,
        /** Only for `custom`, and required there. */
        baseUrl: BaseUrl.optional(),
      })
      .strict()
      .refine((v) => v.kind !== 'custom' || v.baseUrl !== undefined, {
        message: 'Enter the endpoint’s https address',
        path: ['baseUrl'],
      })
      .refine((v) => v.kind === 'custom' || v.baseUrl === undefined, {
        message: 'This kind of profile uses the platform’s own address; it cannot be changed',
        path: ['baseUrl'],
      }),
    Profile,
  ),
  update: operation(
    'Renames a profile. (No profile’s address can be changed: a custom endpoint is another profile, with its own key.)',
    z.object({ id: ProfileId, name: Name.optional() }).strict(),
    Profile,
  ),
  remove: operation(
    'Removes a profile and its key from the keychain (not the active one, not the built-in sandbox).',
    z.object({ id: ProfileId }).strict(),
    z.object({ removed: z.boolean() }),
  ),
  setKey: operation(
    'Stores the profile’s main API key and secret in the OS keychain (typed once; only a masked key id comes back).',
    z.object({ id: ProfileId, key: KeyText, secret: KeyText }).strict(),
    Profile,
  ),
  removeKey: operation(
    'Deletes the profile’s key from the OS keychain.',
    z.object({ id: ProfileId }).strict(),
    Profile,
  ),
  connectionCheck: operation(
    'Checks the active profile now with reads only: reachability, clock offset, signature, IP whitelist, read permissions per group, key environment. `deep: true` also sends the write probes of DEEP_CHECK_PROBES (refused by design) to tell read-write from read-only.',
    z
      .object({
        /** Send the write-permission probes too (only when the person asks for it). Default false. */
        deep: z.boolean().optional(),
      })
      .strict(),
    ConnectionCheck,
  ),
  status: operation(
    'Connection state of the active profile: clock offset, rate-limit budget and queue, last error.',
    z.object({}).strict(),
    ConnectionStatus,
  ),
  keychainStatus: operation(
    'Whether the OS keychain works, and how to fix it when it does not.',
    z.object({}).strict(),
    z.object({
      available: z.boolean(),
      backend: z.string(),
      problem: z.string().optional(),
      advice: z.string().optional(),
    }),
  ),
};

/** Events of the profiles area (spread into shared/contract/events.ts). */
export const profilesEvents = {
  /** Connection state, clock offset or last error changed (also after a profile switch). */
  'profiles.connectionChanged': ConnectionStatus,
  /** Rate-limit budget or queue changed (at most a few times per second). */
  'profiles.limiterChanged': LimiterStatus,
};
