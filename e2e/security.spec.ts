/**
 * The trust boundary, end to end through the real bridge and dispatcher: only our own top-level
 * document may call main, only declared operations with valid payloads run, the app cannot be
 * navigated away, and nothing returns key material.
 */
import { contract } from '../shared/contract';
import { operationNames } from '../shared/ipc/define';
import { expect, test } from './fixtures';
import { cancelTrusted, confirmTrusted, readTrustedSecret, trustedConfirmPage } from './fixtures/trustedConfirm';

/** The binding under window.desk: it answers JSON text. */
type Raw = (kind: string, operation: string, payload: unknown) => Promise<string>;
declare global {
  interface Window {
    __rawDeskBridge?: Raw;
  }
}

test.describe('window.desk', () => {
  test('exposes exactly the contract: named operations, `on`, `cancel`, nothing generic', async ({ page }) => {
    const exposed = await page.evaluate(() => {
      const desk = window.desk as unknown as Record<string, unknown>;
      const names: string[] = [];
      for (const [area, ops] of Object.entries(desk)) {
        if (typeof ops === 'function') names.push(area);
        else for (const op of Object.keys(ops as object)) names.push(`${area}.${op}`);
      }
      return {
        names,
        frozen: Object.isFrozen(desk),
        bindingLeft: Object.keys(window).filter((k) => /desk|bridge|invoke|ipc/i.test(k) && k !== 'desk'),
      };
    });
    expect(exposed.names.sort()).toEqual([...operationNames(contract), 'cancel', 'on'].sort());
    expect(exposed.frozen).toBe(true);
    expect(exposed.bindingLeft).toEqual([]);
  });

  test('an invalid payload is refused with a typed error', async ({ app }) => {
    const result = await app.call('app.ping', { text: 42 });
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', fields: { text: expect.any(String) } } });
    const extra = await app.call('app.ping', { text: 'hi', admin: true });
    expect(extra).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });
});

test.describe('the bridge below window.desk', () => {
  test.use({ rawBridge: true });

  test('an unknown operation is refused with a typed error', async ({ page }) => {
    const results = await page.evaluate(async () => {
      const raw = window.__rawDeskBridge!;
      return Promise.all([
        raw('call', 'app.shutdown', {}),
        raw('call', '__proto__.constructor', {}),
        raw('call', 'app', {}),
      ]);
    });
    for (const result of results)
      expect(JSON.parse(result)).toMatchObject({ ok: false, error: { code: 'UNKNOWN_OPERATION' } });
  });

  test('an invalid payload sent raw is refused too (validation is in main, not the page)', async ({ page }) => {
    const result = JSON.parse(
      await page.evaluate(() => window.__rawDeskBridge!('call', 'app.ping', { text: { toString: 1 } })),
    );
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });
});

test.describe('forged senders', () => {
  test('a call from an iframe is refused', async ({ page }) => {
    await page.evaluate(() => {
      const frame = document.createElement('iframe');
      frame.srcdoc = '<p>intruder</p>';
      document.body.append(frame);
      return new Promise((done) => frame.addEventListener('load', done));
    });
    const frame = page.frames().find((f) => f !== page.mainFrame());
    expect(frame, 'the injected iframe').toBeDefined();
    const result = await frame!.evaluate(() => window.desk?.app.ping({ text: 'from an iframe' }));
    expect(result).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } });
  });

  test('a page at another origin gets FORBIDDEN_SENDER', async ({ page }) => {
    // Simulates a navigation the shell would refuse (the test routes it on purpose).
    await page.route('https://elsewhere.invalid/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>elsewhere</title><p>x</p>' }),
    );
    await page.goto('https://elsewhere.invalid/');
    const result = await page.evaluate(() => window.desk?.app.ping({ text: 'stolen' }));
    expect(result).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } });
  });
});

