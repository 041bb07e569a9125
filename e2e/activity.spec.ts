import { randomUUID } from 'node:crypto';
import { expect, savedExports, test } from './fixtures';

test.describe('activity', () => {
  test('money movements, the audit log and the history sync', async ({ page, app, control }) => {
    // One journaled money movement to show: a UID transfer to another main account.
    const counterparty = await control.post<{ user_id: number }>('/users', {});
    const sent = await app.call('funding.push', {
      requestKey: randomUUID(),
      receiveUid: counterparty.user_id,
      currency: 'USDT',
      amount: '1',
    });
    expect(sent).toMatchObject({ ok: true, value: { outcome: 'accepted' } });
    await app.open('activity');
    const movements = page.getByTestId('movements-table');
    await expect(movements).toContainText('UID transfer');
    await expect(movements).toContainText('Accepted by the platform');
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
    await app.expectAccessible();
    await app.screenshot('activity-history');
  });

  test('a CSV export is saved as a file with the movements’ rows and says where', async ({
    page,
    app,
    control,
    downloadsDir,
  }) => {
    const counterparty = await control.post<{ user_id: number }>('/users', {});
    for (const amount of ['1', '2.5']) {
      const sent = await app.call('funding.push', {
        requestKey: randomUUID(),
        receiveUid: counterparty.user_id,
        currency: 'USDT',
        amount,
      });
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
    expect(rows.map((r) => [r[2], r[3], r[4], r[5]])).toEqual([
      ['push', 'done', 'USDT', '1'],
      ['push', 'done', 'USDT', '2.5'],
    ]);
    const notice = page.getByTestId('notice').filter({ hasText: 'Export saved' });
    await expect(notice).toContainText(`Saved to ${file?.path}`);

    // A second export is a second file; the first stays as it was.
    await page.getByTestId('movements-export').click();
    const both = await savedExports(downloadsDir, 2);
    expect(new Set(both.map((f) => f.path)).size).toBe(2);
    expect(both.find((f) => f.path === file?.path)?.bytes.equals(file?.bytes ?? Buffer.alloc(0))).toBe(true);
  });
});
