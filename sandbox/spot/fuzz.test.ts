// Malformed and random spot requests: never a 5xx, every refusal carries a label, and money is
// conserved (zero fees, so even self-trades leave each currency's total unchanged).

import Decimal from 'decimal.js';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox, type TestUser } from '../testing/harness';

let sb: TestSandbox;
let u: TestUser;
const FUNDS = { USDT: '100000', BTC: '2', ETH: '30', GT: '5000', XRP: '100000' };

beforeAll(async () => {
  sb = await startTestSandbox({ clock: 'real' });
  u = sb.user(FUNDS, { maker_fee: '0', taker_fee: '0' });
  sb.limiter.enforce = false;
});
afterAll(async () => {
  await sb?.close();
});

const scalar = fc.oneof(
  fc.constantFrom('BTC_USDT', 'ETH_USDT', 'GT_USDT', 'XRP_USDT', 'NOPE', '', 'buy', 'sell', 'limit', 'market'),
  fc.constantFrom('gtc', 'ioc', 'poc', 'fok', 'cn', 'co', 'ACK', 'RESULT', 'FULL', 't-x', 'unified', 'margin'),
  fc.constantFrom('0', '-1', '1e5', '0.1', '0.001', '65000', '65000.05', '3200.1', '8', '0.6', 'NaN', ' 1', '1.'),
  fc.stringMatching(/^\d{1,6}(\.\d{1,9})?$/),
  fc.string({ maxLength: 12 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
);
const field = fc.constantFrom(
  'currency_pair',
  'side',
  'type',
  'amount',
  'price',
  'time_in_force',
  'text',
  'stp_act',
  'action_mode',
  'account',
  'iceberg',
  'amend_text',
);
const body = fc.oneof(
  fc.dictionary(field, fc.oneof(scalar, fc.array(scalar, { maxLength: 2 }), fc.dictionary(fc.string(), scalar)), {
    maxKeys: 8,
  }),
  scalar,
  fc.array(scalar, { maxLength: 3 }),
);
const request = fc.oneof(
  fc.record({ method: fc.constant('POST'), path: fc.constant('/spot/orders'), body }),
  fc.record({
    method: fc.constant('POST'),
    path: fc.constant('/spot/batch_orders'),
    body: fc.array(body, { maxLength: 4 }),
  }),
  fc.record({
    method: fc.constant('POST'),
    path: fc.constant('/spot/amend_batch_orders'),
    body: fc.array(body, { maxLength: 3 }),
  }),
  fc.record({
    method: fc.constant('POST'),
    path: fc.constant('/spot/cancel_batch_orders'),
    body: fc.array(body, { maxLength: 3 }),
  }),
  fc.record({
    method: fc.constant('PATCH'),
    path: fc.constantFrom('/spot/orders/1000000001', '/spot/orders/t-x', '/spot/orders/%00'),
    body,
  }),
  fc.record({ method: fc.constant('POST'), path: fc.constant('/account/stp_groups/1/users'), body }),
);
const query = fc.dictionary(
  fc.constantFrom(
    'currency_pair',
    'limit',
    'interval',
    'from',
    'to',
    'with_id',
    'status',
    'page',
    'last_id',
    'side',
    'order_id',
    'currency',
  ),
  fc.oneof(
    fc.constantFrom(
      'BTC_USDT',
      '1',
      '0',
      '-5',
      '1000000',
      'true',
      '30d',
      '1s',
      'open',
      'finished',
      '0.1',
      '99999999999999',
    ),
    fc.string({ maxLength: 6 }),
  ),
  { maxKeys: 5 },
);
const reads = fc.record({
  path: fc.constantFrom(
    '/spot/order_book',
    '/spot/candlesticks',
    '/spot/trades',
    '/spot/tickers',
    '/spot/orders',
    '/spot/my_trades',
    '/spot/account_book',
    '/spot/open_orders',
    '/spot/accounts',
  ),
  query,
});

function totals(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of Object.keys(FUNDS)) {
    const b = sb.balance(u.id, c);
    out[c] = new Decimal(b.available).plus(b.locked).toFixed();
  }
  return out;
}

it('survives random writes and reads without 5xx, with labels, conserving funds', async () => {
  sb.ctx.users.setFees(u.id, { maker_fee: '0', taker_fee: '0' });
  const before = totals();
  await fc.assert(
    fc.asyncProperty(request, async (r) => {
      const res = await u.api.request<{ label?: string }>(r.method, r.path, { body: r.body });
      expect(res.status).toBeLessThan(500);
      if (res.status >= 400) expect(typeof res.body?.label).toBe('string');
    }),
    { numRuns: 300, seed: 4242 },
  );
  await fc.assert(
    fc.asyncProperty(reads, async (r) => {
      const res = await u.api.get<{ label?: string }>(r.path, r.query);
      expect(res.status).toBeLessThan(500);
      if (res.status >= 400) expect(typeof res.body?.label).toBe('string');
    }),
    { numRuns: 300, seed: 4343 },
  );
  expect(totals()).toEqual(before);
});
