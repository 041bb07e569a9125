import { beforeEach, describe, expect, it } from 'vitest';
import { ApiFailure } from '../http/errors';
import { openDatabase } from '../store/db';
import { IdSource } from '../store/ids';
import { Ledger } from '../store/ledger';
import { Users } from '../store/users';
import { SpotExchange } from './exchange';
import { parseOrderRequest } from './orders/validate';
import { SpotStore } from './store';

function setup() {
  const db = openDatabase(null);
  let now = 1_700_000_000_000;
  const clock = () => now;
  const users = new Users(db, new IdSource(db, 'test'), clock);
  const ledger = new Ledger(db, clock);
  const store = new SpotStore(db);
  const groups = new Map<number, number>();
  const deps = {
    store,
    ledger,
    fees: (id: number) => users.fees(id),
    now: clock,
    stpGroupOf: (id: number) => groups.get(id) ?? 0,
  };
  const exchange = new SpotExchange(deps);
  const user = (name: string, funds: Record<string, string>) => {
    const u = users.createUser({ parentId: null, loginName: name });
    db.transaction(() => {
      for (const [currency, amount] of Object.entries(funds))
        ledger.credit({ userId: u.id, account: 'spot', currency }, amount, 'dnw');
    })();
    return u.id;
  };
  const balance = (userId: number, currency: string) => ledger.get({ userId, account: 'spot', currency });
  const place = (userId: number, body: Record<string, unknown>) =>
    exchange.place(userId, parseOrderRequest({ currency_pair: 'BTC_USDT', ...body }));
  return {
    db,
    users,
    ledger,
    store,
    exchange,
    deps,
    groups,
    user,
    balance,
    place,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('SpotExchange settlement', () => {
  let t: ReturnType<typeof setup>;
  beforeEach(() => {
    t = setup();
  });

  it('locks funds while an order rests and releases them on cancel', () => {
    const alice = t.user('alice', { USDT: '10000' });
    const order = t.place(alice, { side: 'buy', amount: '0.1', price: '60000' });
    expect(order.status).toBe('open');
    expect(t.balance(alice, 'USDT')).toMatchObject({ available: '4000', locked: '6000' });
    const cancelled = t.exchange.cancel(alice, String(order.id), 'BTC_USDT');
    expect(cancelled).toMatchObject({ status: 'cancelled', finish_as: 'cancelled', left: '0.1' });
    expect(t.balance(alice, 'USDT')).toMatchObject({ available: '10000', locked: '0' });
  });

  it('refuses an order the balance cannot cover and changes nothing', () => {
    const alice = t.user('alice', { USDT: '100' });
    expect(() => t.place(alice, { side: 'buy', amount: '0.1', price: '60000' })).toThrow(ApiFailure);
    expect(t.balance(alice, 'USDT')).toMatchObject({ available: '100', locked: '0' });
    expect(t.exchange.openOrders(alice)).toEqual([]);
  });

  it('settles a fill with taker and maker fees in the received currency', () => {
    const seller = t.user('seller', { BTC: '1' });
    const buyer = t.user('buyer', { USDT: '100000' });
    t.users.setFees(seller, { maker_fee: '0.001', taker_fee: '0.002' });
    t.users.setFees(buyer, { maker_fee: '0.001', taker_fee: '0.002' });
    const ask = t.place(seller, { side: 'sell', amount: '0.5', price: '60000' });
    // The buyer bids higher: trades at the maker's 60000, the improvement is released at once.
    const bid = t.place(buyer, { side: 'buy', amount: '0.2', price: '61000' });
    expect(bid).toMatchObject({ status: 'closed', finish_as: 'filled', filled_amount: '0.2', filled_total: '12000' });
    expect(bid.fee).toBe('0.0004'); // taker 0.2 % of 0.2 BTC
    expect(bid.fee_currency).toBe('BTC');
    expect(t.balance(buyer, 'USDT')).toMatchObject({ available: '88000', locked: '0' });
    expect(t.balance(buyer, 'BTC')).toMatchObject({ available: '0.1996', locked: '0' });
    const maker = t.exchange.findOrder(seller, String(ask.id), undefined);
    expect(maker).toMatchObject({ status: 'open', left: '0.3', filled_amount: '0.2', fee: '12', fee_currency: 'USDT' });
    expect(t.balance(seller, 'USDT')).toMatchObject({ available: '11988' }); // 12000 - 0.1 % maker fee
    expect(t.balance(seller, 'BTC')).toMatchObject({ available: '0.5', locked: '0.3' });
    const trades = t.store.query<{ price: string; amount: string; side: string }>('SELECT * FROM spot_trades');
    expect(trades).toMatchObject([{ price: '60000', amount: '0.2', side: 'buy' }]);
  });

  it('a market buy spends its quote budget and releases the rest', () => {
    const mm = t.user('mm', { BTC: '1' });
    const buyer = t.user('buyer', { USDT: '1000' });
    t.users.setFees(buyer, { taker_fee: '0' });
    t.place(mm, { side: 'sell', amount: '0.001', price: '60000' });
    t.place(mm, { side: 'sell', amount: '0.01', price: '61000' });
    const order = t.place(buyer, { side: 'buy', type: 'market', amount: '100' });
    // 60 USDT buys 0.001 at 60000, 40 USDT buys 0.000655 at 61000 (39.955), 0.045 USDT is left.
    expect(order).toMatchObject({ status: 'closed', finish_as: 'filled', price: '0', time_in_force: 'ioc' });
    expect(order.filled_amount).toBe('0.001655');
    expect(order.filled_total).toBe('99.955');
    expect(order.left).toBe('0.045');
    expect(t.balance(buyer, 'USDT')).toMatchObject({ available: '900.045', locked: '0' });
  });

  it('a market sell on an empty book ends ioc and unlocks everything', () => {
    const seller = t.user('seller', { BTC: '1' });
    const order = t.place(seller, { side: 'sell', type: 'market', amount: '0.5' });
    expect(order).toMatchObject({ status: 'cancelled', finish_as: 'ioc', left: '0.5' });
    expect(t.balance(seller, 'BTC')).toMatchObject({ available: '1', locked: '0' });
  });

  it('amend: reducing keeps priority, increasing loses it, and the lock follows', () => {
    const a = t.user('a', { USDT: '100000' });
    const b = t.user('b', { USDT: '100000' });
    const first = t.place(a, { side: 'buy', amount: '0.1', price: '50000' });
    t.place(b, { side: 'buy', amount: '0.1', price: '50000' });
    t.exchange.amend(a, String(first.id), 'BTC_USDT', { amount: '0.05' });
    expect(t.balance(a, 'USDT')).toMatchObject({ locked: '2500' });
    const engine = t.exchange.pairState('BTC_USDT')!.engine;
    expect([...engine.restingOrders('buy')].map((o) => o.owner)).toEqual([a, b]);
    t.exchange.amend(a, String(first.id), 'BTC_USDT', { amount: '0.2' });
    expect(t.balance(a, 'USDT')).toMatchObject({ locked: '10000' });
    expect([...engine.restingOrders('buy')].map((o) => o.owner)).toEqual([b, a]);
  });

  it('an amendment the balance cannot cover is refused and changes nothing', () => {
    const a = t.user('a', { USDT: '6000' });
    const order = t.place(a, { side: 'buy', amount: '0.1', price: '50000' });
    expect(() => t.exchange.amend(a, String(order.id), 'BTC_USDT', { amount: '0.2', amendText: 'more' })).toThrow(
      /Not enough balance/,
    );
    expect(t.exchange.findOrder(a, String(order.id), undefined)).toMatchObject({ amount: '0.1', amend_text: '-' });
    expect(t.balance(a, 'USDT')).toMatchObject({ available: '1000', locked: '5000' });
  });

  it('amend below the filled amount cancels the rest', () => {
    const seller = t.user('seller', { BTC: '1' });
    const buyer = t.user('buyer', { USDT: '100000' });
    const ask = t.place(seller, { side: 'sell', amount: '0.5', price: '60000' });
    t.place(buyer, { side: 'buy', amount: '0.2', price: '60000' });
    const amended = t.exchange.amend(seller, String(ask.id), 'BTC_USDT', { amount: '0.1' });
    expect(amended).toMatchObject({ status: 'cancelled', finish_as: 'cancelled', filled_amount: '0.2' });
    expect(t.balance(seller, 'BTC')).toMatchObject({ available: '0.8', locked: '0' });
  });

  it('rebuilds the book and live orders after a restart', () => {
    const seller = t.user('seller', { BTC: '1' });
    const buyer = t.user('buyer', { USDT: '100000' });
    const early = t.place(seller, { side: 'sell', amount: '0.1', price: '60000' });
    t.place(seller, { side: 'sell', amount: '0.1', price: '60000' });
    const restarted = new SpotExchange(t.deps);
    const bid = restarted.place(
      buyer,
      parseOrderRequest({ currency_pair: 'BTC_USDT', side: 'buy', amount: '0.1', price: '60000' }),
    );
    expect(bid.finish_as).toBe('filled');
    expect(restarted.findOrder(seller, String(early.id), undefined).status).toBe('closed');
    expect(restarted.lastPrice('BTC_USDT')).toBe('60000');
  });

  it('finds orders by text id, and text ids stop working an hour after the order ends', () => {
    const alice = t.user('alice', { USDT: '10000' });
    const order = t.place(alice, { side: 'buy', amount: '0.01', price: '60000', text: 't-mine' });
    expect(t.exchange.findOrder(alice, 't-mine', 'BTC_USDT').id).toBe(order.id);
    t.exchange.cancel(alice, 't-mine', 'BTC_USDT');
    t.advance(3_600_001);
    expect(() => t.exchange.findOrder(alice, 't-mine', 'BTC_USDT')).toThrow(/not found/);
    expect(t.exchange.findOrder(alice, String(order.id), 'BTC_USDT').status).toBe('cancelled');
  });
});

describe('SpotExchange money invariants (random streams)', () => {
  it('conserves every currency (balances + fees charged) and locks exactly what open orders need', async () => {
    const fc = (await import('fast-check')).default;
    const { default: Decimal } = await import('decimal.js');
    const { ApiFailure: Failure } = await import('../http/errors');
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('limit' as const),
        who: fc.nat(2),
        side: fc.constantFrom('buy', 'sell'),
        price: fc.integer({ min: 59990, max: 60010 }),
        amount: fc.constantFrom('0.0001', '0.001', '0.0123', '0.05'),
        tif: fc.constantFrom('gtc', 'gtc', 'ioc', 'poc', 'fok'),
      }),
      fc.record({
        kind: fc.constant('market' as const),
        who: fc.nat(2),
        side: fc.constantFrom('buy', 'sell'),
        /** A market buy spends quote (USDT); a market sell sells base (BTC). */
        budget: fc.constantFrom('50', '100', '777.7'),
        amount: fc.constantFrom('0.001', '0.01'),
      }),
      fc.record({ kind: fc.constant('cancel' as const), who: fc.nat(2), pick: fc.nat() }),
      fc.record({
        kind: fc.constant('amend' as const),
        who: fc.nat(2),
        pick: fc.nat(),
        price: fc.integer({ min: 59990, max: 60010 }),
        amount: fc.constantFrom('0.0001', '0.002', '0.03'),
      }),
    );
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 40 }), (ops) => {
        const t = setup();
        const funds = { USDT: '5000', BTC: '0.1' };
        const ids = ['a', 'b', 'c'].map((n) => t.user(n, funds));
        for (const id of ids) t.users.setFees(id, { maker_fee: '0.001', taker_fee: '0.002' });
        for (const o of ops) {
          const user = ids[o.who]!;
          try {
            if (o.kind === 'limit') {
              t.place(user, { side: o.side, amount: o.amount, price: String(o.price), time_in_force: o.tif });
            } else if (o.kind === 'market') {
              t.place(user, { side: o.side, type: 'market', amount: o.side === 'buy' ? o.budget : o.amount });
            } else {
              const open = t.exchange.openOrders(user);
              if (open.length === 0) continue;
              const target = open[o.pick % open.length]!;
              if (o.kind === 'cancel') t.exchange.cancel(user, String(target.id), 'BTC_USDT');
              else t.exchange.amend(user, String(target.id), 'BTC_USDT', { amount: o.amount, price: String(o.price) });
            }
          } catch (error) {
            if (!(error instanceof Failure)) throw error;
          }
        }
        // Conservation: what users hold plus the fees they paid is what they were given.
        const fees = t.store.query<{ c: string; f: string }>(
          `SELECT maker_fee_currency AS c, maker_fee AS f FROM spot_trades
           UNION ALL SELECT taker_fee_currency, taker_fee FROM spot_trades`,
        );
        for (const currency of ['USDT', 'BTC']) {
          let total = new Decimal(0);
          for (const id of ids) {
            const b = t.balance(id, currency);
            total = total.plus(b.available).plus(b.locked);
          }
          for (const f of fees) if (f.c === currency) total = total.plus(f.f);
          expect(total.toFixed()).toBe(new Decimal(funds[currency as 'USDT' | 'BTC']).mul(3).toFixed());
        }
        // Locks: exactly price × left of open buys (USDT) and left of open sells (BTC).
        for (const id of ids) {
          let usdt = new Decimal(0);
          let btc = new Decimal(0);
          for (const o of t.exchange.openOrders(id)) {
            if (o.side === 'buy') usdt = usdt.plus(new Decimal(o.price).mul(o.left));
            else btc = btc.plus(o.left);
          }
          expect(t.balance(id, 'USDT').locked).toBe(usdt.toFixed());
          expect(t.balance(id, 'BTC').locked).toBe(btc.toFixed());
        }
        t.db.close();
      }),
      { numRuns: 150, seed: 99 },
    );
  });
});
