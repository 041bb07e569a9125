/**
 * Who is at the desk. The operators module (electron/core/operators/, roles viewer / maker /
 * approver / admin, a passphrase each) provides this; until a core is given one, every call is made
 * by the one implicit operator, an admin (a desk with a single person: approvals by "another
 * operator" cannot happen then, see docs/approvals.md).
 */
export type OperatorRole = 'viewer' | 'maker' | 'approver' | 'admin';

export interface OperatorInfo {
  readonly id: string;
  readonly name: string;
  readonly role: OperatorRole;
}

export interface OperatorSource {
  /** The operator signed in now, or undefined when nobody is (then nothing that changes anything runs). */
  current(): OperatorInfo | undefined;
}

export const SINGLE_OPERATOR: OperatorInfo = { id: 'local', name: 'Local operator', role: 'admin' };

export const singleOperator: OperatorSource = { current: () => SINGLE_OPERATOR };

const RANK: Record<OperatorRole, number> = { viewer: 0, maker: 1, approver: 2, admin: 3 };

/** Makers prepare movements; approvers also approve; admins also change policies. */
export const canMake = (role: OperatorRole): boolean => RANK[role] >= RANK.maker;
export const canApprove = (role: OperatorRole): boolean => RANK[role] >= RANK.approver;
export const canAdminister = (role: OperatorRole): boolean => role === 'admin';
