/**
 * The orders watcher on the sandbox's real WebSocket API: fills of a resting order are told from
 * `spot.orders` as they happen, once each, with the amount filled, while REST polling is too slow
 * (a minute) to be what found them.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FULL_PERMS } from '../../../sandbox/store/users';
import { type SandboxHandle, startTestSandbox } from '../../../sandbox/testing/harness';
import { PlatformConnection } from '../profiles/connection';
import { OrdersWatcher } from './ordersWatcher';

let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startTestSandbox({ clock: 'real' });
});
afterAll(async () => {
  await sandbox.close();
});

describe('fills from the stream', () => {
  it('a resting order filled in two trades: two notices, amounts filled since the last one', async () => {
    const maker = new PlatformConnection({
      baseUrl: sandbox.baseUrl,
      credentials: { key: sandbox.key, secret: sandbox.secret },
      streamUrl: sandbox.wsUrl,
    });
    // Another account that buys from the maker's order.
    const { ctx } = sandbox;
    const buyer = ctx.users.createUser({ parentId: null, loginName: 'stream_buyer' });
    ctx.db.transaction(() =>
      ctx.ledger.credit({ userId: buyer.id, account: 'spot', currency: 'USDT' }, '100000', 'dnw'),
    )();
    const buyerKey = ctx.users.createKey(buyer.id, { perms: FULL_PERMS, ipWhitelist: [] });
    const taker = new PlatformConnection({
      baseUrl: sandbox.baseUrl,
      credentials: { key: buyerKey.key, secret: buyerKey.secret },
    });
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
      watcher.start('BTC_USDT');
      await vi.waitFor(() => expect((watcher as unknown as { streamLive: boolean }).streamLive).toBe(true), {
        timeout: 5_000,
      });
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
});
