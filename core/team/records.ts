/**
 * The records operators sign, as zod schemas (a stored body is parsed with its schema before anything
 * trusts it). Every record names its team (a record of one team means nothing in another) and its
 * type; amounts are decimal strings, times integers (ms), never floats (canonical.ts refuses them).
 *
 * - `movement.request`  the maker's request: exactly what will be sent, the policy version it was
 *                       checked under, how many approvals that policy asks for;
 * - `decision`          an approval or a rejection of a movement or a whole batch (or the rejection
 *                       of a control change) by its hash;
 * - `batch`             a batch's name and the hashes of its rows' requests;
 * - `control.change`    a change to who may act or how money is guarded, as prepared;
 * - `control.link`      the change applied: a link of the control chain (seq, previous link's hash),
 *                       signed by the approving administrator;
 * - `control.reject`    a prepared change refused;
 * - `enrolment.request` an operator's new public key, signed with it, waiting for an administrator;
 * - `audit`             an entry of the team's audit chain.
 */
import { z } from 'zod';
import { CurrencyCode, PositiveAmount } from '../../shared/contract/funding';
import { OperatorRole } from '../../shared/contract/operators';
import { canonicalJson } from './canonical';

const Id = z.string().min(1).max(200);
const Hash = z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 hash');
const Ms = z.number().int().nonnegative();
const Seq = z.number().int().nonnegative();
const Amount = z.string().regex(/^\d+(\.\d+)?$/, 'a decimal string');
/** Public keys: raw Ed25519, base64url (43 characters). */
const PublicKey = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'an Ed25519 public key (base64url)');

/** JSON that canonical.ts can sign: strings, safe integers, booleans, null, arrays, objects. */
type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
const Json: z.ZodType<Json> = z.lazy(() =>
  z.union([z.string(), z.number().int(), z.boolean(), z.null(), z.array(Json), z.record(z.string(), Json)]),
);

/** The policy a record was checked under: the profile's version number and the hash of its body. */
export const PolicyRef = z.object({ version: z.number().int().positive(), hash: Hash }).strict();
export type PolicyRef = z.infer<typeof PolicyRef>;

export const MovementRequest = z
  .object({
    type: z.literal('movement.request'),
    team: Id,
    movementId: Id,
    requestKey: Id,
    clientId: Id,
    profileId: Id,
    kind: Id,
    currency: CurrencyCode,
    amount: PositiveAmount,
    /** Its value in USDT when the policy's USDT limits count it (absent: not valued). */
    usdtValue: Amount.optional(),
    /** What the approver reads: the destination in words (address and label, UID, account). */
    destination: z.string().max(500),
    /** The request exactly as the engine will send it. */
    params: z.record(z.string(), Json),
    batch: z.object({ id: Id, row: z.number().int().nonnegative() }).strict().optional(),
    policy: PolicyRef,
    /** How many approvers other than the maker the policy asks for (0: none). */
    approvalsRequired: z.number().int().min(0).max(10),
    reasons: z.array(z.string().max(300)).max(20),
    /** Where it was asked for, in words: `screen`, or a batch row confirmed as a whole (authorize.ts originText). */
    origin: z.string().max(500).optional(),
    /** The control chain's head the maker's desk had verified: the maker's role is read there. */
    controlSeq: Seq,
    maker: Id,
    preparedAt: Ms,
    /**
     * Until when it may be approved and sent (the maker's clock). No desk sends it later, whatever the
     * database says: a request cannot be kept alive, or replayed, past it.
     */
    expiresAt: Ms,
  })
  .strict();
export type MovementRequest = z.infer<typeof MovementRequest>;

export const Decision = z
  .object({
    type: z.literal('decision'),
    team: Id,
    decision: z.enum(['approve', 'reject']),
    /** What is decided: a movement's, a batch's or a control change's id, and the hash of its signed body. */
    subject: z.object({ kind: z.enum(['movement', 'batch', 'control']), id: Id, hash: Hash }).strict(),
    operator: Id,
    controlSeq: Seq,
    reason: z.string().max(500),
    decidedAt: Ms,
  })
  .strict();
