/**
 * Policies and the Approvals queue through the real dispatcher, against the sandbox: a movement
 * that needs approval waits (journaled), survives a core restart, is sent exactly once after an
 * approver other than its maker approves it; a rejected one and an expired one are never sent; the
 * maker cannot approve their own; a trusted confirmation that is declined sends nothing; limits
 * refuse; only an admin changes the policy, and bad policy input changes nothing.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { control } from '../../sandbox/testing/harness';
import type { SavedAddress } from '../../shared/contract/funding';
import type { Approval, PolicyInput } from '../../shared/contract/policies';
import type { OperatorInfo } from '../operators';
import type { ConfirmView } from '../policies/confirm';
import { autoConfirm, withSandboxCore } from '../testing/core';

const ADMIN: OperatorInfo = { id: 'op-admin', name: 'Ada (admin)', role: 'admin' };
const MAKER: OperatorInfo = { id: 'op-maker', name: 'Max (maker)', role: 'maker' };
const APPROVER: OperatorInfo = { id: 'op-approver', name: 'Alice (approver)', role: 'approver' };

let who: OperatorInfo = ADMIN;
const now = Date.now();
const confirmations: ConfirmView[] = [];
let answer: 'yes' | 'no' | 'wrong-amount' = 'yes';
const confirm = async (view: ConfirmView) => {
  if (answer === 'no') return { accepted: false };
  if (answer === 'wrong-amount') return { accepted: true, typedAmounts: ['1'] };
  return autoConfirm(confirmations)(view);
};
const operators = { current: () => who };

const desk = withSandboxCore({
  sandbox: { seed: 12 },
  core: { confirm, operators, approvalsExpiryMs: 3_600_000 },
});
const { call, value } = desk;
const sandboxWithdrawals = (address: string): number =>
  (
    desk.sandbox.ctx.db.prepare('SELECT COUNT(*) AS n FROM withdrawals WHERE address = ?').get(address) as {
      n: number;
    }
  ).n;

const policy = (over: Partial<PolicyInput> = {}): PolicyInput => ({
  limits: {},
  usdtLimits: {},
  allowlist: { required: false, coolingOffHours: 24, entries: [] },
  approval: { aboveUsdt: '50', newDestination: false, anyPush: false, expiresHours: 1 },
  ...over,
});

let address = '';
const withdraw = (amount: string, requestKey = randomUUID()) =>
  call('funding.withdraw', { requestKey, currency: 'USDT', chain: 'TRX', address, amount });

beforeAll(async () => {
  const saved = await value<SavedAddress[]>('funding.savedAddresses', { currency: 'USDT', chain: 'TRX' });
  address = (saved.find((a) => a.verified) ?? saved[0])!.address;
});

describe('policies and approvals', () => {
  it('only an admin changes the policy, after the trusted confirmation; bad input changes nothing', async () => {
    who = MAKER;
    expect(await call('policies.set', policy())).toMatchObject({ ok: false, error: { code: 'NOT_ALLOWED' } });
    who = ADMIN;
    const bad = await call('policies.set', policy({ usdtLimits: { perTransaction: '500', rolling24h: '100' } }));
    expect(bad).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    const nonsense = await call('policies.set', { ...policy(), usdtLimits: { perTransaction: '-1' } });
    expect(nonsense).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect((await value<{ policy: PolicyInput }>('policies.get', {})).policy.approval.aboveUsdt).toBeUndefined();
    answer = 'no';
    expect(await call('policies.set', policy())).toMatchObject({ ok: false, error: { code: 'CONFIRMATION_DECLINED' } });
    answer = 'yes';
    const set = await value<{ policy: PolicyInput; updatedBy: string }>('policies.set', policy());
    expect(set).toMatchObject({ policy: { approval: { aboveUsdt: '50' } }, updatedBy: ADMIN.name });
    // A control change: every rule before → after.
    expect(confirmations.at(-1)).toMatchObject({ action: 'control', title: /^Change the policy/ });
    expect(confirmations.at(-1)?.rows).toContainEqual({ label: 'Approval', value: 'never → above 50 USDT' });
  });

  it('a declined confirmation or a wrong typed amount sends nothing', async () => {
    who = MAKER;
    const before = sandboxWithdrawals(address);
    answer = 'no';
    expect(await withdraw('20')).toMatchObject({ ok: false, error: { code: 'CONFIRMATION_DECLINED' } });
    answer = 'wrong-amount';
    expect(await withdraw('20')).toMatchObject({ ok: false, error: { code: 'CONFIRMATION_DECLINED' } });
    answer = 'yes';
    expect(sandboxWithdrawals(address)).toBe(before);
    // Below the approval amount it goes out at once, after the confirmation main rendered.
    expect(await withdraw('20')).toMatchObject({ ok: true, value: { outcome: 'accepted' } });
    expect(sandboxWithdrawals(address)).toBe(before + 1);
    expect(confirmations.at(-1)).toMatchObject({
      action: 'withdrawal',
      title: 'Withdraw 20 USDT',
      typedAmounts: [{ amount: '20', currency: 'USDT' }],
    });
    // The review sheet's rows, in its words: the address grouped as the review groups it.
    expect(confirmations.at(-1)?.rows.map((r) => r.label)).toEqual(
      expect.arrayContaining([
        'Amount',
        'Network',
        'To address',
        'Fee',
        'Recipient gets',
        'Taken from spot balance',
        'Profile',
        'Operator',
      ]),
    );
    expect(confirmations.at(-1)?.rows).toContainEqual({ label: 'To address', value: address, group: 4 });
  });

  it('waits for approval, survives a restart, and is sent exactly once after an approver approves', async () => {
    who = MAKER;
    const before = sandboxWithdrawals(address);
    const key = randomUUID();
    const first = await withdraw('60', key);
    expect(first).toMatchObject({ ok: false, error: { code: 'AWAITING_APPROVAL' } });
    // A repeat of the same confirmation joins the queued one.
    expect(await withdraw('60', key)).toMatchObject({ ok: false, error: { code: 'AWAITING_APPROVAL' } });
    const { approvals } = await value<{ approvals: Approval[] }>('approvals.list', { state: 'pending' });
    expect(approvals).toHaveLength(1);
    const queued = approvals[0]!;
    expect(queued).toMatchObject({ amount: '60', currency: 'USDT', makerName: MAKER.name, state: 'pending' });
    expect(sandboxWithdrawals(address)).toBe(before);

    // The maker cannot approve their own movement.
    expect(await call('approvals.approve', { id: queued.id, reason: 'mine' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_ALLOWED' },
    });

    // Restart: the queue is in the journal.
    await desk.restart();
    who = APPROVER;
    // The sandbox allows one withdrawal a minute to one address: let the last one's minute pass.
    await control(desk.sandbox, '/advance', { seconds: 61 });
    const after = await value<{ approvals: Approval[] }>('approvals.list', {});
    expect(after.approvals.find((a) => a.id === queued.id)?.state).toBe('pending');

    const approved = await value<Approval>('approvals.approve', { id: queued.id, reason: 'Invoice 42 checked' });
    expect(approved, JSON.stringify(approved)).toMatchObject({
      state: 'sent',
      decidedBy: APPROVER.name,
      reason: 'Invoice 42 checked',
    });
    expect(approved.movementId).toBeTruthy();
    expect(confirmations.at(-1)).toMatchObject({ action: 'approve', typedAmounts: [{ amount: '60' }] });
    expect(sandboxWithdrawals(address)).toBe(before + 1);

    // Once: approving again is refused, and the maker's same confirmation joins the one movement.
    expect(await call('approvals.approve', { id: queued.id, reason: 'again' })).toMatchObject({
      ok: false,
      error: { code: 'PRECONDITION' },
    });
    who = MAKER;
    expect(await withdraw('60', key)).toMatchObject({ ok: true, value: { outcome: 'accepted' } });
    expect(sandboxWithdrawals(address)).toBe(before + 1);
  });

  it('a rejected movement is never sent', async () => {
    who = MAKER;
    const before = sandboxWithdrawals(address);
    const key = randomUUID();
    expect(await withdraw('70', key)).toMatchObject({ ok: false, error: { code: 'AWAITING_APPROVAL' } });
    const [queued] = (await value<{ approvals: Approval[] }>('approvals.list', { state: 'pending' })).approvals;
    who = APPROVER;
    expect(await call('approvals.reject', { id: queued!.id, reason: '' })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT' },
    });
    const rejected = await value<Approval>('approvals.reject', { id: queued!.id, reason: 'Unknown supplier' });
    expect(rejected).toMatchObject({ state: 'rejected', reason: 'Unknown supplier' });
    expect(await call('approvals.approve', { id: queued!.id, reason: 'late' })).toMatchObject({ ok: false });
    who = MAKER;
    expect(await withdraw('70', key)).toMatchObject({ ok: false, error: { code: 'POLICY' } });
    expect(sandboxWithdrawals(address)).toBe(before);
  });

  it('its maker retracts a waiting movement (nobody else does): it is never sent', async () => {
    who = MAKER;
    const before = sandboxWithdrawals(address);
    const key = randomUUID();
    expect(await withdraw('75', key)).toMatchObject({ ok: false, error: { code: 'AWAITING_APPROVAL' } });
    const [queued] = (await value<{ approvals: Approval[] }>('approvals.list', { state: 'pending' })).approvals;
    // The approver's screen gets the destination field by field (it names it from the address book).
    expect(queued?.to).toEqual({ chain: 'TRX', address });
    // Sent to before (20 USDT above): not flagged as a new destination.
    expect(queued?.newDestination).toBeUndefined();
    // The maker may not reject (an approver's decision), and an approver may not retract it.
    expect(await call('approvals.reject', { id: queued!.id, reason: 'mine' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_ALLOWED' },
    });
    who = APPROVER;
    expect(await call('approvals.retract', { id: queued!.id, reason: 'not mine' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_ALLOWED' },
    });
    who = MAKER;
    const retracted = await value<Approval>('approvals.retract', { id: queued!.id, reason: 'Wrong amount' });
    expect(retracted).toMatchObject({ state: 'cancelled', decidedBy: MAKER.name, reason: 'Wrong amount' });
    who = APPROVER;
    expect(await call('approvals.approve', { id: queued!.id, reason: 'late' })).toMatchObject({ ok: false });
    who = MAKER;
    expect(await withdraw('75', key)).toMatchObject({ ok: false, error: { code: 'POLICY' } });
    expect(sandboxWithdrawals(address)).toBe(before);
  });

  it('an expired movement is never sent', async () => {
    who = MAKER;
    const before = sandboxWithdrawals(address);
    expect(await withdraw('80')).toMatchObject({ ok: false, error: { code: 'AWAITING_APPROVAL' } });
    const [queued] = (await value<{ approvals: Approval[] }>('approvals.list', { state: 'pending' })).approvals;
    // Its hour passes (the row's expiry moved back, as if the clock had run).
    desk.core.db.prepare('UPDATE approvals SET expires_at = ? WHERE id = ?').run(Date.now() - 1, queued!.id);
    who = APPROVER;
    expect(await call('approvals.approve', { id: queued!.id, reason: 'too late' })).toMatchObject({
      ok: false,
      error: { code: 'PRECONDITION' },
    });
    const list = await value<{ approvals: Approval[] }>('approvals.list', {});
    expect(list.approvals.find((a) => a.id === queued!.id)?.state).toBe('expired');
    expect(sandboxWithdrawals(address)).toBe(before);
  });

  it('limits refuse in main, whatever the renderer sends', async () => {
    who = ADMIN;
    await value('policies.set', policy({ limits: { USDT: { perTransaction: '30', rolling24h: '1000' } } }));
    who = MAKER;
    const before = sandboxWithdrawals(address);
    const refused = await withdraw('31');
    expect(refused).toMatchObject({ ok: false, error: { code: 'POLICY' } });
    expect(refused.ok || refused.error.message).toMatch(/per-transaction limit of 30 USDT/);
    expect(sandboxWithdrawals(address)).toBe(before);
    who = { id: 'op-viewer', name: 'Vic', role: 'viewer' };
    expect(await withdraw('10')).toMatchObject({ ok: false, error: { code: 'NOT_ALLOWED' } });
    expect(now).toBeGreaterThan(0);
  });
});
