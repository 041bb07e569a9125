/**
 * The orders watcher on the sandbox's real WebSocket API: fills of a resting order are told from
 * `spot.orders` as they happen, once each, with the amount filled, while REST polling is too slow
 * (a minute) to be what found them.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FULL_PERMS } from '../../sandbox/store/users';
import { type SandboxHandle, startTestSandbox } from '../../sandbox/testing/harness';
import { PlatformConnection } from '../profiles/connection';
import { OrdersWatcher } from './ordersWatcher';

let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startTestSandbox({ clock: 'real' });
});
afterAll(async () => {
  await sandbox.close();
});

/** The seeded account, as the desk connects to it (REST and the stream). */
const deskConnection = () =>
  new PlatformConnection({
    baseUrl: sandbox.baseUrl,
    credentials: { key: sandbox.key, secret: sandbox.secret },
    streamUrl: sandbox.wsUrl,
  });

/** Another account, funded, trading against the desk over REST. */
const counterparty = (loginName: string, currency: string, amount: string) => {
  const { ctx } = sandbox;
  const user = ctx.users.createUser({ parentId: null, loginName });
  ctx.db.transaction(() => ctx.ledger.credit({ userId: user.id, account: 'spot', currency }, amount, 'dnw'))();
  const key = ctx.users.createKey(user.id, { perms: FULL_PERMS, ipWhitelist: [] });
  return new PlatformConnection({ baseUrl: sandbox.baseUrl, credentials: { key: key.key, secret: key.secret } });
};

/** Starts watching a pair and waits until the stream answers (nothing is polled then). */
const watchLive = async (watcher: OrdersWatcher, pair: string) => {
  watcher.start(pair);
  await vi.waitFor(() => expect((watcher as unknown as { streamLive: boolean }).streamLive).toBe(true), {
    timeout: 5_000,
  });
};

describe('fills from the stream', () => {
  it('a resting order filled in two trades: two notices, amounts filled since the last one', async () => {
    const maker = deskConnection();
    // Another account that buys from the maker's order.
    const taker = counterparty('stream_buyer', 'USDT', '100000');
    const fills: [string, string][] = [];
    const watcher = new OrdersWatcher(
      () => maker.api.spot,
      (name, payload) => {
        if (name === 'trade.orderFilled') {
          const p = payload as { order: { id: string }; filledNow: string };
          fills.push([p.order.id, p.filledNow]);
        }
      },
      60_000,
      () => maker.stream(),
    );
    try {
      await maker.client.syncClock();
      await taker.client.syncClock();
      await watchLive(watcher, 'BTC_USDT');
      const order = await maker.api.spot.placeOrder({
        currency_pair: 'BTC_USDT',
        side: 'sell',
        type: 'limit',
        amount: '0.01',
        price: '50000',
        account: 'spot',
        text: 't-elsewhere-1',
      });
      const buy = (amount: string) =>
        taker.api.spot.placeOrder({
          currency_pair: 'BTC_USDT',
          side: 'buy',
          type: 'limit',
          amount,
          price: '50000',
          time_in_force: 'ioc',
          account: 'spot',
          text: `t-buy-${amount}`,
        });
      await buy('0.004');
      await vi.waitFor(() => expect(fills).toEqual([[String(order.id), '0.004']]), { timeout: 5_000 });
      await buy('0.006');
      await vi.waitFor(
        () =>
          expect(fills).toEqual([
            [String(order.id), '0.004'],
            [String(order.id), '0.006'],
          ]),
        { timeout: 5_000 },
      );
    } finally {
      watcher.stop();
      maker.close();
      taker.close();
    }
  });

  it("this app's own order that fills at once (put, then finish) gets no second notice from the stream", async () => {
    const desk = deskConnection();
    const other = counterparty('stream_seller', 'BTC', '1');
    const fills: string[] = [];
    const changes: { id: string; reason: string }[] = [];
    const watcher = new OrdersWatcher(
      () => desk.api.spot,
      (name, payload) => {
        if (name === 'trade.orderFilled') fills.push((payload as { order: { id: string } }).order.id);
        if (name === 'trade.ordersChanged') {
          const p = payload as { reason: string; orders: { id: string }[] };
          for (const o of p.orders) changes.push({ id: o.id, reason: p.reason });
        }
      },
      60_000,
      () => desk.stream(),
    );
    try {
      await desk.client.syncClock();
      await other.client.syncClock();
      await watchLive(watcher, 'BTC_USDT');
      await other.api.spot.placeOrder({
        currency_pair: 'BTC_USDT',
        side: 'sell',
        type: 'limit',
        amount: '0.01',
        price: '40000',
        account: 'spot',
        text: 't-elsewhere-2',
      });
      // The desk's own order (its client text) crosses it and fills at once: the placement answer
      // tells that fill (trade/handlers.ts), the stream's put-then-finish must not tell it again.
      const own = await desk.api.spot.placeOrder({
        currency_pair: 'BTC_USDT',
        side: 'buy',
        type: 'limit',
        amount: '0.01',
        price: '40000',
        time_in_force: 'ioc',
        account: 'spot',
        text: 't-desk-own-1',
      });
      expect(own.status).toBe('closed');
      await vi.waitFor(() => expect(changes).toContainEqual({ id: String(own.id), reason: 'filled' }), {
        timeout: 5_000,
      });
      expect(fills).not.toContain(String(own.id));
    } finally {
      watcher.stop();
      desk.close();
      other.close();
    }
  });
});
