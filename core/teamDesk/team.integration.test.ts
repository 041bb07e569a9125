/**
 * Two desks, one firm (docs/team.md): two whole cores with their own data directories share one
 * PostgreSQL and one sandbox. What a person on either desk sees, through each desk's dispatcher:
 * a movement prepared on desk A and approved on desk B is sent exactly once; both desks approving
 * at once count once; a firm-wide limit holds when both desks send at once; a row edited in the
 * database is refused and every desk shows it.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { control } from '../../sandbox/testing/harness';
import type { Approval, PolicyInput } from '../../shared/contract/policies';
import type { TeamStatus } from '../../shared/contract/team';
import { canonicalJson } from '../team/canonical';
import { skipWithoutPostgres } from '../team/testing/postgres';
import { ALICE, fund, TEAM_POLICY, type TestDesk, withTeamDesks } from '../testing/teamDesks';
import { waitUntil } from '../testing/waitUntil';

describe.skipIf(skipWithoutPostgres('teamDesk team.integration.test'))('two desks, one firm', () => {
  const team = withTeamDesks({ sandbox: { seed: 21 } });
  const { a, b } = team;
  let address = '';
  let addresses = 0;
  /**
   * A new destination (the platform takes one withdrawal a minute to the same address), and a new
   * rate window: the account's next withdrawal is not the same second's (POST /withdrawals takes one
   * per 3 s; the tests are about approvals, not the desks' 429 back-off, which waited it out for real).
   */
  const newAddress = async () => {
    await control(team.sandbox, '/rate_limits', { reset: true });
    address = `T${String(++addresses).padStart(4, '0')}TeamDeskAddr${'x'.repeat(18)}`;
    await control(team.sandbox, '/saved_addresses', {
      user_id: team.sandbox.userId,
      currency: 'USDT',
      chain: 'TRX',
      address,
    });
  };

  const withdraw = (desk: TestDesk, amount: string, requestKey = randomUUID(), to = address) =>
    desk.call('funding.withdraw', { requestKey, currency: 'USDT', chain: 'TRX', address: to, amount });
  /** The withdrawals the desks made (the seeded account's history has no client id of ours). */
  const sandboxWithdrawals = (clientIdLike = 'td%') =>
    team.sandbox.ctx.db
      .prepare('SELECT withdraw_order_id AS id, amount FROM withdrawals WHERE user_id = ? AND withdraw_order_id LIKE ?')
      .all(team.sandbox.userId, clientIdLike) as { id: string; amount: string }[];
  const pendingOn = async (desk: TestDesk, summary: RegExp): Promise<Approval> => {
    let found: Approval | undefined;
    await waitUntil(
      async () => {
        const { approvals } = await desk.value<{ approvals: Approval[] }>('approvals.list', { state: 'pending' });
        found = approvals.find((x) => summary.test(x.summary));
        return found !== undefined;
      },
      { what: `an approval item ${summary} on the other desk` },
    );
    return found!;
  };

  /** Signs an operator in on a desk (the lock screen's call): the desk's one person at the desk now. */
  const signIn = (desk: TestDesk, who: { name: string; passphrase: string }) =>
    desk.value('app.unlock', { operator: who.name, passphrase: who.passphrase });
  const CAROL = { name: 'Carol', passphrase: 'makers mark 2024 desk' };

  beforeAll(async () => {
    await fund(team.sandbox, '100000');
    // Carol, a maker at desk A: created on desk A by its administrator (a change of this desk
    // alone), her key made there; Alice prepares her enrolment and Bob, on desk B, applies it.
    await a.value('operators.create', { ...CAROL, role: 'maker' });
    await signIn(a, CAROL);
    await a.value('team.requestEnrolment', { passphrase: CAROL.passphrase, role: 'maker' });
    await signIn(a, ALICE);
    const request = (await a.value<TeamStatus>('team.status', {})).enrolments.find((e) => e.name === 'Carol')!;
    expect(await a.call('team.prepareEnrolment', { operatorId: request.operatorId })).toMatchObject({ ok: true });
    const enrolment = await pendingOn(b, /Enrol Carol/);
    expect(enrolment.control?.changes).toContainEqual({
      label: 'Signing key (compare it with them)',
      before: '—',
      after: request.keyFingerprint,
    });
    await b.value('approvals.approve', { id: enrolment.id, reason: 'Carol confirmed her key on the phone' });
    await waitUntil(
      async () =>
        (await a.value<TeamStatus>('team.status', {})).operators.some((o) => o.name === 'Carol' && o.role === 'maker'),
      {
        what: 'Carol enrolled, as desk A sees it',
      },
    );
  });

  it('both desks are in the team, with two administrators and four eyes', async () => {
    const onA = await a.value<TeamStatus>('team.status', {});
    const onB = await b.value<TeamStatus>('team.status', {});
    expect(onA).toMatchObject({
      mode: 'team',
      name: 'Acme treasury',
      fourEyes: true,
      database: { state: 'connected' },
    });
    expect(onB).toMatchObject({
      mode: 'team',
      fingerprint: onA.fingerprint,
      me: { enrolled: true, role: 'admin', keyUnlocked: true },
    });
    expect(onB.operators.map((o) => o.name).sort()).toEqual(['Alice', 'Bob', 'Carol']);
  });

  it('an approval prepared on desk A is on desk B within a second (LISTEN/NOTIFY), and its approver is told', async () => {
    await newAddress();
    const heard = b.events.length;
    const answered = await withdraw(a, '52.25');
    const preparedAt = performance.now();
    expect(answered).toMatchObject({ ok: false, error: { code: 'AWAITING_APPROVAL' } });
    // Desk B's window hears it, the item in the event (its Approvals screen shows it without
    // reading its list again), nobody polling.
    const waitingNotice = (e: TestDesk['events'][number]) =>
      e.name === 'app.notice' && /Waiting for your approval: .*52\.25 USDT/.test(String(JSON.stringify(e.payload)));
    await waitUntil(() => b.events.slice(heard).some(waitingNotice), {
      what: "desk B's notice of the approval waiting",
      timeoutMs: 5_000,
    });
    const later = b.events.slice(heard);
    const changed = later.find(
      (e) =>
        e.name === 'approvals.changed' && (e.payload as { approval?: { amount: string } }).approval?.amount === '52.25',
    )!;
    const notice = later.find(waitingNotice)!;
    expect(changed.payload).toMatchObject({ state: 'pending', approval: { state: 'pending', makerName: 'Alice' } });
    expect(JSON.stringify(notice.payload)).toContain('prepared by Alice');
    expect(changed.at - preparedAt).toBeLessThan(1_000);
    expect(notice.at - preparedAt).toBeLessThan(1_000);
    const item = await pendingOn(b, /52\.25 USDT/);
    await b.value('approvals.reject', { id: item.id, reason: 'not ours' });
  });

  it('maker on desk A, approver on desk B: sent exactly once', async () => {
    await newAddress();
    const before = sandboxWithdrawals().length;
    const key = randomUUID();
    expect(await withdraw(a, '61.5', key)).toMatchObject({ ok: false, error: { code: 'AWAITING_APPROVAL' } });
    // A repeat of the same confirmation joins it.
    expect(await withdraw(a, '61.5', key)).toMatchObject({ ok: false, error: { code: 'AWAITING_APPROVAL' } });
    const item = await pendingOn(b, /61\.5 USDT/);
    expect(item).toMatchObject({ makerName: 'Alice', state: 'pending' });
    // Alice cannot approve her own.
    expect(await a.call('approvals.approve', { id: item.id, reason: 'mine' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_ALLOWED' },
    });
    const approved = await b.call('approvals.approve', { id: item.id, reason: 'invoice checked' });
    expect(approved, JSON.stringify(approved)).toMatchObject({ ok: true });
    await waitUntil(
      async () =>
        (await a.value<{ approvals: Approval[] }>('approvals.list', {})).approvals.some(
          (x) => x.id === item.id && x.state === 'sent',
        ),
      {
        what: 'the approved movement to be sent',
        timeoutMs: 30_000,
      },
    );
    expect(sandboxWithdrawals().length).toBe(before + 1);
  });

  it("a desk's core restarted while it held a sent movement takes it back at once: looked up, not sent again", async () => {
    await newAddress();
    const before = sandboxWithdrawals().length;
    expect(await withdraw(a, '63.75')).toMatchObject({ ok: false, error: { code: 'AWAITING_APPROVAL' } });
    const item = await pendingOn(b, /63\.75 USDT/);
    expect(await b.call('approvals.approve', { id: item.id, reason: 'checked' })).toMatchObject({ ok: true });
    await waitUntil(() => sandboxWithdrawals().length === before + 1, { what: '63.75 USDT executed' });
    await Promise.all([a.core.idle(), b.core.idle()]);
    // As if desk A's core had been killed right after journaling it sent: its lease an hour long.
    const deskA = (await a.value<TeamStatus>('team.status', {})).deskId;
    const [row] = await team.dba(
      `UPDATE movements SET state = 'sent', platform_id = NULL, lease_holder = $1, lease_token = nextval('fencing_tokens'),
         lease_expires_at = now() + interval '1 hour' WHERE amount = '63.75' RETURNING id`,
      [deskA],
    );
    expect(row).toBeDefined();
    await a.restart();
    // Not an hour later: the restarted core takes its lease back, finds it on the platform, settles it.
    await waitUntil(
      async () => (await team.dba(`SELECT state FROM movements WHERE id = $1`, [row!.id]))[0]?.state === 'done',
      { what: 'the movement looked up and done again', timeoutMs: 20_000 },
    );
    expect(sandboxWithdrawals().length).toBe(before + 1);
  });

  it('both desks approving at the same moment: sent once', async () => {
    await newAddress();
    const before = sandboxWithdrawals().length;
    await signIn(a, CAROL);
    expect(await withdraw(a, '62.25')).toMatchObject({ ok: false, error: { code: 'AWAITING_APPROVAL' } });
    await signIn(a, ALICE);
    const item = await pendingOn(b, /62\.25 USDT/);
    await pendingOn(a, /62\.25 USDT/);
    const both = await Promise.all([
      a.call('approvals.approve', { id: item.id, reason: 'ok from A' }),
      b.call('approvals.approve', { id: item.id, reason: 'ok from B' }),
    ]);
    // One of them counts (the other finds it decided, or counts too): never two sends.
    expect(both.some((r) => r.ok)).toBe(true);
    await waitUntil(
      async () =>
        (await b.value<{ approvals: Approval[] }>('approvals.list', {})).approvals.some(
          (x) => x.id === item.id && x.state === 'sent',
        ),
      { what: 'the movement approved twice at once to be sent', timeoutMs: 30_000 },
    );
    await Promise.all([a.core.idle(), b.core.idle()]);
    expect(sandboxWithdrawals().length).toBe(before + 1);
  });

  it('a row edited in the database: nothing is sent, and every desk shows it', async () => {
    await newAddress();
    const before = sandboxWithdrawals().length;
    expect(await withdraw(a, '63')).toMatchObject({ ok: false, error: { code: 'AWAITING_APPROVAL' } });
    const item = await pendingOn(b, /63 USDT/);
    const [row] = await team.dba("SELECT id FROM movements WHERE state = 'awaiting_approval' AND amount = '63'");
    const bob = (await b.value<TeamStatus>('team.status', {})).operators.find((o) => o.name === 'Bob')!;
    // A database user adds an approval in Bob's name (they hold no key of his) and marks it ready.
    const forged = canonicalJson({
      type: 'decision',
      team: (await team.dba('SELECT id FROM team'))[0]!.id,
      decision: 'approve',
      subject: { kind: 'movement', id: row!.id, hash: 'f'.repeat(64) },
      operator: bob.id,
      controlSeq: 1,
      reason: 'looks fine',
      decidedAt: Date.now(),
    });
    await team.dba(
      `INSERT INTO decisions (subject_kind, subject_id, operator_id, decision, body, signature) VALUES ('movement', $1, $2, 'approve', $3, 'forged')`,
      [row!.id, bob.id, forged],
    );
    await team.dba(`UPDATE movements SET state = 'ready' WHERE id = $1`, [row!.id]);
    for (const desk of [a, b])
      await waitUntil(
        async () => (await desk.value<TeamStatus>('team.status', {})).blocked.some((x) => x.movementId === row!.id),
        {
          what: 'every desk to show the blocked movement',
          timeoutMs: 20_000,
        },
      );
    const shown = (await a.value<TeamStatus>('team.status', {})).blocked.find((x) => x.movementId === row!.id)!;
    expect(shown.problem).toMatch(/a decision stored with it was made on something else|signature does not verify/);
    expect(
      (await a.value<{ approvals: Approval[] }>('approvals.list', {})).approvals.find((x) => x.id === item.id)?.state,
    ).toBe('failed');
    expect(sandboxWithdrawals().length).toBe(before);
  });

  it('a firm-wide limit holds when both desks send at once', async () => {
    // The account's withdrawals so far, plus 80: room for one of the two 45 USDT below, not both.
    const spent = sandboxWithdrawals().reduce((sum, w) => sum + Number(w.amount), 0);
    const limit = String(Math.ceil(spent) + 80);
    const set = await a.call('policies.set', { ...TEAM_POLICY, limits: { USDT: { rolling24h: limit } } });
    // Two team administrators: another one applies it.
    expect(set).toMatchObject({ ok: false, error: { code: 'AWAITING_APPROVAL' } });
    const change = await pendingOn(b, /Change the team policy/);
    await b.value('approvals.approve', { id: change.id, reason: 'new daily limit' });
    await waitUntil(
      async () => (await a.value<{ policy: PolicyInput }>('policies.get', {})).policy.limits.USDT?.rolling24h === limit,
      {
        what: 'desk A to see the new policy',
      },
    );
    const before = sandboxWithdrawals().length;
    await newAddress();
    const first = address;
    await newAddress();
    const [fromA, fromB] = await Promise.all([
      withdraw(a, '45', randomUUID(), first),
      withdraw(b, '45', randomUUID(), address),
    ]);
    const outcomes = [fromA, fromB].map((r) => (r.ok ? 'sent' : r.error.code));
    expect(outcomes.sort()).toEqual(['POLICY', 'sent']);
    expect(sandboxWithdrawals().length).toBe(before + 1);
  });
});
