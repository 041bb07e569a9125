/**
 * Cancelling a batch that waits as one item in Approvals (docs/bulk.md, docs/approvals.md), through
 * the real dispatcher against the sandbox: the cancel withdraws the item (`cancelled`, gone from the
 * pending list, audited), so no approver can approve what was cancelled; a batch cancelled while an
 * approver reads the trusted confirmation is refused at the end of it; an item left pending by an
 * earlier version over a cancelled batch is refused with a clear error and nothing changes; a core
 * that stops between withdrawing the item and cancelling the batch cancels the batch on start.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { BatchRowView, BatchSummary } from '../../shared/contract/bulk';
import type { Approval } from '../../shared/contract/policies';
import type { OperatorInfo } from '../operators';
import type { Confirm, ConfirmView } from '../policies/confirm';
import { ADMIN, APPROVER, MAKER, BATCH_APPROVAL_POLICY as policy, pushReceiver } from '../testing/batchApproval';
import { autoConfirm, withSandboxCore } from '../testing/core';
import { waitUntil } from '../testing/waitUntil';

let who: OperatorInfo = ADMIN;
const receiver = pushReceiver();
const confirmations: ConfirmView[] = [];
/** Runs inside the trusted confirmation, before it answers (a test's "meanwhile"). */
let duringConfirmation: ((view: ConfirmView) => Promise<void>) | undefined;
const confirm: Confirm = async (view) => {
  await duringConfirmation?.(view);
  return autoConfirm(confirmations)(view);
};
const operators = { current: () => who };

const desk = withSandboxCore({
  sandbox: { seed: 23 },
  beforeCore: receiver.beforeCore,
  core: { confirm, operators, approvalsExpiryMs: 3_600_000 },
});
const { call, value } = desk;
const as = async <T>(operator: OperatorInfo, run: () => Promise<T>): Promise<T> => {
  const before = who;
  who = operator;
  try {
    return await run();
  } finally {
    who = before;
  }
};
const pushed = (amount: string): number => receiver.pushed(desk.sandbox, amount);
const approvals = async (state?: Approval['state']) =>
  (await value<{ approvals: Approval[] }>('approvals.list', state ? { state } : {})).approvals;
const batch = (id: string) => value<{ batch: BatchSummary; rows: BatchRowView[] }>('bulk.get', { id });

const batchCsv = receiver.csv;

/** A batch made and started by the maker: it waits as one pending item. */
const waitingBatch = async (name: string, amounts: readonly string[]): Promise<{ id: string; item: Approval }> =>
  as(MAKER, async () => {
    const created = await value<{ created: true; batch: BatchSummary }>('bulk.create', {
      name,
      kind: 'csv',
      batch: { source: 'csv', text: batchCsv(amounts, name) },
    });
    expect((await value<BatchSummary>('bulk.start', { id: created.batch.id })).state).toBe('approval');
    const item = (await approvals('pending')).find((a) => a.batch?.batchId === created.batch.id);
    expect(item).toMatchObject({ kind: 'batch', state: 'pending' });
    return { id: created.batch.id, item: item as Approval };
  });

beforeAll(async () => {
  await as(ADMIN, () => value('policies.set', policy));
});

