/**
 * A batch approved as a whole (docs/bulk.md, docs/approvals.md), through the real dispatcher against
 * the sandbox: with `approveBatchesAsAWhole`, a batch whose rows need approval waits as ONE item in
 * the Approvals queue (maker, rows, totals, reasons); the preview says which rows exceed a limit or
 * need an approver before anything is sent; the item survives a core restart; the maker cannot
 * approve it; after another operator approves it every row runs exactly once (no row waits for an
 * approval of its own); a rejected batch sends nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { BatchPreview, BatchRowView, BatchSummary } from '../../shared/contract/bulk';
import type { Approval } from '../../shared/contract/policies';
import type { OperatorInfo } from '../operators';
import type { ConfirmView } from '../policies/confirm';
import { ADMIN, APPROVER, MAKER, BATCH_APPROVAL_POLICY as policy, pushReceiver } from '../testing/batchApproval';
import { autoConfirm, withSandboxCore } from '../testing/core';
import { waitUntil } from '../testing/waitUntil';

let who: OperatorInfo = ADMIN;
const receiver = pushReceiver();
const confirmations: ConfirmView[] = [];
const operators = { current: () => who };

const desk = withSandboxCore({
  sandbox: { seed: 21 },
  beforeCore: receiver.beforeCore,
  core: { confirm: autoConfirm(confirmations), operators, approvalsExpiryMs: 3_600_000 },
});
const { call, value } = desk;
const pushed = (amount: string): number => receiver.pushed(desk.sandbox, amount);

const waitState = async (id: string, states: BatchSummary['state'][], timeoutMs = 30_000) => {
  let got: { batch: BatchSummary; rows: BatchRowView[] } | undefined;
  await waitUntil(
    async () => {
      got = await value<{ batch: BatchSummary; rows: BatchRowView[] }>('bulk.get', { id });
      return (
        states.includes(got.batch.state) && (got.batch.state !== 'cancelled' || got.batch.finishedAt !== undefined)
      );
    },
    { timeoutMs, what: `batch ${id} to be ${states.join(' or ')}` },
  ).catch((error: Error) => {
    throw new Error(`${error.message}: ${JSON.stringify(got?.rows.map((r) => [r.state, r.message]))}`);
  });
  return got as { batch: BatchSummary; rows: BatchRowView[] };
};

const batchCsv = receiver.csv;

beforeAll(async () => {
  who = ADMIN;
  await value('policies.set', policy);
});

describe('a batch approved as a whole', () => {
  it('the preview shows, before anything is sent, the rows over a limit and those that need an approver', async () => {
    who = MAKER;
    const preview = await value<BatchPreview>('bulk.preview', {
      source: 'csv',
      text: batchCsv(['60.11', '20.11', '600.11'], 'preview'),
    });
    expect(preview.approval).toMatchObject({ required: true, asWhole: true, rows: [2] });
    expect(preview.approval?.reason).toMatch(/waits as one item in Approvals/);
    expect(preview.rows[0]?.warnings.join(' ')).toMatch(/Needs an approver: Worth 60.11 USDT, above 50 USDT/);
    expect(preview.rows[1]?.errors).toEqual([]);
    expect(preview.rows[2]?.errors.join(' ')).toMatch(/per-transaction limit of 500 USDT/);
    const refused = await value<{ created: boolean }>('bulk.create', {
      name: 'over the limit',
      kind: 'csv',
      batch: { source: 'csv', text: batchCsv(['60.11', '600.11'], 'preview') },
    });
    expect(refused.created).toBe(false);
    expect(pushed('60.11')).toBe(0);
  });

  it('waits as one item, survives a restart, and runs each row exactly once after another operator approves', async () => {
    who = MAKER;
    const amounts = ['60.21', '70.21', '20.21'];
    const created = await value<{ created: true; batch: BatchSummary }>('bulk.create', {
      name: 'suppliers',
      kind: 'csv',
      batch: { source: 'csv', text: batchCsv(amounts, 'approved') },
    });
    const started = await value<BatchSummary>('bulk.start', { id: created.batch.id });
    expect(started.state).toBe('approval');
    expect(confirmations.at(-1)).toMatchObject({
      confirmLabel: 'Submit for approval',
      typedAmounts: [{ amount: '150.63', currency: 'USDT' }],
    });

    const pending = (await value<{ approvals: Approval[] }>('approvals.list', { state: 'pending' })).approvals;
    expect(pending).toHaveLength(1);
    const item = pending[0] as Approval;
    expect(item).toMatchObject({
      kind: 'batch',
      makerName: MAKER.name,
      currency: 'USDT',
      amount: '150.63',
      batch: { batchId: created.batch.id, name: 'suppliers', totals: [{ currency: 'USDT', amount: '150.63' }] },
    });
    expect(item.batch?.rows.map((r) => [r.row, r.reasons.length > 0])).toEqual([
      [2, true],
      [3, true],
      [4, false],
    ]);
    expect(item.reasons.join(' ')).toMatch(/Row 2: Worth 60.21 USDT/);
    for (const a of amounts) expect(pushed(a)).toBe(0);

    // The maker cannot approve their own batch.
    expect(await call('approvals.approve', { id: item.id, reason: 'mine' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_ALLOWED' },
    });

    // Restart: the item and the waiting batch are in the journal; nothing ran meanwhile.
    await desk.restart();
    await desk.core.idle();
    who = APPROVER;
    expect((await value<{ batch: BatchSummary }>('bulk.get', { id: created.batch.id })).batch.state).toBe('approval');
    const after = (await value<{ approvals: Approval[] }>('approvals.list', {})).approvals;
    expect(after.find((a) => a.id === item.id)?.state).toBe('pending');
    for (const a of amounts) expect(pushed(a)).toBe(0);

    const approved = await value<Approval>('approvals.approve', { id: item.id, reason: 'Supplier list checked' });
    expect(approved).toMatchObject({ state: 'sent', decidedBy: APPROVER.name, reason: 'Supplier list checked' });
    // The approver too types the batch's total in the trusted confirmation.
    expect(confirmations.at(-1)).toMatchObject({
      action: 'approve',
      confirmLabel: 'Approve and run',
      typedAmounts: [{ amount: '150.63', currency: 'USDT' }],
    });

    const done = await waitState(created.batch.id, ['finished']);
    expect(done.rows.map((r) => `${r.row} ${r.state} ${r.message ?? ''}`.trim())).toEqual([
      '2 done',
      '3 done',
      '4 done',
    ]);
    for (const a of amounts) expect(pushed(a)).toBe(1);
    // No row waited for an approval of its own.
    expect((await value<{ approvals: Approval[] }>('approvals.list', { state: 'pending' })).approvals).toEqual([]);
    // Approving again is refused; a restart runs nothing twice.
    expect(await call('approvals.approve', { id: item.id, reason: 'again' })).toMatchObject({ ok: false });
    await desk.restart();
    await desk.core.idle();
    for (const a of amounts) expect(pushed(a)).toBe(1);
  }, 60_000);

  it('a rejected batch sends nothing', async () => {
    who = MAKER;
    const amounts = ['80.31', '10.31'];
    const created = await value<{ created: true; batch: BatchSummary }>('bulk.create', {
      name: 'unknown suppliers',
      kind: 'csv',
      batch: { source: 'csv', text: batchCsv(amounts, 'rejected') },
    });
    expect((await value<BatchSummary>('bulk.start', { id: created.batch.id })).state).toBe('approval');
    const [item] = (await value<{ approvals: Approval[] }>('approvals.list', { state: 'pending' })).approvals;
    who = APPROVER;
    const rejected = await value<Approval>('approvals.reject', { id: item!.id, reason: 'Unknown supplier' });
    expect(rejected).toMatchObject({ kind: 'batch', state: 'rejected' });
    const ended = await waitState(created.batch.id, ['cancelled']);
    expect(ended.rows.map((r) => r.state)).toEqual(['cancelled', 'cancelled']);
    expect(ended.rows[0]?.message).toMatch(/Rejected by Alice \(approver\): Unknown supplier/);
    await desk.core.idle();
    for (const a of amounts) expect(pushed(a)).toBe(0);
  }, 30_000);

  it('without approveBatchesAsAWhole each row needing approval waits on its own', async () => {
    who = ADMIN;
    await value('policies.set', {
      ...policy,
      approval: { ...policy.approval, approveBatchesAsAWhole: false },
    });
    // The admin confirmed each change of the switch seeing it, before → after, in the trusted window.
    const policyViews = confirmations.filter((c) => c.action === 'control');
    expect(policyViews.at(-2)?.rows).toContainEqual({
      label: 'Bulk batches',
      value: 'each row that needs approval waits on its own → a batch that needs approval waits as one item',
    });
    expect(policyViews.at(-1)?.rows).toContainEqual({
      label: 'Bulk batches',
      value: 'a batch that needs approval waits as one item → each row that needs approval waits on its own',
    });
    who = MAKER;
    const preview = await value<BatchPreview>('bulk.preview', {
      source: 'csv',
      text: batchCsv(['90.41', '30.41'], 'rows'),
    });
    expect(preview.approval).toMatchObject({ required: true, asWhole: false, rows: [2] });
    const created = await value<{ created: true; batch: BatchSummary }>('bulk.create', {
      name: 'row by row',
      kind: 'csv',
      batch: { source: 'csv', text: batchCsv(['90.41', '30.41'], 'rows') },
    });
    expect((await value<BatchSummary>('bulk.start', { id: created.batch.id })).state).toBe('running');
    await waitUntil(() => pushed('30.41') > 0, { timeoutMs: 20_000, what: 'the row under the limit to be pushed' });
    expect(pushed('30.41')).toBe(1);
    const pending = (await value<{ approvals: Approval[] }>('approvals.list', { state: 'pending' })).approvals;
    expect(pending.map((a) => [a.kind, a.amount])).toEqual([['push', '90.41']]);
    expect(pushed('90.41')).toBe(0);
    await value('bulk.cancel', { id: created.batch.id });
  }, 40_000);
});
