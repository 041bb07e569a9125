import { describe, expect, it } from 'vitest';
import type { Pair } from '../contract/trade';
import {
  amendedDraft,
  checkAmend,
  checkTicket,
  DuplicateGuard,
  feePreview,
  linkTicket,
  newClientText,
  readTyped,
  shareOfAvailable,
  switchTicket,
  type TicketDraft,
  ticketWarnings,
} from './ticket';

const pair: Pair = {
  id: 'BTC_USDT',
  base: 'BTC',
  quote: 'USDT',
  precision: 2,
  amountPrecision: 4,
  minBaseAmount: '0.0001',
  minQuoteAmount: '3',
  tradeStatus: 'tradable',
};

const draft = (over: Partial<TicketDraft> = {}): TicketDraft => ({
  pair: 'BTC_USDT',
  side: 'buy',
  type: 'limit',
  price: '65000',
  amount: '0.01',
  timeInForce: 'gtc',
  ...over,
});

describe('linkTicket', () => {
  const empty = { price: '', amount: '', total: '', lastEdited: 'amount' as const };

  it('reads what was typed: "65,000.1" and ".5" link like 65000.1 and 0.5, the fields keep the text', () => {
    let t = linkTicket(pair, empty, 'price', '65,000.1');
    t = linkTicket(pair, t, 'amount', '.5');
    expect(t).toMatchObject({ price: '65,000.1', amount: '.5', total: '32500.05' });
    expect(readTyped(' 1 000. ')).toBe('1000');
    expect(readTyped('1,5')).toBe('1,5');
  });

  it('computes the total from price × amount exactly', () => {
    let t = linkTicket(pair, empty, 'price', '65000.1');
    t = linkTicket(pair, t, 'amount', '0.0003');
    expect(t.total).toBe('19.50003');
  });

  it('derives the amount from a total, cut down to the amount precision', () => {
    let t = linkTicket(pair, empty, 'price', '3');
    t = linkTicket(pair, t, 'total', '10');
    expect(t.amount).toBe('3.3333');
    expect(t.lastEdited).toBe('total');
  });

  it('keeps the typed total when the price changes after a total was typed', () => {
    let t = linkTicket(pair, empty, 'price', '100');
    t = linkTicket(pair, t, 'total', '50');
    t = linkTicket(pair, t, 'price', '200');
    expect(t).toMatchObject({ total: '50', amount: '0.2500' });
  });

  it('after a % button, a new price keeps the amount and changes the total (never the amount behind one’s back)', () => {
    let t = linkTicket(pair, empty, 'price', '2000');
    t = shareOfAvailable(pair, t, { type: 'limit', side: 'buy' }, '1000', 50);
    expect(t).toMatchObject({ total: '500', amount: '0.2500', lastEdited: 'amount' });
    t = linkTicket(pair, t, 'price', '1000.5');
    expect(t).toMatchObject({ amount: '0.2500', total: '250.125' });
  });

  it('avoids float error: 0.1 × 3 is 0.3', () => {
    let t = linkTicket(pair, empty, 'price', '0.1');
    t = linkTicket(pair, t, 'amount', '3');
    expect(t.total).toBe('0.3');
  });
});

describe('linkTicket never leaves a stale computed field', () => {
  const empty = { price: '', amount: '', total: '', lastEdited: 'amount' as const };

  it('empties the total when the price that made it is cleared or unreadable', () => {
    let t = linkTicket(pair, empty, 'price', '64000');
    t = linkTicket(pair, t, 'amount', '1000000');
    expect(t.total).toBe('64000000000');
    expect(linkTicket(pair, t, 'price', '').total).toBe('');
    expect(linkTicket(pair, t, 'price', '1,5').total).toBe('');
  });

  it('empties the computed amount when the price goes after a total was typed', () => {
    let t = linkTicket(pair, empty, 'price', '100');
    t = linkTicket(pair, t, 'total', '50');
    expect(linkTicket(pair, t, 'price', '')).toMatchObject({ total: '50', amount: '' });
  });
});

