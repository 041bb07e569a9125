import { randomUUID } from 'node:crypto';
import { expect, test } from './fixtures';

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
});
