/**
 * The control chain, verified: who the team's operators are, their roles and public keys, and each
 * profile's policy versions, rebuilt on every desk from signed records alone. Nothing a database user
 * can write without an administrator's private key is believed:
 *
 * - seq 0, the genesis, creates the team and its first administrator, signed with that
 *   administrator's own new key; its link's hash is the team's fingerprint, which every desk pins
 *   when it joins (so a database user cannot swap in a team of their own);
 * - every later link applies one prepared change: the change is signed by an administrator, the link
 *   by an administrator — a different one whenever the team has two or more (four-eyes); with a
 *   single administrator the state says so (`fourEyes: false`);
 * - each link names the previous link's hash, so no link can be removed, reordered or rewritten
 *   without breaking the chain; a desk also passes the last head it verified (`anchor`), so dropping
 *   the newest links (a demotion, a removal) is caught too.
 */
import type { OperatorRole } from '../../shared/contract/operators';
import { type Access, can } from '../operators/access';
import { recordHash, sha256 } from './canonical';
import { type SignedRecord, verifySignature } from './identity';
import { type ControlAction, ControlChange, ControlLink, type EnrolledOperator, parseBody } from './records';

/** One stored link with the change it applies, as read from the database. */
export interface StoredLink {
  readonly seq: number;
  readonly change: SignedRecord;
  readonly link: SignedRecord;
}

/** An operator as of one point in the chain. */
export interface OperatorVersion {
  readonly id: string;
  readonly name: string;
  readonly publicKey: string;
  /** Undefined once removed. */
  readonly role: OperatorRole | undefined;
  /** The link that set this version, who prepared it and when it was applied (the applier's clock). */
  readonly sinceSeq: number;
  readonly setBy: string;
  readonly setAt: number;
}

export interface PolicyVersion {
  readonly profileId: string;
  readonly version: number;
  /** The policy as signed (the core's policy schema reads it). */
  readonly policy: unknown;
  /** recordHash of the policy: what a movement request names. */
  readonly hash: string;
  /** The link that set it. */
  readonly sinceSeq: number;
}

/** The head a desk verified last: kept by the desk, outside the database. */
export interface ChainAnchor {
  readonly seq: number;
  readonly hash: string;
}

export interface ControlState {
  readonly team: string;
  readonly name: string;
  /** The genesis link's hash: the team's identity. */
  readonly fingerprint: string;
  readonly head: ChainAnchor;
  /** Whether control changes need a second administrator now (two or more administrators). */
  readonly fourEyes: boolean;
  /** An operator as of a seq (default: the head), undefined before their enrolment. */
  operator(id: string, atSeq?: number): OperatorVersion | undefined;
  /** Every operator enrolled, as of the head (removed ones included, with no role). */
  operators(): OperatorVersion[];
  /** A profile's policy as of a seq (default: the head). */
  policy(profileId: string, atSeq?: number): PolicyVersion | undefined;
}

export type ChainVerdict =
  | { readonly ok: true; readonly state: ControlState }
  | { readonly ok: false; readonly problem: string };

class Timeline<T extends { sinceSeq: number }> {
  private readonly versions = new Map<string, T[]>();
  add(id: string, version: T): void {
    const list = this.versions.get(id) ?? [];
    list.push(version);
    this.versions.set(id, list);
  }
  at(id: string, seq: number): T | undefined {
    const list = this.versions.get(id);
    if (list === undefined) return undefined;
    for (let i = list.length - 1; i >= 0; i--) if (list[i]!.sinceSeq <= seq) return list[i];
    return undefined;
  }
  latest(): T[] {
    return [...this.versions.values()].map((list) => list[list.length - 1]!);
  }
}

/**
 * Verifies the whole chain (links in seq order from 0) against the fingerprint the desk pinned and
 * the last head it verified. Any broken signature, gap, rewritten or missing link fails it, naming
 * the seq: nothing built on a broken chain is believed.
 */