describe('switchTicket: the amount follows the order type’s unit', () => {
  const limitBuy = { type: 'limit' as const, side: 'buy' as const };
  const marketBuy = { type: 'market' as const, side: 'buy' as const };
  const limitSell = { type: 'limit' as const, side: 'sell' as const };
  const marketSell = { type: 'market' as const, side: 'sell' as const };
  const typed = { price: '64000', amount: '0.01', total: '640', lastEdited: 'amount' as const };

  it('Limit → Market buy: the BTC amount is not carried into Spend (USDT); the limit total becomes the spend', () => {
    expect(switchTicket(pair, typed, limitBuy, marketBuy)).toMatchObject({ amount: '640', total: '' });
    expect(switchTicket(pair, { ...typed, total: '' }, limitBuy, marketBuy)).toMatchObject({ amount: '' });
  });

  it('Market buy → Limit: the spend becomes the total and the amount follows from the price', () => {
    const spend = { price: '64000', amount: '640', total: '', lastEdited: 'amount' as const };
    expect(switchTicket(pair, spend, marketBuy, limitBuy)).toMatchObject({
      amount: '0.0100',
      total: '640',
      lastEdited: 'total',
    });
  });

  it('same unit (sell): the amount stays, a market order has no total, back to limit recomputes it', () => {
    const market = switchTicket(pair, typed, limitSell, marketSell);
    expect(market).toMatchObject({ amount: '0.01', total: '' });
    expect(switchTicket(pair, market, marketSell, limitSell)).toMatchObject({ amount: '0.01', total: '640' });
  });

  it('a side change that changes the unit of a market order clears the amount', () => {
    expect(switchTicket(pair, { ...typed, total: '' }, marketSell, marketBuy).amount).toBe('');
    expect(switchTicket(pair, { ...typed, total: '' }, marketBuy, marketSell).amount).toBe('');
  });
});

describe('shareOfAvailable', () => {
  const empty = { price: '', amount: '', total: '', lastEdited: 'amount' as const };
  it('a sell takes a share of the base, cut down to the amount precision', () => {
    expect(shareOfAvailable(pair, empty, { type: 'limit', side: 'sell' }, '1.23456', 50).amount).toBe('0.6172');
  });
  it('a limit buy takes a share of the quote as the total; the amount follows from the price', () => {
    const priced = linkTicket(pair, empty, 'price', '100');
    expect(shareOfAvailable(pair, priced, { type: 'limit', side: 'buy' }, '1000', 25)).toMatchObject({
      total: '250',
      amount: '2.5000',
    });
  });
  it('a market buy spends a share of the quote', () => {
    expect(shareOfAvailable(pair, empty, { type: 'market', side: 'buy' }, '1000', 100).amount).toBe('1000');
  });
});