export type Decision = z.infer<typeof Decision>;

export const Batch = z
  .object({
    type: z.literal('batch'),
    team: Id,
    batchId: Id,
    profileId: Id,
    name: z.string().max(200),
    /** The body hash of each row's movement request, in row order. */
    rows: z.array(Hash).min(1).max(10_000),
    maker: Id,
    controlSeq: Seq,
    preparedAt: Ms,
  })
  .strict();
export type Batch = z.infer<typeof Batch>;

export const EnrolledOperator = z
  .object({ id: Id, name: z.string().min(1).max(100), role: OperatorRole, publicKey: PublicKey })
  .strict();
export type EnrolledOperator = z.infer<typeof EnrolledOperator>;

/**
 * An operator asks to be enrolled from their own desk: the record names them and their new public key
 * and is signed with that key (proof that the desk holds the private key). It grants nothing: an
 * administrator prepares the enrolment control change from it, after comparing the key's fingerprint
 * with the operator out of band, and another administrator applies it.
 */
export const EnrolmentRequest = z
  .object({
    type: z.literal('enrolment.request'),
    team: Id,
    operator: EnrolledOperator,
    desk: Id,
    requestedAt: Ms,
  })
  .strict();
export type EnrolmentRequest = z.infer<typeof EnrolmentRequest>;

/** What a control change does. More kinds join as the control plane moves into the team (docs/team.md). */
export const ControlAction = z.discriminatedUnion('kind', [
  /** The genesis (seq 0): the team and its first administrator, who signs it with their own new key. */
  z.object({ kind: z.literal('team.create'), name: z.string().min(1).max(100), admin: EnrolledOperator }).strict(),
  z.object({ kind: z.literal('operator.enrol'), operator: EnrolledOperator }).strict(),
  z.object({ kind: z.literal('operator.role'), operatorId: Id, role: OperatorRole }).strict(),
  z.object({ kind: z.literal('operator.remove'), operatorId: Id }).strict(),
  /** A profile's policy, version n (the previous one was n − 1). */
  z
    .object({ kind: z.literal('policy.set'), profileId: Id, version: z.number().int().positive(), policy: Json })
    .strict(),
  /** Any other control operation of the desk (profiles, keys, sub-accounts, …), before → after. */
  z.object({ kind: z.literal('desk.operation'), operation: Id, params: Json }).strict(),
]);
export type ControlAction = z.infer<typeof ControlAction>;

export const ControlChange = z
  .object({
    type: z.literal('control.change'),
    team: Id,
    changeId: Id,
    action: ControlAction,
    preparedBy: Id,
    preparedAt: Ms,
  })
  .strict();
export type ControlChange = z.infer<typeof ControlChange>;

/** A link of a hash chain (the control chain, the audit chain): its place and the previous link's hash ('' for the first). */
const Link = { team: Id, seq: Seq, prev: z.union([Hash, z.literal('')]) };

export const ControlLink = z
  .object({
    type: z.literal('control.link'),
    ...Link,
    changeId: Id,
    changeHash: Hash,
    appliedBy: Id,
    appliedAt: Ms,
  })
  .strict();
export type ControlLink = z.infer<typeof ControlLink>;

export const AuditEntry = z
  .object({
    type: z.literal('audit'),
    ...Link,
    at: Ms,
    desk: Id,
    operator: Id.optional(),
    action: Id,
    params: Json,
    outcome: z.string().max(200),
  })
  .strict();
export type AuditEntry = z.infer<typeof AuditEntry>;

/**
 * Parses a stored body with its schema; undefined when it is not valid JSON, not that record, or not
 * in canonical form (so what was signed is exactly what is used: no key the schema would drop, no
 * value it would trim).
 */
export const parseBody = <T>(schema: z.ZodType<T>, body: string): T | undefined => {
  try {
    const parsed = schema.safeParse(JSON.parse(body));
    return parsed.success && canonicalJson(parsed.data) === body ? parsed.data : undefined;
  } catch {
    return undefined;
  }
};
