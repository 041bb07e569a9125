/**
 * Two desks, one firm, end to end (docs/team.md): two windows of the Chromium shell — two data
 * folders, two core processes — share one PostgreSQL (the test harness's server) and one sandbox.
 * Desk A's administrator creates the team in Settings → Team, desk B's administrator joins it with
 * the fingerprint shown on A and A enrols them; a withdrawal prepared in window A shows in window B's
 * Approvals and is approved there → sent exactly once; the database stopped → both frames say so.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { skipWithoutPostgres, startTestPostgres } from '../core/team/testing/postgres';
import { openShell, type Shell } from '../shell/shell';
import { coreOptionsFor, createAppDriver, expect, rendererDir, test } from './fixtures';
import { confirmedCall, confirmTrusted } from './fixtures/trustedConfirm';

const ALICE = { name: 'Alice', passphrase: 'first desk admin 1' } as const;
const BOB = { name: 'Bob', passphrase: 'second desk admin 2' } as const;
const ADDRESS = `T0001TeamE2eAddr${'x'.repeat(18)}`;

const call = (page: Page, operation: string, payload: unknown) =>
  page.evaluate(
    ([op, input]) => {
      const [area, name] = (op as string).split('.') as [string, string];
      const desk = window.desk as unknown as Record<string, Record<string, (p: unknown) => Promise<unknown>>>;
      return desk[area]![name]!(input) as Promise<{ ok: boolean; value?: unknown; error?: { code: string } }>;
    },
    [operation, payload] as const,
  );

test('two windows, one firm: prepared on desk A, approved in desk B’s window, sent once; the database away on both frames', async ({
  sandbox,
  control,
}, testInfo) => {
  test.skip(skipWithoutPostgres('e2e team.spec'), 'no PostgreSQL server here (npm run setup installs it)');
  test.setTimeout(240_000);
  const pg = await startTestPostgres();
  const shells: Shell[] = [];
  const dirs: string[] = [];
  try {
    const database = await pg.createDatabase();
    const url = `postgres://${pg.user}:${encodeURIComponent(pg.password)}@${pg.host}:${pg.port}/${database}?sslmode=disable`;
    await control.credit({ user_id: sandbox.userId, account: 'spot', currency: 'USDT', amount: '10000' });
    await control.savedAddress({ user_id: sandbox.userId, currency: 'USDT', chain: 'TRX', address: ADDRESS });
    const open = async (who: { name: string; passphrase: string }) => {
      const dataDir = await mkdtemp(join(tmpdir(), 'treasury-desk-team-'));
      dirs.push(dataDir);
      const shell = await openShell({
        dataDir,
        headless: true,
        rendererDir: rendererDir(),
        // The URL as `npm start -- --team URL` gives it: offered in Settings → Team.
        core: { ...coreOptionsFor(sandbox), bootstrapOperator: who, team: { url } },
      });
      shells.push(shell);
      return shell;
    };
    const a = await open(ALICE);
    const b = await open(BOB);
    const appA = createAppDriver(a.page, testInfo);
    const appB = createAppDriver(b.page, testInfo);

    // Every withdrawal above 1 USDT needs an approver (desk A's policy becomes the team's first).
    const policy = await confirmedCall(
      a,
      call(a.page, 'policies.set', {
        limits: {},
        usdtLimits: {},
        allowlist: { required: false, coolingOffHours: 24, entries: [] },
        approval: {
          aboveUsdt: '1',
          newDestination: false,
          anyPush: false,
          expiresHours: 24,
          operatorCoolingOffHours: 0,
        },
      }),
    );
    expect(policy).toMatchObject({ ok: true });

    // Alice creates the team in Settings → Team (the URL offered at start is filled in).
    await appA.open('settings');
    await a.page.getByTestId('team-mode').selectOption('create');
    await expect(a.page.getByTestId('team-url')).toHaveValue(/^postgres:\/\/.*sslmode=disable$/);
    await a.page.getByTestId('team-name').fill('Acme treasury');
    await a.page.getByTestId('team-passphrase').fill(ALICE.passphrase);
    await a.page.getByTestId('team-submit').click();
    await confirmTrusted(a, { title: 'Create the team “Acme treasury” with this desk' });
    const fingerprint = (await a.page.getByTestId('team-fingerprint').textContent()) ?? '';
    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);

    // Bob joins from desk B with that fingerprint; Alice enrols him from desk A.
    await appB.open('settings');
    await b.page.getByTestId('team-fingerprint-input').fill(fingerprint);
    await b.page.getByTestId('team-role').selectOption('admin');
    await b.page.getByTestId('team-passphrase').fill(BOB.passphrase);
    await b.page.getByTestId('team-submit').click();
    await confirmTrusted(b, { title: 'Join a team with this desk' });
    await expect(b.page.getByTestId('team-me')).toContainText('Waiting to be enrolled');
    await a.page.getByTestId('team-enrol-Bob').click();
    await expect(b.page.getByTestId('team-me')).toContainText('Administrator');

    // Alice prepares a withdrawal on desk A: it waits for an approver.
    const prepared = await confirmedCall(
      a,
      call(a.page, 'funding.withdraw', {
        requestKey: crypto.randomUUID(),
        currency: 'USDT',
        chain: 'TRX',
        address: ADDRESS,
        amount: '25',
      }),
    );
    expect(prepared).toMatchObject({ ok: false, error: { code: 'AWAITING_APPROVAL' } });

    // It is on desk B's Approvals screen (heard through the team database), and Bob approves it there.
    await appB.open('approvals');
    const item = b.page.getByTestId('approvals-pending').locator('article').filter({ hasText: '25 USDT' });
    await expect(item.getByTestId('approval-maker')).toContainText(ALICE.name, { timeout: 5_000 });
    await item.getByTestId('approval-reason').fill('Invoice checked');
    await item.getByTestId('approval-approve').click();
    await confirmTrusted(b, { title: /^Approve: / });
    const sent = () =>
      (
        sandbox.ctx.db
          .prepare("SELECT COUNT(*) AS n FROM withdrawals WHERE user_id = ? AND withdraw_order_id LIKE 'td%'")
          .get(sandbox.userId) as { n: number }
      ).n;
    await expect.poll(sent, { timeout: 20_000 }).toBe(1);

    // The database goes away: both frames say so; it comes back: the banner goes.
    await pg.stop();
    for (const shell of [a, b])
      await expect(shell.page.getByTestId('team-banner-database')).toContainText('The team database is unavailable', {
        timeout: 15_000,
      });
    await pg.start();
    for (const shell of [a, b]) await expect(shell.page.getByTestId('team-banner')).toHaveCount(0, { timeout: 15_000 });
    expect(sent()).toBe(1);
  } finally {
    for (const shell of shells.reverse()) await shell.close().catch(() => undefined);
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
    await pg.close();
  }
});
