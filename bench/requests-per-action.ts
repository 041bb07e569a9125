/**
 * Platform requests per user action (issue 11): the app (real renderer and core, headless Chromium
 * through the fallback shell) against an in-process sandbox (memory, manual clock, market off),
 * driven through its screens as a person would — open every screen, send a withdrawal, a UID
 * transfer, a main → sub and an own-account transfer, place / amend / cancel an order, switch
 * profile. For each action it counts the requests the core sends to the platform (its request log:
 * one line `METHOD /path?query → status …` each) from the click until the app settles (no request
 * for SETTLE_MS) — the handler's own requests and every screen's refresh after the events that
 * follow — and lists the reads of the same method, path and query made twice within one action.
 * A request sent again after the same one got no answer (the testnet profile here: no internet) is
 * the app's retry by design (the connection's probe, a read's one retry on network trouble): listed
 * apart, not as a duplicate.
 *
 * The watchers' periodic poll of deposits, withdrawals and UID transfers (four reads every 3–10 s,
 * whatever the person does) and their balance snapshot are background (the log line ends with
 * ` · watchers` / ` · balance snapshot`): shown apart, not counted. What the events the poll finds
 * make the screens read again is counted.
 *
 * Targets: a withdrawal ≤ 4 requests end to end (screen refresh included), a transfer ≤ 3, an order
 * placement ≤ 2 — also once the ticket was open longer than any rule is kept (RULES_FRESH_MS, plus a
 * margin, waited in real time: the built app's core runs in its own process on the system scheduler,
 * which a benchmark cannot move by hand as a test moves a manual one) — and no action reads the same
 * thing twice.
 *
 *   npm run bench:requests-per-action          (BENCH_VERBOSE=1 prints every request per action;
 *                                               BENCH_TICKET_OPEN_MS sets how long the ticket stays open)
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { RULES_FRESH_MS } from '../core/rules/cache';
import { startSandbox } from '../sandbox/server';
import { buildIfNeeded } from '../scripts/buildStamp';
import type { Shell } from '../shell/shell';
import { callCore, openBenchApp } from './app';

/**
 * Reads an action makes twice by the platform's own recipe, not by waste: opening Trade reads the
 * book once for the screen's first paint and once more after the stream's subscription is confirmed
 * (the stream's copy must start from a snapshot taken after it subscribed: api-facts §8,
 * shared/trade/bookSync.ts). A third read — a poll while the stream connects — is a duplicate.
 */
const READ_TWICE_BY_RECIPE: readonly { action: string; read: RegExp; times: number }[] = [
  { action: 'open trade', read: /^GET \/spot\/order_book\?.*with_id=true/, times: 2 },
];

const ROOT = resolve(import.meta.dirname, '..');
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 1_500);
const VERBOSE = process.env.BENCH_VERBOSE === '1';
/** How long one step may wait for what the person would see. */
const STEP_TIMEOUT_MS = 20_000;
/** How long the ticket stays open before the second placement: longer than any rule is kept. */
const TICKET_OPEN_MS = Number(process.env.BENCH_TICKET_OPEN_MS ?? RULES_FRESH_MS + 5_000);

/** One request line of the core's log. */
interface Request {
  readonly at: number;
  readonly method: string;
  /** Path and query as sent (the request's identity for duplicates). */
  readonly target: string;
  readonly status: string;
  /** The watchers' periodic poll: not caused by the action. */
  readonly background: boolean;
}

const REQUEST_LINE = /^(GET|POST|PUT|PATCH|DELETE) (\S+) → (\S+)/;
/**
 * The watchers' poll (core/watchers/watchers.ts): deposits, withdrawals and both push
 * directions from the lookback start, with its fixed page sizes, no `to`.
 */
const WATCHER_POLL =
  /^GET \/wallet\/(deposits\?from=\d+&limit=500|withdrawals\?from=\d+&limit=1000|push\?from=\d+&limit=1000&transaction_type=(withdraw|deposit))$/;

