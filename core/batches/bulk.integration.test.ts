/**
 * Bulk batches through the real core (dispatcher, handlers, journal, API client) against an
 * in-process sandbox: import → preview with errors → fix → run → report; a sweep; and a batch run
 * while the sandbox faults 30 % of its writes and the core is stopped and reopened on the same data
 * directory three times mid-run — every row executed exactly once, none lost (testing/batchFaults.ts;
 * small here, at full size in bulk.soak.test.ts).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { control, type SandboxHandle, startTestSandbox } from '../../sandbox/testing/harness';
import type { BatchPreview, BatchSummary } from '../../shared/contract/bulk';
import { parseCsv } from '../../shared/format/csv';
import type { Core } from '../core';
import type { Confirm, ConfirmView } from '../policies/confirm';
import { runBatchThroughFaults, waitBatchFinished } from '../testing/batchFaults';
import { autoConfirm, rendererCalls, startTestCore } from '../testing/core';

let sandbox: SandboxHandle;
let subs: number[];
let downloadsDir: string;

const value = <T>(core: Core, operation: string, input: unknown): Promise<T> =>
  rendererCalls(() => core).value<T>(operation, input);

beforeAll(async () => {
  // Real clock: own-transfer lookups compare platform record times with the journal's.
  sandbox = await startTestSandbox({ clock: 'real', market: 'off' });
  await control(sandbox, '/rate_limits', { enforce: false });
  // Sub-accounts of the seeded main account (scale_sub_…, each with some spot USDT).
  await control(sandbox, '/scale', { sub_accounts: 4 });
  subs = (
    sandbox.ctx.db
      .prepare("SELECT id FROM users WHERE parent_id = ? AND login_name LIKE 'scale_sub_%' ORDER BY id")
      .all(sandbox.userId) as { id: number }[]
  ).map((r) => r.id);
  await control(sandbox, '/balances', { user_id: sandbox.userId, account: 'spot', currency: 'USDT', amount: '100000' });
  for (const sub of subs.slice(0, 2)) {
    await control(sandbox, '/balances', { user_id: sub, account: 'spot', currency: 'USDT', amount: '500' });
  }
  downloadsDir = mkdtempSync(join(tmpdir(), 'td-bulk-dl-'));
});

afterAll(async () => {
  await sandbox?.close();
  if (downloadsDir) rmSync(downloadsDir, { recursive: true, force: true });
});

describe('bulk batches against the sandbox', () => {
  it('import → preview with errors → fix → run (one confirmation for the batch) → report', async () => {
    const views: ConfirmView[] = [];
    const test = await startTestCore(sandbox, { confirm: autoConfirm(views), downloadsDir });
    const core = test.core;
    try {
      const [a, b] = subs as [number, number];
      const bad = [
        'type,currency,amount,from,to,chain,memo,reference',
        `transfer,USDT,10,spot,sub:${a},,,r1`,
        `transfer,USDT,1.123456789,spot,sub:${b},,,r2`,
        'transfer,USDT,5,spot,sub:99999999,,,r3',
        `transfer,USDT,"1,000,000",sub:${a},spot,,,r4`,
      ].join('\n');
      const preview = await value<BatchPreview>(core, 'bulk.preview', { source: 'csv', text: bad });
      expect(preview.rows.map((r) => r.errors.length > 0)).toEqual([false, true, true, true]);
      expect(preview.rows[3]?.errors.join(' ')).toMatch(/511 USDT available; this row needs 1,000,000 USDT/);
      const refused = await value<{ created: boolean }>(core, 'bulk.create', {
        name: 'payroll',
        kind: 'csv',
        batch: { source: 'csv', text: bad },
      });
      expect(refused.created).toBe(false);
      expect(sandbox.ctx.db.prepare('SELECT COUNT(*) AS n FROM transfers').get()).toEqual({ n: 0 });

      const fixed = [
        'type,currency,amount,from,to,chain,memo,reference',
        `transfer,USDT,10,spot,sub:${a},,,r1`,
        `transfer,USDT,1.12345678,spot,sub:${b},,,r2`,
        `transfer,USDT,100,sub:${a},spot,,,r4`,
        `transfer,USDT,3,sub:${a},sub:${b},,,r5`,
        'transfer,USDT,7,spot,futures:usdt,,,r6',
      ].join('\n');
      const created = await value<{ created: true; batch: BatchSummary }>(core, 'bulk.create', {
        name: 'payroll',
        kind: 'csv',
        batch: { source: 'csv', text: fixed },
      });
      expect(created.created).toBe(true);
      await value(core, 'bulk.start', { id: created.batch.id });
      const done = await waitBatchFinished(() => core, created.batch.id, 30_000);
      expect(done.rows.map((r) => r.state)).toEqual(['done', 'done', 'done', 'done', 'done']);
      expect(done.rows[0]?.clientId).toMatch(/^td/);
      // One trusted confirmation for the whole batch, none per row: every destination with its
      // amount, the total, and the batch's name as a labelled row (never the title).
      expect(views.map((v) => v.title)).toEqual(['Run a batch of 5 rows']);
      expect(views[0]?.rows).toContainEqual({ label: 'Batch name', value: '“payroll”' });
      expect(views[0]?.rows.filter((r) => r.label.startsWith('Row ')).map((r) => r.label)).toEqual([
        'Row 2 · Transfer',
        'Row 3 · Transfer',
        'Row 4 · Transfer',
        'Row 5 · Transfer',
        'Row 6 · Transfer',
      ]);
      expect(views[0]?.rows.find((r) => r.label === 'Row 2 · Transfer')?.value).toMatch(
        new RegExp(`^10 USDT to .*\\(UID ${a}\\) · Spot \\(from Main · Spot\\)$`),
      );
      expect(views[0]?.rows).toContainEqual({ label: 'Total USDT', value: '121.12345678 USDT' });

      const report = await value<{ path: string; rows: number }>(core, 'bulk.exportReport', {
        id: created.batch.id,
        timeZone: 'UTC',
      });
      const text = readFileSync(report.path, 'utf8');
      const [header, ...records] = parseCsv(text);
      expect(header?.join(',')).toBe(
        'row,type,currency,amount,from,to,reference,client_id,status,platform_id,label,message,time (UTC)',
      );
      expect(records.map((r) => r.slice(7, 9))).toContainEqual([done.rows[0]?.clientId, 'done']);
      expect(report.rows).toBe(5);
    } finally {
      await test.close();
    }
  }, 60_000);

  it('a batch in two currencies is confirmed by typing each currency’s total; one total wrong → nothing sent', async () => {
    const views: ConfirmView[] = [];
    /** A person who types the USDT total right and `btc` as the BTC total. */
    let btc = '0.3';
    const confirm: Confirm = async (view) => {
      views.push(view);
      return {
        accepted: true,
        typedAmounts: (view.typedAmounts ?? []).map((t) => (t.currency === 'BTC' ? btc : t.amount)),
      };
    };
    const test = await startTestCore(sandbox, { confirm });
    const core = test.core;
    try {
      const a = subs[0] as number;
      const transfers = () => sandbox.ctx.db.prepare('SELECT COUNT(*) AS n FROM transfers').get() as { n: number };
      const before = transfers().n;
      const created = await value<{ created: true; batch: BatchSummary }>(core, 'bulk.create', {
        name: 'two currencies',
        kind: 'csv',
        batch: {
          source: 'csv',
          text: [
            'type,currency,amount,from,to,reference',
            `transfer,USDT,20,spot,sub:${a},u1`,
            `transfer,BTC,0.1,spot,sub:${a},b1`,
            `transfer,BTC,0.2,spot,sub:${a},b2`,
          ].join('\n'),
        },
      });
      btc = '0.2'; // one row's amount, not the BTC total: declined
      await expect(value(core, 'bulk.start', { id: created.batch.id })).rejects.toMatchObject({
        ipc: { code: 'CONFIRMATION_DECLINED', message: expect.stringContaining('was not 0.3 BTC') },
      });
      expect(transfers().n).toBe(before);
      expect(views[0]?.typedAmounts).toEqual([
        { amount: '20', currency: 'USDT' },
        { amount: '0.3', currency: 'BTC' },
      ]);
      btc = '0.30';
      await value(core, 'bulk.start', { id: created.batch.id });
      const done = await waitBatchFinished(() => core, created.batch.id, 30_000);
      expect(done.rows.map((r) => r.state)).toEqual(['done', 'done', 'done']);
      expect(transfers().n).toBe(before + 3);
    } finally {
      await test.close();
    }
  }, 40_000);

  it('a sweep collects every selected sub-account’s spot USDT above the threshold to main', async () => {
    const test = await startTestCore(sandbox, {});
    const core = test.core;
    try {
      const c = subs[2] as number;
      await control(sandbox, '/balances', { user_id: c, account: 'spot', currency: 'USDT', amount: '42.5' });
      const before = await value<{ balances: { spot: Record<string, string> }[] }>(core, 'subAccounts.balances', {
        userId: c,
      });
      const held = before.balances[0]?.spot.USDT as string;
      const plan = await value<BatchPreview>(core, 'bulk.planSweep', {
        mode: 'sweep',
        subUserIds: [c],
        accountTypes: ['spot'],
        currency: 'USDT',
        threshold: '1',
      });
      expect(plan.rows.map((r) => [r.amount, r.from, r.to, r.errors])).toEqual([
        [held, `Sub ${c} · spot`, 'Main · spot', []],
      ]);
      const created = await value<{ batch: BatchSummary }>(core, 'bulk.create', {
        name: 'sweep',
        kind: 'sweep',
        batch: { source: 'rows', rows: plan.rows.map((r) => r.input) },
      });
      await value(core, 'bulk.start', { id: created.batch.id });
      await waitBatchFinished(() => core, created.batch.id, 20_000);
      const left = await value<{ balances: { userId: number; spot: Record<string, string> }[] }>(
        core,
        'subAccounts.balances',
        {
          userId: c,
        },
      );
      expect(new Decimal(left.balances[0]?.spot.USDT ?? '0').toNumber()).toBe(0);
    } finally {
      await test.close();
    }
  }, 40_000);

  it('under 30 % faults and three restarts mid-run, every row is executed exactly once', async () => {
    // Small here; 60 rows in `npm run test:soak` (bulk.soak.test.ts).
    await runBatchThroughFaults(sandbox, subs[3] as number, 24);
  }, 180_000);
});
