/**
 * Operators and roles — the API other modules use (the approvals queue, policies, the trusted
 * confirmation, the journal, the audit log):
 *
 * - `Operators` (built once by core.ts, `internals.operators`): `current()` → `{id, name, role}` of
 *   the operator signed in, or undefined; `get(id)`, `list()`, `byName(name)`.
 * - `OperatorSource`: the one-method view (`current()`) to depend on; an approver may not approve a
 *   movement whose `operator` is their own name — compare with `current().name`.
 * - `can(role, access)`, `canMake`, `canApprove`, `canAdminister`: the role rule; `accessOf(op)` and
 *   `OPERATION_ACCESS`: what the dispatcher enforces per operation (add a line there for a new one).
 * - `hashPassphrase` / `verifyPassphrase`: scrypt with a per-hash salt, constant-time comparison.
 */
export { type Access, accessOf, can, canAdminister, canApprove, canMake, OPERATION_ACCESS } from './access';
export type { Operator, OperatorRole } from './operators';
export {
  FREE_ATTEMPTS,
  type OperatorInfo,
  type OperatorSource,
  Operators,
  stampIntentsWithOperator,
} from './operators';
export { DEFAULT_SCRYPT_COST, hashPassphrase, type ScryptCost, TEST_SCRYPT_COST, verifyPassphrase } from './passphrase';