interface Row {
  readonly action: string;
  readonly requests: number;
  readonly duplicates: string[];
  /** Requests sent again because the same one got no answer (an unreachable platform): the app's retries, not duplicates. */
  readonly retries: string[];
  readonly target: number | null;
  readonly met: boolean;
  readonly background: number;
  readonly list: string[];
}

/**
 * Answers the shell's trusted confirmation (its own page at its own origin, when the shell has one)
 * as the person would: types the amount it asks for and confirms. It costs no platform request.
 */
const autoConfirm = (shell: Shell): (() => void) => {
  const origin = (shell as { confirmOrigin?: string }).confirmOrigin;
  if (origin === undefined) return () => {};
  const answered = new WeakSet<object>();
  const timer = setInterval(() => {
    for (const confirmPage of shell.context.pages()) {
      if (answered.has(confirmPage) || !confirmPage.url().startsWith(`${origin}/`)) continue;
      answered.add(confirmPage);
      void (async () => {
        await confirmPage.getByTestId('trusted-confirm').waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
        const typed = confirmPage.getByTestId('trusted-typed');
        if ((await typed.count()) > 0) await typed.fill((await typed.getAttribute('data-amount')) ?? '');
        await confirmPage.getByTestId('trusted-accept').click({ noWaitAfter: true });
      })().catch(() => {});
    }
  }, 50);
  return () => clearInterval(timer);
};

