/**
 * The trusted confirmation, end to end through the Chromium shell: a compromised renderer that
 * calls `window.desk` (or the raw bridge below it) directly and clicks its own DOM moves no money
 * and creates no key; only the shell's own confirmation page, which the renderer can neither open,
 * reach nor script, lets a movement through — and main checks the amount typed there.
 */
import { randomUUID } from 'node:crypto';
import { CONFIRM_URL } from '../shell/confirmWindow';
import { expect, test } from './fixtures';
import { cancelTrusted, confirmTrusted, trustedConfirmPage } from './fixtures/trustedConfirm';

type Raw = (kind: string, operation: string, payload: unknown) => Promise<string>;
declare global {
  interface Window {
    __rawDeskBridge?: Raw;
  }
}

const count = (sandbox: { ctx: { db: { prepare(sql: string): { get(): unknown } } } }, table: string): number =>
  (sandbox.ctx.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;

test.describe('a compromised renderer', () => {
  // An admin is signed in (the operators module locks a desk nobody is signed in to).
  test.use({
    rawBridge: true,
    coreOptions: { bootstrapOperator: { name: 'E2E admin', passphrase: 'e2e admin passphrase 1' } } as never,
  });

  test('calls window.desk and the raw bridge directly: no money moves and no key is created without the trusted confirmation', async ({
    page,
    shell,
    sandbox,
    app,
  }) => {
    const saved = await app.call('funding.savedAddresses', { currency: 'USDT', chain: 'TRX' });
    const address = (saved.value as { address: string }[])[0]!.address;
    const withdrawalsBefore = count(sandbox, 'withdrawals');
    const keysBefore = count(sandbox, 'api_keys');

    // The attack: a withdrawal through window.desk, a push and a key through the raw bridge.
    const attack = page.evaluate(
      async ({ address, keys, confirmUrl }) => {
        const withdrawal = window.desk!.funding.withdraw({
          requestKey: keys[0]!,
          currency: 'USDT',
          chain: 'TRX',
          address,
          amount: '100',
        });
        // It clicks everything it can see in its own document, as a script would.
        for (const button of document.querySelectorAll('button')) {
          if (/confirm|send|withdraw/i.test(button.textContent ?? '')) button.click();
        }
        // It tries to open or find the confirmation: a new window is refused, the page has no handle.
        const opened = window.open(confirmUrl, '_blank');
        const answerFunction = typeof (globalThis as Record<string, unknown>).__deskConfirmAnswer;
        let fetched = 'no';
        try {
          await fetch(confirmUrl);
          fetched = 'yes';
        } catch {
          fetched = 'blocked';
        }
        return { result: await withdrawal, opened: opened === null ? 'null' : 'window', answerFunction, fetched };
      },
      { address, keys: [randomUUID()], confirmUrl: CONFIRM_URL },
    );
    // The person sees the shell's own window and cancels it.
    const confirmation = await trustedConfirmPage(shell);
    await expect(confirmation.getByTestId('trusted-title')).toHaveText('Withdraw 100 USDT');
    await expect(confirmation.getByTestId('trusted-rows')).toContainText(address);
    await app.screenshot('trusted-confirmation-withdrawal');
    await cancelTrusted(shell);
    const outcome = await attack;
    expect(outcome.result).toMatchObject({ ok: false, error: { code: 'CONFIRMATION_DECLINED' } });
    expect(outcome.answerFunction).toBe('undefined');
    expect(outcome.fetched).toBe('blocked');
    // Only the app's window is left: the popup the renderer asked for was closed.
    await expect.poll(() => shell.context.pages().length).toBe(1);
    expect(shell.context.pages().some((p) => p.url() === CONFIRM_URL)).toBe(false);

    // The raw bridge below window.desk: the same confirmation stands in the way.
    const push = page.evaluate(
      (key) =>
        window.__rawDeskBridge!('call', 'funding.push', {
          requestKey: key,
          receiveUid: 99999999,
          currency: 'USDT',
          amount: '5',
        }),
      randomUUID(),
    );
    await cancelTrusted(shell);
    expect(JSON.parse(await push)).toMatchObject({ ok: false, error: { code: 'CONFIRMATION_DECLINED' } });

    const subs = await app.call('subAccounts.list', {});
    const uid = ((subs.value as { accounts?: { userId: number }[] }).accounts ??
      (subs.value as { userId: number }[]))[0]?.userId;
    if (uid !== undefined) {
      const key = page.evaluate(
        (userId) =>
          window.__rawDeskBridge!('call', 'keys.create', {
            userId,
            name: 'stolen',
            mode: 'classic',
            perms: { wallet: 'write' },
            ipWhitelist: [],
            keepSecretInKeychain: false,
          }),
        uid,
      );
      const keyPage = await trustedConfirmPage(shell);
      await expect(keyPage.getByTestId('trusted-title')).toContainText('Create an API key');
      await cancelTrusted(shell);
      expect(JSON.parse(await key)).toMatchObject({ ok: false, error: { code: 'CONFIRMATION_DECLINED' } });
    }

    expect(count(sandbox, 'withdrawals')).toBe(withdrawalsBefore);
    expect(count(sandbox, 'api_keys')).toBe(keysBefore);
  });

  test('a wrong amount typed in the confirmation cannot confirm; the right one sends it once', async ({
    page,
    shell,
    sandbox,
    app,
  }) => {
    const saved = await app.call('funding.savedAddresses', { currency: 'USDT', chain: 'TRX' });
    const address = (saved.value as { address: string }[])[0]!.address;
    const before = count(sandbox, 'withdrawals');
    const send = (key: string) =>
      page.evaluate(
        ({ address, key }) =>
          window.desk!.funding.withdraw({ requestKey: key, currency: 'USDT', chain: 'TRX', address, amount: '100' }),
        { address, key },
      );
    // A wrong amount leaves the button disabled (main would refuse it anyway: approvals.integration.test.ts).
    const wrongCall = send(randomUUID());
    const confirmation = await trustedConfirmPage(shell);
    await confirmation.getByTestId('trusted-typed').fill('1000');
    await expect(confirmation.getByTestId('trusted-accept')).toBeDisabled();
    await cancelTrusted(shell);
    const wrong = await wrongCall;
    expect(wrong).toMatchObject({ ok: false, error: { code: 'CONFIRMATION_DECLINED' } });
    expect(count(sandbox, 'withdrawals')).toBe(before);
    const [right] = await Promise.all([send(randomUUID()), confirmTrusted(shell, { title: 'Withdraw 100 USDT' })]);
    expect(right).toMatchObject({ ok: true, value: { outcome: 'accepted' } });
    expect(count(sandbox, 'withdrawals')).toBe(before + 1);
  });

  test('a batch in two currencies asks for each total typed in the confirmation; one wrong total cannot confirm', async ({
    page,
    shell,
    sandbox,
    app,
  }) => {
    const sub = ((await app.call('subAccounts.list', {})).value as { accounts: { userId: number }[] }).accounts[0]!;
    const before = count(sandbox, 'transfers');
    const created = await app.call('bulk.create', {
      name: 'two currencies',
      kind: 'csv',
      batch: {
        source: 'csv',
        text: [
          'type,currency,amount,from,to,reference',
          `transfer,USDT,12,spot,sub:${sub.userId},u1`,
          `transfer,BTC,0.001,spot,sub:${sub.userId},b1`,
          `transfer,BTC,0.002,spot,sub:${sub.userId},b2`,
        ].join('\n'),
      },
    });
    const id = (created.value as { batch: { id: string } }).batch.id;
    const start = () => page.evaluate((batchId) => window.desk!.bulk.start({ id: batchId }), id);
    const started = start();
    const asked = await trustedConfirmPage(shell);
    const typed = asked.getByTestId('trusted-typed');
    await expect(typed).toHaveCount(2);
    await expect(asked.getByText('Type the total in BTC')).toBeVisible();
    // The USDT total right, the BTC total as one row's amount: the button stays off.
    await typed.nth(0).fill('12');
    await typed.nth(1).fill('0.002');
    await expect(asked.getByTestId('trusted-accept')).toBeDisabled();
    await cancelTrusted(shell);
    expect(await started).toMatchObject({ ok: false, error: { code: 'CONFIRMATION_DECLINED' } });
    expect(count(sandbox, 'transfers')).toBe(before);
    // Each total typed as shown: it runs.
    const [run] = await Promise.all([start(), confirmTrusted(shell, { title: 'Run a batch of 3 rows' })]);
    expect(run).toMatchObject({ ok: true });
    await expect.poll(() => count(sandbox, 'transfers'), { timeout: 20_000 }).toBe(before + 3);
  });
});
