/**
 * A movement's signature chain, verified before any desk sends it: who prepared it, who approved it,
 * under which policy version, each signer's role at that time (from the verified control chain) and
 * still now. The database's columns are believed only where they equal the signed body. Anything that
 * does not verify is refused as a whole and named (`problem`): the desk sends nothing and every desk
 * shows the alert (the movement is `blocked`).
 */
import { sha256 } from './canonical';
import { type ControlState, mayAct, type PolicyVersion } from './controlChain';
import { type SignedRecord, verifySignature } from './identity';
import { Batch, Decision, MovementRequest, parseBody } from './records';

/** A movement as read from the database: its signed request, its columns, the decisions on it and on its batch. */
export interface MovementEvidence {
  readonly request: SignedRecord;
  readonly columns: {
    readonly id: string;
    readonly profileId: string;
    readonly kind: string;
    readonly requestKey: string;
    readonly clientId: string;
    readonly currency: string;
    readonly amount: string;
    readonly usdtValue: string | null;
    readonly approvalsRequired: number;
    readonly batchId: string | null;
  };
  readonly decisions: readonly SignedRecord[];
  readonly batch?: { readonly record: SignedRecord; readonly decisions: readonly SignedRecord[] };
}

export type MovementVerdict =
  | {
      readonly ok: true;
      readonly request: MovementRequest;
      /** Operators whose valid approvals count, maker excluded. */
      readonly approvers: readonly string[];
      readonly policy: PolicyVersion;
    }
  | {
      readonly ok: false;
      /** In words, for the alert or the movement's message. */
      readonly problem: string;
      /**
       * What the desk does: `tampered` — block it and alert every desk (something in the database was
       * not written by the operators it names); `rejected` — an approver rejected it; `policyChanged`
       * — the profile's policy changed since it was prepared (prepare it again); `expired` — its signed
       * time ran out. None of them is ever sent.
       */
      readonly cause: 'tampered' | 'rejected' | 'policyChanged' | 'expired';
    };

export interface VerifyOptions {
  /** The verifying desk's clock (ms), compared with the request's signed `expiresAt`. */
  readonly now?: number;
  /**
   * Issue 20's cooling-off: an approver whose enrolment or last role change the maker prepared may not
   * approve the maker's movements for this long after it was applied (default 72 h).
   */
  readonly coolingOffMs?: number;
  /**
   * A movement another desk journaled `sent` is looked up whatever its age (it may have executed);
   * only a new send is bounded by the signed expiry (the caller checks it before resending).
   */
  readonly ignoreExpiry?: boolean;
}
export const DEFAULT_COOLING_OFF_MS = 72 * 3600_000;

/**
 * A maker's signed request alone: well formed, of this team, signed by its maker with their enrolled
 * key, and the maker could prepare movements when they signed and still can. What the Approvals
 * screen shows an approver is only ever a request that passed this (the rest is checked before sending).
 */
export const verifyRequest = (
  state: ControlState,
  record: SignedRecord,
): { readonly ok: true; readonly request: MovementRequest } | { readonly ok: false; readonly problem: string } => {
  const request = parseBody(MovementRequest, record.body);
  if (request === undefined) return { ok: false, problem: 'its request is not a well-formed signed record' };
  if (request.team !== state.team) return { ok: false, problem: 'its request belongs to another team' };
  if (record.signer !== request.maker) return { ok: false, problem: 'its stored signer is not its maker' };
  if (request.controlSeq > state.head.seq)
    return { ok: false, problem: 'its maker names control changes this desk has not verified' };
  const maker = state.operator(request.maker, request.controlSeq);
  if (maker === undefined || !mayAct(state, maker.id, 'make', request.controlSeq) || !mayAct(state, maker.id, 'make'))
    return { ok: false, problem: `its maker ${maker?.name ?? request.maker} may not prepare movements` };
  if (!verifySignature(maker.publicKey, record.body, record.signature))
    return {
      ok: false,
      problem: "its request's signature does not verify (the request was edited, or not signed by its maker)",
    };
  return { ok: true, request };
};