describe('cancelling a batch that waits for approval', () => {
  it('withdraws its approval item: no longer pending, cannot be approved, survives a restart, nothing sent', async () => {
    const amounts = ['60.51', '20.51'];
    const { id, item } = await waitingBatch('cancelled while waiting', amounts);

    const cancelled = await as(MAKER, () => value<BatchSummary>('bulk.cancel', { id }));
    expect(cancelled.state).toBe('cancelled');
    expect((await approvals('pending')).map((a) => a.id)).not.toContain(item.id);
    const withdrawn = (await approvals()).find((a) => a.id === item.id);
    expect(withdrawn).toMatchObject({
      state: 'cancelled',
      decidedBy: MAKER.name,
      reason: expect.stringMatching(/cancelled in Bulk by Max \(maker\)/),
    });
    const rows = (await batch(id)).rows;
    expect(rows.map((r) => r.state)).toEqual(['cancelled', 'cancelled']);
    expect(rows[0]?.message).toMatch(/cancelled in Bulk by Max \(maker\)\. Nothing was sent\./);
    expect(desk.core.ctx.audit.list({ action: 'approvals.cancel' }).map((e) => JSON.parse(e.params))).toEqual([
      expect.objectContaining({ id: item.id, by: MAKER.name }),
    ]);

    // An approver can no longer approve it; nothing changes.
    const shown = confirmations.length;
    expect(await as(APPROVER, () => call('approvals.approve', { id: item.id, reason: 'looks fine' }))).toMatchObject({
      ok: false,
      error: { code: 'PRECONDITION', message: expect.stringMatching(/cancelled/) },
    });
    expect(confirmations.length).toBe(shown);
    expect((await approvals()).find((a) => a.id === item.id)).toMatchObject({ state: 'cancelled' });

    // Still so after a restart; nothing ran.
    await desk.restart();
    await desk.core.idle();
    expect((await batch(id)).batch.state).toBe('cancelled');
    expect((await approvals()).find((a) => a.id === item.id)).toMatchObject({ state: 'cancelled' });
    for (const a of amounts) expect(pushed(a)).toBe(0);
  }, 30_000);

  it('a batch cancelled while the approver reads the confirmation is refused at the end of it', async () => {
    const amounts = ['70.52', '10.52'];
    const { id, item } = await waitingBatch('cancelled meanwhile', amounts);
    duringConfirmation = async (view) => {
      if (view.action !== 'approve') return;
      await as(MAKER, () => value('bulk.cancel', { id }));
    };
    try {
      const answer = await as(APPROVER, () => call('approvals.approve', { id: item.id, reason: 'checked' }));
      expect(answer).toMatchObject({
        ok: false,
        error: {
          code: 'PRECONDITION',
          message: 'Batch “cancelled meanwhile” was cancelled in Bulk: it can no longer be approved.',
          advice: expect.stringContaining('Nothing was approved or sent.'),
        },
      });
    } finally {
      duringConfirmation = undefined;
    }
    expect((await approvals()).find((a) => a.id === item.id)).toMatchObject({
      state: 'cancelled',
      decidedBy: MAKER.name,
    });
    expect(desk.core.ctx.audit.list({ action: 'approvals.approve' }).filter((e) => e.params.includes(item.id))).toEqual(
      [],
    );
    expect((await batch(id)).batch.state).toBe('cancelled');
    await desk.core.idle();
    for (const a of amounts) expect(pushed(a)).toBe(0);
  }, 30_000);

  it('an item still pending over a batch cancelled by an earlier version: approving is refused and changes nothing', async () => {
    const amounts = ['80.53', '30.53'];
    const { id, item } = await waitingBatch('cancelled before the fix', amounts);
    // What an earlier version did on cancel: the batch and its rows cancelled, the item left pending.
    desk.core.db.prepare("UPDATE batches SET state = 'cancelled' WHERE id = ?").run(id);
    desk.core.db.prepare("UPDATE batch_rows SET state = 'cancelled' WHERE batch_id = ?").run(id);

    const shown = confirmations.length;
    const answer = await as(APPROVER, () => call('approvals.approve', { id: item.id, reason: 'checked' }));
    expect(answer).toMatchObject({
      ok: false,
      error: {
        code: 'PRECONDITION',
        message: 'Batch “cancelled before the fix” was cancelled in Bulk: it can no longer be approved.',
        advice: 'Nothing was approved or sent. The maker prepares a new batch if it is still needed.',
      },
    });
    // Nothing changed: no confirmation shown, the item as it was, the batch still cancelled, nothing sent.
    expect(confirmations.length).toBe(shown);
    const after = (await approvals()).find((a) => a.id === item.id);
    expect(after).toEqual(item);
    expect((await batch(id)).batch.state).toBe('cancelled');
    expect((await batch(id)).rows.map((r) => r.state)).toEqual(['cancelled', 'cancelled']);
    await desk.core.idle();
    for (const a of amounts) expect(pushed(a)).toBe(0);
  }, 30_000);

  it('a core that stopped after withdrawing the item but before cancelling the batch cancels it on start', async () => {
    const amounts = ['90.54'];
    const { id, item } = await waitingBatch('stopped in between', amounts);
    desk.core.db
      .prepare("UPDATE approvals SET state = 'cancelled', decided_by = ?, reason = ? WHERE id = ?")
      .run(MAKER.name, 'The batch was cancelled in Bulk by Max (maker).', item.id);
    await desk.restart();
    await waitUntil(async () => (await batch(id)).batch.state === 'cancelled', { what: 'the batch to be cancelled' });
    const ended = await batch(id);
    expect(ended.batch.state).toBe('cancelled');
    expect(ended.rows[0]).toMatchObject({ state: 'cancelled', message: expect.stringMatching(/Nothing was sent/) });
    await desk.core.idle();
    for (const a of amounts) expect(pushed(a)).toBe(0);
  }, 30_000);

  it('cancelling a batch that waits for nobody leaves the Approvals queue alone', async () => {
    const created = await as(MAKER, () =>
      value<{ created: true; batch: BatchSummary }>('bulk.create', {
        name: 'not started',
        kind: 'csv',
        batch: { source: 'csv', text: batchCsv(['61.55'], 'not started') },
      }),
    );
    const before = await approvals();
    expect((await as(MAKER, () => value<BatchSummary>('bulk.cancel', { id: created.batch.id }))).state).toBe(
      'cancelled',
    );
    expect(await approvals()).toEqual(before);
  });
});
