/**
 * The control plane under four eyes, through the real dispatcher and the real operators module
 * against the sandbox (docs/approvals.md, "Control changes"): with one administrator a control change
 * applies once confirmed in the trusted window (and four eyes are said not to be in force); with two
 * it waits for the other one, who may not approve it within the cooling-off after the preparer made
 * them administrator; an approved change applies once, as prepared (a stale one is refused); a key is
 * shown with the account it belongs to and waits in the keychain, never in the journal; the review
 * threshold is a control change and a transfer under it still asks for the trusted confirmation.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { control } from '../../sandbox/testing/harness';
import type { ReviewPolicy } from '../../shared/contract/funding';
import type { KeyView } from '../../shared/contract/keys';
import type { Operator } from '../../shared/contract/operators';
import type { Approval, FourEyes, PolicyInput, PolicyView } from '../../shared/contract/policies';
import type { ProfileView } from '../../shared/contract/profiles';
import type { ConfirmView } from '../policies/confirm';
import { TEST_ADMIN, withSandboxCore } from '../testing/core';

const views: ConfirmView[] = [];
let answer: 'yes' | 'no' = 'yes';
const confirm = async (view: ConfirmView) => {
  views.push(view);
  if (answer === 'no') return { accepted: false };
  return { accepted: true, ...(view.typedAmounts ? { typedAmounts: view.typedAmounts.map((t) => t.amount) } : {}) };
};

const desk = withSandboxCore({ sandbox: { seed: 21 }, core: { confirm }, spot: { USDT: '10000' } });
const { call, value } = desk;

const BEA = { name: 'Bea Admin', passphrase: 'bea keeps the second key' } as const;
/** The passphrase Bea chooses herself (nobody else knows it). */
const BEA_OWN = 'only bea knows this one now';
const MALLORY = { name: 'mallory', passphrase: 'quiet river under stone' } as const;
const HOUR = 3_600_000;

const operators = () => value<Operator[]>('operators.list');
const operator = async (name: string) => (await operators()).find((o) => o.name === name);
const signIn = (who: { name: string; passphrase: string }) => value('operators.signIn', who);
const pendingControls = async () =>
  (await value<{ approvals: Approval[] }>('approvals.list', { state: 'pending' })).approvals.filter(
    (a) => a.kind === 'control',
  );
const rowsOf = (view: ConfirmView | undefined) => Object.fromEntries((view?.rows ?? []).map((r) => [r.label, r.value]));
let beaChanged = false;
const beaPassphrase = () => (beaChanged ? BEA_OWN : BEA.passphrase);
/** As if the cooling-off had passed: the operator's last grant moved back in time. */
const grantedLongAgo = (name: string) =>
  desk.core.db.prepare('UPDATE operators SET granted_at = ? WHERE name = ?').run(Date.now() - 100 * HOUR, name);
const policyInput = (view: PolicyView): PolicyInput => ({
  ...view.policy,
  allowlist: {
    ...view.policy.allowlist,
    entries: view.policy.allowlist.entries.map(({ addedAt: _a, ...e }) => e),
  },
});