const main = async () => {
  buildIfNeeded(ROOT);
  const sandbox = await startSandbox({ memory: true, clock: 'manual', market: 'off', port: 0, log: false, seed: 7 });
  /** The control plane (with its token when the sandbox has one). */
  const control = async <T>(path: string, body: unknown): Promise<T> => {
    const headers = (sandbox as { controlHeaders?: Record<string, string> }).controlHeaders ?? {};
    const response = await fetch(`${sandbox.controlUrl}${path}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`control ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  const dataDir = await mkdtemp(join(tmpdir(), 'td-bench-rpa-'));
  const requests: Request[] = [];
  const rows: Row[] = [];
  try {
    const opened = Date.now();
    const shell = await openBenchApp(sandbox, dataDir, { log: true }, (line) => {
      const match = REQUEST_LINE.exec(line);
      if (!match) return;
      const [, method = '', target = '', status = ''] = match;
      // The watchers' reads say why they were sent (` · watchers`, ` · balance snapshot`); older
      // builds are told by the poll's own query.
      const background = / · (watchers|balance snapshot)$/.test(line) || WATCHER_POLL.test(`${method} ${target}`);
      requests.push({ at: Date.now(), method, target, status, background });
    });
    const { page } = shell;
    const stopConfirming = autoConfirm(shell);
    try {
      await run();
    } catch (error) {
      await page.screenshot({ path: join(tmpdir(), 'requests-per-action-failure.png') }).catch(() => {});
      throw error;
    } finally {
      stopConfirming();
      await shell.close();
    }
    async function run() {
      const sleep = (ms: number) => page.waitForTimeout(ms);

      /** Resolves once no request (other than the watchers' poll) was sent for SETTLE_MS. */
      const settle = async (since: number) => {
        for (;;) {
          const last = requests.filter((r) => !r.background).at(-1)?.at ?? 0;
          const quietSince = Math.max(last, since);
          const left = quietSince + SETTLE_MS - Date.now();
          if (left <= 0) return;
          await sleep(Math.min(left, 200));
        }
      };

      /**
       * One action: `act` clicks, `seen` waits for what the person waits for (the result, the
       * notice the events bring), then the app settles. Counts what was sent in between.
       */
      const measure = async (
        action: string,
        target: number | null,
        act: () => Promise<void>,
        seen: () => Promise<void> = async () => {},
        fromStart = false,
      ) => {
        if (!fromStart) await settle(Date.now());
        const from = fromStart ? 0 : requests.length;
        const started = fromStart ? opened : Date.now();
        await act();
        await seen();
        await settle(started);
        const taken = requests.slice(from);
        const counted = taken.filter((r) => !r.background);
        const ids = counted.map((r) => `${r.method} ${r.target}`);
        // A request is read twice only if an earlier identical one was answered; one sent again after
        // no answer (the connection's probe, a read's one retry on network trouble) is a retry.
        const times = new Map<string, number>();
        const retried = new Map<string, number>();
        const unanswered = new Set<string>();
        counted.forEach((r, i) => {
          const id = ids[i] ?? '';
          if (unanswered.delete(id)) retried.set(id, (retried.get(id) ?? 0) + 1);
          else times.set(id, (times.get(id) ?? 0) + 1);
          if (r.status === 'no') unanswered.add(id);
        });
        const duplicates = [...times]
          .filter(
            ([id, n]) => n > (READ_TWICE_BY_RECIPE.find((r) => r.action === action && r.read.test(id))?.times ?? 1),
          )
          .map(([id, n]) => `${id} ×${n}`);
        const retries = [...retried].map(([id, n]) => `${id} ×${n}`);
        const row: Row = {
          action,
          requests: counted.length,
          duplicates,
          retries,
          target,
          met: (target === null || counted.length <= target) && duplicates.length === 0,
          background: taken.length - counted.length,
          list: ids,
        };
        rows.push(row);
        console.log(
          `${action}: ${row.requests} request(s)${duplicates.length ? `, twice: ${duplicates.join(', ')}` : ''}${retries.length ? `, sent again after no answer: ${retries.join(', ')}` : ''}`,
        );
        if (VERBOSE)
          for (const r of taken)
            console.log(
              `    +${r.at - started} ms ${r.background ? '(bg) ' : ''}${r.method} ${r.target} → ${r.status}`,
            );
      };

      const open = async (screen: string) => {
        await page.getByTestId(`nav-${screen}`).click();
        await page.getByTestId(`screen-${screen}`).waitFor({ timeout: STEP_TIMEOUT_MS });
      };
      const visible = (locator: ReturnType<Page['getByTestId']>) =>
        locator.first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });

      // -- The scene: a counterparty for the UID transfer, funds for the order.
      const counterparty = await control<{ user_id: number }>('/users', {});
      await control('/balances', { user_id: sandbox.userId, account: 'spot', currency: 'USDT', amount: '100000' });

      // -- Start: the app lands on Balances.
      await measure(
        'start (Balances)',
        null,
        async () => {
          await page.getByTestId('screen-balances').waitFor({ timeout: STEP_TIMEOUT_MS });
        },
        undefined,
        true,
      );
      for (const screen of ['deposits', 'withdrawals', 'transfers', 'subAccounts', 'trade', 'activity', 'settings']) {
        await measure(`open ${screen}`, null, () => open(screen));
      }
      await measure('open balances (again)', null, () => open('balances'));

      // -- Withdrawal: the form is filled (counted apart), then Send on the review sheet.
      await open('withdrawals');
      const form = page.getByRole('form', { name: 'New withdrawal' });
      await measure('withdrawal: fill the form', null, async () => {
        await form.getByLabel('Currency').selectOption('USDT');
        await form.getByRole('radio', { name: /^TRX\b/ }).check({ timeout: STEP_TIMEOUT_MS });
        await form.getByRole('radio', { name: /OTC desk \(TRC20\)/ }).check({ timeout: STEP_TIMEOUT_MS });
        await form.getByLabel('Amount').fill('100');
        await visible(form.getByTestId('withdraw-fee'));
      });
      await page.getByTestId('withdraw-review').click();
      const sheet = page.getByTestId('review-sheet');
      await sheet.getByLabel(/Type the amount/).fill('100');
      await measure(
        'withdrawal (send → tracked)',
        4,
        () => sheet.getByTestId('withdraw-send').click(),
        async () => {
          await page
            .getByTestId('withdrawal-tracker')
            .locator('[data-testid="timeline-headline"][data-status="REQUEST"]')
            .waitFor({ timeout: STEP_TIMEOUT_MS });
          // The watchers' event for the new record (the in-app notice) and what it refreshes.
          await visible(page.getByTestId('notice').filter({ hasText: 'Withdrawal of 100 USDT' }));
        },
      );

      // -- UID transfer to another main account.
      await page.getByRole('tab', { name: 'UID transfer' }).click();
      const pushForm = page.getByRole('form', { name: 'UID transfer' });
      await pushForm.getByLabel('Receiving user id').fill(String(counterparty.user_id));
      await pushForm.getByLabel('Currency').selectOption('USDT');
      await pushForm.getByLabel('Amount').fill('25');
      await page.getByTestId('push-review').click();
      await measure(
        'UID transfer (send → tracked)',
        null,
        () => page.getByTestId('push-confirm').getByTestId('confirm-accept').click(),
        async () => {
          await visible(page.getByTestId('push-tracker').getByTestId('timeline-headline'));
          await visible(page.getByTestId('notice').filter({ hasText: 'Transfer to another user of 25 USDT' }));
        },
      );

      // -- Main → sub-account transfer.
      const subs = await callCore<{ accounts: { userId: number }[] }>(shell, 'subAccounts.list', {});
      const sub = subs.accounts[0];
      if (sub === undefined) throw new Error('the sandbox seeds sub-accounts');
      await open('transfers');
      const transferForm = page.getByTestId('transfer-form');
      const transfer = async (fill: () => Promise<void>, action: string) => {
        await fill();
        await transferForm.getByRole('button', { name: 'Review transfer' }).click();
        await measure(
          action,
          3,
          () => page.getByTestId('transfer-confirm').getByRole('button', { name: 'Transfer now' }).click(),
          () =>
            page
              .locator('[data-testid="transfer-result-state"][data-state="done"]')
              .waitFor({ timeout: STEP_TIMEOUT_MS }),
        );
      };
      await transfer(async () => {
        await transferForm.getByLabel('Transfer type').selectOption('mainToSub');
        await transferForm.getByLabel('Sub-account', { exact: true }).selectOption(String(sub.userId));
        await transferForm.getByRole('textbox', { name: 'Currency', exact: true }).fill('USDT');
        await transferForm.getByLabel('Amount').fill('7');
      }, 'transfer main → sub');
      await transfer(async () => {
        await transferForm.getByLabel('Transfer type').selectOption('own');
        await transferForm.getByLabel('From account').selectOption('spot');
        await transferForm.getByLabel('To account').selectOption('futures');
        await transferForm.getByRole('textbox', { name: 'Currency', exact: true }).fill('USDT');
        await transferForm.getByLabel('Amount').fill('12.5');
      }, 'transfer own spot → futures');

      // -- Orders: place a resting limit buy, amend it, cancel it.
      await open('trade');
      const ticket = page.getByTestId('order-ticket');
      const placeOrder = (action: string) =>
        measure(
          action,
          2,
          async () => {
            await ticket.getByTestId('ticket-submit').click();
            // A price far from the market asks first; that question costs nothing and is answered.
            const confirm = page.getByTestId('ticket-confirm');
            const outcome = page.getByTestId('ticket-outcome');
            await confirm.or(outcome).first().waitFor({ timeout: STEP_TIMEOUT_MS });
            if (await confirm.isVisible()) await confirm.getByTestId('confirm-accept').click();
          },
          async () => {
            await visible(page.getByTestId('ticket-outcome'));
            await visible(page.getByTestId('open-order'));
          },
        );
      await ticket.getByLabel(/^Price/).fill('1000');
      await ticket.getByLabel(/^Amount/).fill('0.01');
      await placeOrder('order place');
      const order = page.getByTestId('open-order').first();
      await order.getByRole('button', { name: /Amend order/ }).click();
      const amend = page.getByTestId('amend-dialog');
      await amend.getByLabel('New price').fill('990');
      await measure(
        'order amend',
        null,
        async () => {
          await amend.getByTestId('amend-submit').click();
          const confirm = page.getByTestId('confirm-accept');
          await amend.waitFor({ state: 'detached', timeout: 2_000 }).catch(async () => {
            if (await confirm.isVisible()) await confirm.click();
          });
        },
        () => amend.waitFor({ state: 'detached', timeout: STEP_TIMEOUT_MS }),
      );
      await measure(
        'order cancel',
        null,
        () =>
          page
            .getByTestId('open-order')
            .first()
            .getByRole('button', { name: /Cancel order/ })
            .click(),
        () => page.getByTestId('open-order').first().waitFor({ state: 'detached', timeout: STEP_TIMEOUT_MS }),
      );

      // -- The same placement once the ticket was open longer than any rule is kept: main checks it
      // against the rules the ticket showed, and the screen reads only the balances again.
      await ticket.getByLabel(/^Price/).fill('1000');
      await ticket.getByLabel(/^Amount/).fill('0.01');
      await sleep(TICKET_OPEN_MS);
      await placeOrder(`order place (ticket open ${Math.round(TICKET_OPEN_MS / 1000)} s)`);
      // Cancelled again (not counted), so the rows after it start from the same state.
      await page
        .getByTestId('open-order')
        .first()
        .getByRole('button', { name: /Cancel order/ })
        .click();
      await page.getByTestId('open-order').first().waitFor({ state: 'detached', timeout: STEP_TIMEOUT_MS });

      // -- Switching profile: to a testnet profile without a key and back to the sandbox (counted).
      await open('balances');
      const testnet = await callCore<{ id: string; name: string }>(shell, 'profiles.add', {
        kind: 'testnet',
        name: 'Bench testnet',
      });
      // The profile was added behind the window's back: read the list again as a restart would.
      await page.reload();
      await page.locator('html[data-desk-ready="true"]').waitFor({ timeout: STEP_TIMEOUT_MS });
      await settle(Date.now());
      const select = page.getByTestId('profile-select');
      await measure(
        'switch profile (→ testnet, no key)',
        null,
        () => select.selectOption({ label: testnet.name }).then(() => undefined),
        () =>
          page
            .locator('[data-testid="profile-select"] option:checked', { hasText: testnet.name })
            .waitFor({ state: 'attached' }),
      );
      await measure(
        'switch profile (→ Local sandbox)',
        null,
        () => select.selectOption({ label: 'Local sandbox' }).then(() => undefined),
        async () => {
          await page
            .locator('[data-testid="profile-select"] option:checked', { hasText: 'Local sandbox' })
            .waitFor({ state: 'attached' });
          await visible(page.getByTestId('screen-balances'));
        },
      );
    }
  } finally {
    await sandbox.close();
    await rm(dataDir, { recursive: true, force: true });
  }

  const table = [
    '| action | requests | duplicates | retries after no answer | target | met |',
    '| --- | ---: | --- | --- | ---: | :---: |',
    ...rows.map(
      (r) =>
        `| ${r.action} | ${r.requests} | ${r.duplicates.length ? r.duplicates.join('<br>') : '—'} | ${r.retries.length ? r.retries.join('<br>') : '—'} | ${r.target === null ? '—' : `≤ ${r.target}`} | ${r.met ? 'yes' : '**no**'} |`,
    ),
  ].join('\n');
  console.log(`\n${table}\n`);
  const missed = rows.filter((r) => !r.met);
  console.log(missed.length === 0 ? 'Every target met.' : `Missed: ${missed.map((r) => r.action).join(', ')}`);
  await mkdir(join(ROOT, 'bench/results'), { recursive: true });
  await writeFile(
    join(ROOT, 'bench/results/requests-per-action.json'),
    `${JSON.stringify({ at: new Date().toISOString(), settleMs: SETTLE_MS, rows }, null, 2)}\n`,
  );
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