test.describe('navigation', () => {
  test('a link cannot navigate the app away', async ({ page, shell }) => {
    await page.evaluate(() => {
      const link = document.createElement('a');
      link.href = 'https://example.com/phish';
      link.textContent = 'Claim your bonus';
      link.id = 'evil-link';
      document.querySelector('main')?.prepend(link);
    });
    await page.locator('#evil-link').click();
    // The refused navigation leaves the document in place: same URL, frame still there, bridge works.
    await expect(page.getByTestId('app-frame')).toBeVisible();
    expect(page.url()).toBe(shell.url);
    expect(await page.evaluate(() => window.desk?.app.ping({ text: 'still here' }))).toMatchObject({ ok: true });
  });

  test('script navigation and window.open are refused as well', async ({ page, shell }) => {
    await page.evaluate(() => {
      window.open('https://example.com/popup', '_blank');
      window.location.href = 'https://example.com/away';
    });
    await expect(page.getByTestId('app-frame')).toBeVisible();
    expect(page.url()).toBe(shell.url);
    expect(shell.context.pages()).toHaveLength(1);
  });

  test('permission requests are denied', async ({ page }) => {
    const outcome = await page.evaluate(async () => ({
      notifications: await Notification.requestPermission(),
      geolocation: await new Promise<string>((done) =>
        navigator.geolocation.getCurrentPosition(
          () => done('granted'),
          (error) => done(error.code === error.PERMISSION_DENIED ? 'denied' : `error ${error.code}`),
          { timeout: 5_000 },
        ),
      ),
    }));
    expect(outcome).toEqual({ notifications: 'denied', geolocation: 'denied' });
  });

  test('the renderer cannot reach the network', async ({ page }) => {
    const outcome = await page.evaluate(async () => {
      try {
        await fetch('https://example.com/');
        return 'reached';
      } catch (error) {
        return `blocked: ${(error as Error).name}`;
      }
    });
    expect(outcome).toMatch(/^blocked/);
  });
});

test.describe('secrets', () => {
  // Operations that take no input and only read; the ones below change state and are left out.
  const WRITES_WITHOUT_INPUT = new Set(['trade.cancelAll', 'trade.unwatchMarket', 'activity.reconcile']);

  test('no operation returns key material', async ({ app, sandbox }) => {
    const reads = operationNames(contract).filter((name) => {
      const [area, op] = name.split('.') as [keyof typeof contract, string];
      const definition = (contract[area] as Record<string, { input: { safeParse(v: unknown): { success: boolean } } }>)[
        op
      ];
      return definition?.input.safeParse({}).success && !WRITES_WITHOUT_INPUT.has(name);
    });
    expect(reads.length).toBeGreaterThan(10);
    const connected = await app.call('profiles.active', {});
    expect(connected).toMatchObject({ ok: true, value: { keyMask: expect.any(String) } });
    for (const name of reads) {
      const text = JSON.stringify(await app.call(name, {}));
      expect(text, `${name} must not return the API secret`).not.toContain(sandbox.secret);
      expect(text, `${name} must not return the full API key`).not.toContain(sandbox.key);
    }
  });

  test('a new key’s secret is shown only in the shell’s own page, on its own site; the window gets none', async ({
    app,
    shell,
  }) => {
    const subs = await app.call('subAccounts.list', {});
    const userId = (subs.value as { accounts: { userId: number }[] }).accounts[0]!.userId;
    const [created, , secrets] = await Promise.all([
      app.call('keys.create', {
        userId,
        name: 'e2e secret page',
        mode: 'classic',
        perms: { spot: 'read' },
        ipWhitelist: [],
        keepSecretInKeychain: false,
      }),
      confirmTrusted(shell, { title: /Create an API key/ }),
      readTrustedSecret(shell),
    ]);
    expect(secrets).toHaveLength(1);
    expect(secrets[0]!.length).toBeGreaterThanOrEqual(32);
    expect(created).toMatchObject({ ok: true, value: { secretShown: true, secretStored: false } });
    expect(JSON.stringify(created)).not.toContain(secrets[0]);
    expect(new URL(shell.secretOrigin).hostname).toBe('treasury-desk-secret.invalid');
    // Nothing of it is left on the app's page or in what the app can read again.
    expect(await shell.page.content()).not.toContain(secrets[0]);
    expect(JSON.stringify(await app.call('keys.list', { userId }))).not.toContain(secrets[0]);
  });
});

