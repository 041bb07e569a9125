import { randomUUID } from 'node:crypto';
import type { Shell } from '../shell/shell';
import { type AppDriver, expect, savedExports, test } from './fixtures';
import { confirmedCall } from './fixtures/trustedConfirm';

/** A UID transfer of `amount` USDT to another main account, confirmed in the trusted window. */
const sendUidTransfer = (app: AppDriver, shell: Shell, receiveUid: number, amount: string) =>
  confirmedCall(shell, app.call('funding.push', { requestKey: randomUUID(), receiveUid, currency: 'USDT', amount }));

test.describe('activity', () => {
  test('money movements, the audit log and the history sync', async ({ page, app, shell, control, downloadsDir }) => {
    // One journaled money movement to show: a UID transfer to another main account.
    const counterparty = await control.post<{ user_id: number }>('/users', {});
    const sent = await sendUidTransfer(app, shell, counterparty.user_id, '1');
    expect(sent).toMatchObject({ ok: true, value: { outcome: 'accepted' } });
    await app.open('activity');
    const movements = page.getByTestId('movements-table');
    await expect(movements).toContainText('UID transfer');
    // The row says the platform's state of the push (accepted is not completed), never a bare 'Done'.
    await expect(movements).toContainText(
      /Being created|Waiting for the receiver|Being credited to the receiver|Received by the other account/,
    );
    await app.expectAccessible();
    await app.screenshot('activity-movements');

    await page.getByRole('tab', { name: 'Audit log' }).click();
    await expect(page.getByTestId('audit-table')).toBeVisible();
    await page.getByTestId('audit-verify').click();
    await expect(page.getByTestId('audit-verified')).toContainText('intact');
    await app.expectAccessible();
    await app.screenshot('activity-audit');

    await page.getByRole('tab', { name: 'History' }).click();
    await page.getByTestId('history-sync-start').click();
    await expect(page.getByTestId('history-progress')).toContainText('Done', { timeout: 20_000 });
    await expect(page.getByTestId('history-records')).toContainText('w20000001');
    // Statuses in the timelines' words, with the platform's code in brackets.
    await expect(page.getByTestId('history-records')).toContainText(/[a-z] \([A-Z_]+\)/);
    // By default every money movement of the period, whoever made it: the seeded deposits and
    // withdrawal and the UID transfer sent above, in one table and one export.
    const records = page.getByTestId('history-records');
    await expect(records).toContainText('Deposit');
    await expect(records).toContainText('Withdrawal');
    await expect(records).toContainText('UID transfer');
    await page.getByTestId('history-export').click();
    const [file] = await savedExports(downloadsDir);
    expect(file?.name).toMatch(/^history-money-\d{4}-\d{2}-\d{2}\.csv$/);
    const [header = [], ...rows] = file?.rows ?? [];
    expect(header.slice(1)).toEqual(['Kind', 'ID', 'Currency', 'Amount', 'Status']);
    // Every record of the period, as many as the table says it holds (the table only draws the
    // rows in view).
    expect(rows).toHaveLength(Number(await records.getAttribute('data-row-count')));
    await expect(page.getByTestId('history-count')).toContainText(`${rows.length} record`);
    await expect(page.getByTestId('notice').filter({ hasText: 'Export saved' })).toContainText(
      `${rows.length} row${rows.length === 1 ? '' : 's'} written to ${file?.path}`,
    );
    expect(rows.map((r) => r[1])).toEqual(expect.arrayContaining(['Deposit', 'Withdrawal', 'UID transfer']));
    await app.expectAccessible();
    await app.screenshot('activity-history');
  });

  test.describe('with the client’s rate-limit windows short', () => {
    // The platform takes one UID transfer per 10 s: the sandbox's limit is skipped on its manual clock
    // (POST /sandbox/advance), and the core's own window is 1/1000 of it, as in the core's own tests
    // (FAST_LIMITER_SCALE), instead of waiting 10 s between the two transfers.
    test.use({ coreOptions: { limiterScale: 0.001 } });

    test('a CSV export is saved as a file with the movements’ rows and says where', async ({
      page,
      app,
      shell,
      control,
      downloadsDir,
    }) => {
      const counterparty = await control.post<{ user_id: number }>('/users', {});
      for (const amount of ['1', '2.5']) {
        await control.advance(10);
        const sent = await sendUidTransfer(app, shell, counterparty.user_id, amount);
        expect(sent).toMatchObject({ ok: true });
      }
      await app.open('activity');
      await expect(page.getByTestId('movements-table')).toContainText('UID transfer');
      await page.getByTestId('movements-export').click();

      const [file] = await savedExports(downloadsDir);
      expect(file?.name).toMatch(/^treasury-desk-movements-.*\.csv$/);
      expect([...(file?.bytes.subarray(0, 3) ?? [])]).toEqual([0xef, 0xbb, 0xbf]); // one BOM, UTF-8
      const [header, ...rows] = file?.rows ?? [];
      expect(header?.slice(0, 6)).toEqual(['created_utc', 'updated_utc', 'kind', 'state', 'currency', 'amount']);
      // The state is what became of it: accepted, on its way or completed (never a bare "done").
      const state = expect.stringMatching(/^(accepted|in progress|completed)$/);
      expect(rows.map((r) => [r[2], r[3], r[4], r[5]])).toEqual([
        ['push', state, 'USDT', '1'],
        ['push', state, 'USDT', '2.5'],
      ]);
      expect(header).toContain('destination');
      expect(rows[0]?.[header?.indexOf('destination') ?? -1]).toMatch(/^UID \d+$/);
      const notice = page.getByTestId('notice').filter({ hasText: 'Export saved' });
      await expect(notice).toContainText(`Saved to ${file?.path}`);

      // A second export is a second file; the first stays as it was.
      await page.getByTestId('movements-export').click();
      const both = await savedExports(downloadsDir, 2);
      expect(new Set(both.map((f) => f.path)).size).toBe(2);
      expect(both.find((f) => f.path === file?.path)?.bytes.equals(file?.bytes ?? Buffer.alloc(0))).toBe(true);
    });
  });

  test('a movement that needs a person stands out with what to do, and is settled by hand after a confirmation', async ({
    page,
    app,
    shell,
    control,
  }) => {
    const list = await app.call('subAccounts.list', {});
    const [from, to] = (list.value as { accounts: { userId: number }[] }).accounts;
    if (from === undefined || to === undefined) throw new Error('the sandbox seeds two sub-accounts');
    // The platform executes the sub-account → sub-account transfer but the answer is lost; the spec
    // offers no lookup for this kind, so only a person can settle it.
    await control.addFaults([
      { method: 'POST', path: '/wallet/sub_account_to_sub_account', kind: 'drop_after', times: 1 },
    ]);
    const sent = await confirmedCall(
      shell,
      app.call('transfers.send', {
        kind: 'subSub',
        fromUserId: from.userId,
        fromType: 'spot',
        toUserId: to.userId,
        toType: 'spot',
        currency: 'USDT',
        amount: '3',
        requestKey: randomUUID(),
      }),
    );
    expect(sent).toMatchObject({ ok: true, value: { state: 'checking' } });

    await app.open('activity');
    const box = page.getByTestId('needs-person');
    await expect(box).toContainText('1 money movement needs a person', { timeout: 15_000 });
    await expect(box).toContainText('Sub-account → sub-account transfer: 3 USDT');
    await expect(box).toContainText('What to do:');
    await expect(page.getByTestId('movements-table')).toContainText('Needs a person');
    await app.expectAccessible();
    await app.screenshot('activity-needs-person');

    await box.getByRole('button', { name: 'Settle as executed' }).click();
    const dialog = page.getByTestId('settle-dialog');
    await expect(dialog).toContainText('Before settling, check on the platform itself.');
    await expect(dialog.getByTestId('confirm-accept')).toBeDisabled();
    await dialog.getByTestId('settle-checked').check();
    await dialog.getByLabel(/What you checked/).fill('both sub-account balances moved by 3 USDT');
    await app.expectAccessible();
    await app.screenshot('activity-settle-confirm');
    await dialog.getByTestId('confirm-accept').click();
    await expect(dialog).toHaveCount(0);
    await expect(box).toHaveCount(0);
    await expect(page.getByTestId('movements-table')).toContainText('Accepted by the platform');

    // The verdict and the person's note are in the audit log.
    await page.getByRole('tab', { name: 'Audit log' }).click();
    await page.getByLabel('Search').fill('balances moved by 3 USDT');
    const rows = page.getByTestId('audit-table').locator('tbody tr');
    await expect(rows).toHaveCount(1);
    await expect(rows).toContainText('activity.resolveMovement');
  });
});
