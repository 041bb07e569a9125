/**
 * Enrolment requests: how an operator's key, made on their own desk, reaches the control chain.
 *
 * 1. On their desk the operator makes their key pair (identity.ts `createOperatorKey`, sealed under
 *    their passphrase) and files a request signed with the new key (`request`): their id, name, the
 *    role asked for and the public key. The request grants nothing.
 * 2. An administrator, after comparing the key's fingerprint with the operator out of band, prepares
 *    the `operator.enrol` control change from it (`prepare`: the request's signature is checked
 *    first, so a row written by a database user is refused).
 * 3. Another administrator applies it (four eyes; the team's only administrator applies it alone,
 *    and the state says four eyes are not in force). From then on the operator's signatures verify.
 */
import { recordChange } from './changes';
import type { PendingChange, TeamControl } from './control';
import { sqlMs, type TeamDatabase } from './database';
import { teamRefused } from './errors';
import { type OperatorSigner, type SignedRecord, verifySignature } from './identity';
import { type EnrolledOperator, EnrolmentRequest, parseBody } from './records';

export interface StoredEnrolment {
  readonly request: EnrolmentRequest;
  /** The enrolment control change prepared from it, once an administrator did. */
  readonly changeId: string | null;
  readonly requestedAt: number;
}

interface Row {
  operator_id: string;
  body: string;
  signature: string;
  change_id: string | null;
  requested_ms: string;
}

/** An enrolment request signed with the operator's new key (proof that their desk holds it). */
export const signEnrolmentRequest = (
  teamId: string,
  signer: OperatorSigner,
  operator: Omit<EnrolledOperator, 'id' | 'publicKey'>,
  deskId: string,
  at: number,
): SignedRecord =>
  signer.sign({
    type: 'enrolment.request',
    team: teamId,
    operator: { ...operator, id: signer.operatorId, publicKey: signer.publicKey },
    desk: deskId,
    requestedAt: at,
  } satisfies EnrolmentRequest);

export class TeamEnrolments {
  constructor(
    private readonly db: TeamDatabase,
    private readonly teamId: string,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Files the request of an operator whose key was just made on this desk, signed with that key. The
   * same operator asking again (a retry, a new key) replaces a request no administrator has prepared
   * yet, or whose enrolment change was rejected or expired.
   */
  async request(signer: OperatorSigner, operator: Omit<EnrolledOperator, 'id' | 'publicKey'>, deskId: string) {
    const record = signEnrolmentRequest(this.teamId, signer, operator, deskId, this.now());
    await this.file(record);
    return parseBody(EnrolmentRequest, record.body)!;
  }

  /** Files a request signed earlier (`signEnrolmentRequest`: when a desk's joining waited for approval). */
  async file(record: SignedRecord): Promise<void> {
    const request = parseBody(EnrolmentRequest, record.body);
    if (request === undefined || request.team !== this.teamId)
      throw teamRefused('That enrolment request is not for this team.', 'Request the enrolment again.');
    const operator = request.operator;
    await this.db.transaction(async (tx) => {
      const written = await tx.query(
        `INSERT INTO enrolment_requests (operator_id, name, public_key, desk_id, body, signature) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (operator_id) DO UPDATE SET name = excluded.name, public_key = excluded.public_key, desk_id = excluded.desk_id,
           body = excluded.body, signature = excluded.signature, change_id = NULL, requested_at = now()
         WHERE enrolment_requests.change_id IS NULL OR EXISTS (
           SELECT 1 FROM control_changes c WHERE c.id = enrolment_requests.change_id
              AND (c.state IN ('rejected', 'expired') OR (c.state = 'pending' AND c.expires_at <= now())))
         RETURNING 1`,
        [operator.id, operator.name, operator.publicKey, request.desk, record.body, record.signature],
      );
      if (written.length === 0)
        throw teamRefused(
          'An administrator already prepared this operator’s enrolment.',
          'Wait until another administrator applies it in Approvals.',
        );
      await recordChange(tx, 'control.changed', `enrolment:${operator.id}`);
    });
  }

  /** Requests whose self-signature verifies, oldest first (a row a database user wrote is left out). */
  async list(): Promise<StoredEnrolment[]> {
    const rows = await this.db.query<Row>(
      `SELECT operator_id, body, signature, change_id, ${sqlMs('requested_at')} AS requested_ms
         FROM enrolment_requests ORDER BY requested_at`,
    );
    return rows.flatMap((r) => {
      const request = parseBody(EnrolmentRequest, r.body);
      if (
        request === undefined ||
        request.team !== this.teamId ||
        request.operator.id !== r.operator_id ||
        !verifySignature(request.operator.publicKey, r.body, r.signature)
      )
        return [];
      return [{ request, changeId: r.change_id, requestedAt: Number(r.requested_ms) }];
    });
  }

  /**
   * An administrator prepares the enrolment control change from a request (its self-signature
   * checked again). Returns the pending change; the caller applies it (or another administrator does).
   */
  async prepare(operatorId: string, control: TeamControl, admin: OperatorSigner): Promise<PendingChange> {
    const stored = (await this.list()).find((e) => e.request.operator.id === operatorId);
    if (stored === undefined)
      throw teamRefused('There is no enrolment request of that operator.', 'Ask them to request it from their desk.');
    if (stored.changeId !== null)
      throw teamRefused('That enrolment is already prepared.', 'Another administrator applies it in Approvals.');
    const pending = await control.prepare(this.teamId, admin, {
      kind: 'operator.enrol',
      operator: stored.request.operator,
    });
    await this.db.query('UPDATE enrolment_requests SET change_id = $2 WHERE operator_id = $1 AND change_id IS NULL', [
      operatorId,
      pending.changeId,
    ]);
    return pending;
  }
}
