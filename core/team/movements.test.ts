import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_SCRYPT_COST } from '../operators/passphrase';
import { canonicalJson, sha256 } from './canonical';
import type { ControlState } from './controlChain';
import { LeaseLost } from './errors';
import { createOperatorKey, type OperatorSigner } from './identity';
import { type Claim, TeamMovements } from './movements';
import type { Batch, MovementRequest } from './records';
import { skipWithoutPostgres } from './testing/postgres';
import { decision, movementRequest, rollingLimit, TEST_PROFILE, type TestTeam, withTestTeam } from './testing/team';
import { verifyMovement } from './verify';

const noLimit = () => undefined;

describe.skipIf(skipWithoutPostgres('team movements.test'))('the team movement journal on PostgreSQL', () => {
  const file = withTestTeam();
  let t: TestTeam;
  let state: ControlState;
  /** Two desks: A (t.db) and B, each with its own connection pool. */
  let deskA: TeamMovements;
  let deskB: TeamMovements;
  beforeAll(async () => {
    t = file.team;
    state = await t.state();
    deskA = new TeamMovements(t.db, 'desk-a');
    deskB = new TeamMovements(t.desk(), 'desk-b');
  });

  const prepare = async (maker: OperatorSigner = t.carol, overrides: Partial<MovementRequest> = {}, desk = deskA) => {
    const request = movementRequest(t, state, maker, overrides);
    const record = maker.sign(request);
    const { movement } = await desk.prepare(record, request, { checkLimits: noLimit });
    return { request, record, movement };
  };
  const approve = (
    desk: TeamMovements,
    approver: OperatorSigner,
    request: MovementRequest,
    record: { body: string },
  ) => {
    const d = decision(t, state, approver, { kind: 'movement', id: request.movementId, hash: sha256(record.body) });
    return desk.decide(approver.sign(d), d);
  };
  const verify = async (movementId: string) => verifyMovement(await t.state(), (await deskA.evidence(movementId))!);
  /** Claims until the given movement comes up (other tests' movements may be ready too). */
  const claimOf = async (desk: TeamMovements, movementId: string, leaseMs?: number): Promise<Claim | undefined> => {
    for (;;) {
      const claim = await desk.claim([TEST_PROFILE], leaseMs);
      if (claim === undefined || claim.movementId === movementId) return claim;
      // Another test's movement, left ready: out of the way.
      await desk.settle(claim.movementId, { state: 'failed', message: 'not this test' }, claim.token);
    }
  };
  /** A database user editing rows of the file's team. */
  const dba = <T>(work: (sql: (text: string, params?: unknown[]) => Promise<unknown[]>) => Promise<T>) =>
    work((text, params) => file.dba(t.database, text, params));

  it('a request made under controls older than the team’s latest change is refused, and nothing is journaled', async () => {
    // A desk that has not yet heard of a new policy (a lower limit) or a role taken away.
    expect(state.head.seq).toBeGreaterThan(0);
    const request = movementRequest(t, state, t.carol, { controlSeq: state.head.seq - 1 });
    await expect(deskA.prepare(t.carol.sign(request), request, { checkLimits: noLimit })).rejects.toMatchObject({
      detail: { code: 'POLICY' },
    });
    expect(await deskA.evidence(request.movementId)).toBeUndefined();
  });

  it('the same request key joins the same movement; another request under that key is refused', async () => {
    const { request, record, movement } = await prepare();
    expect(movement.state).toBe('awaiting_approval');
    const again = await deskB.prepare(record, request, { checkLimits: noLimit });
    expect(again).toEqual({ movement, joined: true });
    const other = movementRequest(t, state, t.carol, { requestKey: request.requestKey, amount: '61' });
    await expect(deskB.prepare(t.carol.sign(other), other, { checkLimits: noLimit })).rejects.toThrow(
      /Another movement already uses this request key/,
    );
  });

  it('maker on desk A, approver on desk B: ready, verified, claimed once, sent once', async () => {
    const { request, record } = await prepare();
    expect(await approve(deskB, t.dave, request, record)).toEqual({ counted: true, state: 'ready' });
    const verdict = await verify(request.movementId);
    expect(verdict).toMatchObject({ ok: true, approvers: ['dave'], policy: { version: 1 } });

    const [a, b] = await Promise.all([claimOf(deskA, request.movementId), claimOf(deskB, request.movementId)]);
    const claims = [a, b].filter((c): c is Claim => c !== undefined);
    expect(claims).toHaveLength(1);
    const [claim] = claims as [Claim];
    expect(claim).toMatchObject({ action: 'send', takenOver: false });
    const holder = claim === a ? deskA : deskB;
    await holder.markSent(claim);
    expect(await holder.settle(claim.movementId, { state: 'done', platformId: 'w-1' })).toMatchObject({
      state: 'done',
      platformId: 'w-1',
      attempts: 1,
    });
  });

  it('six desks claiming at once: every ready movement is claimed by exactly one of them', async () => {
    await file.ownTeam(async (own) => {
      const ownState = await own.state();
      const desks = Array.from({ length: 6 }, (_, i) => new TeamMovements(i === 0 ? own.db : own.desk(), `desk-${i}`));
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) {
        const request = movementRequest(own, ownState, own.carol, { approvalsRequired: 0 });
        await desks[0]!.prepare(own.carol.sign(request), request, { checkLimits: noLimit });
        ids.push(request.movementId);
      }
      const claimed: string[] = [];
      await Promise.all(
        desks.map(async (desk) => {
          for (let claim = await desk.claim([TEST_PROFILE]); claim; claim = await desk.claim([TEST_PROFILE]))
            claimed.push(claim.movementId);
        }),
      );
      expect(claimed.sort()).toEqual(ids.sort());
    });
  });

  it('two approvers at the same moment: one transition to ready, both approvals kept, claimed once', async () => {
    const { request, record } = await prepare();
    const results = await Promise.all([
      approve(deskA, t.dave, request, record),
      approve(deskB, t.bob, request, record),
    ]);
    expect(results.map((r) => r.state)).toEqual(['ready', 'ready']);
    expect((await verify(request.movementId)).ok).toBe(true);
    const claims = await Promise.all([deskA.claim([TEST_PROFILE]), deskB.claim([TEST_PROFILE])]);
    expect(claims.filter((c) => c?.movementId === request.movementId)).toHaveLength(1);
    for (const c of claims) if (c !== undefined) await (c === claims[0] ? deskA : deskB).release(c);
  });

  it('a rejection rejects it: never ready, the verdict names the rejecter', async () => {
    const { request, record } = await prepare();
    const d = decision(
      t,
      state,
      t.dave,
      { kind: 'movement', id: request.movementId, hash: sha256(record.body) },
      'reject',
    );
    expect(await deskB.decide(t.dave.sign(d), d)).toEqual({ counted: true, state: 'rejected' });
    expect(await approve(deskA, t.bob, request, record)).toMatchObject({ counted: false, state: 'rejected' });
    expect(await verify(request.movementId)).toEqual({
      ok: false,
      cause: 'rejected',
      problem: 'Dave rejected it: wrong address',
    });
  });

  it('an expired movement takes no more decisions', async () => {
    const request = movementRequest(t, state, t.carol, { expiresAt: Date.now() });
    const record = t.carol.sign(request);
    await deskA.prepare(record, request, { checkLimits: noLimit });
    expect(await deskA.expireDue()).toContain(request.movementId);
    expect(await approve(deskB, t.dave, request, record)).toMatchObject({ counted: false, state: 'expired' });
  });

  describe('a database user who edits rows: the movement does not verify, and is blocked, never sent', () => {
    it('the approval window extended past the signed expiry: approved, but no desk sends it', async () => {
      const { request, record } = await prepare(t.carol, { expiresAt: Date.now() + 60_000 });
      await dba((sql) =>
        sql(`UPDATE movements SET expires_at = now() + interval '30 days' WHERE id = $1`, [request.movementId]),
      );
      await approve(deskB, t.dave, request, record);
      const evidence = (await deskA.evidence(request.movementId))!;
      expect(verifyMovement(await t.state(), evidence)).toMatchObject({ ok: true });
      expect(verifyMovement(await t.state(), evidence, { now: request.expiresAt })).toEqual({
        ok: false,
        cause: 'expired',
        problem: 'its time to be approved and sent ran out before it was sent',
      });
    });

    it("an approval added in Dave's name (signed with another key)", async () => {
      const { request, record } = await prepare();
      const forged = decision(t, state, t.dave, {
        kind: 'movement',
        id: request.movementId,
        hash: sha256(record.body),
      });
      await dba((sql) =>
        sql(
          `INSERT INTO decisions (subject_kind, subject_id, operator_id, decision, body, signature) VALUES ('movement', $1, 'dave', 'approve', $2, $3)`,
          [request.movementId, canonicalJson(forged), t.erin.sign(forged).signature],
        ),
      );
      await dba((sql) => sql(`UPDATE movements SET state = 'ready' WHERE id = $1`, [request.movementId]));
      expect(await verify(request.movementId)).toEqual({
        ok: false,
        cause: 'tampered',
        problem: "a decision's signature does not verify (it was added or edited in the database)",
      });
      const claim = (await claimOf(deskB, request.movementId))!;
      await deskB.block(claim, 'tampered');
      expect(await deskB.get(request.movementId)).toMatchObject({ state: 'blocked', message: 'tampered' });
      expect(await claimOf(deskA, request.movementId)).toBeUndefined();
    });

    it('an approval copied from another movement (a real signature on something else)', async () => {
      const first = await prepare();
      await approve(deskB, t.dave, first.request, first.record);
      const second = await prepare();
      await dba((sql) =>
        sql(
          `INSERT INTO decisions (subject_kind, subject_id, operator_id, decision, body, signature)
           SELECT 'movement', $2, operator_id, decision, body, signature FROM decisions WHERE subject_id = $1`,
          [first.request.movementId, second.request.movementId],
        ),
      );
      expect(await verify(second.request.movementId)).toEqual({
        ok: false,
        cause: 'tampered',
        problem: 'a decision stored with it was made on something else',
      });
    });

    it('the amount changed in its column, or in the signed body', async () => {
      const { request, record } = await prepare();
      await approve(deskB, t.dave, request, record);
      await dba((sql) => sql(`UPDATE movements SET amount = '6000' WHERE id = $1`, [request.movementId]));
      expect(await verify(request.movementId)).toEqual({
        ok: false,
        cause: 'tampered',
        problem: 'its amount in the database differs from what the maker signed',
      });
      await dba((sql) =>
        sql(`UPDATE movements SET body = replace(body, '"amount":"60"', '"amount":"6000"') WHERE id = $1`, [
          request.movementId,
        ]),
      );
      expect(await verify(request.movementId)).toEqual({
        ok: false,
        cause: 'tampered',
        problem: "its request's signature does not verify (the request was edited, or not signed by its maker)",
      });
    });

    it('the approvals it needs lowered, or the maker swapped', async () => {
      const { request } = await prepare();
      await dba((sql) =>
        sql(`UPDATE movements SET approvals_required = 0, state = 'ready' WHERE id = $1`, [request.movementId]),
      );
      expect(await verify(request.movementId)).toEqual({
        ok: false,
        cause: 'tampered',
        problem: 'its approvals required in the database differs from what the maker signed',
      });
      await dba((sql) =>
        sql(`UPDATE movements SET approvals_required = 1, maker_id = 'dave' WHERE id = $1`, [request.movementId]),
      );
      expect(await verify(request.movementId)).toEqual({
        ok: false,
        cause: 'tampered',
        problem: 'its stored signer is not its maker',
      });
    });
  });

  it('roles: a viewer cannot make, the maker cannot approve their own, a viewer cannot approve', async () => {
    const byViewer = await prepare(t.erin, { approvalsRequired: 0 });
    expect(await verify(byViewer.request.movementId)).toEqual({
      ok: false,
      cause: 'tampered',
      problem: 'its maker Erin may not prepare movements',
    });

    const own = await prepare(t.dave, { approvalsRequired: 1 });
    await approve(deskA, t.dave, own.request, own.record);
    expect(await verify(own.request.movementId)).toEqual({
      ok: false,
      cause: 'tampered',
      problem: 'its maker approved it',
    });

    const viewerApproved = await prepare();
    await approve(deskA, t.erin, viewerApproved.request, viewerApproved.record);
    expect(await verify(viewerApproved.request.movementId)).toEqual({
      ok: false,
      cause: 'tampered',
      problem: 'Erin approved it without the approver role',
    });
  });

  it("cooling-off: an approver whose role the maker set approves the maker's movements only after 72 h", async () => {
    await file.ownTeam(async (own) => {
      const frank = await createOperatorKey(own.keyStore, own.team.id, 'frank', 'frank passphrase', TEST_SCRYPT_COST);
      await own.change(
        {
          kind: 'operator.enrol',
          operator: { id: 'frank', name: 'Frank', role: 'approver', publicKey: frank.publicKey },
        },
        own.alice,
        own.bob,
      );
      const ownState = await own.state();
      const desk = new TeamMovements(own.db, 'desk-a');
      const prepareBy = async (maker: OperatorSigner) => {
        const request = movementRequest(own, ownState, maker);
        const record = maker.sign(request);
        await desk.prepare(record, request, { checkLimits: noLimit });
        const d = decision(own, ownState, frank, {
          kind: 'movement',
          id: request.movementId,
          hash: sha256(record.body),
        });
        await desk.decide(frank.sign(d), d);
        return (await desk.evidence(request.movementId))!;
      };
      // Alice prepared Frank's enrolment: Frank may not approve Alice's movement yet…
      const alices = await prepareBy(own.alice);
      expect(verifyMovement(ownState, alices)).toEqual({
        ok: false,
        cause: 'tampered',
        problem: "Frank's role was set by its maker less than 72 h before the approval",
      });
      expect(verifyMovement(ownState, alices, { coolingOffMs: 0 })).toMatchObject({ ok: true, approvers: ['frank'] });
      // …but may approve Carol's.
      expect(verifyMovement(ownState, await prepareBy(own.carol))).toMatchObject({ ok: true, approvers: ['frank'] });
    });
  });

  it('the policy it was checked under must still be the profile’s policy', async () => {
    await file.ownTeam(async (own) => {
      const ownState = await own.state();
      const desk = new TeamMovements(own.db, 'desk-a');
      const request = movementRequest(own, ownState, own.carol, { approvalsRequired: 0 });
      await desk.prepare(own.carol.sign(request), request, { checkLimits: noLimit });
      await own.change(
        { kind: 'policy.set', profileId: TEST_PROFILE, version: 2, policy: { limits: {} } },
        own.alice,
        own.bob,
      );
      expect(verifyMovement(await own.state(), (await desk.evidence(request.movementId))!)).toEqual({
        ok: false,
        cause: 'policyChanged',
        problem: "it was checked under policy version 1, which is not the profile's policy now",
      });
    });
  });

  describe('leases and fencing tokens', () => {
    const expireLease = (movementId: string) =>
      dba((sql) =>
        sql(`UPDATE movements SET lease_expires_at = now() - interval '1 second' WHERE id = $1`, [movementId]),
      );

    it('a desk that stopped after journaling sent: the next holder must look it up; the old holder cannot send again', async () => {
      const { request } = await prepare(t.carol, { approvalsRequired: 0 });
      const first = (await claimOf(deskA, request.movementId))!;
      await deskA.markSent(first);
      // Desk A stops here (its request may or may not have reached the platform); its lease runs out.
      await expireLease(request.movementId);
      const second = (await claimOf(deskB, request.movementId))!;
      expect(second).toMatchObject({ action: 'lookUp', takenOver: true, attempts: 1, sentAt: expect.any(Number) });
      expect(second.token).toBeGreaterThan(first.token);
      // Desk A comes back with its old claim: it may not send, nor renew.
      await expect(deskA.markSent(first)).rejects.toBeInstanceOf(LeaseLost);
      await expect(deskA.renew(first)).rejects.toBeInstanceOf(LeaseLost);
      // What desk A learnt from the platform is a fact and is still written back; B's look-up agrees.
      expect(await deskA.settle(request.movementId, { state: 'done', platformId: 'w-7' })).toMatchObject({
        state: 'done',
      });
      expect(await deskB.settle(request.movementId, { state: 'done', platformId: 'w-7' })).toMatchObject({
        state: 'done',
        platformId: 'w-7',
        attempts: 1,
      });
    });

    it('a desk that stopped before journaling sent: the next holder sends it (nothing had left)', async () => {
      const { request } = await prepare(t.carol, { approvalsRequired: 0 });
      const first = (await claimOf(deskA, request.movementId))!;
      await expireLease(request.movementId);
      const second = (await claimOf(deskB, request.movementId))!;
      expect(second).toMatchObject({ action: 'send', takenOver: true });
      await expect(deskA.markSent(first)).rejects.toBeInstanceOf(LeaseLost);
      await expect(deskA.block(first, 'late')).rejects.toBeInstanceOf(LeaseLost);
      await deskB.markSent(second);
      expect(await deskB.get(request.movementId)).toMatchObject({ state: 'sent', attempts: 1 });
    });

    it('a live lease is not taken over; a look-up that proves it absent sends again under the new token', async () => {
      const { request } = await prepare(t.carol, { approvalsRequired: 0 });
      const first = (await claimOf(deskA, request.movementId))!;
      await deskA.markSent(first);
      expect(await claimOf(deskB, request.movementId)).toBeUndefined();
      await expireLease(request.movementId);
      const second = (await claimOf(deskB, request.movementId))!;
      await deskB.markSent(second);
      expect(await deskB.get(request.movementId)).toMatchObject({ state: 'sent', attempts: 2 });
    });

    it("a desk's restarted core takes its own leases back at once: sent ones looked up first, another desk's and its new ones untouched", async () => {
      const sent = (await prepare(t.carol, { approvalsRequired: 0 })).request;
      const claimedOnly = (await prepare(t.carol, { approvalsRequired: 0 })).request;
      const othersLease = (await prepare(t.carol, { approvalsRequired: 0 })).request;
      const before = (await claimOf(deskA, sent.movementId))!;
      await deskA.markSent(before);
      const unsent = (await claimOf(deskA, claimedOnly.movementId))!;
      const others = (await claimOf(deskB, othersLease.movementId))!;
      // Desk A's core is killed with both leases live (30 s); its next run has the same desk id.
      const restarted = new TeamMovements(t.desk(), 'desk-a');
      expect((await restarted.expireOwnLeases()).sort()).toEqual([sent.movementId, claimedOnly.movementId].sort());
      const lookUp = (await claimOf(restarted, sent.movementId))!;
      expect(lookUp).toMatchObject({ action: 'lookUp', attempts: 1 });
      expect(lookUp.token).toBeGreaterThan(before.token);
      expect(await claimOf(restarted, claimedOnly.movementId)).toMatchObject({ action: 'send' });
      // The dead run's claims are spent; desk B's live lease is not taken.
      await expect(deskA.markSent(unsent)).rejects.toBeInstanceOf(LeaseLost);
      await expect(deskA.renew(before)).rejects.toBeInstanceOf(LeaseLost);
      expect(await claimOf(restarted, othersLease.movementId)).toBeUndefined();
      await deskB.markSent(others);
      // What the new run claimed holds its lease.
      await restarted.renew(lookUp);
      expect(await claimOf(deskB, sent.movementId)).toBeUndefined();
    });

    it('an attempt its own rate limiter held back (never sent) goes back to the queue; only its holder can do that', async () => {
      const { request } = await prepare(t.carol, { approvalsRequired: 0 });
      const first = (await claimOf(deskA, request.movementId))!;
      await deskA.markSent(first);
      await expect(deskB.requeue({ ...first })).rejects.toBeInstanceOf(LeaseLost);
      await deskA.requeue(first);
      expect(await deskA.get(request.movementId)).toMatchObject({ state: 'ready' });
      // Any desk may claim it at once, and sends it (nothing had left); the old claim is spent.
      const second = (await claimOf(deskB, request.movementId))!;
      expect(second).toMatchObject({ action: 'send' });
      await expect(deskA.requeue(first)).rejects.toBeInstanceOf(LeaseLost);
      await deskB.markSent(second);
      expect(await deskB.get(request.movementId)).toMatchObject({ state: 'sent' });
    });
  });

  describe('firm-wide limits', () => {
    it('two desks racing for the last of a limit: exactly one wins, every time', async () => {
      for (let round = 0; round < 8; round++) {
        const profileId = `race-${round}`;
        await t.change(
          { kind: 'policy.set', profileId, version: 1, policy: { limits: { USDT: { rolling24h: '100' } } } },
          t.alice,
          t.bob,
        );
        state = await t.state();
        const attempt = (desk: TeamMovements) => {
          const request = movementRequest(t, state, t.carol, { profileId, amount: '60', approvalsRequired: 0 });
          return desk.prepare(t.carol.sign(request), request, { checkLimits: rollingLimit('100') });
        };
        const results = await Promise.allSettled([attempt(deskA), attempt(deskB)]);
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
        expect(refused.reason).toMatchObject({
          detail: { code: 'POLICY', message: 'At most 100 USDT in 24 hours (this would make 120).' },
        });
      }
    });

    it('a batch is reserved whole or not at all, and its rows verify with the batch approved as a whole', async () => {
      const rows = ['30', '40'].map((amount, row) =>
        movementRequest(t, state, t.carol, { amount, batch: { id: `b-${amount}-${Date.now()}`, row } }),
      );
      const batchId = `batch-${Date.now()}`;
      const requests = rows.map((r, row) => ({ ...r, batch: { id: batchId, row } }));
      const records = requests.map((r) => t.carol.sign(r));
      const batch: Batch = {
        type: 'batch',
        team: t.team.id,
        batchId,
        profileId: TEST_PROFILE,
        name: 'Payroll',
        rows: records.map((r) => sha256(r.body)),
        maker: 'carol',
        controlSeq: state.head.seq,
        preparedAt: Date.now(),
      };
      const batchRecord = t.carol.sign(batch);
      const pairs = requests.map((request, i) => ({ request, record: records[i]! }));
      await expect(
        deskA.prepareBatch({ record: batchRecord, batch }, pairs, {
          checkLimits: rollingLimit('50'),
        }),
      ).rejects.toThrow(/this would make/);
      expect(await deskA.get(requests[0]!.movementId)).toBeUndefined();

      await deskA.prepareBatch({ record: batchRecord, batch }, pairs, { checkLimits: noLimit });
      const d = decision(t, state, t.dave, { kind: 'batch', id: batchId, hash: sha256(batchRecord.body) });
      expect(await deskB.decide(t.dave.sign(d), d)).toEqual({ counted: true, state: 'ready' });
      for (const request of requests)
        expect(await verify(request.movementId)).toMatchObject({ ok: true, approvers: ['dave'] });
    });
  });
});
