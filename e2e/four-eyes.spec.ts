/**
 * The control plane under four eyes, end to end through the Chromium shell, played by a compromised
 * window that calls `window.desk` directly (as e2e/trusted-confirmation.spec.ts does):
 *
 * - no operator, role, review threshold, key, profile, sub-account or small-balance change happens
 *   without the trusted confirmation — the `mallory` sequence of issue 20 fails at its first step;
 * - with two administrators none applies without the second one's approval, even when the person
 *   confirms what the window asked for;
 * - a second Send of a withdrawal that waits for approval leaves one approval item and no withdrawal;
 *   the same withdrawal reviewed again shows "possible duplicate" to the approver; a UID transfer's
 *   review closes once it is queued, and the same request again joins its one item;
 * - a batch with a UID transfer shows that UID in its confirmation, the batch's name as a labelled
 *   row, never as the title.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import type { Shell } from '../shell/shell';
import { type AppDriver, E2E_ADMIN, expect, test } from './fixtures';
import { cancelTrusted, confirmedCall, confirmTrusted, trustedConfirmPage } from './fixtures/trustedConfirm';

type Result = { ok: true; value: unknown } | { ok: false; error: { code: string; message: string } };

/** The compromised window: any operation of `window.desk`, any payload, from the page's own script. */
const fromWindow = (page: Page, operation: string, payload: unknown): Promise<Result> =>
  page.evaluate(
    ([op, input]) => {
      const [area, name] = (op as string).split('.') as [string, string];
      const desk = window.desk as unknown as Record<string, Record<string, (p: unknown) => Promise<unknown>>>;
      return desk[area]![name]!(input) as Promise<Result>;
    },
    [operation, payload] as const,
  );

const count = (sandbox: { ctx: { db: { prepare(sql: string): { get(): unknown } } } }, sql: string): number =>
  (sandbox.ctx.db.prepare(sql).get() as { n: number }).n;

/** The administrator sets approval rules of the active profile's policy (confirmed as a person would). */
const setApprovalRules = async (app: AppDriver, shell: Shell, rules: Record<string, unknown>): Promise<void> => {
  const policy = (await app.call('policies.get', {})).value as {
    policy: Record<string, unknown> & { approval: Record<string, unknown> };
  };
  await confirmedCall(
    shell,
    app.call('policies.set', { ...policy.policy, approval: { ...policy.policy.approval, ...rules } }),
  );
};

/**
 * The window sends one movement twice under one request key, each time queued for approval: the
 * first asks the trusted confirmation (confirmed), the repeat joins the queued item without asking again.
 */
const sentTwiceUnderOneKey = async (page: Page, shell: Shell, operation: string, request: unknown): Promise<void> => {
  const queued = { ok: false, error: { code: 'AWAITING_APPROVAL' } };
  expect(await confirmedCall(shell, fromWindow(page, operation, request))).toMatchObject(queued);
  expect(await fromWindow(page, operation, request)).toMatchObject(queued);
  expect(shell.context.pages().some((p) => p.url().startsWith(`${shell.confirmOrigin}/`))).toBe(false);
};

const BEA = { name: 'Bea Admin', passphrase: 'bea keeps the second key' } as const;
const MALLORY = { name: 'mallory', passphrase: 'quiet river under stone' } as const;

