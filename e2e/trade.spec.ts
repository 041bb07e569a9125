/**
 * Trade screen against a sandbox with its live market on: the book is live; a resting limit order
 * shows in open orders and in the book; another sandbox account crosses it and the fill, the trade
 * and the new balance show; an IOC remainder is cancelled and said so; a price far from the mid is
 * caught by the guard; amend and cancel-all work; a self-trade inside an STP group is shown with
 * its outcome.
 *
 * The simulated market moves every 250 ms. Once the test has seen the book update live, it pauses
 * the simulation (the sandbox's in-process handle) so prices it computes from the book stay valid
 * while it crosses orders; everything else runs through the app and signed HTTP as usual.
 */

import { join } from 'node:path';
import Decimal from 'decimal.js';
import type { Page } from 'playwright-core';
import type { SandboxHandle } from '../sandbox/server';
import { SPOT_PAIRS } from '../sandbox/spot/pairs';
import { SignedClient } from '../sandbox/testing/client';
import { formatAmount, formatMoney } from '../shared/format/money';
import { expect, test } from './fixtures';

test.use({ sandboxOptions: { memory: true, clock: 'real', market: 'on', seed: 7 } });
test.setTimeout(90_000);

const PAIR = 'BTC_USDT';

/** A counterparty's signed calls (the sandbox's test client): the answer's body, or an error for a refusal. */
const signedClient = (baseUrl: string, key: string, secret: string) => {
  const client = new SignedClient(baseUrl, { key, secret });
  return async <T>(method: string, path: string, query = '', body?: unknown): Promise<T> => {
    const answer = await client.request<T>(
      method,
      query ? `${path}?${query}` : path,
      body === undefined ? {} : { body },
    );
    if (answer.status >= 300) throw new Error(`${method} ${path} → ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
};

type Level = [string, string];
const publicBook = async (sandbox: SandboxHandle): Promise<{ asks: Level[]; bids: Level[] }> =>
  (await fetch(`${sandbox.baseUrl}/spot/order_book?currency_pair=${PAIR}&limit=100`)).json() as Promise<{
    asks: Level[];
    bids: Level[];
  }>;

/**
 * Pauses the simulated market. The module is imported by the same absolute path the sandbox uses
 * (sandbox/server.ts), so this is the very instance that registered the sandbox's simulator.
 */
const pauseMarket = async (sandbox: SandboxHandle) => {
  const spot = (await import(
    join(import.meta.dirname, '..', 'sandbox', 'spot', 'index.ts')
  )) as typeof import('../sandbox/spot/index');
  const simulator = spot.spotModuleOf(sandbox.ctx)?.simulator;
  expect(simulator, 'the sandbox runs its simulated market').toBeDefined();
  simulator?.stop();
};

const credit = (
  control: { post: (p: string, b: unknown) => Promise<unknown> },
  userId: number,
  currency: string,
  amount: string,
) => control.post('/balances', { user_id: userId, account: 'spot', currency, amount });

const ticket = (page: Page) => page.getByTestId('order-ticket');

const fillTicket = async (page: Page, price: string, amount: string) => {
  await ticket(page)
    .getByLabel(/^Price/)
    .fill(price);
  await ticket(page)
    .getByLabel(/^Amount/)
    .fill(amount);
};

const openTrade = async (page: Page, app: { open: (s: 'trade') => Promise<void> }) => {
  await app.open('trade');
  await expect(page.getByTestId('ticker-last')).not.toHaveText('—');
  await expect(page.getByTestId('book-bid').first()).toBeVisible();
};

test('the book is live; a resting order shows in open orders and the book; another account fills it', async ({
  page,
  app,
  sandbox,
  control,
}) => {
  await credit(control, sandbox.userId, 'USDT', '100000');
  await openTrade(page, app);
  await page.getByLabel('Levels per side').selectOption('50');

  // Live: the book changes by itself (the simulated market re-quotes every 250 ms).
  const before = await page.getByTestId('book-bids').textContent();
  await expect.poll(() => page.getByTestId('book-bids').textContent(), { timeout: 10_000 }).not.toBe(before);
  await expect(page.locator('.book-row[data-flash]').first()).toBeAttached();
  await app.expectAccessible();
  await app.screenshot('trade-live');

  await pauseMarket(sandbox);
  const book = await publicBook(sandbox);
  const bestBid = new Decimal(book.bids[0]![0]);
  const bestAsk = new Decimal(book.asks[0]![0]);
  // Inside the spread: the best bid, so the crossing sell below meets this order first.
  const price = bestBid.add('0.1');
  expect(price.lt(bestAsk)).toBe(true);

  // Clicking a level puts its price into the ticket.
  await page.getByTestId('book-bid').first().click();
  await expect(ticket(page).getByLabel(/^Price/)).not.toHaveValue('');

  await fillTicket(page, price.toFixed(1), '0.01');
  await expect(ticket(page).getByLabel(/^Total/)).toHaveValue(price.mul('0.01').toFixed());
  await expect(page.getByTestId('ticket-fee')).toContainText('BTC');
  await ticket(page).getByTestId('ticket-submit').click();
  await expect(page.getByTestId('ticket-outcome')).toContainText('Resting on the book');
  const text = ((await page.getByTestId('ticket-outcome').locator('code').textContent()) ?? '').trim();
  expect(text).toMatch(/^t-/);

  const row = page.getByTestId('open-order').filter({ hasText: text });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(formatAmount(price, { precision: 1 }));
  // In the book: the best bid is now our price with our amount.
  const ourLevel = page.locator(`[data-testid="book-bid"][data-price="${price.toFixed(1)}"]`);
  await expect(ourLevel).toContainText('0.01');
  await app.screenshot('trade-resting-order');

  // Another sandbox account crosses it with a signed IOC sell at our price.
  const other = await control.post<{ user_id: number; key: string; secret: string }>('/users', {});
  await credit(control, other.user_id, 'BTC', '1');
  await ticket(page).getByRole('button', { name: 'Sell BTC' }).click();
  const btcBefore = new Decimal(
    ((await page.getByTestId('ticket-available').textContent()) ?? '').split(' ')[0]!.replace(/,/g, ''),
  );
  const sell = signedClient(sandbox.baseUrl, other.key, other.secret);
  const taker = await sell<{ finish_as: string }>('POST', '/spot/orders', '', {
    currency_pair: PAIR,
    side: 'sell',
    type: 'limit',
    price: price.toFixed(1),
    amount: '0.01',
    time_in_force: 'ioc',
    text: 't-e2e-cross',
  });
  expect(taker.finish_as).toBe('filled');

  // The app sees the fill by itself: a notice says so, open orders empty, the trade listed, the
  // balance updated.
  await expect(page.getByTestId('notice').filter({ hasText: 'Buy order filled: 0.01 BTC' })).toContainText(
    `at ${formatMoney(price, 'USDT', { precision: 1 })}`,
    { timeout: 10_000 },
  );
  await expect(row).toHaveCount(0, { timeout: 10_000 });
  await expect(ourLevel).toHaveCount(0, { timeout: 10_000 });
  await page.getByRole('tab', { name: 'My trades' }).click();
  const trade = page.getByTestId('my-trade').filter({ hasText: text });
  await expect(trade).toHaveCount(1);
  await expect(trade).toContainText(formatAmount(price, { precision: 1 }));
  await expect(trade).toContainText('Maker');
  const fills = await app.call('trade.myTrades', { pair: PAIR, limit: 10 });
  const fee = (fills.value as { text: string; fee: string }[]).find((t) => t.text === text)!.fee;
  await expect(page.getByTestId('ticket-available')).toHaveText(formatMoney(btcBefore.add('0.01').sub(fee), 'BTC'), {
    timeout: 10_000,
  });
  await page.getByRole('tab', { name: 'Order history' }).click();
  await expect(page.getByTestId('history-order').filter({ hasText: text })).toContainText('Filled');
  await app.screenshot('trade-filled');
});

test('an IOC remainder is cancelled and shown so; a far price trips the guard', async ({
  page,
  app,
  sandbox,
  control,
}) => {
  await credit(control, sandbox.userId, 'USDT', '100000');
  await openTrade(page, app);
  await pauseMarket(sandbox);
  const book = await publicBook(sandbox);
  const [askPrice, askAmount] = book.asks[0]!;
  const mid = new Decimal(book.bids[0]![0]).add(askPrice).div(2);

  // Far from the mid: the guard asks first and nothing is sent when the trader backs out.
  const far = mid.mul('0.8').toDecimalPlaces(1).toFixed(1);
  await fillTicket(page, far, '0.001');
  await ticket(page).getByTestId('ticket-submit').click();
  const confirm = page.getByTestId('ticket-confirm');
  await expect(confirm.getByTestId('ticket-warnings')).toContainText('away from the mid');
  await app.expectAccessible();
  await app.screenshot('trade-price-guard');
  await confirm.getByTestId('confirm-cancel').click();
  await expect(page.getByTestId('open-order')).toHaveCount(0);

  // IOC at the best ask for more than that level holds: the level fills, the rest is cancelled.
  const amount = new Decimal(askAmount).add('0.002').toFixed();
  await fillTicket(page, askPrice, amount);
  await ticket(page).getByLabel('Time in force').selectOption('ioc');
  await ticket(page).getByTestId('ticket-submit').click();
  const outcome = page.getByTestId('ticket-outcome');
  await expect(outcome).toHaveAttribute('data-finish', 'ioc');
  await expect(outcome).toContainText(
    `${new Decimal(askAmount).toFixed()} BTC filled; the remaining 0.002 BTC was cancelled`,
  );
  await app.screenshot('trade-ioc-remainder');

  // Fill-or-kill for more than the next level holds: nothing trades, and the ticket says so.
  const [nextAsk, nextAmount] = (await publicBook(sandbox)).asks[0]!;
  await fillTicket(page, nextAsk, new Decimal(nextAmount).add('0.002').toFixed());
  await ticket(page).getByLabel('Time in force').selectOption('fok');
  await ticket(page).getByTestId('ticket-submit').click();
  await expect(outcome).toHaveAttribute('data-finish', 'fok');
  await expect(outcome).toContainText('could not be filled completely, so nothing traded');
});

test('amend changes a resting order; cancel all empties the list', async ({ page, app, sandbox, control }) => {
  await credit(control, sandbox.userId, 'USDT', '100000');
  await openTrade(page, app);
  await pauseMarket(sandbox);
  const book = await publicBook(sandbox);
  const low = new Decimal(book.bids[0]![0]).mul('0.97').toDecimalPlaces(1);

  for (const price of [low, low.sub(10)]) {
    await fillTicket(page, price.toFixed(1), '0.001');
    await ticket(page).getByTestId('ticket-submit').click();
    await expect(page.getByTestId('ticket-outcome')).toContainText('Resting on the book');
  }
  await expect(page.getByTestId('open-order')).toHaveCount(2);

  const first = page.getByTestId('open-order').filter({ hasText: formatAmount(low, { precision: 1 }) });
  await first.getByRole('button', { name: /Amend order/ }).click();
  const dialog = page.getByTestId('amend-dialog');
  await dialog.getByLabel('New price').fill(low.sub(5).toFixed(1));
  await dialog.getByLabel('New amount').fill('0.002');
  await app.screenshot('trade-amend');
  await dialog.getByTestId('amend-submit').click();
  await expect(dialog).toHaveCount(0);
  const amended = page.getByTestId('open-order').filter({ hasText: formatAmount(low.sub(5), { precision: 1 }) });
  await expect(amended).toHaveCount(1);
  await expect(amended).toContainText('0.002');

  await page.getByTestId('cancel-all').click();
  await page.getByTestId('cancel-all-confirm').getByTestId('confirm-accept').click();
  await expect(page.getByTestId('open-order')).toHaveCount(0);
  await expect(page.getByText('No open orders')).toBeVisible();
  await app.screenshot('trade-cancel-all');
});

test('an order whose answer is lost is found from the stream: the ticket never says it checks an order listed in Open orders', async ({
  page,
  app,
  sandbox,
  control,
}) => {
  await credit(control, sandbox.userId, 'USDT', '100000');
  await openTrade(page, app);
  await pauseMarket(sandbox);
  const book = await publicBook(sandbox);
  const low = new Decimal(book.bids[0]![0]).mul('0.97').toDecimalPlaces(1).toFixed(1);

  // The platform places the order but the answer is lost, and looking it up by id fails. The stream
  // still tells main of the order: that finds it (the ticket blocked while checking is covered by
  // OrderTicket.test.tsx, where no stream answers).
  await control.addFaults([
    { method: 'POST', path: '/spot/orders', kind: 'drop_after', times: 1 },
    { method: 'GET', path: '/spot/orders/*', kind: 'status_500' },
  ]);
  await fillTicket(page, low, '0.001');
  const submit = ticket(page).getByTestId('ticket-submit');
  await submit.click();
  await expect(page.getByTestId('ticket-outcome')).toContainText('Resting on the book', { timeout: 10_000 });
  await expect(page.getByTestId('open-order')).toHaveCount(1);
  await expect(page.getByTestId('ticket-checking')).toHaveCount(0);
  await expect(submit).toBeEnabled();
  await app.expectAccessible();
  await app.screenshot('trade-unknown-outcome');
  // Nothing was resent: still the one order.
  await control.clearFaults();
  expect((await app.call('trade.openOrders', { pair: PAIR })).value).toHaveLength(1);
});

test('a self-trade inside an STP group is stopped and shown with its outcome', async ({
  page,
  app,
  sandbox,
  control,
}) => {
  const main = signedClient(sandbox.baseUrl, sandbox.key, sandbox.secret);
  await credit(control, sandbox.userId, 'USDT', '100000');
  // A sub-account with its own key, both in one STP group.
  const sub = await main<{ user_id: number }>('POST', '/sub_accounts', '', { login_name: 'stp_desk_sub' });
  const subKey = await main<{ key: string; secret: string }>('POST', `/sub_accounts/${sub.user_id}/keys`, '', {
    mode: 1,
    name: 'stp',
    perms: [{ name: 'spot', read_only: false }],
    ip_whitelist: [],
  });
  const group = await main<{ id: number }>('POST', '/account/stp_groups', '', { name: 'desk-e2e' });
  await main('POST', `/account/stp_groups/${group.id}/users`, '', [sandbox.userId, sub.user_id]);
  await credit(control, sub.user_id, 'BTC', '1');

  await openTrade(page, app);
  await expect(ticket(page).getByLabel('Self-trade prevention')).toBeVisible();
  await pauseMarket(sandbox);
  const book = await publicBook(sandbox);
  const price = new Decimal(book.asks[0]![0]).sub('0.1').toFixed(1);

  // The sub-account rests a sell inside the spread; the main account's buy would meet it.
  const subClient = signedClient(sandbox.baseUrl, subKey.key, subKey.secret);
  const maker = await subClient<{ id: string; status: string }>('POST', '/spot/orders', '', {
    currency_pair: PAIR,
    side: 'sell',
    type: 'limit',
    price,
    amount: '0.001',
    text: 't-e2e-stp-maker',
  });
  expect(maker.status).toBe('open');

  await fillTicket(page, price, '0.001');
  await ticket(page).getByLabel('Self-trade prevention').selectOption('cn');
  await ticket(page).getByTestId('ticket-submit').click();
  const outcome = page.getByTestId('ticket-outcome');
  await expect(outcome).toHaveAttribute('data-finish', 'stp');
  await expect(outcome).toContainText('Self-trade prevention');
  // Cancel-newest: the resting order of the sub-account stays.
  const still = await subClient<{ status: string }>('GET', `/spot/orders/${maker.id}`, `currency_pair=${PAIR}`);
  expect(still.status).toBe('open');
  await page.getByRole('tab', { name: 'Order history' }).click();
  await expect(page.getByTestId('history-order').first()).toHaveAttribute('data-finish', 'stp');
  await app.expectAccessible();
  await app.screenshot('trade-stp');
});

test('a stop-loss from the ticket waits in the open triggers, fires when the market crosses it, and a trigger can be cancelled', async ({
  page,
  app,
  sandbox,
  control,
}) => {
  await credit(control, sandbox.userId, 'BTC', '1');
  await openTrade(page, app);
  await pauseMarket(sandbox);
  const book = await publicBook(sandbox);
  const [ticker] = (await (await fetch(`${sandbox.baseUrl}/spot/tickers?currency_pair=${PAIR}`)).json()) as {
    last: string;
  }[];
  // Just under both the best bid and the last trade, so it waits until someone sells through it.
  const stop = Decimal.min(book.bids[0]![0], ticker!.last).sub('0.1');
  const limit = stop.mul('0.99').toDecimalPlaces(1);

  await page.getByRole('tab', { name: 'Stop / take-profit' }).click();
  const tt = page.getByTestId('trigger-ticket');
  await expect(tt.getByLabel(/^When the last price falls to or below/)).toBeVisible();
  await app.expectAccessible();

  // A take-profit far above the market, to cancel.
  await tt.getByTestId('trigger-kind-takeProfit').click();
  const high = new Decimal(book.asks[0]![0]).mul('1.05').toDecimalPlaces(1);
  await tt.getByLabel(/^When the last price rises to or above/).fill(high.toFixed(1));
  await tt.getByLabel(/^Limit price/).fill(high.toFixed(1));
  await tt.getByLabel(/^Amount/).fill('0.001');
  await tt.getByTestId('trigger-submit').click();
  await expect(page.getByTestId('trigger-outcome')).toContainText('is waiting');
  const tpText = ((await page.getByTestId('trigger-outcome').locator('code').textContent()) ?? '').trim();

  // The stop-loss.
  await tt.getByTestId('trigger-kind-stop').click();
  await tt.getByLabel(/^When the last price falls to or below/).fill(stop.toFixed(1));
  await tt.getByLabel(/^Limit price/).fill(limit.toFixed(1));
  await tt.getByLabel(/^Amount/).fill('0.001');
  await expect(tt.getByTestId('trigger-rule')).toContainText(`falls to or below ${formatMoney(stop, 'USDT')}`);
  await tt.getByTestId('trigger-submit').click();
  await expect(page.getByTestId('trigger-outcome')).toContainText(`falls to or below ${formatMoney(stop, 'USDT')}`);
  const slText = ((await page.getByTestId('trigger-outcome').locator('code').textContent()) ?? '').trim();
  expect(slText).toMatch(/^t-/);
  expect(slText).not.toBe(tpText);

  const openTriggers = page.getByTestId('open-trigger');
  await expect(openTriggers).toHaveCount(2);
  const slRow = openTriggers.filter({ hasText: slText });
  await expect(slRow).toContainText(`Last price falls to or below ${formatMoney(stop, 'USDT')}`);
  await expect(slRow).toContainText(`Sell 0.001 BTC at ${formatMoney(limit, 'USDT', { precision: 1 })}`);
  await app.expectAccessible();
  await app.screenshot('trade-trigger-open');

  // Cancel the take-profit.
  await page.getByRole('button', { name: `Cancel trigger ${tpText}` }).click();
  await expect(openTriggers).toHaveCount(1);
  await expect(openTriggers.first()).toContainText(slText);

  // Another account sells through every bid above the stop: the last trade lands at or below it.
  const other = await control.post<{ user_id: number; key: string; secret: string }>('/users', {});
  await credit(control, other.user_id, 'BTC', '10');
  const now = await publicBook(sandbox);
  const above = now.bids.filter(([p]) => new Decimal(p).gt(stop));
  const below = now.bids.find(([p]) => new Decimal(p).lte(stop));
  expect(below, 'a bid at or below the stop to trade with').toBeDefined();
  const amount = above.reduce((sum, [, a]) => sum.add(a), new Decimal('0.0001'));
  const sell = signedClient(sandbox.baseUrl, other.key, other.secret);
  await sell('POST', '/spot/orders', '', {
    currency_pair: PAIR,
    side: 'sell',
    type: 'limit',
    price: below![0],
    amount: amount.toFixed(6),
    time_in_force: 'ioc',
    text: 't-e2e-through',
  });

  // The trigger fires by itself: it leaves the open list and shows as fired with its order's id.
  await expect(openTriggers).toHaveCount(0, { timeout: 15_000 });
  // A notice says so, and the ticket's result line follows the trigger: no longer "waiting".
  await expect(page.getByTestId('notice').filter({ hasText: 'Trigger fired' })).toContainText(
    `Sell 0.001 BTC at ${formatMoney(limit, 'USDT', { precision: 1 })}`,
  );
  await expect(page.getByTestId('trigger-outcome')).toHaveAttribute('data-status', 'fired');
  await expect(page.getByTestId('trigger-outcome')).toContainText(/fired: order \d+ placed/);
  await page.getByRole('tab', { name: 'Finished triggers' }).click();
  const fired = page.getByTestId('finished-trigger').filter({ hasText: slText });
  await expect(fired).toHaveAttribute('data-status', 'fired');
  await expect(fired).toContainText('Fired: order placed');
  const firedId = ((await fired.getByTestId('fired-order-id').textContent()) ?? '').trim();
  expect(firedId).toMatch(/^\d+$/);
  await expect(page.getByTestId('finished-trigger').filter({ hasText: tpText })).toContainText('Cancelled');
  await app.expectAccessible();
  await app.screenshot('trade-trigger-fired');

  // Its order is an ordinary order with the trigger's client id: it sold into the bids below.
  const orders = [
    ...((await app.call('trade.openOrders', { pair: PAIR })).value as { id: string }[]),
    ...((await app.call('trade.orderHistory', { pair: PAIR, limit: 50 })).value as { id: string }[]),
  ];
  expect(orders.map((o) => o.id)).toContain(firedId);
  await page.getByRole('tab', { name: 'Order history' }).click();
  await expect(page.getByTestId('history-order').filter({ hasText: slText })).toHaveCount(1);
});

/** The sandbox's simulated market (the same instance its server registered, see pauseMarket). */
const simulatorOf = async (sandbox: SandboxHandle) => {
  const spot = (await import(
    join(import.meta.dirname, '..', 'sandbox', 'spot', 'index.ts')
  )) as typeof import('../sandbox/spot/index');
  const simulator = spot.spotModuleOf(sandbox.ctx)?.simulator;
  if (simulator === undefined) throw new Error('the sandbox runs no simulated market');
  return simulator;
};

/** Keeps, in the page, every text the book's status line shows from now on. */
const recordFeedStatus = (page: Page) =>
  page.evaluate(() => {
    const log: string[] = [];
    (window as unknown as { __feedStatus: string[] }).__feedStatus = log;
    const look = () => {
      const text = document.querySelector('.book-status')?.textContent ?? '';
      if (log.at(-1) !== text) log.push(text);
    };
    const book = document.querySelector('[data-testid="order-book"]');
    if (book) new MutationObserver(look).observe(book, { subtree: true, childList: true, characterData: true });
    look();
  });
const feedStatuses = (page: Page) =>
  page.evaluate(() => (window as unknown as { __feedStatus: string[] }).__feedStatus);

/** The best bid and ask the screen shows (asks are listed best last). */
const screenBest = (page: Page) =>
  page.evaluate(() => {
    const prices = (side: string) =>
      [...document.querySelectorAll(`[data-testid="book-${side}"]`)].map((row) =>
        Number(row.getAttribute('data-price')),
      );
    return { bid: Math.max(...prices('bid')), ask: Math.min(...prices('ask')) };
  });

/** Market data and the user's orders over REST: every read of them answers 500 while these are set. */
const REST_READS = ['/spot/order_book*', '/spot/trades*', '/spot/tickers*', '/spot/open_orders*', '/spot/orders*'].map(
  (path) => ({ method: 'GET', path, kind: 'status_500' }),
);

test('the book and open orders stay live from the stream while REST is faulted; a cut stream falls back to polling and comes back; a gap is rebuilt', async ({
  page,
  app,
  sandbox,
  control,
}) => {
  test.setTimeout(120_000);
  await credit(control, sandbox.userId, 'USDT', '100000');
  await openTrade(page, app);
  const status = page.locator('.book-status');
  await expect(status).toHaveText('Live · streamed', { timeout: 15_000 });
  await page.getByLabel('Levels per side').selectOption('50');

  // With REST market data failing, the simulated market still moves the book on screen.
  await control.addFaults(REST_READS);
  const moving = await page.getByTestId('book-bids').textContent();
  await expect.poll(() => page.getByTestId('book-bids').textContent(), { timeout: 10_000 }).not.toBe(moving);
  expect((await app.call('trade.bookSnapshot', { pair: PAIR })).ok).toBe(true);
  expect((await app.call('trade.openOrders', { pair: PAIR })).ok, 'REST reads of orders fail').toBe(false);
  await expect(status).toHaveText('Live · streamed');

  // A resting buy at the best bid (REST healthy for a moment, so open orders list it).
  const simulator = await simulatorOf(sandbox);
  simulator.stop();
  await control.clearFaults();
  const book = await publicBook(sandbox);
  const price = new Decimal(book.bids[0]![0]).add('0.1');
  expect(price.lt(book.asks[0]![0])).toBe(true);
  await fillTicket(page, price.toFixed(1), '0.01');
  await ticket(page).getByTestId('ticket-submit').click();
  await expect(page.getByTestId('ticket-outcome')).toContainText('Resting on the book');
  const text = ((await page.getByTestId('ticket-outcome').locator('code').textContent()) ?? '').trim();
  const row = page.getByTestId('open-order').filter({ hasText: text });
  await expect(row).toHaveCount(1);
  const ourLevel = page.locator(`[data-testid="book-bid"][data-price="${price.toFixed(1)}"]`);
  await expect(ourLevel).toContainText('0.01');

  // REST fails again. Another account's orders change the book, and its sell fills ours: the
  // screen learns both from the stream alone.
  await control.addFaults(REST_READS);
  const other = await control.post<{ user_id: number; key: string; secret: string }>('/users', {});
  await credit(control, other.user_id, 'BTC', '1');
  const otherClient = signedClient(sandbox.baseUrl, other.key, other.secret);
  const ask = new Decimal(book.asks[0]![0]).sub('0.1').toFixed(1);
  const resting = await otherClient<{ id: string }>('POST', '/spot/orders', '', {
    currency_pair: PAIR,
    side: 'sell',
    type: 'limit',
    price: ask,
    amount: '0.02',
    text: 't-e2e-stream-ask',
  });
  const askLevel = page.locator(`[data-testid="book-ask"][data-price="${ask}"]`);
  await expect(askLevel).toContainText('0.02');
  await otherClient('DELETE', `/spot/orders/${resting.id}`, `currency_pair=${PAIR}`);
  await expect(askLevel).toHaveCount(0);

  const taker = await otherClient<{ finish_as: string }>('POST', '/spot/orders', '', {
    currency_pair: PAIR,
    side: 'sell',
    type: 'limit',
    price: price.toFixed(1),
    amount: '0.01',
    time_in_force: 'ioc',
    text: 't-e2e-stream-cross',
  });
  expect(taker.finish_as).toBe('filled');
  await expect(page.getByTestId('notice').filter({ hasText: 'Buy order filled: 0.01 BTC' })).toContainText(
    `at ${formatMoney(price, 'USDT', { precision: 1 })}`,
  );
  await expect(row).toHaveCount(0);
  await expect(ourLevel).toHaveCount(0);
  await expect(status).toHaveText('Live · streamed');
  await app.screenshot('trade-streamed-rest-faulted');

  // REST healthy, the stream cut: the screen says it polls, then streams again once reconnected.
  await control.clearFaults();
  await recordFeedStatus(page);
  await control.post('/stream/cut');
  await expect
    .poll(() => feedStatuses(page))
    .toContainEqual(expect.stringMatching(/^Live by polling: the stream is down/));
  await expect(status).toHaveText('Live · streamed', { timeout: 20_000 });

  // A gap in the book's update ids: the book is rebuilt from a snapshot, and it is the platform's.
  // The snapshot read is slowed (2 s, once) so the screen shows the rebuild for a moment: on
  // loopback it would otherwise finish before the window paints "polling" at all.
  simulator.start();
  await recordFeedStatus(page);
  await control.addFaults([{ method: 'GET', path: '/spot/order_book*', kind: 'delay', ms: 2_000, times: 1 }]);
  await control.post('/stream/faults', { drop_book_updates: 2 });
  await expect
    .poll(async () => (await control.get<{ dropped: number }>('/stream/faults')).dropped, { timeout: 10_000 })
    .toBeGreaterThanOrEqual(2);
  await expect
    .poll(() => feedStatuses(page), { timeout: 10_000 })
    .toContainEqual('Live by polling: updates were missed; rebuilding the book');
  await expect(status).toHaveText('Live · streamed', { timeout: 15_000 });
  simulator.stop();
  await expect
    .poll(
      async () => {
        const [shown, rest] = await Promise.all([screenBest(page), publicBook(sandbox)]);
        return `${shown.bid} / ${shown.ask} on screen, ${Number(rest.bids[0]![0])} / ${Number(rest.asks[0]![0])} by REST`;
      },
      { timeout: 10_000, message: 'the best bid / ask on screen are the platform’s' },
    )
    .toMatch(/^(\S+) \/ (\S+) on screen, \1 \/ \2 by REST$/);
});

test('pick a pair by typing in the picker; the spread row shows the last price; the depth chart is drawn', async ({
  page,
  app,
}) => {
  await openTrade(page, app);
  // The spread row: the last trade price in the quote currency, coloured by its move.
  const last = page.getByTestId('book-last');
  await expect(last).toContainText(/^[▲▼]?Last price (up|down|unchanged): [\d,]+(\.\d+)? USDT$/);
  await expect(last).toHaveAttribute('data-direction', /^(up|down|flat)$/);
  // The book's box scrolls where the screen caps its height: the spread row starts in its middle.
  await expect(page.getByTestId('book-spread')).toBeInViewport();

  // The picker lists every pair with its last price and 24 h change; typing filters, Enter takes it.
  await page.getByTestId('pair-current').click();
  const search = page.getByRole('combobox', { name: 'Search pairs' });
  await expect(search).toBeFocused();
  const options = page.getByTestId('pair-option');
  await expect(options).toHaveCount(SPOT_PAIRS.length);
  await expect(options.filter({ hasText: 'XRP / USDT' }).getByTestId('pair-last')).toHaveText(/^[\d,.]+ USDT$/);
  await app.expectAccessible();
  await search.pressSequentially('eth');
  await expect(options).toHaveCount(1);
  await expect(options.first()).toHaveAttribute('aria-selected', 'true');
  await expect(options.first()).toContainText(/ETH \/ USDT[\d,.]+ USDT[+-]\d+\.\d\d%/);
  await search.press('Enter');
  await expect(page.getByRole('listbox', { name: 'Pairs' })).toHaveCount(0);
  await expect(page.getByTestId('pair-current')).toHaveText('ETH / USDT ▾');
  await expect(page.getByTestId('book-bid').first()).toBeVisible();
  await expect(last).toContainText(/ USDT$/);

  // Arrow keys: open with ArrowDown on the button, move, Enter.
  await page.getByTestId('pair-current').focus();
  await page.keyboard.press('ArrowDown');
  await expect(search).toBeFocused();
  await search.pressSequentially('usdt');
  // The list is alphabetical and starts on its first pair: ArrowDown moves to the second.
  const listed = await options.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-pair')));
  await page.keyboard.press('ArrowDown');
  await expect(options.and(page.locator('[aria-selected="true"]'))).toHaveAttribute('data-pair', listed[1] ?? '');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('pair-current')).toHaveText('ETH / USDT ▾');

  // The depth chart: both sides drawn from the book, axes with units.
  await page.getByRole('tab', { name: 'Depth' }).click();
  const depth = page.getByTestId('depth-chart');
  await expect(depth.locator('.recharts-area-area')).toHaveCount(2);
  for (const area of await depth.locator('.recharts-area-area').all()) {
    await expect(area).toHaveAttribute('d', /^M[\d.]+,[\d.]+.*L/);
  }
  await expect(depth).toContainText('Price (USDT)');
  await expect(depth).toContainText('Size (ETH)');
  await expect(page.getByTestId('depth-bids')).toHaveText(/^Bids [\d,.]+ ETH down to [\d,.]+ USDT$/);
  await expect(page.getByTestId('depth-asks')).toHaveText(/^Asks [\d,.]+ ETH up to [\d,.]+ USDT$/);
  await app.screenshot('trade-depth-chart');
  await page.getByRole('tab', { name: 'Candles' }).click();
  await expect(page.locator('[data-testid="candle-chart"] canvas').first()).toBeVisible();
});
