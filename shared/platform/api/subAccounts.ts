/** Sub-account group and the account/STP operations: requests and responses. */
import { z } from 'zod';
import { SubAccountPermissionName } from '../statuses';
import { idString, int64, optSeconds, optText } from './common';

export const SubAccount = z.object({
  remark: optText,
  login_name: z.string(),
  email: optText,
  state: z.number().int().optional(),
  type: z.number().int().optional(),
  user_id: int64,
  create_time: optSeconds,
});
export type SubAccount = z.infer<typeof SubAccount>;

export const SubAccountKeyPerm = z.object({ name: z.string(), read_only: z.boolean().default(false) });
export type SubAccountKeyPerm = z.infer<typeof SubAccountKeyPerm>;

/** A sub-account key as listed: never carries a secret (the schema strips it if sent). */
export const SubAccountKey = z.object({
  user_id: int64.optional(),
  mode: z.number().int().optional(),
  name: optText,
  perms: z
    .array(SubAccountKeyPerm)
    .nullish()
    .transform((v) => v ?? []),
  ip_whitelist: z
    .array(z.string())
    .nullish()
    .transform((v) => v ?? []),
  key: z.string(),
  state: z.number().int().optional(),
  created_at: optSeconds,
  updated_at: optSeconds,
  last_access: optSeconds,
});
export type SubAccountKey = z.infer<typeof SubAccountKey>;

/** The answer to key creation: the only time the platform returns the secret. */
export const CreatedSubAccountKey = SubAccountKey.extend({ secret: z.string() });
export type CreatedSubAccountKey = z.infer<typeof CreatedSubAccountKey>;

/** The permission names of a sub-account key (one list, in shared/platform/statuses.ts). */
export const SubAccountPermName = SubAccountPermissionName;

const ipv4 = z
  .string()
  .regex(/^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/, 'Not an IPv4 address');

export const SubAccountKeyRequest = z.object({
  mode: z.union([z.literal(1), z.literal(2)]).optional(),
  name: z.string().max(100).optional(),
  perms: z.array(z.object({ name: SubAccountPermName, read_only: z.boolean() })),
  /** Always sent in full: the platform clears the whitelist when it is omitted. */
  ip_whitelist: z.array(ipv4).max(20),
});
export type SubAccountKeyRequest = z.infer<typeof SubAccountKeyRequest>;

export const CreateSubAccountRequest = z.object({
  login_name: z.string().regex(/^[A-Za-z0-9_]+$/, 'Letters, digits and underscore only'),
  remark: z.string().optional(),
  password: z.string().optional(),
  email: z.string().optional(),
});
export type CreateSubAccountRequest = z.infer<typeof CreateSubAccountRequest>;

export const SubUserMode = z.object({
  user_id: int64,
  is_unified: z.boolean().optional(),
  mode: z.string(),
});
export type SubUserMode = z.infer<typeof SubUserMode>;

export const StpGroup = z.object({
  id: int64,
  name: z.string(),
  creator_id: int64.optional(),
  create_time: optSeconds,
});
export type StpGroup = z.infer<typeof StpGroup>;

export const StpGroupUser = z.object({
  user_id: int64,
  stp_id: int64.optional(),
  create_time: optSeconds,
});
export type StpGroupUser = z.infer<typeof StpGroupUser>;

export const AccountDetail = z.object({
  user_id: int64,
  ip_whitelist: z
    .array(z.string())
    .nullish()
    .transform((v) => v ?? []),
  currency_pairs: z
    .array(z.string())
    .nullish()
    .transform((v) => v ?? []),
  key: z.object({ mode: z.number().int().optional() }).nullish(),
  tier: z.number().int().optional(),
  copy_trading_role: z.number().int().optional(),
});
export type AccountDetail = z.infer<typeof AccountDetail>;

export const idText = idString;