describe('checkTicket', () => {
  const ctx = { pair, inStpGroup: false };

  it('accepts a well-formed order', () => {
    expect(checkTicket(draft(), ctx)).toEqual({});
  });

  it('rejects too many price decimals for the pair', () => {
    expect(checkTicket(draft({ price: '65000.123' }), ctx).price).toMatch(/at most 2 decimals/);
  });

  it('accepts trailing zeros beyond the precision', () => {
    expect(checkTicket(draft({ price: '65000.100' }), ctx)).toEqual({});
  });

  it('rejects too many amount decimals', () => {
    expect(checkTicket(draft({ amount: '0.00001' }), ctx).amount).toMatch(/at most 4 decimals/);
  });

  it('checks min_base_amount and min_quote_amount', () => {
    const strict = { ...ctx, pair: { ...pair, minBaseAmount: '0.001' } };
    expect(checkTicket(draft({ amount: '0.0005' }), strict).amount).toMatch(/smallest order is 0.001 BTC/);
    expect(checkTicket(draft({ price: '100', amount: '0.01' }), ctx).total).toMatch(/at least 3 USDT/);
  });

  it('refuses a market order with gtc or poc', () => {
    expect(checkTicket(draft({ type: 'market', price: '', timeInForce: 'gtc' }), ctx).timeInForce).toBeDefined();
    expect(checkTicket(draft({ type: 'market', price: '', timeInForce: 'ioc', amount: '10' }), ctx)).toEqual({});
  });

  it('uses the quote precision (price + amount decimals) for a market buy', () => {
    const e = checkTicket(draft({ type: 'market', price: '', timeInForce: 'ioc', amount: '10.1234567' }), ctx);
    expect(e.amount).toMatch(/USDT have at most 6 decimals/);
  });

  it('enforces the max notional per order', () => {
    const e = checkTicket(draft({ amount: '1' }), { ...ctx, maxNotional: '10000' });
    expect(e.total).toMatch(/limit of 10,000 USDT/);
  });

  it('refuses a market sell it cannot value when a max notional is set', () => {
    const sell = draft({ side: 'sell', type: 'market', price: '', timeInForce: 'ioc', amount: '1' });
    expect(checkTicket(sell, { ...ctx, maxNotional: '10000' }).total).toMatch(
      /cannot be estimated, so your limit of 10,000 USDT per order cannot be checked/,
    );
    // With a best bid it is valued and checked as usual; without a limit there is nothing to check.
    expect(checkTicket(sell, { ...ctx, maxNotional: '10000', bestBid: '5000' })).toEqual({});
    expect(checkTicket(sell, { ...ctx, maxNotional: '10000', bestBid: '65000' }).total).toMatch(/limit of 10,000/);
    expect(checkTicket(sell, ctx)).toEqual({});
  });

  it('refuses stp_act outside an STP group and allows it inside', () => {
    expect(checkTicket(draft({ stpAct: 'cn' }), ctx).stpAct).toMatch(/STP group/);
    expect(checkTicket(draft({ stpAct: 'cn' }), { ...ctx, inStpGroup: true })).toEqual({});
  });

  it('checks the available balance of the spent currency', () => {
    expect(checkTicket(draft(), { ...ctx, available: '100' }).total).toMatch(
      /100 USDT available; this order needs 650 USDT/,
    );
    expect(checkTicket(draft({ side: 'sell' }), { ...ctx, available: '0.001' }).amount).toMatch(/BTC available/);
  });

  it('rejects signs, exponents and text', () => {
    for (const bad of ['-1', '1e3', 'abc', ' 1']) expect(checkTicket(draft({ amount: bad }), ctx).amount).toBeDefined();
  });
});

describe('checkAmend', () => {
  const ctx = { pair, inStpGroup: false };
  // A resting buy of 0.01 at 65000, 0.004 of it filled: it locks 0.006 × 65000 = 390 USDT.
  const order = { pair: 'BTC_USDT', side: 'buy' as const, price: '65000', amount: '0.01', left: '0.006' };

  it('applies the new-order rules to the amended order: precision, minimums, max notional', () => {
    expect(checkAmend(order, { price: '65000.123' }, ctx).price).toMatch(/at most 2 decimals/);
    expect(checkAmend(order, { amount: '0.00001' }, ctx).amount).toMatch(/at most 4 decimals/);
    expect(checkAmend(order, { price: '100' }, ctx).total).toMatch(/at least 3 USDT/);
    expect(checkAmend(order, { amount: '1' }, { ...ctx, maxNotional: '10000' }).total).toMatch(/limit of 10,000 USDT/);
    expect(checkAmend(order, { amount: '0.1' }, { ...ctx, maxNotional: '10000' })).toEqual({});
  });

  it('keeps the unchanged field as it is', () => {
    expect(amendedDraft(order, { amount: '0.02' })).toMatchObject({ price: '65000', amount: '0.02', type: 'limit' });
    expect(amendedDraft(order, { price: '64000' })).toMatchObject({ price: '64000', amount: '0.01' });
  });

  it('checks the balance against what the change adds to the lock, not the whole order', () => {
    // 0.016 remaining × 65000 = 1040 locked after, 390 before: 650 more.
    expect(checkAmend(order, { amount: '0.02' }, { ...ctx, available: '650' })).toEqual({});
    expect(checkAmend(order, { amount: '0.02' }, { ...ctx, available: '649' }).total).toMatch(
      /649 USDT available; the change needs 650 USDT more/,
    );
    // Lowering the price frees funds: nothing more is needed.
    expect(checkAmend(order, { price: '60000' }, { ...ctx, available: '0' })).toEqual({});
    const sell = { ...order, side: 'sell' as const };
    expect(checkAmend(sell, { amount: '0.03' }, { ...ctx, available: '0.0199' }).amount).toMatch(
      /0.0199 BTC available; the change needs 0.02 BTC more/,
    );
    expect(checkAmend(sell, { amount: '0.03' }, { ...ctx, available: '0.02' })).toEqual({});
  });
});