test.describe('text that cannot lie', () => {
  test('a compromised window sending a bidi, zero-width or look-alike address gets INVALID_INPUT from main; nothing is asked or sent', async ({
    page,
    app,
    shell,
    sandbox,
  }) => {
    const saved = await app.call('funding.savedAddresses', { currency: 'USDT', chain: 'TRX' });
    const address = (saved.value as { address: string }[])[0]!.address;
    const withdrawals = () =>
      (sandbox.ctx.db.prepare('SELECT COUNT(*) AS n FROM withdrawals').get() as { n: number }).n;
    const before = withdrawals();
    const answers = await page.evaluate(
      (candidates) =>
        Promise.all(
          candidates.map((candidate) =>
            window.desk!.funding.withdraw({
              requestKey: crypto.randomUUID(),
              currency: 'USDT',
              chain: 'TRX',
              address: candidate.address,
              ...(candidate.memo ? { memo: candidate.memo } : {}),
              amount: '10',
            }),
          ),
        ),
      [
        { address: `${address.slice(0, 4)}\u202E${address.slice(4)}` },
        { address: `${address.slice(0, 6)}\u200B${address.slice(6)}` },
        { address: `${address.slice(0, 3)}\u0430${address.slice(4)}` },
        { address, memo: '\u202E12345 :gat laer' },
      ],
    );
    for (const answer of answers) expect(answer).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(JSON.stringify(answers)).toContain('U+202E');
    expect(JSON.stringify(answers)).toContain('U+0430');
    // No confirmation was even asked for, and the platform saw nothing.
    expect(shell.context.pages().filter((p) => p.url().startsWith(shell.confirmOrigin))).toEqual([]);
    expect(withdrawals()).toBe(before);
  });

  test('the confirmation is served on a site of its own, in its own agent cluster, with every value isolated', async ({
    page,
    app,
    shell,
  }) => {
    const served: Record<string, string>[] = [];
    shell.context.on('response', (response) => {
      if (response.url().startsWith(`${shell.confirmOrigin}/confirm.html`)) served.push(response.headers());
    });
    const saved = await app.call('funding.savedAddresses', { currency: 'USDT', chain: 'TRX' });
    const address = (saved.value as { address: string }[])[0]!.address;
    const withdrawal = page.evaluate(
      (to) =>
        window.desk!.funding.withdraw({
          requestKey: crypto.randomUUID(),
          currency: 'USDT',
          chain: 'TRX',
          address: to,
          amount: '10',
        }),
      address,
    );
    const confirmation = await trustedConfirmPage(shell);
    // Another registrable name than the window's (treasury-desk.invalid): another site.
    expect(new URL(confirmation.url()).hostname).toBe('treasury-desk-confirm.invalid');
    expect(new URL(shell.url).hostname).toBe('treasury-desk.invalid');
    expect(served[0]).toMatchObject({ 'origin-agent-cluster': '?1' });
    expect(await confirmation.evaluate(() => (window as { originAgentCluster?: boolean }).originAgentCluster)).toBe(
      true,
    );
    const isolation = await confirmation.evaluate(() =>
      [...document.querySelectorAll('dd bdi')].map((bdi) => {
        const style = getComputedStyle(bdi);
        return `${style.unicodeBidi} ${style.direction}`;
      }),
    );
    expect(isolation.length).toBeGreaterThan(2);
    expect(new Set(isolation)).toEqual(new Set(['isolate ltr']));
    await expect(confirmation.getByTestId('trusted-rows')).toContainText(address);
    await cancelTrusted(shell);
    expect(await withdrawal).toMatchObject({ ok: false, error: { code: 'CONFIRMATION_DECLINED' } });
  });
});