describe('control changes', () => {
  it('with one administrator: applied once confirmed in the trusted window, never without; four eyes said not to be in force', async () => {
    const fourEyes = await value<FourEyes>('approvals.fourEyes');
    expect(fourEyes).toMatchObject({ inForce: false, administrators: 1, operatorCoolingOffHours: 72 });
    expect(fourEyes.reason).toMatch(/NOT in force: this desk has one administrator/);

    // The first step of the mallory sequence, without the person: nothing is created.
    answer = 'no';
    expect(await call('operators.create', { ...MALLORY, role: 'viewer' })).toMatchObject({
      ok: false,
      error: { code: 'CONFIRMATION_DECLINED' },
    });
    expect(await operator(MALLORY.name)).toBeUndefined();

    answer = 'yes';
    await value('operators.create', { ...MALLORY, role: 'viewer' });
    const shown = views.at(-1);
    expect(shown).toMatchObject({ action: 'control', title: 'Create operator mallory (Viewer)' });
    expect(rowsOf(shown)).toMatchObject({
      'New operator': '— → mallory',
      Role: '— → Viewer',
      Operator: 'Test admin (admin)',
    });
    expect(shown?.note).toMatch(/NOT in force/);
    // The passphrase is never in the confirmation, the journal's audit log or the answer.
    expect(JSON.stringify(shown)).not.toContain(MALLORY.passphrase);
    expect(await operator(MALLORY.name)).toMatchObject({ role: 'viewer', grantedBy: TEST_ADMIN.name });
    const audit = desk.core.db.prepare("SELECT params FROM audit WHERE action = 'operators.create'").all() as {
      params: string;
    }[];
    // Audited with what changed, before → after, and by whom.
    expect(JSON.parse(audit.at(-1)?.params ?? '{}')).toMatchObject({
      changes: [
        { label: 'New operator', before: '—', after: 'mallory' },
        { label: 'Role', before: '—', after: 'Viewer' },
        expect.anything(),
      ],
      by: TEST_ADMIN.name,
    });
    expect(audit.map((a) => a.params).join()).not.toContain(MALLORY.passphrase);
  });

  it('the review threshold belongs to the profile’s policy and changes only through the trusted confirmation; a transfer under it still asks', async () => {
    answer = 'no';
    expect(await call('funding.setReviewPolicy', { typedConfirmAbove: { USDT: '100000' } })).toMatchObject({
      ok: false,
      error: { code: 'CONFIRMATION_DECLINED' },
    });
    expect(await value<ReviewPolicy>('funding.reviewPolicy')).toEqual({ typedConfirmAbove: {} });
    answer = 'yes';
    await value('funding.setReviewPolicy', { typedConfirmAbove: { usdt: '100000' } });
    expect(rowsOf(views.at(-1))['Review threshold USDT']).toBe('always typed → typed above 100,000 USDT');
    expect(await value<ReviewPolicy>('funding.reviewPolicy')).toEqual({ typedConfirmAbove: { USDT: '100000' } });
    expect((await value<PolicyView>('policies.get')).policy.review).toEqual({ typedConfirmAbove: { USDT: '100000' } });

    // 5,000 USDT main → futures, far under the threshold: the trusted confirmation all the same (no
    // typed amount); declined, nothing moves.
    answer = 'no';
    const before = views.length;
    const transfer = await call('transfers.send', {
      kind: 'own',
      currency: 'USDT',
      from: 'spot',
      to: 'futures',
      settle: 'usdt',
      amount: '5000',
      requestKey: randomUUID(),
    });
    answer = 'yes';
    expect(transfer).toMatchObject({ ok: false, error: { code: 'CONFIRMATION_DECLINED' } });
    expect(views.length).toBe(before + 1);
    expect(views.at(-1)).toMatchObject({ action: 'transfer', title: 'Transfer 5,000 USDT' });
    expect(views.at(-1)?.typedAmounts).toBeUndefined();
  });

  it('with two administrators: a change waits for the other one, who may not approve it within the cooling-off, then applies it once', async () => {
    await value('operators.create', { ...BEA, role: 'admin' });
    expect(views.at(-1)?.note).toMatch(/Bea Admin becomes an administrator/);
    expect(await value<FourEyes>('approvals.fourEyes')).toMatchObject({ inForce: true, administrators: 2 });

    // Prepared by the first administrator: confirmed, then it waits; a repeat joins the same item.
    const mallory = (await operator(MALLORY.name)) as Operator;
    const first = await call('operators.changeRole', { id: mallory.id, role: 'admin' });
    expect(first).toMatchObject({ ok: false, error: { code: 'AWAITING_APPROVAL' } });
    expect(views.at(-1)).toMatchObject({ title: 'Change the role of mallory', confirmLabel: 'Submit for approval' });
    expect(await call('operators.changeRole', { id: mallory.id, role: 'admin' })).toMatchObject({
      ok: false,
      error: { code: 'AWAITING_APPROVAL' },
    });
    const [item, ...others] = await pendingControls();
    expect(others).toEqual([]);
    expect(item?.control).toMatchObject({
      kind: 'operators.changeRole',
      changes: [{ label: 'Role of mallory', before: 'Viewer', after: 'Administrator' }],
    });
    expect((await operator(MALLORY.name))?.role).toBe('viewer');

    // Its preparer cannot approve it.
    expect(await call('approvals.approve', { id: item!.id, reason: 'mine' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_ALLOWED' },
    });
    // Nor can the administrator the preparer just made administrator: one person, two names.
    await signIn({ name: BEA.name, passphrase: beaPassphrase() });
    const cooling = await call('approvals.approve', { id: item!.id, reason: 'looks fine' });
    expect(cooling).toMatchObject({ ok: false, error: { code: 'NOT_ALLOWED' } });
    expect(cooling.ok || cooling.error.message).toMatch(
      /Test admin gave you your role or passphrase less than 72 h ago/,
    );
    expect((await operator(MALLORY.name))?.role).toBe('viewer');

    // The cooling-off passes; still, whoever chose Bea's passphrase could be Bea: she chooses her own first.
    grantedLongAgo(BEA.name);
    const chosen = await call('approvals.approve', { id: item!.id, reason: 'looks fine' });
    expect(chosen.ok || chosen.error.message).toMatch(/Test admin chose your passphrase/);
    await value('operators.changePassphrase', { current: BEA.passphrase, next: BEA_OWN });
    beaChanged = true;
    // Now Bea approves it (in the trusted confirmation) and it applies once.
    const approved = await value<Approval>('approvals.approve', { id: item!.id, reason: 'Agreed with the desk lead' });
    expect(approved).toMatchObject({ state: 'sent', decidedBy: BEA.name });
    expect(views.at(-1)).toMatchObject({
      title: 'Approve: Change the role of mallory',
      confirmLabel: 'Approve and apply',
    });
    expect(rowsOf(views.at(-1))['Prepared by']).toBe(TEST_ADMIN.name);
    expect(await operator(MALLORY.name)).toMatchObject({ role: 'admin', grantedBy: TEST_ADMIN.name });
    expect(await call('approvals.approve', { id: item!.id, reason: 'again' })).toMatchObject({
      ok: false,
      error: { code: 'PRECONDITION' },
    });
    const audited = desk.core.db
      .prepare("SELECT params FROM audit WHERE action = 'operators.changeRole' ORDER BY seq DESC LIMIT 1")
      .get() as { params: string };
    expect(JSON.parse(audited.params)).toMatchObject({ by: TEST_ADMIN.name, approvedBy: BEA.name });

    // mallory, made administrator by the first one, may not approve what the first one prepares either.
    await signIn(TEST_ADMIN);
    const policy = await value<PolicyView>('policies.get');
    const change = await call('policies.set', {
      ...policyInput(policy),
      approval: { ...policy.policy.approval, aboveUsdt: '1' },
    });
    expect(change).toMatchObject({ ok: false, error: { code: 'AWAITING_APPROVAL' } });
    const [policyItem] = await pendingControls();
    await signIn(MALLORY);
    expect(await call('approvals.approve', { id: policyItem!.id, reason: 'sure' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_ALLOWED' },
    });
    // Bea may; a maker or a viewer never approves a control change.
    await signIn({ name: BEA.name, passphrase: beaPassphrase() });
    await value('approvals.approve', { id: policyItem!.id, reason: 'ok' });
    expect((await value<PolicyView>('policies.get')).policy.approval.aboveUsdt).toBe('1');
  });

  it('a change prepared against a state that moved meanwhile is refused at approval, and nothing changes', async () => {
    await signIn(TEST_ADMIN);
    const policy = await value<PolicyView>('policies.get');
    const one = await call('policies.set', { ...policyInput(policy), usdtLimits: { perTransaction: '111' } });
    const two = await call('policies.set', { ...policyInput(policy), usdtLimits: { perTransaction: '222' } });
    expect([one, two]).toMatchObject([
      { ok: false, error: { code: 'AWAITING_APPROVAL' } },
      { ok: false, error: { code: 'AWAITING_APPROVAL' } },
    ]);
    const items = await pendingControls();
    expect(items).toHaveLength(2);
    await signIn({ name: BEA.name, passphrase: beaPassphrase() });
    await value('approvals.approve', { id: items[0]!.id, reason: 'the first one' });
    const stale = await call('approvals.approve', { id: items[1]!.id, reason: 'the second one' });
    expect(stale).toMatchObject({ ok: false, error: { code: 'PRECONDITION' } });
    expect(stale.ok || stale.error.message).toMatch(/The policy was changed since this change was prepared/);
    expect((await value<PolicyView>('policies.get')).policy.usdtLimits).toEqual({ perTransaction: '111' });
    await value('approvals.reject', { id: items[1]!.id, reason: 'stale' });
  });

  it('a key shows the account it belongs to, waits in the keychain (never the journal) and is dropped when rejected', async () => {
    await signIn(TEST_ADMIN);
    const other = (await control(desk.sandbox, '/users', {})) as { user_id: number; key: string; secret: string };
    const before = (await value<ProfileView[]>('profiles.list')).find(
      (p) => p.id === desk.core.ctx.activeProfile()?.id,
    );
    const set = await call('profiles.setKey', { id: before!.id, key: other.key, secret: other.secret });
    expect(set).toMatchObject({ ok: false, error: { code: 'AWAITING_APPROVAL' } });
    const shown = views.at(-1);
    expect(rowsOf(shown)['Account (UID)']).toBe(`${before!.userId} → ${other.user_id}`);
    expect(shown?.note).toMatch(/belongs to ANOTHER account/);
    expect(JSON.stringify(shown)).not.toContain(other.secret);

    // The secret is in no journal table: only the keychain holds it while the change waits.
    const journal = ['approvals', 'audit', 'settings', 'profiles']
      .map((table) => JSON.stringify(desk.core.db.prepare(`SELECT * FROM ${table}`).all()))
      .join();
    expect(journal).not.toContain(other.secret);
    const [item] = await pendingControls();
    const stored = desk.core.db.prepare('SELECT request FROM approvals WHERE id = ?').get(item!.id) as {
      request: string;
    };
    const pending = String((JSON.parse(stored.request) as { apply: { pending: string } }).apply.pending);
    expect((await desk.core.ctx.keyStore.get(pending))?.secret).toBe(other.secret);

    await signIn({ name: BEA.name, passphrase: beaPassphrase() });
    await value('approvals.reject', { id: item!.id, reason: 'Not our account' });
    await expect.poll(() => desk.core.ctx.keyStore.get(pending)).toBeUndefined();
    const after = (await value<ProfileView[]>('profiles.list')).find((p) => p.id === before!.id);
    expect(after).toMatchObject({ keyMask: before!.keyMask, userId: before!.userId });
  });

  it('a sub-account’s API key — created, changed, deleted — is a control change: confirmed before → after, then waits for the other administrator', async () => {
    await signIn(TEST_ADMIN);
    const { accounts } = await value<{ accounts: { userId: number; loginName: string }[] }>('subAccounts.list');
    const sub = accounts[0]!;
    const keysOf = async () => (await value<{ keys: KeyView[] }>('keys.list', { userId: sub.userId })).keys;
    const keysBefore = (await keysOf()).length;

    // Created: the confirmation names the account and every line of the key; nothing is created yet.
    const created = await call('keys.create', {
      userId: sub.userId,
      name: 'desk-bot',
      mode: 'classic',
      perms: { spot: 'write' },
      ipWhitelist: ['203.0.113.7'],
      keepSecretInKeychain: false,
    });
    expect(created).toMatchObject({ ok: false, error: { code: 'AWAITING_APPROVAL' } });
    expect(views.at(-1)).toMatchObject({
      action: 'control',
      title: `Create an API key for ${sub.loginName} (UID ${sub.userId})`,
      confirmLabel: 'Submit for approval',
    });
    expect(rowsOf(views.at(-1))).toMatchObject({ Permissions: '— → spot: write', 'IP whitelist': '— → 203.0.113.7' });
    expect(await keysOf()).toHaveLength(keysBefore);
    const [createItem] = await pendingControls();
    expect(createItem?.control?.kind).toBe('keys.create');
    // Its preparer cannot approve it; the other administrator does, and it applies once.
    expect(await call('approvals.approve', { id: createItem!.id, reason: 'mine' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_ALLOWED' },
    });
    await signIn({ name: BEA.name, passphrase: beaPassphrase() });
    expect(await value<Approval>('approvals.approve', { id: createItem!.id, reason: 'ok' })).toMatchObject({
      state: 'sent',
    });
    const [key] = (await keysOf()).filter((k) => k.name === 'desk-bot');
    expect(key).toMatchObject({ perms: { spot: 'write' }, ipWhitelist: ['203.0.113.7'] });

    // Changed: its permissions and whitelist before → after; the key keeps them until approved.
    await signIn(TEST_ADMIN);
    const update = { userId: sub.userId, key: key!.key, name: 'desk-bot', perms: { spot: 'read' }, ipWhitelist: [] };
    expect(await call('keys.update', update)).toMatchObject({ ok: false, error: { code: 'AWAITING_APPROVAL' } });
    expect(rowsOf(views.at(-1))).toMatchObject({
      Permissions: 'spot: write → spot: read',
      'IP whitelist': '203.0.113.7 → none (the key expires after 90 days)',
    });
    expect((await keysOf()).find((k) => k.key === key!.key)).toMatchObject({ perms: { spot: 'write' } });
    const [updateItem] = await pendingControls();
    await signIn({ name: BEA.name, passphrase: beaPassphrase() });
    await value('approvals.approve', { id: updateItem!.id, reason: 'ok' });
    expect((await keysOf()).find((k) => k.key === key!.key)).toMatchObject({
      perms: { spot: 'read' },
      ipWhitelist: [],
    });

    // Deleted: waits too; approved, the key is gone.
    await signIn(TEST_ADMIN);
    expect(await call('keys.delete', { userId: sub.userId, key: key!.key })).toMatchObject({
      ok: false,
      error: { code: 'AWAITING_APPROVAL' },
    });
    expect(views.at(-1)?.title).toBe(
      `Delete API key ${key!.key.slice(0, 4)}…${key!.key.slice(-4)} of ${sub.loginName} (UID ${sub.userId})`,
    );
    expect(rowsOf(views.at(-1))).toMatchObject({ Permissions: 'spot: read → —' });
    expect((await keysOf()).some((k) => k.key === key!.key)).toBe(true);
    const [deleteItem] = await pendingControls();
    await signIn({ name: BEA.name, passphrase: beaPassphrase() });
    await value('approvals.approve', { id: deleteItem!.id, reason: 'ok' });
    expect((await keysOf()).some((k) => k.key === key!.key)).toBe(false);
    const audited = desk.core.db
      .prepare("SELECT params FROM audit WHERE action = 'keys.delete' ORDER BY seq DESC LIMIT 1")
      .get() as { params: string };
    expect(JSON.parse(audited.params)).toMatchObject({ by: TEST_ADMIN.name, approvedBy: BEA.name });
  });
});