test.describe('a compromised window against the control plane', () => {
  test('changes nothing without the trusted confirmation: the mallory sequence fails at its first step', async ({
    page,
    app,
    shell,
    sandbox,
  }) => {
    test.setTimeout(120_000);
    const profile = (await app.call('profiles.active', {})).value as { id: string; keyMask: string; userId: number };
    const subAccounts = () => count(sandbox, `SELECT COUNT(*) AS n FROM users WHERE parent_id = ${sandbox.userId}`);
    const subsBefore = subAccounts();
    const sub = ((await app.call('subAccounts.list', {})).value as { accounts: { userId: number; state: string }[] })
      .accounts[0]!;
    const apiKeys = () => count(sandbox, 'SELECT COUNT(*) AS n FROM api_keys');
    const keysBefore = apiKeys();

    // Step 1 of the sequence: create mallory. The shell's window asks the person, who cancels.
    const created = fromWindow(page, 'operators.create', { ...MALLORY, role: 'viewer' });
    const asked = await trustedConfirmPage(shell);
    await expect(asked.getByTestId('trusted-title')).toHaveText('Create operator mallory (Viewer)');
    await expect(asked.getByTestId('trusted-rows')).toContainText('— → mallory');
    await app.screenshot('trusted-confirmation-control-change');
    await cancelTrusted(shell);
    expect(await created).toMatchObject({ ok: false, error: { code: 'CONFIRMATION_DECLINED' } });
    // The rest of the sequence has nothing to stand on: no mallory to promote or sign in as.
    const listed = (await app.call('operators.list', {})).value as { name: string }[];
    expect(listed.map((o) => o.name)).toEqual([E2E_ADMIN.name]);
    expect(await fromWindow(page, 'operators.signIn', MALLORY)).toMatchObject({
      ok: false,
      error: { code: 'NOT_ALLOWED' },
    });
    await expect(page.locator('html')).toHaveAttribute('data-desk-ready', 'true');
    expect(await app.call('operators.signIn', E2E_ADMIN)).toMatchObject({ ok: true });

    // Every other control change, each cancelled in the trusted window: nothing changes.
    const attempts: [string, unknown, RegExp][] = [
      ['funding.setReviewPolicy', { typedConfirmAbove: { USDT: '1000000' } }, /^Change the review threshold/],
      ['profiles.setKey', { id: profile.id, key: 'K'.repeat(32), secret: 'S'.repeat(64) }, /^Set the API key/],
      [
        'profiles.add',
        { kind: 'custom', name: 'Elsewhere', baseUrl: 'https://evil.example/api/v4' },
        /^Add an endpoint/,
      ],
      ['subAccounts.create', { loginName: 'mallorysub1' }, /^Create sub-account/],
      ['bulk.setFrozen', { userIds: [sub.userId], frozen: true }, /^Freeze a sub-account/],
      [
        'keys.create',
        {
          userId: sub.userId,
          name: 'mallory-bot',
          mode: 'classic',
          perms: { wallet: 'write' },
          ipWhitelist: [],
          keepSecretInKeychain: true,
        },
        /^Create an API key for /,
      ],
      ['profiles.remove', { id: profile.id }, /^Remove profile/],
      ['balances.convertSmallBalances', { all: true }, /^Convert every small balance/],
    ];
    for (const [operation, payload, title] of attempts) {
      const call = fromWindow(page, operation, payload);
      const page2 = await trustedConfirmPage(shell);
      await expect(page2.getByTestId('trusted-title')).toHaveText(title);
      await cancelTrusted(shell);
      expect(await call, operation).toMatchObject({ ok: false, error: { code: 'CONFIRMATION_DECLINED' } });
    }
    expect((await app.call('funding.reviewPolicy', {})).value).toEqual({ typedConfirmAbove: {} });
    const after = (await app.call('profiles.active', {})).value as { keyMask: string; userId: number };
    expect(after).toMatchObject({ keyMask: profile.keyMask, userId: profile.userId });
    expect(((await app.call('profiles.list', {})).value as unknown[]).length).toBe(1);
    expect(subAccounts()).toBe(subsBefore);
    expect(apiKeys()).toBe(keysBefore);
    const subAfter = (
      (await app.call('subAccounts.list', {})).value as { accounts: { userId: number; state: string }[] }
    ).accounts.find((a) => a.userId === sub.userId);
    expect(subAfter?.state).toBe(sub.state);
  });

  test('with two administrators nothing applies without the second one, even when the person confirms', async ({
    page,
    app,
    shell,
  }) => {
    test.setTimeout(120_000);
    // The desk gets its second administrator (the person confirms it; with one administrator it applies).
    expect(
      await confirmedCall(shell, app.call('operators.create', { ...BEA, role: 'admin' }), {
        title: 'Create operator Bea Admin (Administrator)',
      }),
    ).toMatchObject({ ok: true });
    await app.open('approvals');
    await expect(page.getByTestId('four-eyes')).toHaveAttribute('data-in-force', 'true');

    // The window asks; the person, deceived, confirms each — each only waits in Approvals.
    const policy = (await app.call('policies.get', {})).value as { policy: Record<string, unknown> };
    const sub = ((await app.call('subAccounts.list', {})).value as { accounts: { userId: number }[] }).accounts[0]!;
    const subKeys = async () =>
      ((await app.call('keys.list', { userId: sub.userId })).value as { keys: unknown[] }).keys.length;
    const subKeysBefore = await subKeys();
    const attempts: [string, unknown][] = [
      ['operators.create', { ...MALLORY, role: 'admin' }],
      ['funding.setReviewPolicy', { typedConfirmAbove: { USDT: '1000000' } }],
      ['policies.set', { ...policy.policy, usdtLimits: { perTransaction: '1000000' } }],
      ['profiles.add', { kind: 'custom', name: 'Elsewhere', baseUrl: 'https://evil.example/api/v4' }],
      [
        'keys.create',
        {
          userId: sub.userId,
          name: 'mallory-bot',
          mode: 'classic',
          perms: { wallet: 'write' },
          ipWhitelist: [],
          keepSecretInKeychain: false,
        },
      ],
    ];
    for (const [operation, payload] of attempts) {
      const result = await confirmedCall(shell, fromWindow(page, operation, payload));
      expect(result, operation).toMatchObject({ ok: false, error: { code: 'AWAITING_APPROVAL' } });
    }
    expect(((await app.call('operators.list', {})).value as { name: string }[]).map((o) => o.name).sort()).toEqual(
      [BEA.name, E2E_ADMIN.name].sort(),
    );
    expect((await app.call('funding.reviewPolicy', {})).value).toEqual({ typedConfirmAbove: {} });
    expect(((await app.call('profiles.list', {})).value as unknown[]).length).toBe(1);
    expect(await subKeys()).toBe(subKeysBefore);

    // They wait in Approvals, each line before → after; the first administrator cannot approve them.
    const pending = page.getByTestId('approvals-pending');
    await expect(pending).toHaveAttribute('data-count', String(attempts.length));
    const create = pending.locator('article').filter({ hasText: 'Create operator mallory (Administrator)' });
    await expect(create.getByTestId('approval-changes')).toContainText('Role: — → Administrator');
    await expect(create.getByTestId('approval-approve')).toBeDisabled();
    await app.expectAccessible();
    await app.screenshot('approvals-control-changes');
    // Bea, made administrator by the first one a moment ago, may not approve it either (cooling-off).
    expect(await app.call('operators.signIn', BEA)).toMatchObject({ ok: true });
    const [item] = ((await app.call('approvals.list', { state: 'pending' })).value as { approvals: { id: string }[] })
      .approvals;
    expect(await app.call('approvals.approve', { id: item!.id, reason: 'fine' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_ALLOWED' },
    });
    expect(((await app.call('operators.list', {})).value as unknown[]).length).toBe(2);
  });

  test('a second Send of a withdrawal waiting for approval leaves one approval item and no withdrawal; the same one reviewed again is a possible duplicate', async ({
    page,
    app,
    shell,
    sandbox,
  }) => {
    test.setTimeout(120_000);
    const withdrawals = () => count(sandbox, 'SELECT COUNT(*) AS n FROM withdrawals');
    await setApprovalRules(app, shell, { aboveUsdt: '50' });
    const before = withdrawals();
    const review = async () => {
      await app.open('withdrawals');
      const form = page.getByRole('form', { name: 'New withdrawal' });
      await form.getByLabel('Currency').selectOption('USDT');
      await form.getByRole('radio', { name: /^TRX\b/ }).check();
      await form.getByRole('radio', { name: /OTC desk \(TRC20\)/ }).check();
      await form.getByLabel('Amount').fill('60');
      await page.getByTestId('withdraw-review').click();
      const sheet = page.getByTestId('review-sheet');
      await sheet.getByLabel(/Type the amount/).fill('60');
      return sheet;
    };
    const sheet = await review();
    // A double click: one trusted confirmation, one item; the sheet closes once it is queued.
    await sheet.getByTestId('withdraw-send').dblclick();
    await confirmTrusted(shell, { title: 'Withdraw 60 USDT' });
    await expect(sheet).toHaveCount(0);
    await expect(page.getByTestId('withdraw-queued')).toBeVisible();
    const items = async () =>
      (
        (await app.call('approvals.list', { state: 'pending' })).value as {
          approvals: { id: string; possibleDuplicateOf?: string }[];
        }
      ).approvals;
    expect(await items()).toHaveLength(1);
    expect(withdrawals()).toBe(before);

    // The window sends one withdrawal twice under one request key: the repeat joins the queued item,
    // without a second confirmation.
    const saved = (await app.call('funding.savedAddresses', { currency: 'USDT', chain: 'TRX' })).value as {
      address: string;
    }[];
    const request = {
      requestKey: randomUUID(),
      currency: 'USDT',
      chain: 'TRX',
      address: saved[0]!.address,
      amount: '70',
    };
    await sentTwiceUnderOneKey(page, shell, 'funding.withdraw', request);
    expect(await items()).toHaveLength(2);

    // Reviewed again from scratch (a new intent of the same withdrawal): the approver sees "possible duplicate".
    const again = await review();
    await again.getByTestId('withdraw-send').click();
    await confirmTrusted(shell, { title: 'Withdraw 60 USDT' });
    await expect(again).toHaveCount(0);
    expect(await items()).toHaveLength(3);
    await app.open('approvals');
    // The two 60 USDT ones mark each other; the 70 USDT one is not a duplicate.
    await expect(page.getByTestId('approval-duplicate')).toHaveCount(2);
    await expect(page.getByTestId('approval-duplicate').first()).toContainText('Possible duplicate');
    await app.screenshot('approvals-possible-duplicate');
    expect(withdrawals()).toBe(before);
  });

  test('a UID transfer waiting for approval: the review closes once it is queued; the same request again joins its one item', async ({
    page,
    app,
    shell,
    sandbox,
    control,
  }) => {
    test.setTimeout(120_000);
    const pushes = () => count(sandbox, 'SELECT COUNT(*) AS n FROM pushes');
    await setApprovalRules(app, shell, { anyPush: true });
    const receiver = ((await control.post('/users', {})) as { user_id: number }).user_id;
    const before = pushes();
    const items = async () =>
      ((await app.call('approvals.list', { state: 'pending' })).value as { approvals: { kind: string }[] }).approvals;

    await app.open('withdrawals');
    await page.getByRole('tab', { name: 'UID transfer' }).click();
    const form = page.getByRole('form', { name: 'UID transfer' });
    await form.getByLabel('Receiving user id').fill(String(receiver));
    await form.getByLabel('Currency').selectOption('USDT');
    await form.getByLabel('Amount').fill('25');
    await page.getByTestId('push-review').click();
    const review = page.getByTestId('push-confirm');
    // A double click: one trusted confirmation, one item; the review closes once it is queued.
    await review.getByTestId('confirm-accept').dblclick();
    await confirmTrusted(shell, { title: /UID transfer/ });
    await expect(review).toHaveCount(0);
    await expect(page.getByTestId('push-queued')).toContainText('waits');
    await expect(form.getByLabel('Amount')).toHaveValue('');
    expect((await items()).filter((a) => a.kind === 'push')).toHaveLength(1);
    expect(pushes()).toBe(before);

    // The window sends one UID transfer twice under one request key: the repeat joins the queued
    // item, without a second confirmation.
    const request = { requestKey: randomUUID(), receiveUid: receiver, currency: 'USDT', amount: '26' };
    await sentTwiceUnderOneKey(page, shell, 'funding.push', request);
    expect((await items()).filter((a) => a.kind === 'push')).toHaveLength(2);
    expect(pushes()).toBe(before);
  });

  test('a batch with a UID transfer shows that UID in its confirmation; its name is a labelled row, not the title', async ({
    page,
    app,
    shell,
    control,
  }) => {
    const receiver = ((await control.post('/users', {})) as { user_id: number }).user_id;
    const created = await app.call('bulk.create', {
      name: 'Payroll (reviewed by Bob)',
      kind: 'csv',
      batch: {
        source: 'csv',
        text: ['type,currency,amount,to,reference', `push,USDT,25,uid:${receiver},p1`].join('\n'),
      },
    });
    expect(created).toMatchObject({ ok: true, value: { created: true } });
    const id = (created.value as { batch: { id: string } }).batch.id;
    const start = fromWindow(page, 'bulk.start', { id });
    const asked = await trustedConfirmPage(shell);
    await expect(asked.getByTestId('trusted-title')).toHaveText('Run a batch of 1 row');
    const rows = asked.getByTestId('trusted-rows');
    await expect(rows).toContainText('Batch name“Payroll (reviewed by Bob)”');
    await expect(rows).toContainText(`Row 2 · UID transfer25 USDT to UID ${receiver}`);
    await expect(rows).toContainText('Total USDT25 USDT');
    await app.screenshot('trusted-confirmation-batch');
    await cancelTrusted(shell);
    expect(await start).toMatchObject({ ok: false, error: { code: 'CONFIRMATION_DECLINED' } });
  });
});