export const verifyMovement = (
  state: ControlState,
  evidence: MovementEvidence,
  options: VerifyOptions = {},
): MovementVerdict => {
  const fail = (problem: string): MovementVerdict => ({ ok: false, problem, cause: 'tampered' });
  const signed = verifyRequest(state, evidence.request);
  if (!signed.ok) return fail(signed.problem);
  const request = signed.request;
  const columns = evidence.columns;
  const copies: [string, unknown, unknown][] = [
    ['id', columns.id, request.movementId],
    ['profile', columns.profileId, request.profileId],
    ['kind', columns.kind, request.kind],
    ['request key', columns.requestKey, request.requestKey],
    ['client id', columns.clientId, request.clientId],
    ['currency', columns.currency, request.currency],
    ['amount', columns.amount, request.amount],
    ['USDT value', columns.usdtValue, request.usdtValue ?? null],
    ['approvals required', columns.approvalsRequired, request.approvalsRequired],
    ['batch', columns.batchId, request.batch?.id ?? null],
  ];
  for (const [what, stored, signed] of copies)
    if (stored !== signed) return fail(`its ${what} in the database differs from what the maker signed`);

  // The maker (checked by verifyRequest: a maker when they signed and still now; the signature is theirs).
  const maker = state.operator(request.maker, request.controlSeq)!;

  // The policy it was checked under must still be the profile's policy.
  const policy = state.policy(request.profileId);
  if (policy === undefined || policy.version !== request.policy.version || policy.hash !== request.policy.hash)
    return {
      ok: false,
      problem: `it was checked under policy version ${request.policy.version}, which is not the profile's policy now`,
      cause: 'policyChanged',
    };

  // The decisions on it, and on its batch when the batch lists it.
  const requestHash = sha256(evidence.request.body);
  const subjects: { kind: 'movement' | 'batch'; id: string; hash: string; decisions: readonly SignedRecord[] }[] = [
    { kind: 'movement', id: request.movementId, hash: requestHash, decisions: evidence.decisions },
  ];
  if (request.batch !== undefined) {
    const stored = evidence.batch;
    const batch = stored === undefined ? undefined : parseBody(Batch, stored.record.body);
    if (stored === undefined || batch === undefined)
      return fail('its batch is missing or not a well-formed signed record');
    if (
      batch.team !== state.team ||
      batch.batchId !== request.batch.id ||
      batch.rows[request.batch.row] !== requestHash
    )
      return fail('its batch does not list it');
    if (batch.maker !== request.maker || stored.record.signer !== batch.maker)
      return fail('its batch has another maker');
    if (!verifySignature(maker.publicKey, stored.record.body, stored.record.signature))
      return fail("its batch's signature does not verify");
    subjects.push({ kind: 'batch', id: batch.batchId, hash: sha256(stored.record.body), decisions: stored.decisions });
  }

  const approvers = new Set<string>();
  for (const subject of subjects)
    for (const record of subject.decisions) {
      const decision = parseBody(Decision, record.body);
      if (decision === undefined) return fail('a decision on it is not a well-formed signed record');
      if (decision.team !== state.team || record.signer !== decision.operator)
        return fail('a decision on it names another team or signer');
      if (
        decision.subject.kind !== subject.kind ||
        decision.subject.id !== subject.id ||
        decision.subject.hash !== subject.hash
      )
        return fail('a decision stored with it was made on something else');
      if (decision.controlSeq > state.head.seq)
        return fail('a decision names control changes this desk has not verified');
      const decider = state.operator(decision.operator, decision.controlSeq);
      if (decider === undefined || !verifySignature(decider.publicKey, record.body, record.signature))
        return fail("a decision's signature does not verify (it was added or edited in the database)");
      if (decision.decision === 'reject')
        return { ok: false, problem: `${decider.name} rejected it: ${decision.reason}`, cause: 'rejected' };
      if (decider.id === request.maker) return fail('its maker approved it');
      if (!mayAct(state, decider.id, 'approve', decision.controlSeq) || !mayAct(state, decider.id, 'approve'))
        return fail(`${decider.name} approved it without the approver role`);
      const coolingOffMs = options.coolingOffMs ?? DEFAULT_COOLING_OFF_MS;
      if (decider.setBy === request.maker && decision.decidedAt - decider.setAt < coolingOffMs)
        return fail(
          `${decider.name}'s role was set by its maker less than ${coolingOffMs / 3600_000} h before the approval`,
        );
      approvers.add(decider.id);
    }
  if (approvers.size < request.approvalsRequired)
    return fail(`it needs ${request.approvalsRequired} approval(s) and has ${approvers.size}`);
  if (!options.ignoreExpiry && (options.now ?? Date.now()) >= request.expiresAt)
    return { ok: false, problem: 'its time to be approved and sent ran out before it was sent', cause: 'expired' };
  return { ok: true, request, approvers: [...approvers], policy };
};