describe('ticketWarnings', () => {
  it('warns when the price is further from the mid than the threshold', () => {
    const w = ticketWarnings(draft({ price: '70000' }), {
      scale: { precision: 1, quote: 'USDT' },
      bestBid: '64990',
      bestAsk: '65010',
      deviationPercent: '5',
      duplicate: false,
    });
    expect(w.map((x) => x.kind)).toEqual(['priceDeviation']);
    expect(w[0]!.message).toBe('The price is 7.69% away from the mid (65,000.0 USDT); your warning threshold is 5%.');
  });

  it('does not warn within the threshold', () => {
    const w = ticketWarnings(draft({ price: '66000' }), {
      scale: { precision: 1, quote: 'USDT' },
      bestBid: '64990',
      bestAsk: '65010',
      deviationPercent: '5',
      duplicate: false,
    });
    expect(w).toEqual([]);
  });

  it('reports a duplicate', () => {
    expect(
      ticketWarnings(draft(), { scale: { precision: 1, quote: 'USDT' }, deviationPercent: '5', duplicate: true })[0]!
        .kind,
    ).toBe('duplicate');
  });
});

describe('DuplicateGuard', () => {
  it('flags the same order within 10 s and forgets it after', () => {
    let now = 1_000;
    const guard = new DuplicateGuard(10_000, () => now);
    guard.remember(draft({ amount: '0.010' }));
    expect(guard.isDuplicate(draft())).toBe(true);
    expect(guard.isDuplicate(draft({ side: 'sell' }))).toBe(false);
    now += 10_000;
    expect(guard.isDuplicate(draft())).toBe(false);
  });
});

describe('feePreview', () => {
  const rates = { makerFee: '0.001', takerFee: '0.002' };
  it('charges a resting buy the maker rate in the base currency', () => {
    expect(feePreview(draft({ price: '64000', amount: '1' }), pair, rates, { bestAsk: '65000' })).toEqual({
      amount: '0.001',
      currency: 'BTC',
      rate: '0.001',
      role: 'maker',
    });
  });
  it('charges IOC and FOK the taker rate even when they would not cross', () => {
    const f = feePreview(draft({ price: '64000', amount: '1', timeInForce: 'ioc' }), pair, rates, { bestAsk: '65000' });
    expect(f?.role).toBe('taker');
  });
  it('charges a crossing sell the taker rate in the quote currency', () => {
    const f = feePreview(draft({ side: 'sell', price: '64000', amount: '1' }), pair, rates, { bestBid: '64500' });
    expect(f).toEqual({ amount: '128', currency: 'USDT', rate: '0.002', role: 'taker' });
  });
});

describe('newClientText', () => {
  it('makes a valid t- id within 28 characters after the prefix', () => {
    const text = newClientText();
    expect(text).toMatch(/^t-[0-9A-Za-z_.-]{1,28}$/);
  });
});