export const verifyControlChain = (
  links: readonly StoredLink[],
  trust: { readonly fingerprint?: string; readonly anchor?: ChainAnchor } = {},
): ChainVerdict => {
  const fail = (seq: number, problem: string): ChainVerdict => ({
    ok: false,
    problem: `Control change ${seq}: ${problem}`,
  });
  const operators = new Timeline<OperatorVersion>();
  const policies = new Timeline<PolicyVersion>();
  let team = '';
  let name = '';
  let prevHash = '';
  let fingerprint = '';

  const adminsAt = (seq: number) => operators.latest().filter((o) => operators.at(o.id, seq)?.role === 'admin').length;
  const isAdminAt = (id: string, seq: number) => mayAt(operators.at(id, seq), 'admin');

  for (const [index, stored] of links.entries()) {
    const seq = index;
    if (stored.seq !== seq) return fail(seq, `missing (found ${stored.seq} in its place)`);
    const change = parseBody(ControlChange, stored.change.body);
    const link = parseBody(ControlLink, stored.link.body);
    if (change === undefined) return fail(seq, 'the change is not a well-formed signed record');
    if (link === undefined) return fail(seq, 'the link is not a well-formed signed record');
    if (seq === 0) team = change.team;
    if (change.team !== team || link.team !== team) return fail(seq, 'it belongs to another team');
    if (link.seq !== seq) return fail(seq, `its link says seq ${link.seq}`);
    if (link.prev !== prevHash)
      return fail(seq, 'it does not follow the previous link (a link was removed, reordered or rewritten)');
    if (link.changeId !== change.changeId || link.changeHash !== sha256(stored.change.body))
      return fail(seq, 'the link applies another change than the one stored with it');
    if (stored.change.signer !== change.preparedBy || stored.link.signer !== link.appliedBy)
      return fail(seq, 'the stored signer is not the one the record names');

    const action = change.action;
    if (seq === 0) {
      if (action.kind !== 'team.create' || action.admin.role !== 'admin' || change.preparedBy !== action.admin.id)
        return fail(0, 'the genesis must create the team and its first administrator, signed by them');
      if (link.appliedBy !== action.admin.id) return fail(0, 'the genesis must be applied by its administrator');
      const key = action.admin.publicKey;
      if (
        !verifySignature(key, stored.change.body, stored.change.signature) ||
        !verifySignature(key, stored.link.body, stored.link.signature)
      )
        return fail(0, 'a signature does not verify');
      name = action.name;
      fingerprint = sha256(stored.link.body);
      if (trust.fingerprint !== undefined && trust.fingerprint !== fingerprint)
        return fail(0, 'this is not the team this desk joined (its fingerprint differs)');
      operators.add(action.admin.id, enrolled(action.admin, 0, action.admin.id, link.appliedAt));
      prevHash = fingerprint;
      continue;
    }

    const before = seq - 1;
    const preparer = operators.at(change.preparedBy, before);
    const applier = operators.at(link.appliedBy, before);
    if (preparer === undefined || !isAdminAt(preparer.id, before))
      return fail(seq, 'it was prepared by someone who was not an administrator');
    if (applier === undefined || !isAdminAt(applier.id, before))
      return fail(seq, 'it was applied by someone who was not an administrator');
    if (!verifySignature(preparer.publicKey, stored.change.body, stored.change.signature))
      return fail(seq, "the change's signature does not verify (the change was edited, or not signed by its preparer)");
    if (!verifySignature(applier.publicKey, stored.link.body, stored.link.signature))
      return fail(seq, "the link's signature does not verify");
    if (adminsAt(before) >= 2 && applier.id === preparer.id)
      return fail(
        seq,
        'it was applied by the administrator who prepared it, while the team had a second administrator',
      );

    const applied = apply(action, seq, change.preparedBy, link.appliedAt, operators, policies, adminsAt(before));
    if (applied !== undefined) return fail(seq, applied);
    prevHash = sha256(stored.link.body);
  }

  if (links.length === 0)
    return { ok: false, problem: 'The team has no genesis: it was never created, or its control chain was removed.' };
  const head: ChainAnchor = { seq: links.length - 1, hash: prevHash };
  if (trust.anchor !== undefined) {
    const anchorLink = links[trust.anchor.seq];
    if (anchorLink === undefined || sha256(anchorLink.link.body) !== trust.anchor.hash)
      return {
        ok: false,
        problem: `The control chain no longer contains change ${trust.anchor.seq} as this desk verified it: changes were removed or rewritten.`,
      };
  }
  const headSeq = head.seq;
  return {
    ok: true,
    state: {
      team,
      name,
      fingerprint,
      head,
      fourEyes: adminsAt(headSeq) >= 2,
      operator: (id, atSeq = headSeq) => operators.at(id, atSeq),
      operators: () => operators.latest(),
      policy: (profileId, atSeq = headSeq) => policies.at(profileId, atSeq),
    },
  };
};

const enrolled = (o: EnrolledOperator, seq: number, by: string, at: number): OperatorVersion => ({
  id: o.id,
  name: o.name,
  publicKey: o.publicKey,
  role: o.role,
  sinceSeq: seq,
  setBy: by,
  setAt: at,
});

/** Applies one change to the state; returns why it cannot be applied, if it cannot. */
const apply = (
  action: ControlAction,
  seq: number,
  by: string,
  at: number,
  operators: Timeline<OperatorVersion>,
  policies: Timeline<PolicyVersion>,
  admins: number,
): string | undefined => {
  switch (action.kind) {
    case 'team.create':
      return 'the team can be created only once (seq 0)';
    case 'operator.enrol': {
      const o = action.operator;
      if (operators.at(o.id, seq) !== undefined) return `operator ${o.id} is already enrolled`;
      if (operators.latest().some((v) => v.role !== undefined && v.name === o.name))
        return `the name ${o.name} is taken`;
      if (operators.latest().some((v) => v.publicKey === o.publicKey)) return 'that public key is already enrolled';
      operators.add(o.id, enrolled(o, seq, by, at));
      return undefined;
    }
    case 'operator.role':
    case 'operator.remove': {
      const current = operators.at(action.operatorId, seq);
      if (current?.role === undefined) return `operator ${action.operatorId} is not an active operator`;
      const role = action.kind === 'operator.role' ? action.role : undefined;
      if (current.role === 'admin' && role !== 'admin' && admins <= 1)
        return 'the last administrator cannot be demoted or removed';
      operators.add(action.operatorId, { ...current, role, sinceSeq: seq, setBy: by, setAt: at });
      return undefined;
    }
    case 'policy.set': {
      const previous = policies.at(action.profileId, seq)?.version ?? 0;
      if (action.version !== previous + 1)
        return `policy version ${action.version} does not follow version ${previous}`;
      policies.add(action.profileId, {
        profileId: action.profileId,
        version: action.version,
        policy: action.policy,
        hash: recordHash(action.policy),
        sinceSeq: seq,
      });
      return undefined;
    }
    case 'desk.operation':
      return undefined;
  }
};

const mayAt = (version: OperatorVersion | undefined, access: Access): boolean =>
  version?.role !== undefined && can(version.role, access);

/** Whether an operator's role at a seq (default: the head) allows `access` (a removed operator's allows nothing). */
export const mayAct = (state: ControlState, id: string, access: Access, atSeq?: number): boolean =>
  mayAt(state.operator(id, atSeq), access);
